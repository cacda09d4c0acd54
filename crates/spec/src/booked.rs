//! [`Booked`]: a player with an opening book. In a position of the book it plays a book move
//! (chosen at random among the moves within its margin of the best, from a seeded generator);
//! elsewhere its engine thinks.

use crate::{Engine, Spec, SpecError};
use othello_book::Book;
use othello_engine::{Limits, Player, Progress, Reply};
use othello_rules::{Move, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::Arc;
use std::time::Instant;

/// The keys every engine accepts for its opening book: `book=FILE` (a book file, see the
/// `othello-book` crate), `book_margin=DISCS` (the choice's margin below the best move, in
/// discs, [`DEFAULT_BOOK_MARGIN`] without it) and `book_seed=N` (the choice's generator, 0
/// without it).
pub const BOOK_KEYS: &[&str] = &["book", "book_margin", "book_seed"];

/// The margin of the book's choice, in discs, when the spec gives none: moves within one disc
/// of the best are played at random.
pub const DEFAULT_BOOK_MARGIN: f64 = 1.0;

/// An engine with an opening book.
pub struct Booked {
    book: Arc<Book>,
    path: String,
    margin: i32,
    seed: u64,
    rng: SmallRng,
    /// Whether the engine has searched once (its tables are allocated at its first search).
    warmed: bool,
    /// The engine that thinks out of book.
    pub engine: Engine,
}

impl Booked {
    /// `engine` with `book`, choosing among the moves within `margin` centi-discs of the best
    /// with a generator seeded by `seed`. `path` names the book in [`Player::name`].
    pub fn new(book: Arc<Book>, path: String, margin: i32, seed: u64, engine: Engine) -> Booked {
        Booked {
            book,
            path,
            margin,
            seed,
            rng: SmallRng::seed_from_u64(seed),
            warmed: false,
            engine,
        }
    }

    /// The book.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The margin in centi-discs.
    pub fn margin(&self) -> i32 {
        self.margin
    }

    /// The seed of the choice.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The book's answer in `pos`, if the position is in the book: the chosen move with the
    /// book's value, marked [`Reply::book`].
    pub fn book_reply(&mut self, pos: &Position) -> Option<Reply> {
        let start = Instant::now();
        let (mv, value) = self.book.choose(pos, self.margin, &mut self.rng)?;
        Some(
            Reply::new(mv)
                .with_score(value, false)
                .with_pv(vec![mv])
                .with_book(true)
                .with_time(start.elapsed()),
        )
    }
}

/// The book keys of a spec, read (and marked used): `None` without `book`.
///
/// # Errors
/// A bad margin or seed, either given without `book`, or a book file that does not load
/// ([`SpecError::Book`]).
pub(crate) fn book_settings(spec: &mut Spec) -> Result<Option<BookSettings>, SpecError> {
    let path = spec.raw("book");
    let margin: Option<f64> = spec.get("book_margin", "a margin in discs, 0 to 64")?;
    let seed: Option<u64> = spec.get("book_seed", "an integer")?;
    let Some(path) = path else {
        if let Some(key) = ["book_margin", "book_seed"].into_iter().find(|k| spec.contains(k)) {
            return Err(SpecError::BookKeyWithoutBook {
                engine: spec.name.clone(),
                key: key.to_string(),
            });
        }
        return Ok(None);
    };
    let margin = margin.unwrap_or(DEFAULT_BOOK_MARGIN);
    if !(0.0..=64.0).contains(&margin) {
        return Err(SpecError::bad_value(
            &spec.name,
            "book_margin",
            margin,
            "expected a margin in discs, 0 to 64",
        ));
    }
    let book = Book::from_path(&path).map_err(|source| SpecError::Book {
        engine: spec.name.clone(),
        path: path.clone(),
        source,
    })?;
    Ok(Some(BookSettings {
        book: Arc::new(book),
        path,
        margin: (margin * 100.0).round() as i32,
        seed: seed.unwrap_or(0),
    }))
}

/// A spec's book keys, the book loaded.
pub(crate) struct BookSettings {
    book: Arc<Book>,
    path: String,
    margin: i32,
    seed: u64,
}

impl BookSettings {
    /// `engine` with this book.
    pub(crate) fn wrap(self, engine: Engine) -> Booked {
        Booked::new(self.book, self.path, self.margin, self.seed, engine)
    }
}

/// In book, the book's move; elsewhere the engine's.
impl Player for Booked {
    fn name(&self) -> String {
        format!("{}+book", self.engine.name())
    }

    /// The engine forgets its game; the book's generator goes on (like the random player's),
    /// so the games of a match differ while the match is reproducible from the seed. The first
    /// call also has the engine search once (depth 1, one node), so that its tables are
    /// allocated here and not in the first move out of book, under that move's clock (a caller
    /// that warms a player up with a search of the root would only reach the book).
    fn new_game(&mut self) {
        if !self.warmed {
            self.warmed = true;
            self.engine.think(&Position::start(), &Limits::depth(1).with_nodes(1));
        }
        self.engine.new_game();
    }

    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        match self.book_reply(pos) {
            Some(reply) => reply,
            None => self.engine.think(pos, limits),
        }
    }

    fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
        match self.book_reply(pos) {
            Some(reply) => reply,
            None => self.engine.think_with(pos, limits, on_progress),
        }
    }

    fn observe(&mut self, mv: Move) {
        self.engine.observe(mv);
    }
}

