//! Iterative deepening and aspiration windows: one thread's sequence of iterations.
//!
//! Depth 1, 2, ... up to the limit, stopping early once an iteration is exact (its depth
//! reached every end of the game: `depth >= empties`). From depth [`SKIP_FROM`] on, with
//! [`SearchConfig::skip_depths`] (the default), a depth is skipped where the one after it is
//! the iteration the search will end on ([`next_depth`]): an iteration orders the
//! next-but-one about as well as the one between does, so the one between is spent only
//! where the search may end on it (to depth 16: 1, ..., 6, 8, ..., 16; docs/search.md,
//! "Iterations that skip a depth"). The first iteration cannot be aborted (it costs at most a
//! few hundred nodes), so a search always has a completed result. Each later iteration puts
//! the previous best move first. With aspiration on, an iteration from depth 3 on searches
//! `guess +- ASPIRATION_DELTA` first, where the guess is the score of the iteration two
//! depths up, when it ran (Othello scores swing with the parity of the depth, so the score of
//! the same parity is the better guess: measured in `docs/BENCHMARKS.md`; without it, the
//! full window); on a fail low or high the failing side widens (doubling the step, then to
//! infinity) and the root is searched again.
//!
//! **Time.** Under a time limit ([`TimeLimit`](crate::TimeLimit)), [`start_next`] decides
//! before each iteration from the times and best moves of the previous ones: no iteration
//! starts after the soft bound as [`soft_bound`] adjusts it to the root's stability (doubled,
//! up to the hard bound, when the best move changed in the last iteration: an unstable root
//! earns more time; under a clock with [`SearchConfig::stable_stop`], halved when the same
//! move was best in the last `STABLE_ITERATIONS` iterations: a settled root gives its time
//! back to the clock), nor, under a clock (soft below hard), when its first root move is
//! predicted to end after the hard bound ([`predict`] times `FIRST_MOVE_SHARE`). A fixed
//! time per move (soft equal to hard) starts every iteration it can: the time it does not
//! spend is lost, and an aborted iteration still fills the table and may prove a move better
//! than the previous best, which then replaces it (see `root.rs`). The hard bound itself
//! aborts the running iteration (polled every 1024 nodes).

use crate::endgame::HandOff;
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

/// Under a clock with [`SearchConfig::stable_stop`], the soft bound is divided by
/// `STABLE_DIVISOR` once the last `STABLE_ITERATIONS` completed iterations all returned the
/// same best move.
pub(crate) const STABLE_ITERATIONS: usize = 4;

/// See [`STABLE_ITERATIONS`].
pub(crate) const STABLE_DIVISOR: u32 = 2;

/// Once an iteration of at least this depth is complete, the next may skip a depth (see
/// [`next_depth`]).
pub(crate) const SKIP_FROM: u32 = 6;

/// The predicted time of the iteration at `depth` (one or two deeper than the last completed
/// one) from the depths and times of the completed ones (`done`, oldest first). One deeper:
/// the last time times the growth of the step of the same parity (the step from two below
/// the last to one below: Othello's iterations alternate cheap and dear steps) when both
/// ran, else of the last step when the one below ran, else the square root of the growth
/// over the last two depths when the one two below ran; [`GROWTH_DEFAULT`] without those
/// (or with a zero time); clamped to `GROWTH_MIN..=GROWTH_MAX`. Two deeper: the last time times
/// the growth over the last two depths (clamped to the squares of those bounds), else the
/// square of the growth one deeper would have. Zero before any iteration.
pub(crate) fn predict(done: &[(u32, Duration)], depth: u32) -> Duration {
    let Some(&(last_depth, last)) = done.last() else {
        return Duration::ZERO;
    };
    let time_at = |d: u32| done.iter().rev().find(|&&(k, _)| k == d).map(|&(_, t)| t);
    let ratio = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
        (Some(a), Some(b)) if !a.is_zero() => Some(b.as_secs_f64() / a.as_secs_f64()),
        _ => None,
    };
    let (below1, below2) = (
        last_depth.checked_sub(1).and_then(time_at),
        last_depth.checked_sub(2).and_then(time_at),
    );
    let two = ratio(below2, Some(last));
    let one = match (below2, below1) {
        (Some(_), Some(_)) => ratio(below2, below1),
        (None, Some(_)) => ratio(below1, Some(last)),
        (Some(_), None) => two.map(f64::sqrt),
        (None, None) => None,
    }
    .unwrap_or(GROWTH_DEFAULT)
    .clamp(GROWTH_MIN, GROWTH_MAX);
    let growth = if depth >= last_depth + 2 {
        two.map_or(one * one, |g| g.clamp(GROWTH_MIN * GROWTH_MIN, GROWTH_MAX * GROWTH_MAX))
    } else {
        one
    };
    last.mul_f64(growth)
}

