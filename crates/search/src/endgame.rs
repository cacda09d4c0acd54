//! Handing the root to the exact endgame solver (`othello-endgame`).
//!
//! With [`SearchConfig::endgame_empties`](crate::SearchConfig::endgame_empties) `= n > 0`, a
//! pruning search of a position with at most `n` empty squares is answered by the solver
//! instead of iterative deepening, when that answers the question asked: no depth limit below
//! the empties (a depth-limited question gets a depth-limited answer) and no node limit (the
//! solver cannot count against it). The solver's value is exact, in discs; it is reported x100
//! as one iteration at `depth = empties`. Its tie rule is the search's (the lowest square index
//! among equal moves), so the move is the one a full-depth search would return.
//!
//! Under a time limit the solve may be interrupted: the search then first
//! deepens to [`FALLBACK_DEPTH`] (a few hundredths of the solve's usual cost; its iterations
//! stop at the hard bound like any other), and gives the solver the time left to the hard
//! bound. A finished solve answers (its nodes include the short search's); an interrupted
//! one is dropped and the short search's result answers, not a depth-1 move found after the
//! deadline.
//!
//! Under a time limit a root with more empties than `endgame_empties` may be handed to the
//! solver too ([`HandOff`]): the iterative deepening runs as usual and, from
//! [`FALLBACK_DEPTH`] on, stops for a solve when the solve's estimated time
//! ([`estimated_solve`]) is at most [`EARLY_SHARE`] of the time left to the hard bound, or
//! at most [`LATE_SHARE`] of it and one more iteration would leave less than the estimate
//! over `LATE_SHARE`, or the next iteration is the exact one, or the deepening stops anyway
//! ([`HandOff::decide`]). A solve estimated at more than `LATE_SHARE` of the time left is
//! never tried. An interrupted solve leaves the deepest completed iteration as the answer.

use crate::limits::Clock;
use crate::score::DISC;
use crate::{Iteration, Limits, SearchConfig, SearchResult, SearchStats, TimeLimit};
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{BoardSize, Position};
use othello_table::Table;
use std::time::{Duration, Instant};

/// How deep the search goes before a solve that a time limit may interrupt: its
/// result is the answer when the solve does not finish in time. On eight positions with 14
/// empties from games against Zebra, a selective depth-6 search took 1 400-3 300 nodes, 2-13%
/// of their solves' (depth 8: 5 000-21 000, 15-40%; depth 4: 260-620).
pub(crate) const FALLBACK_DEPTH: u32 = 6;

/// Whether the solver answers this search (see the module docs).
pub(crate) fn applies(pos: &Position, limits: &Limits, config: &SearchConfig) -> bool {
    pos.empty_count() <= config.endgame_empties && may_solve(pos, limits, config)
}

/// Whether a solve answers the question whatever the empties: a pruning search with the
/// solver on, no depth limit below the empties, no node limit, and no multi-PV under a
/// time limit or a stop flag.
fn may_solve(pos: &Position, limits: &Limits, config: &SearchConfig) -> bool {
    let empties = pos.empty_count();
    config.algorithm.prunes()
        && config.endgame_empties > 0
        && limits.depth.is_none_or(|d| d >= empties)
        && limits.nodes.is_none()
        && (!config.multi_pv || (limits.time_limit(empties).is_none() && limits.stop.is_none()))
}

/// The solver's median node count at 20 empties, and its growth per empty square: with the
/// pattern ordering, the medians of 399 positions of each count from 14 to 22 empties from
/// games against Zebra fit `3.0e6 * 2^(empties - 20)` within 35% (docs/search.md, "Timed
/// hand-off beyond the threshold").
const SOLVE_NODES_AT_20: f64 = 3.0e6;
const SOLVE_GROWTH: f64 = 2.0;
/// The solver's speed in nodes per second over the midgame search's (44 M and 15-18 M on
/// the same machine).
const SOLVER_SPEED: f64 = 2.5;
/// A solve estimated at most at this share of the time left starts at once (from
/// [`FALLBACK_DEPTH`]).
pub(crate) const EARLY_SHARE: f64 = 0.3;
/// A solve estimated at more than this share of the time left is not tried.
pub(crate) const LATE_SHARE: f64 = 0.5;

