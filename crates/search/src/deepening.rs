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
//!
//! **Time.** Under a time limit ([`TimeLimit`](crate::TimeLimit)), [`start_next`] decides
//! before each iteration from the times of the previous ones: no iteration starts after the
//! soft bound (doubled, up to the hard bound, when the best move changed in the last
//! iteration: an unstable root earns more time), nor, under a clock (soft below hard), when
//! its first root move is predicted to end after the hard bound ([`predict_next`] times
//! `FIRST_MOVE_SHARE`). A fixed time per move (soft equal to hard) starts every iteration it
//! can: the time it does not spend is lost, and an aborted iteration still fills the table
//! and may prove a move better than the previous best, which then replaces it (see
//! `root.rs`). The hard bound itself aborts the running iteration (polled every 1024 nodes).

use crate::limits::Clock;
use crate::ordering::{MovePicker, OrderingHints};
use crate::root::RootOutcome;
use crate::score::INFINITY;
use crate::worker::Worker;
use crate::{Iteration, SearchConfig, TimeLimit};
use othello_eval::Evaluator;
use othello_rules::{Move, Position, Square};
use othello_table::Table;
use std::time::Duration;

/// The first aspiration half-window, in centi-discs (one disc).
pub(crate) const ASPIRATION_DELTA: i32 = 100;

/// Past this half-window the failing side opens to infinity.
const ASPIRATION_MAX: i32 = 1600;

/// The share of an iteration's time its first root move is predicted to take (the first move
/// gets the whole window, the others mostly null-window tests).
pub(crate) const FIRST_MOVE_SHARE: f64 = 0.5;

/// The growth from one iteration to the next assumed before two iterations were timed.
pub(crate) const GROWTH_DEFAULT: f64 = 3.0;

/// The predicted growth is clamped to this range (a tiny iteration's time is mostly noise).
pub(crate) const GROWTH_MIN: f64 = 1.5;

/// See [`GROWTH_MIN`].
pub(crate) const GROWTH_MAX: f64 = 8.0;

/// The soft bound is multiplied by this (up to the hard bound) when the best move changed in
/// the last iteration.
pub(crate) const UNSTABLE_FACTOR: u32 = 2;

/// The predicted time of the next iteration from the times of the completed ones (oldest
/// first): the last one times the growth of the step of the same parity (two steps back:
/// Othello's iterations alternate cheap and dear steps, 2x then 5x in the middle game), else
/// of the last step, else [`GROWTH_DEFAULT`]; the growth clamped to `GROWTH_MIN..=GROWTH_MAX`.
pub(crate) fn predict_next(times: &[Duration]) -> Duration {
    let n = times.len();
    let Some(&last) = times.last() else {
        return Duration::ZERO;
    };
    let ratio = |a: Duration, b: Duration| (!a.is_zero()).then(|| b.as_secs_f64() / a.as_secs_f64());
    let growth = match n {
        0 | 1 => None,
        2 => ratio(times[0], times[1]),
        _ => ratio(times[n - 3], times[n - 2]),
    }
    .unwrap_or(GROWTH_DEFAULT)
    .clamp(GROWTH_MIN, GROWTH_MAX);
    last.mul_f64(growth)
}