impl std::fmt::Debug for Booked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Booked({}, {} entries, margin {})",
            self.path,
            self.book.len(),
            self.margin
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_book::{BookError, BuildConfig, build};

    /// A small book on disk (depth 2 from the start, leaves scored by disc lead).
    fn book_file(name: &str) -> (std::path::PathBuf, Book) {
        let mut book = Book::new();
        let config = BuildConfig {
            depth: 2,
            max_positions: 100,
            deviation: 6400,
            ..BuildConfig::default()
        };
        let mut search = |pos: &Position| -> Vec<(Move, i32)> {
            pos.moves()
                .into_iter()
                .map(|m| (m, -pos.play(m).unwrap().disc_difference() * 100))
                .collect()
        };
        build(&mut book, &Position::start(), &config, &mut search, &mut |_| {}).unwrap();
        let path = std::env::temp_dir().join(format!("othello-spec-{name}-{}.bin", std::process::id()));
        book.write(&path).unwrap();
        (path, book)
    }

    #[test]
    fn a_spec_with_a_book_plays_book_moves_in_book_and_searches_elsewhere() {
        let (path, book) = book_file("plays");
        let text = format!(
            "pvs:depth=2,eval=mobility,book={},book_margin=0.5,book_seed=4",
            path.display()
        );
        let mut e: Engine = text.parse().unwrap();
        assert!(matches!(&e, Engine::Book(b) if b.margin() == 50 && b.seed() == 4 && b.book() == &book));
        assert_eq!(e.name(), "pvs+book");
        assert_eq!(e.limits().depth, Some(2));
        let start = Position::start();
        let r = e.think(&start, &e.limits());
        assert!(r.book && start.is_legal(r.best_move) && r.nodes == 0);
        assert_eq!(r.score, Some(book.moves(&start)[0].1));
        // Out of book (three moves deep): the engine searches.
        let deep = ["f5", "d6", "c3"]
            .iter()
            .fold(start, |p, m| p.play(m.parse().unwrap()).unwrap());
        assert!(!book.contains(&deep));
        let mut depths = Vec::new();
        let r = e.think_with(&deep, &e.limits(), &mut |p| depths.push(p.depth));
        assert!(!r.book && r.nodes > 0 && r.depth == 2);
        assert_eq!(depths, [1, 2]);
        // The same seed, the same choices; the book is only in the spec that names it.
        let choices = |text: &str| -> Vec<Move> {
            let mut e: Engine = text.parse().unwrap();
            let f5 = start.play("f5".parse().unwrap()).unwrap();
            (0..20).map(|_| e.think(&f5, &e.limits()).best_move).collect()
        };
        let wide = format!("random:book={},book_margin=64", path.display());
        assert_eq!(choices(&wide), choices(&wide));
        assert_ne!(choices(&wide), choices(&format!("{wide},book_seed=1")));
        assert!(
            !"pvs:depth=1"
                .parse::<Engine>()
                .unwrap()
                .think(&start, &Limits::depth(1))
                .book
        );
        assert!(matches!(e.without_book(), Engine::Search { .. }));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn bad_book_keys_and_files_are_typed_errors() {
        let err = |text: &str| text.parse::<Engine>().err().expect("refused");
        assert_eq!(
            err("pvs:book_margin=2"),
            SpecError::BookKeyWithoutBook {
                engine: "pvs".into(),
                key: "book_margin".into()
            }
        );
        assert_eq!(
            err("pvs:book_margin=2").to_string(),
            "key 'book_margin' of engine 'pvs' needs book=FILE"
        );
        assert!(matches!(err("mcts:book_seed=2"), SpecError::BookKeyWithoutBook { .. }));
        let (path, _) = book_file("bad");
        let p = path.display();
        assert!(matches!(
            err(&format!("pvs:book={p},book_margin=65")),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err(&format!("pvs:book={p},book_margin=x")),
            SpecError::BadValue { .. }
        ));
        assert!(matches!(
            err(&format!("pvs:book={p},book_seed=-1")),
            SpecError::BadValue { .. }
        ));
        let missing = err("pvs:book=/nonexistent/book.bin");
        assert!(
            matches!(&missing, SpecError::Book { path, source: BookError::Io { .. }, .. } if path == "/nonexistent/book.bin"),
            "{missing}"
        );
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[30] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        let damaged = err(&format!("pvs:book={p}"));
        assert!(
            matches!(
                &damaged,
                SpecError::Book {
                    source: BookError::Checksum { .. },
                    ..
                }
            ),
            "{damaged}"
        );
        assert!(
            damaged
                .to_string()
                .starts_with(&format!("book {p} of engine 'pvs': checksum mismatch"))
        );
        std::fs::remove_file(path).unwrap();
    }
}
