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

use crate::limits::Clock;
use crate::score::DISC;
use crate::{Iteration, Limits, SearchConfig, SearchResult, SearchStats, TimeLimit};
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::Position;
use othello_table::Table;
use std::time::Instant;

/// How deep the search goes before a solve that a time limit may interrupt: its
/// result is the answer when the solve does not finish in time. On eight positions with 14
/// empties from games against Zebra, a selective depth-6 search took 1 400-3 300 nodes, 2-13%
/// of their solves' (depth 8: 5 000-21 000, 15-40%; depth 4: 260-620).
pub(crate) const FALLBACK_DEPTH: u32 = 6;

/// Whether the solver answers this search (see the module docs).
pub(crate) fn applies(pos: &Position, limits: &Limits, config: &SearchConfig) -> bool {
    let empties = pos.empty_count();
    config.algorithm.prunes()
        && config.endgame_empties > 0
        && empties <= config.endgame_empties
        && limits.depth.is_none_or(|d| d >= empties)
        && limits.nodes.is_none()
        && (!config.multi_pv || (limits.time_limit(empties).is_none() && limits.stop.is_none()))
}

/// A solver matching the configuration: its own table, of the search table's type and size
/// (a table that is not shareable solves on one thread, as it searches on one).
pub(crate) fn new_solver<T: Table>(config: &SearchConfig) -> Solver<T> {
    Solver::with_table_type(
        SolverConfig::default()
            .with_tt_mib(config.tt_mib.max(1))
            .with_threads(config.threads.max(1)),
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