/// The depth of the iteration after the completed ones (`done`, oldest first; the last at
/// depth `last`), `elapsed` after the call of the search, for a search to `max_depth`:
/// two deeper where an iteration of the same parity is what the search will end on, else one
/// deeper. An iteration is worth about as much to the next-but-one as the one between them is
/// (the time to a depth, measured in docs/search.md, "Iterations that skip a depth"), so the
/// depth between is spent only where the search may end on it: from depth [`SKIP_FROM`],
/// under a time `budget` (the soft bound) when the iteration two deeper is predicted
/// ([`predict`]) to end within it, and without one when `max_depth` has the parity of
/// `last + 2`.
pub(crate) fn next_depth(done: &[(u32, Duration)], max_depth: u32, elapsed: Duration, budget: Option<Duration>) -> u32 {
    let last = done.last().map_or(0, |&(d, _)| d);
    if last < SKIP_FROM || last + 2 > max_depth {
        return last + 1;
    }
    let skip = match budget {
        None => (max_depth - last).is_multiple_of(2),
        Some(b) => elapsed + predict(done, last + 2) <= b,
    };
    if skip { last + 2 } else { last + 1 }
}

/// The two rules by which the root's stability moves the soft bound, from [`SearchConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stability {
    /// [`SearchConfig::stable_stop`]: a settled root gives half its soft bound back.
    pub(crate) stable_stop: bool,
    /// [`SearchConfig::unstable_time`]: an unstable root earns up to twice its soft bound.
    pub(crate) unstable_time: bool,
}

impl Stability {
    /// The rules `config` asks for.
    pub(crate) fn of(config: &SearchConfig) -> Stability {
        Stability {
            stable_stop: config.stable_stop,
            unstable_time: config.unstable_time,
        }
    }
}

/// The soft bound after the completed iterations whose best moves are `bests` (oldest
/// first): with `rules.unstable_time`, twice `limit.soft` (at most `limit.hard`) when the last
/// iteration changed the best move; with `rules.stable_stop`, half of it when the limit is a
/// clock's (soft below hard) and the last [`STABLE_ITERATIONS`] iterations agreed; else
/// `limit.soft`. A fixed time per move is never shortened (the time it does not spend is lost)
/// nor lengthened (its soft bound is its hard one).
pub(crate) fn soft_bound(limit: TimeLimit, bests: &[Move], rules: Stability) -> Duration {
    let n = bests.len();
    if rules.unstable_time && n >= 2 && bests[n - 1] != bests[n - 2] {
        return (limit.soft * UNSTABLE_FACTOR).min(limit.hard);
    }
    let settled = n >= STABLE_ITERATIONS && bests[n - STABLE_ITERATIONS..].iter().all(|&b| b == bests[n - 1]);
    if rules.stable_stop && settled && limit.soft < limit.hard {
        limit.soft / STABLE_DIVISOR
    } else {
        limit.soft
    }
}

