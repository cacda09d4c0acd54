//! The one data format of the pipeline: games and labels, both JSON Lines.
//!
//! **Games** (`games`, `import`): `{"game":7,"seed":2026,"moves":"f5d6c3...","black":12,
//! "player":"..."}`: the game's number, the seed of the run that made it (optional; `import`
//! writes its `--seed`, 0 unless given), the moves from the start position (`PS` for a pass;
//! they must finish the game), black's final disc difference (informational) and how the
//! moves were chosen (informational). A game is identified by `(seed, game)`, so files of several machines with
//! their own seeds (or disjoint `--first` ranges) concatenate without clashes.
//!
//! **Labels** (`labels`, the fit's bootstrap):
//! `{"position":"<board> X","empties":19,"score":-6,"source":"exact","game":7,"seed":2026,"nodes":123}`:
//! the position as the project's board text, its empties (checked against the position), the
//! score in discs for the side to move, and how it was made: `exact` (an exact solve, or a
//! position on the principal variation of one), `search` with `"depth":N` (a depth-N search
//! value, centi-disc precision; with `"mean_of":K`, K >= 2, the mean of the values of depths
//! N-K+1 to N of one iterative-deepening search, rounded half away from zero to a centi-disc,
//! which cancels the evaluation's odd/even swing: docs/pattern.md; with `"selectivity":"2"`,
//! a selective search at that level, in the text form of `othello_search::Selectivity`; without
//! it, full width), or `result` (the final result of the game under perfect play
//! from a later point, seen from this position's side to move). `game`, `seed` and `nodes` are
//! optional. Exact and result scores are whole discs.
//!
//! **Old files** are read too: labels of `othello-pattern-train` (`"method":"exact"` or
//! `"method":"search:depth=D"`, extra `ply`) and data sets of `othello-tune`
//! (`{"game":7,"empties":14,"position":"...","score":-6}`, read as exact; its unlabelled lines,
//! `"score":null`, hold no label and are skipped without a report).
//!
//! **Symmetric twins**: the eight symmetries of the board (and the colours: scores are side
//! relative) map a position to positions of the same value. [`key`] is the canonical form
//! shared by all of them; de-duplication and the held-out split use it ([`rows`]).

use crate::error::LineError;
use ahash::AHashMap;
use othello_rules::{BoardSize, Color, Move, Position};
use othello_search::Selectivity;
use serde_json::{Map, Value, json};

/// How a label was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// An exact solve (or a position on the principal variation of one).
    Exact,
    /// The value of a search of this depth.
    Search {
        /// Depth in discs placed.
        depth: u32,
        /// How many consecutive depths, ending at `depth`, the value is the mean of (1: the
        /// depth-`depth` value alone).
        mean_of: u32,
        /// The search's selectivity (`Selectivity::Off`: full width, as every label before
        /// selective labels existed).
        selectivity: Selectivity,
    },
    /// The game's final result under perfect play from a later position of the game.
    Result,
}

impl Source {
    /// A full-width search label: `depth`, the mean of `mean_of` depths ending there.
    pub fn search(depth: u32, mean_of: u32) -> Source {
        Source::Search {
            depth,
            mean_of,
            selectivity: Selectivity::Off,
        }
    }

    /// Its name in a label line.
    pub fn name(self) -> &'static str {
        match self {
            Source::Exact => "exact",
            Source::Search { .. } => "search",
            Source::Result => "result",
        }
    }

    /// How much a label of this source is trusted when twins disagree: exact, then deeper
    /// searches, then results.
    pub fn rank(self) -> (u8, u32) {
        match self {
            Source::Exact => (2, 0),
            Source::Search { depth, .. } => (1, depth),
            Source::Result => (0, 0),
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Search {
                depth,
                mean_of,
                selectivity,
            } => {
                write!(f, "search:depth={depth}")?;
                if *mean_of > 1 {
                    write!(f, ",mean_of={mean_of}")?;
                }
                if !selectivity.is_off() {
                    write!(f, ",selectivity={selectivity}")?;
                }
                Ok(())
            }
            s => f.write_str(s.name()),
        }
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The position (8x8).
    pub pos: Position,
    /// Its score for the side to move, in centi-discs (whole discs unless from a search).
    pub centi: i32,
    /// How the score was made.
    pub source: Source,
    /// The game it comes from, if any (the held-out split is by game).
    pub game: Option<u32>,
    /// The seed of the run that made that game, if known.
    pub seed: Option<u64>,
    /// Solver or search nodes spent on it (informational).
    pub nodes: Option<u64>,
}

