//! [`Iteration`] and [`SearchResult`]: what a search reports.

use crate::{SearchStats, Selectivity};
use othello_rules::Move;
use std::time::Duration;

/// One completed iteration of iterative deepening, as reported to the `on_iteration` callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The depth searched (discs placed; passes are free).
    pub depth: u32,
    /// The root score in centi-discs from the side to move.
    pub score: i32,
    /// Nodes searched so far in this search (all iterations), all threads together: the main
    /// thread's exact count plus the helpers' counts flushed every 1024 nodes (so with Lazy
    /// SMP it may lag the truth by up to 1023 nodes a helper). Single-threaded it is exact, and
    /// the last iteration's count equals [`SearchResult::nodes`] when the search ended on a
    /// completed iteration. See `docs/conventions.md`, "Node counts".
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move (passes included).
    pub pv: Vec<Move>,
    /// Whether the score is the exact game-theoretic value (the depth reached every end).
    pub exact: bool,
    /// The selectivity the iteration was searched at (`Off` when full-width, exact solves
    /// included).
    pub selectivity: Selectivity,
}

/// The answer of [`Searcher::search`](crate::Searcher::search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: always legal; `Move::Pass` when the side must pass or the game is over.
    pub best_move: Move,
    /// Centi-discs from the side to move.
    pub score: i32,
    /// Centi-discs, black minus white.
    pub score_black: i32,
    /// The last completed iteration's depth (0 when the game was already over).
    pub depth: u32,
    /// Nodes searched by all threads, exact (see `docs/conventions.md`, "Node counts"); the
    /// same count as [`SearchStats::nodes`](crate::SearchStats::nodes).
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Whether `score` is the exact final result under perfect play.
    pub exact: bool,
    /// The selectivity the search ran at: [`SearchConfig::selectivity`](crate::SearchConfig)
    /// when the search could be selective, `Off` when it was full-width (an evaluation without
    /// a cut table, a board other than 8x8, a reference algorithm, an exact solve).
    pub selectivity: Selectivity,
    /// Counters (all threads).
    pub stats: SearchStats,
    /// With [`SearchConfig::multi_pv`](crate::SearchConfig::multi_pv): every root move and its
    /// value at `depth`, best first, equal values by square index (a pass last). Empty otherwise.
    pub root_moves: Vec<(Move, i32)>,
}
