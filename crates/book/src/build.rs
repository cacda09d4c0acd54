//! Building a book from searched leaves: [`plan`] walks the book from a root along the moves
//! within a deviation window of each position's best and lists the positions reached that are
//! not in the book yet; [`build`] searches them, adds them ([`Book::insert_searched`], which
//! propagates the values by negamax) and plans again, until the plan is empty or the book is
//! full.

use crate::book::Book;
use crate::error::EntryError;
use crate::key::canonical_key;
use othello_rules::hash::hash_pair;
use othello_rules::{Move, Position};
use std::collections::{HashSet, VecDeque};

/// The settings of a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// The most moves (passes included) from the root to a position of the book: positions
    /// at this distance are added, their children are not.
    pub depth: u32,
    /// The most entries the book may hold (the build stops there).
    pub max_positions: usize,
    /// The deviation window in centi-discs: from a position in the book, the moves whose value
    /// is within this of the best are followed (the best always is).
    pub deviation: i32,
    /// Breaks ties between candidates of the same distance and loss (which of them are searched
    /// first when the book fills up).
    pub seed: u64,
    /// How many positions are searched between two additions to the book (each addition
    /// propagates the values and is reported, so that a caller can save the book).
    pub batch: usize,
}

impl Default for BuildConfig {
    /// Depth 6, at most 10 000 positions, a 2-disc window, seed 0, batches of 64.
    fn default() -> BuildConfig {
        BuildConfig {
            depth: 6,
            max_positions: 10_000,
            deviation: 200,
            seed: 0,
            batch: 64,
        }
    }
}

/// A position the walk reached that is not in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position (in the frame the walk reached it; its twins are the same candidate).
    pub position: Position,
    /// Moves from the root.
    pub ply: u32,
    /// The sum, along the walk's path, of each move's distance below its position's best
    /// value (centi-discs; 0 on the best line).
    pub loss: i32,
}

/// The positions to add next: a breadth-first walk from `root` through the book, following
/// at each position in the book the moves within `config.deviation` of its best, to at most
/// `config.depth` moves; each position reached that is not in the book (nor a finished game)
/// is a candidate, once per class of twins, at its shortest distance. Sorted by distance, then
/// loss, then a hash of the position and the seed.
pub fn plan(book: &Book, root: &Position, config: &BuildConfig) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(*root, 0_u32, 0_i32)]);
    seen.insert(canonical_key(root).0);
    while let Some((pos, ply, loss)) = queue.pop_front() {
        if pos.is_game_over() {
            continue;
        }
        let Some(entry) = book.lookup(&pos) else {
            out.push(Candidate {
                position: pos,
                ply,
                loss,
            });
            continue;
        };
        if ply >= config.depth {
            continue;
        }
        for m in &entry.moves {
            if m.value < entry.value - config.deviation.max(0) {
                continue;
            }
            let child = pos.play_unchecked(m.mv);
            if seen.insert(canonical_key(&child).0) {
                queue.push_back((child, ply + 1, loss + entry.value - m.value));
            }
        }
    }
    let seed = hash_pair(config.seed, 0x626f_6f6b);
    out.sort_by_key(|c| {
        let (k, _) = canonical_key(&c.position);
        (c.ply, c.loss, hash_pair(k.0 ^ seed, k.1))
    });
    out
}

/// What [`build`] reports as it goes.
#[derive(Debug)]
pub enum BuildEvent<'a> {
    /// A position was searched.
    Searched {
        /// The position.
        position: &'a Position,
        /// Positions searched so far in this build.
        searched: usize,
        /// Positions planned in this round.
        planned: usize,
        /// The round, from 1.
        round: usize,
    },
    /// A batch was added to the book and the values propagated.
    Added {
        /// The book.
        book: &'a Book,
        /// Positions searched so far in this build.
        searched: usize,
    },
}

/// What a build did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildReport {
    /// Planning rounds.
    pub rounds: usize,
    /// Positions searched (forced passes searched through count once).
    pub searched: usize,
    /// Entries in the book at the end.
    pub entries: usize,
}

/// The values of a position's moves from `search`, which scores every legal move of a
/// position that has one (`(move, value)`, centi-discs for the side to move). A position that
/// must pass gets one move, the pass, worth the negated best value of the position after it.
/// The second part is the position after the pass with its values, to be added too.
pub fn searched_values(
    pos: &Position,
    search: &mut dyn FnMut(&Position) -> Vec<(Move, i32)>,
) -> Vec<(Position, Vec<(Move, i32)>)> {
    if pos.must_pass() {
        let next = pos.pass_unchecked();
        let values = search(&next);
        let best = values.iter().map(|v| v.1).max().unwrap_or(0);
        vec![(*pos, vec![(Move::Pass, -best)]), (next, values)]
    } else {
        vec![(*pos, search(pos))]
    }
}

