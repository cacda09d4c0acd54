//! [`Mcts`]: the player. Limits, tree reuse, root parallelism and the choice of the move.

use crate::result::{MctsResult, MctsStats};
use crate::tree::Tree;
use crate::{MctsConfig, PlayoutPolicy};
use othello_engine::{Limits, MctsFigures, Player, Reply};
use othello_rules::hash::mix64;
use othello_rules::{Move, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Longest run of moves passed to [`Mcts::advance`] that is still followed for reuse.
const MAX_PATH: usize = 16;

/// A UCT Monte Carlo tree search player.
///
/// Parallelism is root parallelism: each of `threads` workers grows its own tree from the same
/// root with its own generator (seeded from `seed`, the worker index and the root position),
/// and the root children's N and W are summed at the end. Nothing is shared while searching,
/// so there are no locks and no virtual loss, and with a node budget (split evenly
/// between the workers) the result is deterministic for a given seed and thread count. The
/// price is that the trees duplicate work below the root; for the short searches a game
/// player runs this costs less than the synchronisation of a shared tree would.
///
/// Limits are checked between iterations: an iteration, once started, runs to its end (a
/// playout takes about two microseconds), so a stop never leaves a half-played game to be counted
/// as anything.
#[derive(Debug)]
pub struct Mcts {
    config: MctsConfig,
    trees: Vec<Tree>,
    path: Vec<Move>,
}

/// What one worker may spend.
struct Budget<'a> {
    iterations: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
}