/// The estimated time of a solve of `empties` empty squares for a search that searched
/// `nodes_per_second` in its midgame iterations.
pub(crate) fn estimated_solve(empties: u32, nodes_per_second: f64) -> Duration {
    let nodes = SOLVE_NODES_AT_20 * SOLVE_GROWTH.powi(empties as i32 - 20);
    let speed = (nodes_per_second * SOLVER_SPEED).max(1.0);
    Duration::try_from_secs_f64(nodes / speed).unwrap_or(Duration::MAX)
}

/// The hand-off rule of a timed search of a root with more empties than
/// `endgame_empties`, and its outcome (`solve`).
#[derive(Debug)]
pub(crate) struct HandOff {
    pub(crate) empties: u32,
    /// Set when the deepening stopped for the solve.
    pub(crate) solve: bool,
}

/// The fewest nodes from which the search's speed is taken as measured (before, the first
/// iterations' fixed costs make it look several times slower than it is).
const MIN_MEASURED_NODES: u64 = 20_000;

impl HandOff {
    /// The rule for a search of `pos` under `limits`, when it applies: a time limit, more
    /// empties than `endgame_empties`, and a solve that answers the question.
    pub(crate) fn new(pos: &Position, limits: &Limits, config: &SearchConfig) -> Option<HandOff> {
        let empties = pos.empty_count();
        (empties > config.endgame_empties && limits.time_limit(empties).is_some() && may_solve(pos, limits, config))
            .then_some(HandOff { empties, solve: false })
    }

    /// Whether the deepening stops for a solve after a completed iteration of `depth`:
    /// `left` is the time left to the hard bound, `next` the predicted time of the next
    /// iteration, `nodes` and `elapsed` the main thread's so far, `stops` whether the deepening
    /// would stop now anyway (its soft bound). The solve is tried when its estimate is at
    /// most [`LATE_SHARE`] of the time left and either it is at most [`EARLY_SHARE`] of it,
    /// or the next iteration would leave too little, or the next iteration is the exact one
    /// (the search's last iteration, full-width: the solver answers it faster), or the
    /// deepening stops.
    pub(crate) fn decide(
        &self,
        depth: u32,
        left: Duration,
        next: Duration,
        nodes: u64,
        elapsed: Duration,
        stops: bool,
    ) -> bool {
        if depth < FALLBACK_DEPTH || nodes < MIN_MEASURED_NODES {
            return false;
        }
        let speed = nodes as f64 / elapsed.as_secs_f64().max(1e-6);
        let estimate = estimated_solve(self.empties, speed);
        estimate <= left.mul_f64(LATE_SHARE)
            && (stops
                || depth + 1 >= self.empties
                || estimate <= left.mul_f64(EARLY_SHARE)
                || estimate > left.saturating_sub(next).mul_f64(LATE_SHARE))
    }
}

/// A solver matching the configuration for a root of `size`: its own table, of the search
/// table's type and size (a table that is not shareable solves on one thread, as it searches
/// on one), and on 8x8 the configuration's ordering evaluation.
pub(crate) fn new_solver<T: Table>(config: &SearchConfig, size: BoardSize) -> Solver<T> {
    let ordering = config.solver_ordering.clone().filter(|_| size == BoardSize::Eight);
    Solver::with_table_type(
        SolverConfig::default()
            .with_tt_mib(config.tt_mib.max(1))
            .with_threads(config.threads.max(1))
            .with_ordering_eval(ordering),
    )
}