/// The canonical key of a position: the smallest side-relative `(player, opponent)` pair among
/// its eight symmetric images. Twins (mirror images, rotations, the same discs with the other
/// colour to move) share it and have the same value.
pub type Key = (u64, u64);

/// The canonical key of `pos` (see [`Key`]).
pub fn key(pos: &Position) -> Key {
    othello_rules::canonical(pos.player().0, pos.opponent().0, pos.size())
}

fn score_value(centi: i32) -> Value {
    if centi % 100 == 0 {
        json!(centi / 100)
    } else {
        json!(f64::from(centi) / 100.0)
    }
}

fn get<'a>(v: &'a Map<String, Value>, k: &str) -> Option<&'a Value> {
    v.get(k).filter(|x| !x.is_null())
}

fn opt_u64(v: &Map<String, Value>, k: &'static str) -> Result<Option<u64>, LineError> {
    get(v, k).map(|x| x.as_u64().ok_or(LineError::Field(k))).transpose()
}

fn object(line: &str) -> Result<Map<String, Value>, LineError> {
    match serde_json::from_str::<Value>(line).map_err(|e| LineError::Json(e.to_string()))? {
        Value::Object(m) => Ok(m),
        _ => Err(LineError::NotObject),
    }
}

fn position(v: &Map<String, Value>) -> Result<Position, LineError> {
    let text = get(v, "position")
        .and_then(Value::as_str)
        .ok_or(LineError::Field("position"))?;
    let pos: Position = text.parse()?;
    if pos.size() != BoardSize::Eight {
        return Err(LineError::NotEight);
    }
    if let Some(e) = get(v, "empties") {
        let given = e.as_u64().ok_or(LineError::Field("empties"))?;
        if given != u64::from(pos.empty_count()) {
            return Err(LineError::Empties {
                given,
                actual: pos.empty_count(),
            });
        }
    }
    Ok(pos)
}

impl Label {
    /// The JSON Lines form (without the newline).
    pub fn to_line(&self) -> String {
        let mut m = Map::new();
        m.insert("position".into(), json!(self.pos.to_string()));
        m.insert("empties".into(), json!(self.pos.empty_count()));
        m.insert("score".into(), score_value(self.centi));
        m.insert("source".into(), json!(self.source.name()));
        if let Source::Search {
            depth,
            mean_of,
            selectivity,
        } = self.source
        {
            m.insert("depth".into(), json!(depth));
            if mean_of > 1 {
                m.insert("mean_of".into(), json!(mean_of));
            }
            if !selectivity.is_off() {
                m.insert("selectivity".into(), json!(selectivity.to_string()));
            }
        }
        if let Some(g) = self.game {
            m.insert("game".into(), json!(g));
        }
        if let Some(s) = self.seed {
            m.insert("seed".into(), json!(s));
        }
        if let Some(n) = self.nodes {
            m.insert("nodes".into(), json!(n));
        }
        Value::Object(m).to_string()
    }

    /// Parses and checks one line (this format or an old one, see the module docs).
    /// `Ok(None)`: an unlabelled position of an old `othello-tune` data set.
    pub fn from_line(line: &str) -> Result<Option<Label>, LineError> {
        let v = object(line)?;
        let pos = position(&v)?;
        let source = match (get(&v, "source"), get(&v, "method")) {
            (Some(s), _) => match s.as_str().ok_or(LineError::Field("source"))? {
                "exact" => Source::Exact,
                "result" => Source::Result,
                "search" => {
                    let depth = opt_u64(&v, "depth")?.ok_or(LineError::Field("depth"))?;
                    let depth = u32::try_from(depth)
                        .ok()
                        .filter(|d| (1..=60).contains(d))
                        .ok_or(LineError::Field("depth"))?;
                    let mean_of = match opt_u64(&v, "mean_of")? {
                        None => 1,
                        Some(k) if (1..=u64::from(depth)).contains(&k) => k as u32,
                        Some(_) => return Err(LineError::Field("mean_of")),
                    };
                    let selectivity = match get(&v, "selectivity") {
                        None => Selectivity::Off,
                        Some(s) => s
                            .as_str()
                            .and_then(|s| s.parse::<Selectivity>().ok())
                            .ok_or(LineError::Field("selectivity"))?,
                    };
                    Source::Search {
                        depth,
                        mean_of,
                        selectivity,
                    }
                }
                other => return Err(LineError::Source(other.to_string())),
            },
            // `othello-pattern-train` labels.
            (None, Some(m)) => {
                let m = m.as_str().ok_or(LineError::Field("method"))?;
                match m.strip_prefix("search:depth=") {
                    _ if m == "exact" => Source::Exact,
                    Some(d) => match d.parse::<u32>() {
                        Ok(depth) if (1..=60).contains(&depth) => Source::Search {
                            depth,
                            mean_of: 1,
                            selectivity: Selectivity::Off,
                        },
                        _ => return Err(LineError::Source(m.to_string())),
                    },
                    None => return Err(LineError::Source(m.to_string())),
                }
            }
            // `othello-tune` data: exact, or unlabelled.
            (None, None) => {
                if v.contains_key("score") && v["score"].is_null() {
                    return Ok(None);
                }
                Source::Exact
            }
        };
        let score = get(&v, "score")
            .and_then(Value::as_f64)
            .ok_or(LineError::Field("score"))?;
        let whole = !matches!(source, Source::Search { .. });
        if !score.is_finite() || score.abs() > 64.0 || (whole && score.fract() != 0.0) {
            return Err(LineError::Score(score));
        }
        let game = opt_u64(&v, "game")?
            .map(|g| u32::try_from(g).map_err(|_| LineError::Field("game")))
            .transpose()?;
        Ok(Some(Label {
            pos,
            centi: (score * 100.0).round() as i32,
            source,
            game,
            seed: opt_u64(&v, "seed")?,
            nodes: opt_u64(&v, "nodes")?,
        }))
    }
}

