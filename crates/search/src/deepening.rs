//! Iterative deepening and aspiration windows: one thread's sequence of iterations.
//!
//! Depth 1, 2, ... up to the limit, stopping early once an iteration is exact (its depth
//! reached every end of the game: `depth >= empties`). The first iteration cannot be aborted
//! (it costs at most a few hundred nodes), so a search always has a completed result. Each
//! later iteration puts the previous best move first. With aspiration on, an iteration from
//! depth 3 on searches `guess +- ASPIRATION_DELTA` first, where the guess is the score of two
//! iterations before (Othello scores swing with the parity of the depth, so the score of the
//! same parity is the better guess: measured in `docs/BENCHMARKS.md`); on a fail low or high
//! the failing side widens (doubling the step, then to infinity) and the root is searched
//! again.

use crate::limits::Clock;
use crate::ordering::{MovePicker, OrderingHints};
use crate::root::RootOutcome;
use crate::score::INFINITY;
use crate::worker::Worker;
use crate::{Iteration, SearchConfig};
use othello_eval::Evaluator;
use othello_rules::{Move, Position, Square};
use othello_table::Table;

/// The first aspiration half-window, in centi-discs (one disc).
pub(crate) const ASPIRATION_DELTA: i32 = 100;

/// Past this half-window the failing side opens to infinity.
const ASPIRATION_MAX: i32 = 1600;

/// A completed iteration (or a proven move of an aborted one).
#[derive(Clone, Debug)]
pub(crate) struct Completed {
    pub(crate) depth: u32,
    pub(crate) score: i32,
    pub(crate) best: Move,
    pub(crate) pv: Vec<Move>,
    pub(crate) exact: bool,
    pub(crate) values: Vec<(Move, i32)>,
}

/// The root moves in search order for the first iteration.
fn initial_order<E: Evaluator, T: Table>(
    worker: &Worker<'_, E, T>,
    pos: &Position,
    config: &SearchConfig,
) -> Vec<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return vec![Move::Pass];
    }
    if !config.algorithm.prunes() {
        return moves.into_iter().map(Move::Place).collect();
    }
    let (p, o) = (pos.player().0, pos.opponent().0);
    let table_move = worker
        .table
        .and_then(|t| t.probe(p, o))
        .and_then(|e| e.best_move)
        .and_then(Move::square)
        .map(|s| s.index() as u8);
    let history = config
        .history
        .then(|| worker.heuristics.history(pos.side_to_move() as usize));
    let ordering = OrderingHints {
        table_move,
        killers: [None; 2],
        history,
        mobility: config.mobility_ordering,
    };
    MovePicker::new(p, o, worker.mask, moves.0, ordering)
        .map(|sq| Move::Place(Square::from_index(sq).expect("a legal square")))
        .collect()
}

/// One iteration at `depth`, with aspiration windows when they apply.
fn iteration<E: Evaluator, T: Table>(
    worker: &mut Worker<'_, E, T>,
    pos: &Position,
    depth: u32,
    order: &mut [Move],
    previous_best: Option<Move>,
    guess: Option<i32>,
    config: &SearchConfig,
) -> RootOutcome {
    if !config.algorithm.prunes() || config.multi_pv {
        return worker.root_all(pos, depth, order, config.algorithm);
    }
    let (mut alpha, mut beta) = match guess {
        Some(score) if config.aspiration => (
            (score - ASPIRATION_DELTA).max(-INFINITY),
            (score + ASPIRATION_DELTA).min(INFINITY),
        ),
        _ => (-INFINITY, INFINITY),
    };
    let mut delta = ASPIRATION_DELTA;
    loop {
        let out = worker.root_window(pos, depth, alpha, beta, order, previous_best);
        if !out.completed {
            return out;
        }
        delta *= 2;
        if out.score <= alpha {
            alpha = if delta > ASPIRATION_MAX {
                -INFINITY
            } else {
                (out.score - delta).max(-INFINITY)
            };
        } else if out.score >= beta {
            beta = if delta > ASPIRATION_MAX {
                INFINITY
            } else {
                (out.score + delta).min(INFINITY)
            };
            move_to_front(order, out.best);
        } else {
            return out;
        }
    }
}

fn move_to_front(order: &mut [Move], mv: Move) {
    if let Some(i) = order.iter().position(|&m| m == mv) {
        order[..=i].rotate_right(1);
    }
}

/// Runs iterations `first..=max_depth` (or until exact, aborted or out of soft time) and returns
/// the last completed one, or a proven move of the aborted one. `report` is called after each
/// completed iteration.
pub(crate) fn deepen<E: Evaluator, T: Table>(
    worker: &mut Worker<'_, E, T>,
    pos: &Position,
    first: u32,
    max_depth: u32,
    config: &SearchConfig,
    clock: &Clock,
    mut report: impl FnMut(&Iteration),
) -> Option<Completed> {
    let empties = pos.empty_count();
    let mut order = initial_order(worker, pos, config);
    let mut last: Option<Completed> = None;
    // Completed scores by depth: the aspiration guess is the score of the same parity.
    let mut scores: Vec<i32> = Vec::new();
    let mut depth = first.max(1);
    while depth <= max_depth {
        if depth > first && clock.soft_expired() {
            break;
        }
        let previous_best = last.as_ref().map(|c| c.best);
        let guess = scores.len().checked_sub(2).map(|i| scores[i]);
        let out = iteration(worker, pos, depth, &mut order, previous_best, guess, config);
        if !out.completed {
            if let Some((best, score, pv)) = out.proven {
                last = Some(Completed {
                    depth: last.as_ref().map_or(0, |c| c.depth),
                    score,
                    best,
                    pv,
                    exact: false,
                    values: Vec::new(),
                });
            }
            break;
        }
        let exact = depth >= empties;
        report(&Iteration {
            depth,
            score: out.score,
            nodes: worker.stats.nodes + clock.helper_nodes(),
            time: clock.elapsed(),
            pv: out.pv.clone(),
            exact,
            selectivity: if exact {
                crate::Selectivity::Off
            } else {
                worker.selectivity
            },
        });
        move_to_front(&mut order, out.best);
        scores.push(out.score);
        last = Some(Completed {
            depth,
            score: out.score,
            best: out.best,
            pv: out.pv,
            exact,
            values: out.values,
        });
        if exact {
            break;
        }
        worker.abortable = true;
        depth += 1;
    }
    last
}
