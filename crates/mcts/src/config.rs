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

/// The settings of an [`Mcts`](crate::Mcts) player.
///
/// Limits combine: the search stops at the first of `playouts` iterations, `time` (less a
/// safety margin, see [`MctsConfig::time_margin`]) and the external stop flag
/// ([`Mcts::set_stop`](crate::Mcts::set_stop)). With neither `playouts` nor `time` set, the
/// search runs until the stop flag is raised, or for [`MctsConfig::DEFAULT_PLAYOUTS`]
/// iterations when no stop flag was given.
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// The UCT exploration constant `c` in `Q + c * sqrt(ln N_parent / N_child)`, for rewards
    /// in `[0, 1]`. Default `sqrt(2)`.
    pub exploration: f64,
    /// The number of iterations (one selection, at most one expansion, one playout or one
    /// exact terminal score, one backpropagation each), summed over all threads.
    pub playouts: Option<u64>,
    /// Wall-clock budget per search.
    pub time: Option<Duration>,
    /// The seed of the playout generators; with a fixed `playouts` budget, the same seed, the
    /// same thread count and the same history give the same result.
    pub seed: u64,
    /// Number of root-parallel trees (each on its own thread); 0 counts as 1.
    pub threads: usize,
    /// Node cap over all trees (each of `threads` trees gets an equal share, at least the root
    /// and its children). A full tree stops expanding and keeps selecting and playing out.
    pub max_nodes: usize,
    /// The playout policy.
    pub policy: PlayoutPolicy,
    /// Keep the subtree of the moves played (see [`Mcts::advance`](crate::Mcts::advance))
    /// from one search to the next.
    pub reuse_tree: bool,
}

impl MctsConfig {
    /// The iteration budget used when neither `playouts` nor `time` is set and there is no
    /// stop flag.
    pub const DEFAULT_PLAYOUTS: u64 = 10_000;

    /// A default configuration limited to `playouts` iterations.
    pub fn with_playouts(playouts: u64) -> MctsConfig {
        MctsConfig {
            playouts: Some(playouts),
            ..MctsConfig::default()
        }
    }

    /// A default configuration limited to `time` per search.
    pub fn with_time(time: Duration) -> MctsConfig {
        MctsConfig {
            playouts: None,
            time: Some(time),
            ..MctsConfig::default()
        }
    }

    /// The part of a time budget kept back for returning the move: a twentieth of it, at most
    /// 10 ms. The deadline is `time - time_margin(time)` after the search started.
    pub fn time_margin(time: Duration) -> Duration {
        (time / 20).min(Duration::from_millis(10))
    }
}

impl Default for MctsConfig {
    /// `c = sqrt(2)`, 10 000 playouts, no time limit, seed 0, one thread, 2^20 nodes (about
    /// 100 MB), random playouts, tree reuse on.
    fn default() -> MctsConfig {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            playouts: Some(MctsConfig::DEFAULT_PLAYOUTS),
            time: None,
            seed: 0,
            threads: 1,
            max_nodes: 1 << 20,
            policy: PlayoutPolicy::Random,
            reuse_tree: true,
        }
    }
}