/// One game of a games file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its number.
    pub game: u32,
    /// The seed of the run that made it, if known.
    pub seed: Option<u64>,
    /// The moves from the start position, passes included.
    pub moves: Vec<Move>,
}

impl Game {
    /// Every position before a move, in order (the final position excluded).
    pub fn positions(&self) -> Vec<Position> {
        let mut pos = Position::start();
        let mut out = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            out.push(pos);
            pos = pos.play_unchecked(mv);
        }
        out
    }

    /// The final position.
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(Position::start(), |p, &m| p.play_unchecked(m))
    }

    /// The JSON Lines form; `player` says how the moves were chosen (not read back).
    pub fn to_line(&self, player: &str) -> String {
        let end = self.final_position();
        let black = if end.side_to_move() == Color::Black {
            end.final_score()
        } else {
            -end.final_score()
        };
        let mut m = Map::new();
        m.insert("game".into(), json!(self.game));
        if let Some(s) = self.seed {
            m.insert("seed".into(), json!(s));
        }
        m.insert("moves".into(), json!(othello_rules::text::format_moves(&self.moves)));
        m.insert("black".into(), json!(black));
        m.insert("player".into(), json!(player));
        Value::Object(m).to_string()
    }

    /// Parses and checks one line: the moves must be legal and end the game.
    pub fn from_line(line: &str) -> Result<Game, LineError> {
        let v = object(line)?;
        let game = opt_u64(&v, "game")?.ok_or(LineError::Field("game"))?;
        let game = u32::try_from(game).map_err(|_| LineError::Field("game"))?;
        let text = get(&v, "moves")
            .and_then(Value::as_str)
            .ok_or(LineError::Field("moves"))?;
        let parsed = othello_rules::text::parse_moves(text).map_err(|e| LineError::Moves(e.to_string()))?;
        let mut pos = Position::start();
        let mut moves = Vec::with_capacity(parsed.len());
        for (_, mv) in parsed {
            if pos.is_game_over() {
                return Err(LineError::Moves("a move after the end of the game".into()));
            }
            pos = pos.play(mv).map_err(|e| LineError::Moves(e.to_string()))?;
            moves.push(mv);
        }
        if !pos.is_game_over() {
            return Err(LineError::Unfinished);
        }
        Ok(Game {
            game,
            seed: opt_u64(&v, "seed")?,
            moves,
        })
    }

    /// [`Game::from_line`] for [`crate::jsonl::read`].
    pub fn parse(line: &str) -> Result<Option<Game>, LineError> {
        Game::from_line(line).map(Some)
    }
}

/// Whether a label belongs to the held-out set: a label of a game is held out when the game's
/// number is a multiple of `test_every` (so every position of a game is on one side, and more
/// data never moves a position between the sets); a label without a game by its canonical key.
pub fn held_out(label: &Label, test_every: u32) -> bool {
    let test_every = test_every.max(1);
    match label.game {
        Some(g) => g.is_multiple_of(test_every),
        None => mix(key(&label.pos)).is_multiple_of(u64::from(test_every)),
    }
}