/// Solves `pos` exactly; `None` when the clock or the stop flag interrupted the solver.
pub(crate) fn solve<T: Table>(
    solver: &mut Solver<T>,
    pos: &Position,
    config: &SearchConfig,
    clock: &Clock,
    on_iteration: &mut impl FnMut(&Iteration),
) -> Option<SearchResult> {
    let (best_move, score, nodes, pv, root_moves) = if config.multi_pv {
        let mut moves = solver.score_moves(pos, SolveMode::Exact);
        moves.sort_by_key(|&(m, s)| (-s, m.to_u8()));
        let (best, score) = moves[0];
        // The PV of the best move: the solver's line from that move.
        let child = pos.play_unchecked(best);
        let mut pv = vec![best];
        let mut nodes = solver.last_nodes();
        if !child.is_game_over() {
            pv.extend(solver.solve(&child, SolveMode::Exact).pv);
            nodes += solver.last_nodes();
        }
        let root_moves = moves.into_iter().map(|(m, s)| (m, s * DISC)).collect();
        (best, score, nodes, pv, root_moves)
    } else {
        // The solver watches the hard deadline left on the search's clock and the stop flag.
        let mut limits = Limits::none();
        if let Some(hard) = clock.hard() {
            let left = hard.saturating_duration_since(Instant::now());
            limits = limits.with_time(TimeLimit::new(left, left));
        }
        if let Some(stop) = clock.external() {
            limits = limits.with_stop(stop.clone());
        }
        let solution = solver.solve_within(pos, SolveMode::Exact, &limits)?;
        (
            solution.best_move,
            solution.score,
            solution.nodes,
            solution.pv,
            Vec::new(),
        )
    };
    let time = clock.elapsed();
    let depth = pos.empty_count();
    let score = score * DISC;
    on_iteration(&Iteration {
        depth,
        score,
        nodes,
        time,
        pv: pv.clone(),
        exact: true,
        selectivity: crate::Selectivity::Off,
    });
    Some(SearchResult {
        best_move,
        score,
        score_black: score * pos.side_to_move().sign(),
        depth,
        nodes,
        time,
        pv,
        exact: true,
        selectivity: crate::Selectivity::Off,
        stats: SearchStats {
            nodes,
            time,
            ..SearchStats::default()
        },
        root_moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// 1.2 M nodes in one second: the solver's 3 M nodes at 20 empties take 1 s.
    const NODES: u64 = 1_200_000;

    fn rule(empties: u32) -> HandOff {
        HandOff { empties, solve: false }
    }

    #[test]
    fn the_estimate_doubles_with_each_empty_square() {
        let s = NODES as f64;
        assert_eq!(estimated_solve(20, s), secs(1.0));
        assert_eq!(estimated_solve(21, s), secs(2.0));
        assert_eq!(estimated_solve(18, s), secs(0.25));
        assert_eq!(estimated_solve(20, 2.0 * s), secs(0.5));
        assert_eq!(estimated_solve(20, 0.0), secs(3.0e6));
    }

    #[test]
    fn the_hand_off_follows_the_documented_rule() {
        let h = rule(20);
        let one = secs(1.0);
        let decide =
            |depth, left: f64, next: f64, nodes, stops| h.decide(depth, secs(left), secs(next), nodes, one, stops);
        // Not before FALLBACK_DEPTH nor before the speed is measured.
        assert!(!decide(FALLBACK_DEPTH - 1, 100.0, 0.0, NODES, false));
        assert!(decide(FALLBACK_DEPTH, 100.0, 0.0, NODES, false));
        assert!(!decide(10, 1000.0, 0.0, MIN_MEASURED_NODES - 1, false));
        assert!(decide(10, 1000.0, 0.0, MIN_MEASURED_NODES, false));
        assert!(decide(10, 100.0, 0.0, MIN_MEASURED_NODES * 1000, false));
        // The speed is nodes over the elapsed time: 1.2 M nodes in 2 s make the estimate 2 s.
        assert!(h.decide(10, secs(6.7), secs(0.0), NODES, secs(2.0), false));
        assert!(!h.decide(10, secs(6.6), secs(0.0), NODES, secs(2.0), false));
        // Early: the estimate (1 s) within 0.3 of the time left.
        assert!(decide(10, 3.34, 0.0, NODES, false));
        assert!(!decide(10, 3.3, 0.0, NODES, false));
        // Late: the next iteration would leave less than twice the estimate.
        assert!(decide(10, 3.3, 1.31, NODES, false));
        assert!(!decide(10, 3.3, 1.29, NODES, false));
        // The next iteration is the exact one, or the deepening stops: solve if it fits.
        assert!(decide(19, 2.0, 0.0, NODES, false));
        assert!(!decide(18, 2.0, 0.0, NODES, false));
        assert!(decide(10, 2.0, 0.0, NODES, true));
        assert!(!decide(FALLBACK_DEPTH - 1, 2.0, 0.0, NODES, true));
        // Never when the estimate is over half the time left.
        assert!(!decide(19, 1.99, 0.0, NODES, true));
        assert!(!decide(10, 1.99, 1.0, NODES, true));
    }
}