/// Grows `book` from `root`: plans ([`plan`]), searches the candidates in order with `search`
/// (see [`searched_values`]) until the book holds `config.max_positions` entries, adds them in
/// batches of `config.batch` (each addition propagates the values), and plans again, until the
/// plan is empty or the book is full. An existing book is extended: its entries are kept and
/// only new positions are searched.
///
/// # Errors
/// Values from `search` that do not match the legal moves (the book keeps what was added
/// before).
pub fn build(
    book: &mut Book,
    root: &Position,
    config: &BuildConfig,
    search: &mut dyn FnMut(&Position) -> Vec<(Move, i32)>,
    on_event: &mut dyn FnMut(BuildEvent<'_>),
) -> Result<BuildReport, EntryError> {
    grow(
        book,
        root,
        config,
        1,
        &mut |positions| positions.iter().map(|p| searched_values(p, search)).collect(),
        on_event,
    )
}

/// [`build`] with the searches spread over threads, one searcher each (`searchers.len()`
/// threads). The candidates are searched ahead in chunks of `config.batch`, each searcher taking
/// the next position of the chunk as it finishes one, then added in the plan's order exactly
/// as [`build`] adds them: with searchers whose values depend only on the position (a fresh
/// table each time and a fixed depth, as `othello book build` sets up its engines), the book
/// is the one [`build`] makes with any one of them, for any number of threads (tested). A
/// position the sequential build would have skipped (added in the same chunk as the position
/// after a forced pass) is searched and its values dropped.
///
/// # Errors
/// As [`build`].
///
/// # Panics
/// If `searchers` is empty, or a searcher panics.
pub fn build_parallel<S>(
    book: &mut Book,
    root: &Position,
    config: &BuildConfig,
    searchers: &mut [S],
    on_event: &mut dyn FnMut(BuildEvent<'_>),
) -> Result<BuildReport, EntryError>
where
    S: FnMut(&Position) -> Vec<(Move, i32)> + Send,
{
    assert!(!searchers.is_empty(), "build_parallel needs at least one searcher");
    grow(
        book,
        root,
        config,
        config.batch,
        &mut |positions| search_parallel(positions, searchers),
        on_event,
    )
}

/// The values of `positions` (as [`searched_values`] gives them), in order, each searched by
/// one of `searchers` on its own thread.
fn search_parallel<S>(positions: &[Position], searchers: &mut [S]) -> Vec<SearchedValues>
where
    S: FnMut(&Position) -> Vec<(Move, i32)> + Send,
{
    parallel_map(positions, searchers, |search, pos| searched_values(pos, search))
}

/// `call(worker, item)` for every item, in order of the items, each on one of `workers`'
/// threads (a worker takes the next item as it finishes one).
///
/// # Panics
/// If a call panics.
pub(crate) fn parallel_map<T, R, S>(items: &[T], workers: &mut [S], call: impl Fn(&mut S, &T) -> R + Sync) -> Vec<R>
where
    T: Sync,
    R: Send,
    S: Send,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let call = &call;
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|worker| {
                let next = &next;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break out };
                        out.push((i, call(&mut *worker, item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// What [`searched_values`] returns for one position.
type SearchedValues = Vec<(Position, Vec<(Move, i32)>)>;

/// The loop of [`build`] and [`build_parallel`]: `search_many` gives the values of up to
/// `chunk` positions at once (in order); they are added one by one in the plan's order, each
/// checked against the book as it stands then, so the book does not depend on `chunk`.
fn grow(
    book: &mut Book,
    root: &Position,
    config: &BuildConfig,
    chunk: usize,
    search_many: &mut dyn FnMut(&[Position]) -> Vec<SearchedValues>,
    on_event: &mut dyn FnMut(BuildEvent<'_>),
) -> Result<BuildReport, EntryError> {
    let mut report = BuildReport {
        rounds: 0,
        searched: 0,
        entries: book.len(),
    };
    loop {
        let room = config.max_positions.saturating_sub(book.len());
        let candidates = plan(book, root, config);
        if room == 0 || candidates.is_empty() {
            break;
        }
        report.rounds += 1;
        let planned = candidates.len().min(room);
        let mut batch = Vec::new();
        for group in candidates[..planned].chunks(chunk.max(1)) {
            // Added as the position after a forced pass: not searched again.
            let todo: Vec<Position> = group.iter().map(|c| c.position).filter(|p| !book.contains(p)).collect();
            let values = search_many(&todo);
            for (pos, values) in todo.iter().zip(values) {
                if book.contains(pos) {
                    continue; // added while this group was added, as the sequential build skips it
                }
                batch.extend(values);
                report.searched += 1;
                on_event(BuildEvent::Searched {
                    position: pos,
                    searched: report.searched,
                    planned,
                    round: report.rounds,
                });
                if batch.len() >= config.batch.max(1) {
                    book.insert_searched(&batch)?;
                    batch.clear();
                    on_event(BuildEvent::Added {
                        book,
                        searched: report.searched,
                    });
                }
            }
        }
        if !batch.is_empty() {
            book.insert_searched(&batch)?;
            on_event(BuildEvent::Added {
                book,
                searched: report.searched,
            });
        }
    }
    report.entries = book.len();
    Ok(report)
}