/// Whether to start the next iteration, `elapsed` after the call of the search, under `limit`
/// (none: always), given its predicted time (`next`, [`predict`]) and the best moves of the
/// completed iterations (`bests`, oldest first, for [`soft_bound`] under `rules`). See
/// the module docs.
pub(crate) fn start_next(
    elapsed: Duration,
    limit: Option<TimeLimit>,
    next: Duration,
    bests: &[Move],
    rules: Stability,
) -> bool {
    let Some(limit) = limit else { return true };
    if elapsed >= soft_bound(limit, bests, rules) {
        return false;
    }
    if limit.soft >= limit.hard {
        // A fixed time per move: what is not spent now is lost, so every iteration that can
        // start does (an aborted one still fills the table and may prove a better move).
        return true;
    }
    elapsed + next.mul_f64(FIRST_MOVE_SHARE) <= limit.hard
}

/// The aspiration guess of the iteration at `depth`: the score of the completed iteration two
/// depths up (the same parity), if it ran (`scores`: depth and score of each completed one).
pub(crate) fn aspiration_guess(scores: &[(u32, i32)], depth: u32) -> Option<i32> {
    scores.iter().find(|&&(d, _)| d + 2 == depth).map(|&(_, s)| s)
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
#[allow(clippy::too_many_arguments, reason = "internal plumbing of the search state")]
pub(crate) fn deepen<E: Evaluator, T: Table>(
    worker: &mut Worker<'_, E, T>,
    pos: &Position,
    first: u32,
    max_depth: u32,
    config: &SearchConfig,
    clock: &Clock,
    mut handoff: Option<&mut HandOff>,
    mut report: impl FnMut(&Iteration),
) -> Option<Completed> {
    let empties = pos.empty_count();
    let mut order = initial_order(worker, pos, config);
    let mut last: Option<Completed> = None;
    // Completed scores by depth: the aspiration guess is the score two depths up (the same
    // parity), when that iteration ran.
    let mut scores: Vec<(u32, i32)> = Vec::new();
    let mut depth = first.max(1);
    // The depths and times, and the best moves, of the completed iterations.
    let (mut times, mut bests) = (Vec::new(), Vec::new());
    // How the root's stability moves the soft bound.
    let rules = Stability::of(config);
    while depth <= max_depth {
        if depth > first && clock.must_stop() {
            break;
        }
        let next = predict(&times, depth);
        let stops = depth > first && !start_next(clock.since_origin(), clock.time_limit(), next, &bests, rules);
        // Before the first iteration nothing is completed, and the rule never solves then.
        if let Some(h) = handoff.as_deref_mut() {
            let left = clock
                .time_limit()
                .map_or(Duration::ZERO, |t| t.hard.saturating_sub(clock.since_origin()));
            // The main thread's speed (its helpers, if any, speed up the solver too).
            let done = last.as_ref().map_or(0, |c| c.depth);
            if h.decide(done, left, next, worker.stats.nodes, clock.elapsed(), stops) {
                h.solve = true;
                break;
            }
        }
        if stops {
            break;
        }
        let previous_best = last.as_ref().map(|c| c.best);
        let guess = aspiration_guess(&scores, depth);
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
        scores.push((depth, out.score));
        times.push((depth, clock.since_origin().saturating_sub(started)));
        bests.push(out.best);
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
        worker.set_abortable();
        let budget = clock.time_limit().map(|l| soft_bound(l, &bests, rules));
        depth = if config.skip_depths {
            next_depth(&times, max_depth, clock.since_origin(), budget)
        } else {
            depth + 1
        };
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both stability rules on (the default).
    const ON: Stability = Stability {
        stable_stop: true,
        unstable_time: true,
    };
    /// The stable stop off, more time for an unstable root on.
    const NO_STOP: Stability = Stability {
        stable_stop: false,
        unstable_time: true,
    };
    /// More time for an unstable root off, the stable stop on.
    const NO_UNSTABLE: Stability = Stability {
        stable_stop: true,
        unstable_time: false,
    };

    #[test]
    fn the_rules_come_from_the_configuration() {
        assert_eq!(Stability::of(&SearchConfig::default()), ON);
        let config = SearchConfig::default().with_unstable_time(false);
        assert_eq!(Stability::of(&config), NO_UNSTABLE);
        assert_eq!(
            Stability::of(&config.with_stable_stop(false).with_unstable_time(true)),
            NO_STOP
        );
    }

    #[test]
    fn without_unstable_time_a_changed_best_move_keeps_the_soft_bound() {
        let clock = TimeLimit::new(ms(100), ms(400));
        let changed = moves(&[19, 26]);
        assert_eq!(soft_bound(clock, &changed, NO_UNSTABLE), ms(100));
        assert_eq!(soft_bound(clock, &moves(&[19, 19, 19, 19, 26]), NO_UNSTABLE), ms(100));
        // The stable stop still halves a settled root.
        assert_eq!(soft_bound(clock, &moves(&[19, 19, 19, 19]), NO_UNSTABLE), ms(50));
        assert!(start_next(ms(99), Some(clock), ms(1), &changed, NO_UNSTABLE));
        assert!(!start_next(ms(100), Some(clock), ms(1), &changed, NO_UNSTABLE));
        assert!(start_next(ms(150), Some(clock), ms(1), &changed, ON));
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Completed iterations at consecutive depths from `first`, with these times.
    fn run(first: u32, times: &[u64]) -> Vec<(u32, Duration)> {
        (first..).zip(times.iter().map(|&t| ms(t))).collect()
    }

    /// The prediction one deeper than the last of `times` (consecutive depths from 1).
    fn one(times: &[u64]) -> Duration {
        predict(&run(1, times), times.len() as u32 + 1)
    }

    #[test]
    fn the_prediction_uses_the_step_of_the_same_parity() {
        assert_eq!(predict(&[], 1), Duration::ZERO);
        // One iteration: the default growth.
        assert_eq!(one(&[10]), ms(30));
        // Two: the last step's growth (10 -> 40: 4x).
        assert_eq!(one(&[10, 40]), ms(160));
        // Three or more: the step two back (10 -> 20: 2x), not the last (20 -> 100: 5x).
        assert_eq!(one(&[10, 20, 100]), ms(200));
        assert_eq!(one(&[1, 10, 20, 100]), ms(200));
        assert_eq!(one(&[1, 1, 10, 20, 100]), ms(200));
        assert_eq!(one(&[1, 1, 1, 10, 20, 100]), ms(200));
        // Clamped both ways, and a zero time gives the default.
        assert_eq!(one(&[1, 100, 100]), ms(800));
        assert_eq!(one(&[100, 10, 10]), ms(15));
        assert_eq!(one(&[0, 10, 10]), ms(30));
        assert_eq!(one(&[0, 10]), ms(30));
        // The depths, not the order, name the steps: 6, 8, 10 (10 -> 40 over two depths)
        // predict 11 by the square root of that growth, 2x.
        let skipped = vec![(6, ms(2)), (8, ms(10)), (10, ms(40))];
        assert_eq!(predict(&skipped, 11), ms(80));
        // Every depth ran: the step from two below the last to one below (8 -> 9, 1.5x).
        let mixed = vec![(6, ms(2)), (7, ms(5)), (8, ms(10)), (9, ms(15)), (10, ms(40))];
        assert_eq!(predict(&mixed, 11), ms(60));
    }

    #[test]
    fn the_prediction_two_deeper_uses_the_growth_over_two_depths() {
        // 8 -> 10 grew 4x: 12 is predicted at 4x 10's time.
        let skipped = vec![(6, ms(2)), (8, ms(10)), (10, ms(40))];
        assert_eq!(predict(&skipped, 12), ms(160));
        // With every depth run, the same: 8 -> 10 (10 -> 40).
        assert_eq!(predict(&run(8, &[10, 20, 40]), 12), ms(160));
        // Clamped to the squares of the one-step bounds (2.25 to 64).
        assert_eq!(predict(&run(8, &[1, 5, 100]), 12), ms(6400));
        assert_eq!(predict(&run(8, &[100, 5, 100]), 12), ms(225));
        // Nothing two below the last: the square of the one-step growth (the last step's 3x).
        assert_eq!(predict(&[(5, ms(10)), (6, ms(30))], 8), ms(270));
        assert_eq!(predict(&[(6, ms(30))], 8), ms(270));
        // A single step's growth, squared after its clamp: 1.5^2.
        assert_eq!(
            predict(&[(5, ms(30)), (6, ms(30))], 8),
            ms(67) + Duration::from_micros(500)
        );
    }

    #[test]
    fn a_search_without_a_clock_skips_to_the_parity_of_its_last_depth() {
        let done = |d: u32| run(1, &vec![1; d as usize]);
        let mut path = Vec::new();
        let mut last = 0;
        while last < 16 {
            last = next_depth(&done(last), 16, ms(0), None);
            path.push(last);
        }
        assert_eq!(path, [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16]);
        let mut path = vec![];
        let mut last = 0;
        while last < 13 {
            last = next_depth(&done(last), 13, ms(0), None);
            path.push(last);
        }
        assert_eq!(path, [1, 2, 3, 4, 5, 6, 7, 9, 11, 13]);
        // Below SKIP_FROM, one at a time whatever the parity; never beyond the last depth.
        assert_eq!(next_depth(&done(SKIP_FROM - 1), 20, ms(0), None), SKIP_FROM);
        assert_eq!(next_depth(&done(SKIP_FROM), SKIP_FROM + 2, ms(0), None), SKIP_FROM + 2);
        assert_eq!(next_depth(&done(SKIP_FROM), SKIP_FROM + 1, ms(0), None), SKIP_FROM + 1);
        assert_eq!(next_depth(&done(10), 11, ms(0), None), 11);
        assert_eq!(next_depth(&done(10), 12, ms(0), None), 12);
        assert_eq!(next_depth(&done(11), 12, ms(0), None), 12);
        assert_eq!(next_depth(&[], 12, ms(0), None), 1);
    }

    #[test]
    fn the_aspiration_guess_is_the_score_two_depths_up() {
        let every = [(1, 10), (2, 20), (3, 30), (4, 40)];
        assert_eq!(aspiration_guess(&every, 5), Some(30));
        assert_eq!(aspiration_guess(&every, 3), Some(10));
        assert_eq!(aspiration_guess(&every, 2), None);
        // After a skip (6, then 8): 10 is guessed from 8, 9 (one deeper) from nothing.
        let skipped = [(5, 50), (6, 60), (8, 80)];
        assert_eq!(aspiration_guess(&skipped, 10), Some(80));
        assert_eq!(aspiration_guess(&skipped, 9), None);
        assert_eq!(aspiration_guess(&[], 3), None);
    }

    #[test]
    fn a_timed_search_skips_a_depth_when_the_next_but_one_fits() {
        // 8 -> 10 grew 4x (10 -> 40 ms): 12 is predicted to take 160 ms.
        let done = vec![(6, ms(2)), (7, ms(5)), (8, ms(10)), (9, ms(20)), (10, ms(40))];
        let budget = |b| Some(ms(b));
        // From 100 ms, 12 ends at 260: within a budget of 260, not of 259.
        assert_eq!(next_depth(&done, 30, ms(100), budget(260)), 12);
        assert_eq!(next_depth(&done, 30, ms(100), budget(259)), 11);
        // The parity of the last depth does not matter under a budget.
        assert_eq!(next_depth(&done, 31, ms(100), budget(260)), 12);
        assert_eq!(next_depth(&done, 31, ms(100), budget(259)), 11);
        // Not beyond the last depth, and not before SKIP_FROM.
        assert_eq!(next_depth(&done, 11, ms(0), budget(10_000)), 11);
        assert_eq!(next_depth(&done[..1], 30, ms(0), budget(10_000)), 8);
        assert_eq!(next_depth(&run(1, &[1; 5]), 30, ms(0), budget(10_000)), 6);
    }

    /// Best moves from square indices.
    fn moves(squares: &[u8]) -> Vec<Move> {
        squares
            .iter()
            .map(|&i| Move::Place(Square::from_index(i).unwrap()))
            .collect()
    }

    #[test]
    fn a_clock_starts_only_iterations_whose_first_move_ends_in_time() {
        let limit = Some(TimeLimit::new(ms(100), ms(400)));
        let steady = moves(&[19, 19]);
        // Predicted next 160 ms, its first move 80: from 90 it ends at 170, in time.
        assert!(start_next(ms(90), limit, ms(160), &steady, ON));
        // From 99 ms with a prediction of 600 (first move 300): 399, in time.
        assert!(start_next(ms(99), limit, ms(600), &steady[..1], ON));
        // From 99 ms with 606 (first move 303): 402, late.
        assert!(!start_next(ms(99), limit, ms(606), &steady[..1], ON));
        // The soft bound stops anything.
        assert!(!start_next(ms(100), limit, ms(1), &steady, NO_STOP));
        // An unstable root doubles the soft bound (up to the hard one).
        let changed = moves(&[19, 26]);
        assert!(start_next(ms(150), limit, ms(160), &changed, NO_STOP));
        assert!(!start_next(ms(200), limit, ms(1), &changed, ON));
        let tight = Some(TimeLimit::new(ms(100), ms(150)));
        assert!(start_next(ms(120), tight, ms(1), &changed, ON));
        assert!(!start_next(ms(150), tight, ms(1), &changed, ON));
        // No time limit: always.
        assert!(start_next(ms(1_000_000), None, ms(1_000_000), &changed, ON));
    }

    #[test]
    fn the_soft_bound_follows_the_best_moves() {
        let clock = TimeLimit::new(ms(100), ms(400));
        // Before two iterations nothing is known: the plain soft bound.
        assert_eq!(soft_bound(clock, &[], ON), ms(100));
        assert_eq!(soft_bound(clock, &moves(&[19]), ON), ms(100));
        // The last iteration changed the best move: twice, up to the hard bound.
        assert_eq!(soft_bound(clock, &moves(&[19, 26]), ON), ms(200));
        assert_eq!(soft_bound(clock, &moves(&[19, 19, 19, 19, 26]), ON), ms(200));
        assert_eq!(
            soft_bound(TimeLimit::new(ms(100), ms(150)), &moves(&[19, 26]), NO_STOP),
            ms(150)
        );
        // Three agreeing iterations are not yet settled; four are: half, with stable stop on.
        assert_eq!(soft_bound(clock, &moves(&[26, 19, 19, 19]), ON), ms(100));
        assert_eq!(soft_bound(clock, &moves(&[19, 19, 19, 19]), ON), ms(50));
        assert_eq!(soft_bound(clock, &moves(&[26, 26, 19, 19, 19, 19]), ON), ms(50));
        assert_eq!(soft_bound(clock, &moves(&[19, 19, 19, 19]), NO_STOP), ms(100));
        // An earlier change no longer counts once the last four agree.
        assert_eq!(soft_bound(clock, &moves(&[19, 26, 26, 26, 26]), ON), ms(50));
        assert_eq!(soft_bound(clock, &moves(&[19, 26, 19, 19, 19]), ON), ms(100));
        // A fixed time per move is never shortened (what it does not spend is lost).
        let fixed = TimeLimit::new(ms(70), ms(70));
        assert_eq!(soft_bound(fixed, &moves(&[19, 19, 19, 19, 19]), ON), ms(70));
        // The stop decision uses it.
        let settled = moves(&[19, 19, 19, 19]);
        assert!(!start_next(ms(50), Some(clock), ms(1), &settled, ON));
        assert!(start_next(ms(49), Some(clock), ms(1), &settled, ON));
        assert!(start_next(ms(50), Some(clock), ms(1), &settled, NO_STOP));
    }

    #[test]
    fn a_fixed_move_time_starts_every_iteration_until_the_end() {
        let limit = Some(TimeLimit::new(ms(72), ms(72)));
        let settled = moves(&[19, 19, 19, 19]);
        // Even one that cannot finish: the time would be lost.
        assert!(start_next(ms(71), limit, ms(200), &settled[..2], ON));
        assert!(start_next(ms(71), limit, ms(3), &settled, ON));
        assert!(start_next(ms(0), limit, Duration::ZERO, &[], ON));
        assert!(!start_next(ms(72), limit, ms(3), &settled[..1], NO_STOP));
        assert!(!start_next(ms(72), limit, ms(3), &moves(&[19, 26]), ON));
    }
}