/// A hash of a key (splitmix64 finaliser of the two words).
fn mix((a, b): Key) -> u64 {
    let mut z = a ^ b.rotate_left(32) ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A labelled position ready for a fit: one per canonical key.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The position (the first met of its twins with the label kept).
    pub pos: Position,
    /// Its canonical key.
    pub key: Key,
    /// The label in centi-discs.
    pub target: f64,
    /// Its empties.
    pub empties: u32,
    /// Held out (never fitted).
    pub test: bool,
    /// How the label was made.
    pub source: Source,
}

impl Row {
    /// The row of one label (held out by [`held_out`]).
    pub fn of(label: &Label, test_every: u32) -> Row {
        Row {
            pos: label.pos,
            key: key(&label.pos),
            target: f64::from(label.centi),
            empties: label.pos.empty_count(),
            test: held_out(label, test_every),
            source: label.source,
        }
    }
}

/// What [`rows`] merged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Labels merged into a row of the same canonical key (repeats and twins).
    pub duplicates: usize,
    /// Rows held out because one of their labels was, although another was not.
    pub pulled_out: usize,
}

/// The fit's rows: one per canonical key (the first label of the most trusted source, see
/// [`Source::rank`]), held out when any of the key's labels is ([`held_out`]): a position and its
/// twins are never on both sides of the split. Rows keep the order of first appearance.
pub fn rows(labels: &[Label], test_every: u32) -> (Vec<Row>, Merged) {
    let mut at: AHashMap<Key, usize> = AHashMap::with_capacity(labels.len());
    let mut out: Vec<Row> = Vec::with_capacity(labels.len());
    let mut merged = Merged::default();
    for l in labels {
        let row = Row::of(l, test_every);
        match at.get(&row.key) {
            Some(&i) => {
                merged.duplicates += 1;
                let r = &mut out[i];
                if row.test && !r.test {
                    merged.pulled_out += 1;
                    r.test = true;
                }
                if l.source.rank() > r.source.rank() {
                    r.pos = l.pos;
                    r.target = f64::from(l.centi);
                    r.source = l.source;
                }
            }
            None => {
                at.insert(row.key, out.len());
                out.push(row);
            }
        }
    }
    (out, merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::Symmetry;

    fn label(pos: Position, centi: i32, source: Source, game: Option<u32>) -> Label {
        Label {
            pos,
            centi,
            source,
            game,
            seed: game.map(|_| 2026),
            nodes: None,
        }
    }

    fn some_position() -> Position {
        othello_rules::text::play_sequence(&Position::start(), "f5d6c3d3c4f4c5b3").unwrap()
    }

    #[test]
    fn labels_round_trip_and_old_formats_read() {
        let pos = some_position();
        for l in [
            label(pos, -600, Source::Exact, Some(7)),
            label(pos, 1234, Source::search(8, 1), None),
            label(pos, -1234, Source::search(1, 1), Some(0)),
            label(pos, 502, Source::search(9, 2), Some(1)),
            label(pos, -3, Source::search(9, 9), None),
            label(
                pos,
                -77,
                Source::Search {
                    depth: 12,
                    mean_of: 2,
                    selectivity: Selectivity::Level(2),
                },
                Some(4),
            ),
            label(
                pos,
                5,
                Source::Search {
                    depth: 14,
                    mean_of: 1,
                    selectivity: Selectivity::LevelFrom(0, 8),
                },
                None,
            ),
            label(pos, 6400, Source::Result, Some(u32::MAX)),
            Label {
                nodes: Some(99),
                seed: Some(u64::MAX),
                ..label(pos, 0, Source::Exact, None)
            },
        ] {
            let line = l.to_line();
            assert_eq!(Label::from_line(&line).unwrap(), Some(l.clone()), "{line}");
        }
        let text = pos.to_string();
        let e = pos.empty_count();
        // othello-pattern-train labels.
        let old =
            format!(r#"{{"game":3,"ply":41,"empties":{e},"position":"{text}","score":-6,"method":"exact","nodes":5}}"#);
        let got = Label::from_line(&old).unwrap().unwrap();
        assert_eq!(
            (got.centi, got.source, got.game, got.seed, got.nodes),
            (-600, Source::Exact, Some(3), None, Some(5))
        );
        let old = format!(r#"{{"game":3,"position":"{text}","score":-6.25,"method":"search:depth=4"}}"#);
        let got = Label::from_line(&old).unwrap().unwrap();
        assert_eq!((got.centi, got.source), (-625, Source::search(4, 1)));
        // othello-tune data.
        let old = format!(r#"{{"game":3,"empties":{e},"position":"{text}","score":12}}"#);
        let got = Label::from_line(&old).unwrap().unwrap();
        assert_eq!((got.centi, got.source, got.game), (1200, Source::Exact, Some(3)));
        let old = format!(r#"{{"game":3,"empties":{e},"position":"{text}","score":null}}"#);
        assert_eq!(Label::from_line(&old).unwrap(), None);
        // A plain search label writes no `mean_of`, a mean says it; `mean_of` 1 reads as plain.
        let plain = label(pos, 100, Source::search(8, 1), None).to_line();
        assert!(!plain.contains("mean_of"), "{plain}");
        let mean = label(pos, 100, Source::search(9, 2), None).to_line();
        assert!(
            mean.contains(r#""mean_of":2"#) && mean.contains(r#""depth":9"#),
            "{mean}"
        );
        let one = format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"mean_of":1}}"#);
        assert_eq!(Label::from_line(&one).unwrap().unwrap().source, Source::search(8, 1));
        assert_eq!(Source::search(9, 2).to_string(), "search:depth=9,mean_of=2");
        assert_eq!(Source::search(9, 1).to_string(), "search:depth=9");
        // A full-width label writes no selectivity; a selective one writes its level, which is
        // read back, and a label without it reads as full width.
        assert!(!plain.contains("selectivity"), "{plain}");
        let sel = Source::Search {
            depth: 12,
            mean_of: 2,
            selectivity: Selectivity::Level(2),
        };
        let line = label(pos, 100, sel, None).to_line();
        assert!(line.contains(r#""selectivity":"2""#), "{line}");
        assert_eq!(sel.to_string(), "search:depth=12,mean_of=2,selectivity=2");
        let sel1 = Source::Search {
            depth: 12,
            mean_of: 1,
            selectivity: Selectivity::Level(0),
        };
        assert_eq!(sel1.to_string(), "search:depth=12,selectivity=0");
        let off = format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"selectivity":"off"}}"#);
        assert_eq!(Label::from_line(&off).unwrap().unwrap().source, Source::search(8, 1));
        for bad in ["\"7\"", "2", "\"\"", "{}"] {
            let line = format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"selectivity":{bad}}}"#);
            assert_eq!(Label::from_line(&line), Err(LineError::Field("selectivity")), "{line}");
        }
    }

    #[test]
    fn bad_label_lines_are_typed_errors() {
        let text = some_position().to_string();
        let cases: Vec<(String, LineError)> = vec![
            ("nope".into(), LineError::Json(String::new())),
            ("[1]".into(), LineError::NotObject),
            (r#"{"score":1,"source":"exact"}"#.into(), LineError::Field("position")),
            (
                r#"{"position":"xx X","score":1,"source":"exact"}"#.into(),
                LineError::Position(othello_rules::ParsePositionError::Empty),
            ),
            (
                r#"{"position":"--------------OX----XO-------------- X","score":1,"source":"exact"}"#.into(),
                LineError::NotEight,
            ),
            (
                format!(r#"{{"position":"{text}","source":"exact"}}"#),
                LineError::Field("score"),
            ),
            (
                format!(r#"{{"position":"{text}","score":65,"source":"exact"}}"#),
                LineError::Score(65.0),
            ),
            (
                format!(r#"{{"position":"{text}","score":1.5,"source":"exact"}}"#),
                LineError::Score(1.5),
            ),
            (
                format!(r#"{{"position":"{text}","score":1.5,"source":"result"}}"#),
                LineError::Score(1.5),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"search"}}"#),
                LineError::Field("depth"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"search","depth":0}}"#),
                LineError::Field("depth"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"mean_of":0}}"#),
                LineError::Field("mean_of"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"mean_of":9}}"#),
                LineError::Field("mean_of"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"search","depth":8,"mean_of":"2"}}"#),
                LineError::Field("mean_of"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"guess"}}"#),
                LineError::Source("guess".into()),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"method":"search:depth=x"}}"#),
                LineError::Source("search:depth=x".into()),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"exact","empties":3}}"#),
                LineError::Empties { given: 3, actual: 52 },
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"exact","game":4294967296}}"#),
                LineError::Field("game"),
            ),
            (
                format!(r#"{{"position":"{text}","score":1,"source":"exact","seed":-1}}"#),
                LineError::Field("seed"),
            ),
        ];
        for (line, want) in cases {
            let got = Label::from_line(&line).unwrap_err();
            match (&got, &want) {
                (LineError::Json(_), LineError::Json(_)) | (LineError::Position(_), LineError::Position(_)) => {}
                _ => assert_eq!(got, want, "{line}"),
            }
        }
    }

    #[test]
    fn games_round_trip_and_bad_games_are_refused() {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let m = pos.moves()[0];
            moves.push(m);
            pos = pos.play(m).unwrap();
        }
        let g = Game {
            game: 12,
            seed: Some(5),
            moves: moves.clone(),
        };
        let line = g.to_line("test");
        assert_eq!(Game::from_line(&line).unwrap(), g);
        let unseeded = Game {
            seed: None,
            ..g.clone()
        };
        assert_eq!(Game::from_line(&unseeded.to_line("x")).unwrap(), unseeded);
        let short = othello_rules::text::format_moves(&moves[..10]);
        assert_eq!(
            Game::from_line(&format!(r#"{{"game":1,"moves":"{short}"}}"#)),
            Err(LineError::Unfinished)
        );
        assert!(matches!(
            Game::from_line(r#"{"game":1,"moves":"a1"}"#),
            Err(LineError::Moves(_))
        ));
        assert_eq!(Game::from_line(r#"{"moves":""}"#), Err(LineError::Field("game")));
    }

    #[test]
    fn twins_share_a_key_and_one_side_of_the_split() {
        let pos = some_position();
        let twins: Vec<Position> = Symmetry::ALL.iter().map(|s| s.apply_position(&pos)).collect();
        assert!(twins.iter().all(|t| key(t) == key(&pos)));
        assert!(twins.iter().collect::<std::collections::HashSet<_>>().len() > 1);
        // The same discs with the other colour to move: same side-relative key.
        let other = Position::from_raw_unchecked(pos.player().0, pos.opponent().0, !pos.side_to_move(), pos.size());
        assert_eq!(key(&other), key(&pos));
        // Another position has another key.
        assert_ne!(key(&Position::start()), key(&pos));
        // The twin of a held-out game's position, labelled from a training game, and twice more:
        // one row, held out, with the exact label.
        let labels = vec![
            label(twins[3], 500, Source::search(4, 1), Some(1)),
            label(twins[0], 600, Source::Exact, Some(10)),
            label(twins[5], 400, Source::Result, Some(3)),
            label(Position::start(), 0, Source::Exact, Some(1)),
            label(twins[7], 700, Source::Exact, Some(2)),
            label(Position::start(), 100, Source::Exact, Some(2)),
        ];
        let (rows, merged) = rows(&labels, 10);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            merged,
            Merged {
                duplicates: 4,
                pulled_out: 1
            }
        );
        assert!(rows[0].test && !rows[1].test);
        // Equal trust: the first label stays.
        assert_eq!(rows[1].target, 0.0);
        assert_eq!(
            (rows[0].target, rows[0].source, rows[0].pos),
            (600.0, Source::Exact, twins[0])
        );
        // A deeper search beats a shallower one; a result beats nothing.
        let labels = vec![
            label(twins[1], 100, Source::Result, None),
            label(twins[2], 200, Source::search(2, 1), None),
            label(twins[4], 300, Source::search(6, 1), None),
            label(twins[6], 250, Source::search(3, 1), None),
        ];
        let (rows, _) = super::rows(&labels, 10);
        assert_eq!((rows.len(), rows[0].target), (1, 300.0));
        // Without a game, about one position in `k` is held out (positions of random games).
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(4);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            for p in othello_rules::random::random_game(&Position::start(), &mut rng) {
                if !p.is_game_over() {
                    seen.insert(key(&p));
                }
            }
        }
        assert!(seen.len() > 5000);
        for k in [2u32, 5, 10] {
            let held = seen
                .iter()
                .filter(|&&(a, b)| {
                    let p = Position::from_raw_unchecked(a, b, othello_rules::Color::Black, BoardSize::Eight);
                    held_out(&label(p, 0, Source::Exact, None), k)
                })
                .count() as f64
                / seen.len() as f64;
            assert!((held - 1.0 / f64::from(k)).abs() < 0.02, "1/{k}: {held}");
        }
        // Without a game, twins fall on the same side by their key.
        for k in 2..12 {
            let sides: Vec<bool> = twins
                .iter()
                .map(|&t| held_out(&label(t, 0, Source::Exact, None), k))
                .collect();
            assert!(sides.iter().all(|&s| s == sides[0]));
        }
    }
}