/// Whether to start the next iteration, `elapsed` after the call of the search, under `limit`
/// (none: always), given the times of the completed iterations (`times`, oldest first) and
/// whether the last one changed the best move (`unstable`). See the module docs.
pub(crate) fn start_next(elapsed: Duration, limit: Option<TimeLimit>, times: &[Duration], unstable: bool) -> bool {
    let Some(limit) = limit else { return true };
    let soft = if unstable {
        (limit.soft * UNSTABLE_FACTOR).min(limit.hard)
    } else {
        limit.soft
    };
    if elapsed >= soft {
        return false;
    }
    if limit.soft >= limit.hard {
        // A fixed time per move: what is not spent now is lost, so every iteration that can
        // start does (an aborted one still fills the table and may prove a better move).
        return true;
    }
    elapsed + predict_next(times).mul_f64(FIRST_MOVE_SHARE) <= limit.hard
}

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
    // The times of the completed iterations, and whether the last changed the best move.
    let (mut times, mut unstable) = (Vec::new(), false);
    while depth <= max_depth {
        if depth > first
            && (clock.must_stop() || !start_next(clock.since_origin(), clock.time_limit(), &times, unstable))
        {
            break;
        }
        let previous_best = last.as_ref().map(|c| c.best);
        let guess = scores.len().checked_sub(2).map(|i| scores[i]);
        let started = clock.since_origin();
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
        times.push(clock.since_origin().saturating_sub(started));
        unstable = previous_best.is_some_and(|b| b != out.best);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_prediction_uses_the_step_of_the_same_parity() {
        assert_eq!(predict_next(&[]), Duration::ZERO);
        // One iteration: the default growth.
        assert_eq!(predict_next(&[ms(10)]), ms(30));
        // Two: the last step's growth (10 -> 40: 4x).
        assert_eq!(predict_next(&[ms(10), ms(40)]), ms(160));
        // Three or more: the step two back (10 -> 20: 2x), not the last (20 -> 100: 5x).
        assert_eq!(predict_next(&[ms(10), ms(20), ms(100)]), ms(200));
        assert_eq!(predict_next(&[ms(1), ms(10), ms(20), ms(100)]), ms(200));
        assert_eq!(predict_next(&[ms(1), ms(1), ms(10), ms(20), ms(100)]), ms(200));
        assert_eq!(predict_next(&[ms(1), ms(1), ms(1), ms(10), ms(20), ms(100)]), ms(200));
        // Clamped both ways, and a zero time gives the default.
        assert_eq!(predict_next(&[ms(1), ms(100), ms(100)]), ms(800));
        assert_eq!(predict_next(&[ms(100), ms(10), ms(10)]), ms(15));
        assert_eq!(predict_next(&[ms(0), ms(10), ms(10)]), ms(30));
        assert_eq!(predict_next(&[ms(0), ms(10)]), ms(30));
    }

    #[test]
    fn a_clock_starts_only_iterations_whose_first_move_ends_in_time() {
        let limit = Some(TimeLimit::new(ms(100), ms(400)));
        // Predicted next 160 ms, its first move 80: from 300 it ends at 380, in time.
        assert!(start_next(ms(90), limit, &[ms(10), ms(40)], false));
        // From 99 ms with a prediction of 3 * 200 = 600 (first move 300): 399, in time.
        assert!(start_next(ms(99), limit, &[ms(200)], false));
        // From 99 ms with 3 * 202 = 606 (first move 303): 402, late.
        assert!(!start_next(ms(99), limit, &[ms(202)], false));
        // The soft bound stops anything.
        assert!(!start_next(ms(100), limit, &[ms(1)], false));
        // An unstable root doubles the soft bound (up to the hard one).
        assert!(start_next(ms(150), limit, &[ms(10), ms(40)], true));
        assert!(!start_next(ms(200), limit, &[ms(1)], true));
        let tight = Some(TimeLimit::new(ms(100), ms(150)));
        assert!(start_next(ms(120), tight, &[ms(1)], true));
        assert!(!start_next(ms(150), tight, &[ms(1)], true));
        // No time limit: always.
        assert!(start_next(ms(1_000_000), None, &[ms(1_000_000)], false));
    }

    #[test]
    fn a_fixed_move_time_starts_every_iteration_until_the_end() {
        let limit = Some(TimeLimit::new(ms(72), ms(72)));
        // Even one that cannot finish: the time would be lost.
        assert!(start_next(ms(71), limit, &[ms(10), ms(50)], false));
        assert!(start_next(ms(0), limit, &[], false));
        assert!(!start_next(ms(72), limit, &[ms(1)], false));
        assert!(!start_next(ms(72), limit, &[ms(1)], true));
    }
}
