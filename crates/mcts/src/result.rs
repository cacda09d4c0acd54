//! [`MctsResult`] and [`MctsStats`]: what a search returns.

use othello_rules::Move;
use std::time::Duration;

/// The outcome of [`Mcts::search`](crate::Mcts::search).
#[derive(Clone, Debug)]
pub struct MctsResult {
    /// The most visited root child over all trees (ties to the lowest square index); always
    /// legal. [`Move::Pass`] when the side to move must pass or the game is over.
    pub best_move: Move,
    /// Iterations run by this search (all threads; reused statistics not included).
    pub iterations: u64,
    /// Playouts run by this search: iterations that ended on a finished game were scored
    /// exactly and are not counted.
    pub playouts: u64,
    /// Wall-clock time of the search.
    pub time: Duration,
    /// The root player's expected reward (win 1, draw 1/2, loss 0) for `best_move`: its Q.
    /// Exact (1, 1/2 or 0) when the game is over; 1/2 when nothing is known (a forced move
    /// returned without search and absent from a reused tree, or no iteration run).
    pub win_rate: f64,
    /// Details.
    pub stats: MctsStats,
}

/// Statistics of a search.
#[derive(Clone, Debug, Default)]
pub struct MctsStats {
    /// Iterations run by this search (as [`MctsResult::iterations`]).
    pub iterations: u64,
    /// Playouts per second of wall-clock time, all threads together.
    pub playouts_per_second: f64,
    /// Nodes in all trees after the search.
    pub tree_size: usize,
    /// The depth of the deepest node in any tree (root = 0; a pass counts as a level).
    pub max_depth: u32,
    /// Every expanded root move with its visits N and mean reward Q (from the root player's
    /// side), summed over the trees, in square-index order (pass last).
    pub root_children: Vec<(Move, u64, f64)>,
    /// Root visits inherited from the previous search through tree reuse.
    pub reused_visits: u64,
}