impl Mcts {
    /// A player with `config`.
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts {
            config,
            trees: Vec::new(),
            path: Vec::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The trees kept from the last search (one per thread; empty before the first search,
    /// after [`Mcts::new_game`] and after a search of a finished game).
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// The first tree, if any (the only one when single-threaded).
    pub fn tree(&self) -> Option<&Tree> {
        self.trees.first()
    }

    /// Forgets the trees and the recorded moves.
    pub fn new_game(&mut self) {
        self.trees.clear();
        self.path.clear();
    }

    /// Records that `mv` was played, so that the next search can keep the subtree it leads to.
    /// Any move is accepted: one the tree does not know only means the next search will look
    /// for its position in the first levels of the tree, and start afresh if it is not there.
    pub fn advance(&mut self, mv: Move) {
        if self.path.len() < MAX_PATH {
            self.path.push(mv);
        } else {
            self.new_game();
        }
    }

    /// Searches `pos` within `limits` and returns the most visited root move. `pos` is never
    /// changed.
    ///
    /// - The game is over: returns [`Move::Pass`] at once, with the exact result as `win_rate`.
    /// - One legal move (a single square, or the pass when the side to move has no square):
    ///   returns it at once, with no iteration.
    /// - Otherwise iterates until the first limit: `limits.nodes` iterations (the MCTS node
    ///   count: each iteration adds at most one node and runs at most one playout; shared by
    ///   the threads), the hard time bound of `limits.time` or `limits.clock` less
    ///   [`MctsConfig::time_margin`], or `limits.stop` raised (read between iterations, never
    ///   reset). `limits.depth` is not read. With no node, time or clock limit and no stop flag,
    ///   [`MctsConfig::DEFAULT_ITERATIONS`] iterations.
    ///
    /// With `reuse_tree`, when `pos` is the root of the previous search, or is reached from it
    /// by the moves given to [`Mcts::advance`] since (or lies within the first three levels of
    /// the tree), the subtree of `pos` and its statistics are kept.
    ///
    /// # Panics
    /// Re-raises a panic of a worker thread (a bug).
    pub fn search(&mut self, pos: &Position, limits: &Limits) -> MctsResult {
        let start = Instant::now();
        let threads = self.config.threads.max(1);
        let reused = self.config.reuse_tree && self.reroot(pos);
        if !reused || self.trees.len() != threads {
            self.trees.clear();
        }
        self.path.clear();
        let reused_visits: u64 = self.trees.iter().map(|t| t.visits(t.root())).sum();

        if pos.is_game_over() {
            self.trees.clear();
            let win_rate = reward(pos.final_score());
            return self.result(Move::Pass, 0, 0, start, win_rate, 0);
        }
        let legal = pos.legal_moves();
        if legal.count() <= 1 {
            let mv = legal.first().map_or(Move::Pass, Move::Place);
            let stats = merge(&self.trees);
            let win_rate = stats.iter().find(|s| s.0 == mv && s.1 > 0).map_or(0.5, |s| s.2);
            return self.result(mv, 0, 0, start, win_rate, reused_visits);
        }

        if self.trees.is_empty() {
            let cap = (self.config.max_tree_nodes / threads).max(1);
            self.trees = (0..threads).map(|_| Tree::new(*pos, cap)).collect();
        }
        let time = limits.time_limit(pos.empty_count()).map(|t| t.hard);
        let total = match (limits.nodes, time, &limits.stop) {
            (None, None, None) => Some(MctsConfig::DEFAULT_ITERATIONS),
            (n, _, _) => n,
        };
        let deadline = time.map(|t| start + t.saturating_sub(MctsConfig::time_margin(t)));
        let stop = limits.stop.as_deref();
        let (c, policy, seed) = (self.config.exploration, self.config.policy, self.config.seed);
        let key = pos.hash_key();
        let budget = |i: usize| Budget {
            iterations: total.map(|n| n / threads as u64 + u64::from((i as u64) < n % threads as u64)),
            deadline,
            stop,
        };
        let counts: Vec<(u64, u64)> = if threads == 1 {
            vec![work(
                &mut self.trees[0],
                &budget(0),
                c,
                policy,
                worker_seed(seed, 0, key),
            )]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(i, tree)| {
                        let b = budget(i);
                        s.spawn(move || work(tree, &b, c, policy, worker_seed(seed, i, key)))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        };
        let iterations = counts.iter().map(|c| c.0).sum();
        let playouts = counts.iter().map(|c| c.1).sum();

        let stats = merge(&self.trees);
        // Most visited, ties to the lowest move code (`merge` lists children in code order).
        let best = stats
            .iter()
            .fold(None::<&(Move, u64, f64)>, |b, s| match b {
                Some(b) if b.1 >= s.1 => Some(b),
                _ => Some(s),
            })
            .filter(|s| s.1 > 0);
        let (best_move, win_rate) = match best {
            Some(&(mv, _, q)) => (mv, q),
            // No iteration ran (a zero budget or a raised stop flag): the first legal square.
            None => (legal.first().map_or(Move::Pass, Move::Place), 0.5),
        };
        self.result(best_move, iterations, playouts, start, win_rate, reused_visits)
    }

    /// Moves every tree's root to `pos` when the tree holds it; false (and nothing kept) when
    /// one of them does not.
    fn reroot(&mut self, pos: &Position) -> bool {
        if self.trees.is_empty() {
            return false;
        }
        let found: Vec<_> = self.trees.iter().map(|t| t.find(&self.path, pos)).collect();
        if found.iter().any(Option::is_none) {
            return false;
        }
        for (tree, id) in self.trees.iter_mut().zip(found) {
            tree.reroot(id.expect("checked above"));
        }
        true
    }

    fn result(
        &self,
        best_move: Move,
        iterations: u64,
        playouts: u64,
        start: Instant,
        win_rate: f64,
        reused_visits: u64,
    ) -> MctsResult {
        let time = start.elapsed();
        let secs = time.as_secs_f64();
        MctsResult {
            best_move,
            iterations,
            playouts,
            time,
            win_rate,
            stats: MctsStats {
                iterations,
                playouts_per_second: if secs > 0.0 { playouts as f64 / secs } else { 0.0 },
                tree_size: self.trees.iter().map(Tree::node_count).sum(),
                max_depth: self.trees.iter().map(Tree::max_depth).max().unwrap_or(0),
                root_children: merge(&self.trees),
                reused_visits,
            },
        }
    }
}

/// The reward of a final score (from some side): win 1, draw 1/2, loss 0.
fn reward(score: i32) -> f64 {
    f64::from(score.signum() + 1) / 2.0
}

/// The generator seed of worker `index` for the root with hash `key`.
fn worker_seed(seed: u64, index: usize, key: u64) -> u64 {
    mix64(seed ^ mix64(index as u64 + 1)) ^ key
}

/// Runs iterations on `tree` until the budget is spent; returns (iterations, playouts).
fn work(tree: &mut Tree, budget: &Budget<'_>, exploration: f64, policy: PlayoutPolicy, seed: u64) -> (u64, u64) {
    // Reading the clock costs about 25 ns; every fourth iteration keeps the overshoot to a few
    // microseconds for well under 1% of the time.
    const CLOCK_EVERY: u64 = 4;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut iterations = 0u64;
    let mut playouts = 0u64;
    loop {
        if budget.iterations.is_some_and(|n| iterations >= n) || budget.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            break;
        }
        if iterations.is_multiple_of(CLOCK_EVERY) && budget.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        playouts += u64::from(tree.iterate(exploration, policy, &mut rng));
        iterations += 1;
    }
    (iterations, playouts)
}

/// The root children of all trees: (move, summed N, Q from summed W / N), in move-code order.
fn merge(trees: &[Tree]) -> Vec<(Move, u64, f64)> {
    let mut visits = [0u64; 65];
    let mut halves = [0u64; 65];
    let mut seen = [false; 65];
    for t in trees {
        for c in t.children(t.root()) {
            let code = usize::from(t.incoming_move(c).expect("a child has a move").to_u8());
            visits[code] += t.visits(c);
            halves[code] += t.total_reward_halves(c);
            seen[code] = true;
        }
    }
    (0..65u8)
        .filter(|&code| seen[code as usize])
        .map(|code| {
            let (n, w) = (visits[code as usize], halves[code as usize]);
            let q = if n > 0 { w as f64 / (2.0 * n as f64) } else { 0.5 };
            (Move::from_u8(code).expect("codes 0..=64 are moves"), n, q)
        })
        .collect()
}

impl Player for Mcts {
    /// `mcts`.
    fn name(&self) -> String {
        "mcts".to_string()
    }

    fn new_game(&mut self) {
        Mcts::new_game(self);
    }

    /// [`Mcts::search`]: no score (win rates are not centi-discs), depth 0, the iterations
    /// as the node count, and the [`MctsFigures`]: the playouts, the chosen move's root visits
    /// against all root visits, and its mean result ([`MctsResult::win_rate`]). MCTS has no
    /// iterations of increasing depth, so [`Player::think_with`] reports no progress.
    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        let r = self.search(pos, limits);
        let children = &r.stats.root_children;
        let visits = children.iter().find(|c| c.0 == r.best_move).map_or(0, |c| c.1);
        let root_visits = children.iter().map(|c| c.1).sum();
        Reply::new(r.best_move)
            .with_nodes(r.iterations)
            .with_time(r.time)
            .with_mcts(MctsFigures::new(r.playouts, visits, root_visits, r.win_rate))
    }

    fn observe(&mut self, mv: Move) {
        self.advance(mv);
    }
}
