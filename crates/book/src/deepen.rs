//! Deepening a book's leaves: [`leaf_moves`] walks the book from its roots along the moves
//! within a window of each position's best and lists the moves met whose values are searched
//! leaves; [`deepen`] searches the positions they lead to again (with a deeper engine), sets
//! the new values ([`Book::set_leaf_values`], which propagates them by negamax) and walks
//! again, until every leaf in the window has been searched this way.
//!
//! A book is worth what its leaves know beyond what the player finds by itself in the same
//! moves (docs/book.md, "What it is worth"); deepening spends a deep search on the few leaves
//! that decide the lines a game can follow, rather than on every move of every position, as
//! building the book with a deeper engine would.

use crate::book::Book;
use crate::build::{BuildEvent, parallel_map};
use crate::error::EntryError;
use crate::key::{Key, canonical_key};
use othello_rules::{Move, Position};
use std::collections::{HashMap, HashSet, VecDeque};

/// The settings of a deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeepenConfig {
    /// The most moves (passes included) from a root to a position whose leaf moves are
    /// deepened; positions at this distance have their leaves deepened, their children in the
    /// book are not visited.
    pub depth: u32,
    /// The window in centi-discs: at each position of the book the walk meets, the moves
    /// whose value is within this of the best are followed (into the book) or deepened (leaf
    /// moves); the best always is.
    pub window: i32,
    /// How many leaves are searched between two reports (each with the book as it stands,
    /// values propagated, so that a caller can save it).
    pub batch: usize,
}

impl Default for DeepenConfig {
    /// Depth 4, a 1-disc window, batches of 64.
    fn default() -> DeepenConfig {
        DeepenConfig {
            depth: 4,
            window: 100,
            batch: 64,
        }
    }
}

/// A move of a book position whose value is a searched leaf (not propagated from the book, not
/// a game end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafMove {
    /// The position in the book, in the frame the walk reached it.
    pub position: Position,
    /// The move.
    pub mv: Move,
    /// Moves from the nearest root to `position`.
    pub ply: u32,
}

impl LeafMove {
    /// The position whose search gives the leaf's value, and whether that value is to be
    /// negated: the position after the move, searched for its side to move, whose value is
    /// negated; or, when that side must pass, the position after the pass, searched for the
    /// leaf's own side, whose value counts as it is.
    pub fn target(&self) -> (Position, bool) {
        let child = self.position.play_unchecked(self.mv);
        if child.must_pass() {
            (child.pass_unchecked(), false)
        } else {
            (child, true)
        }
    }
}

/// The leaf moves of a walk from `roots` through the book: breadth first, each position of the
/// book once per class of twins at its shortest distance from a root; at a position within
/// `config.depth` moves, each move within `config.window` of the best is followed when the
/// position it leads to is in the book (and the distance allows), and listed when its value is
/// a searched leaf. Moves that end the game are exact and never listed. Positions not in the
/// book end the walk there.
pub fn leaf_moves(book: &Book, roots: &[Position], config: &DeepenConfig) -> Vec<LeafMove> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    for root in roots {
        if seen.insert(canonical_key(root).0) {
            queue.push_back((*root, 0_u32));
        }
    }
    while let Some((pos, ply)) = queue.pop_front() {
        let Some(entry) = book.lookup(&pos) else {
            continue;
        };
        for m in &entry.moves {
            if m.value < entry.value - config.window.max(0) {
                continue;
            }
            if m.propagated {
                let child = pos.play_unchecked(m.mv);
                if ply < config.depth && seen.insert(canonical_key(&child).0) {
                    queue.push_back((child, ply + 1));
                }
            } else if !m.exact {
                out.push(LeafMove {
                    position: pos,
                    mv: m.mv,
                    ply,
                });
            }
        }
    }
    out
}

/// What [`deepen`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepenReport {
    /// Walks that found leaves not searched yet.
    pub rounds: usize,
    /// Positions searched (one per class of twins, however many leaf moves lead there).
    pub searched: usize,
    /// Leaf moves given a new value (the same leaf counts once however often it is set).
    pub leaves: usize,
}

/// Searches again the leaves of the book's window ([`leaf_moves`]) and sets their values,
/// walking again after each round (new values move the best lines, and other leaves come into
/// the window) until the walk finds no leaf whose position was not searched in this call.
/// Each position is searched once per class of twins by one of `searchers` (each on its own
/// thread), given the position ([`LeafMove::target`]) and the number of empty squares of the
/// book position the leaf belongs to (so that a searcher can keep every leaf at one parity
/// of empties, as the build does); it returns the value for the side to move there. With
/// searchers whose values depend only on the position, the book is the same for any number of
/// them (tested). `on_event` hears [`BuildEvent::Searched`] for each position and
/// [`BuildEvent::Added`] after each batch is set.
///
/// # Errors
/// A value out of range (the book keeps the batches set before).
///
/// # Panics
/// If `searchers` is empty, or a searcher panics.
pub fn deepen<S>(
    book: &mut Book,
    roots: &[Position],
    config: &DeepenConfig,
    searchers: &mut [S],
    on_event: &mut dyn FnMut(BuildEvent<'_>),
) -> Result<DeepenReport, EntryError>
where
    S: FnMut(&Position, u32) -> i32 + Send,
{
    assert!(!searchers.is_empty(), "deepen needs at least one searcher");
    let mut report = DeepenReport {
        rounds: 0,
        searched: 0,
        leaves: 0,
    };
    // Searched positions (by class of twins) with their values for the side to move.
    let mut values: HashMap<Key, i32> = HashMap::new();
    let mut set: HashSet<(Key, Move)> = HashSet::new();
    loop {
        // Each leaf with the position to search, its key and whether the leaf's value is its
        // value negated, computed once a round.
        let leaves: Vec<(LeafMove, Position, Key, bool)> = leaf_moves(book, roots, config)
            .into_iter()
            .map(|leaf| {
                let (target, negate) = leaf.target();
                (leaf, target, canonical_key(&target).0, negate)
            })
            .collect();
        let mut todo: Vec<(Position, u32)> = Vec::new();
        let mut planned = HashSet::new();
        for (leaf, target, key, _) in &leaves {
            if !values.contains_key(key) && planned.insert(*key) {
                todo.push((*target, leaf.position.empty_count()));
            }
        }
        if todo.is_empty() {
            break;
        }
        report.rounds += 1;
        for group in todo.chunks(config.batch.max(1)) {
            let found = parallel_map(group, searchers, |search, &(pos, empties)| search(&pos, empties));
            for (&(pos, _), value) in group.iter().zip(found) {
                values.insert(canonical_key(&pos).0, value);
                report.searched += 1;
                on_event(BuildEvent::Searched {
                    position: &pos,
                    searched: report.searched,
                    planned: todo.len(),
                    round: report.rounds,
                });
            }
            // Every leaf of this walk whose position has a value now; the walk's leaves are
            // still leaves (setting values adds no entry).
            let mut items = Vec::new();
            for (leaf, _, key, negate) in &leaves {
                if let Some(&v) = values.get(key) {
                    items.push((leaf.position, leaf.mv, if *negate { -v } else { v }));
                    let (key, sym) = canonical_key(&leaf.position);
                    set.insert((key, crate::key::map_move(sym, leaf.mv)));
                }
            }
            book.set_leaf_values(&items)?;
            report.leaves = set.len();
            on_event(BuildEvent::Added {
                book,
                searched: report.searched,
            });
        }
    }
    Ok(report)
}
