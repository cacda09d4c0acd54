//! [`MctsConfig`] and [`PlayoutPolicy`]: what a search may spend and how it plays out.

use std::time::Duration;

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum PlayoutPolicy {
    /// Every legal move with equal probability (the classic UCT playout).
    #[default]
    Random,
    /// Take a corner when one is legal (choosing uniformly among the legal corners), except with
    /// probability `epsilon`, when the move is uniform over all legal moves as in
    /// [`PlayoutPolicy::Random`]. `epsilon` = 1 plays like `Random` (with extra random draws);
    /// `epsilon` = 0 always takes an available corner. Costs one extra random draw on the plies
    /// where a corner is legal, nothing elsewhere.
    CornersFirst {
        /// Probability of ignoring the corner rule on a ply where a corner is legal.
        epsilon: f64,
    },
}

/// The settings of an [`Mcts`](crate::Mcts) player: how it searches, not how long. The
/// limits of each search are an [`othello_engine::Limits`] given to
/// [`Mcts::search`](crate::Mcts::search).
///
/// `#[non_exhaustive]`: build it from [`MctsConfig::default`] and the `with_` setters.
///
/// ```
/// use othello_mcts::{MctsConfig, PlayoutPolicy};
/// let config = MctsConfig::default().with_seed(7).with_threads(2);
/// assert_eq!((config.seed, config.threads, config.policy), (7, 2, PlayoutPolicy::Random));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MctsConfig {
    /// The UCT exploration constant `c` in `Q + c * sqrt(ln N_parent / N_child)`, for rewards
    /// in `[0, 1]`. Default `sqrt(2)`.
    pub exploration: f64,
    /// The seed of the playout generators; with a node (iteration) budget, the same seed, the
    /// same thread count and the same history give the same result.
    pub seed: u64,
    /// Number of root-parallel trees (each on its own thread); 0 counts as 1.
    pub threads: usize,
    /// Memory cap: the most tree nodes over all trees (each of `threads` trees gets an equal
    /// share, at least the root and its children). A full tree stops expanding and keeps
    /// selecting and playing out. Not a search limit: see [`Limits::nodes`](othello_engine::Limits::nodes).
    pub max_tree_nodes: usize,
    /// The playout policy.
    pub policy: PlayoutPolicy,
    /// Keep the subtree of the moves played (see [`Mcts::advance`](crate::Mcts::advance))
    /// from one search to the next.
    pub reuse_tree: bool,
}

impl MctsConfig {
    /// The iteration budget of a search given no node, time or clock limit and no stop flag.
    pub const DEFAULT_ITERATIONS: u64 = 10_000;

    /// The part of a time budget kept back for returning the move: a twentieth of it, at most
    /// 10 ms. The deadline is `hard - time_margin(hard)` after the search started.
    pub fn time_margin(time: Duration) -> Duration {
        (time / 20).min(Duration::from_millis(10))
    }

    /// Sets [`MctsConfig::exploration`].
    #[must_use]
    pub fn with_exploration(mut self, exploration: f64) -> MctsConfig {
        self.exploration = exploration;
        self
    }

    /// Sets [`MctsConfig::seed`].
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> MctsConfig {
        self.seed = seed;
        self
    }

    /// Sets [`MctsConfig::threads`].
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> MctsConfig {
        self.threads = threads;
        self
    }

    /// Sets [`MctsConfig::max_tree_nodes`].
    #[must_use]
    pub fn with_max_tree_nodes(mut self, max_tree_nodes: usize) -> MctsConfig {
        self.max_tree_nodes = max_tree_nodes;
        self
    }

    /// Sets [`MctsConfig::policy`].
    #[must_use]
    pub fn with_policy(mut self, policy: PlayoutPolicy) -> MctsConfig {
        self.policy = policy;
        self
    }

    /// Sets [`MctsConfig::reuse_tree`].
    #[must_use]
    pub fn with_reuse_tree(mut self, reuse_tree: bool) -> MctsConfig {
        self.reuse_tree = reuse_tree;
        self
    }
}

impl Default for MctsConfig {
    /// `c = sqrt(2)`, seed 0, one thread, 2^20 tree nodes (about 100 MB), random playouts,
    /// tree reuse on.
    fn default() -> MctsConfig {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            seed: 0,
            threads: 1,
            max_tree_nodes: 1 << 20,
            policy: PlayoutPolicy::Random,
            reuse_tree: true,
        }
    }
}
