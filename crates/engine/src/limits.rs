//! [`Limits`], [`TimeLimit`], [`GameClock`] and the time manager [`allocate`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// When a player must stop thinking. Every field is optional; the player stops at the first
/// limit reached. The same value drives the alpha-beta search (`othello-search`), the endgame
/// solver (`othello-endgame`) and Monte Carlo tree search (`othello-mcts`); each documents
/// which fields it reads.
///
/// - `depth`: the deepest iteration, in discs placed (a pass uses none). `Some(0)` counts as 1.
///   Monte Carlo tree search and the solver ignore it (a solve is always to the end).
/// - `nodes`: a budget of the player's node counter (`Reply::nodes`): for alpha-beta, calls of
///   the search on a position (interior nodes, leaves, passes); for Monte Carlo tree search,
///   iterations (each adds at most one node to the tree and runs one playout). The budget is
///   shared by all threads (each gets `nodes / threads`). See `docs/conventions.md`.
/// - `time`: soft and hard bounds measured from the start of `think` (see [`TimeLimit`]).
/// - `clock`: a game clock; [`allocate`] turns it into a [`TimeLimit`] for this move. With both
///   `time` and `clock`, the tighter bound of each kind wins.
/// - `stop`: raise it from another thread to stop; the player returns its best move so far.
///
/// With no field set, a search runs to the end of the game (alpha-beta, solver) or for the
/// player's default budget (Monte Carlo tree search).
///
/// ```
/// use othello_engine::{GameClock, Limits, TimeLimit};
/// use std::time::Duration;
///
/// let limits = Limits::depth(6).with_nodes(1_000_000);
/// assert_eq!((limits.depth, limits.nodes), (Some(6), Some(1_000_000)));
///
/// // A game clock of 60 s + 1 s a move with 40 empty squares left: soft and hard bounds.
/// let clock = Limits::none().with_clock(GameClock::new(Duration::from_secs(60), Duration::from_secs(1)));
/// let t: TimeLimit = clock.time_limit(40).unwrap();
/// assert!(t.soft <= t.hard && t.hard < Duration::from_secs(60));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum iteration depth in discs placed.
    pub depth: Option<u32>,
    /// Maximum number of nodes (see the type docs for what a node is).
    pub nodes: Option<u64>,
    /// Soft and hard time bounds for this move.
    pub time: Option<TimeLimit>,
    /// The game clock, turned into a time limit by [`allocate`].
    pub clock: Option<GameClock>,
    /// External stop flag.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits::none().with_depth(depth)
    }

    /// A node-limited search.
    pub fn nodes(nodes: u64) -> Limits {
        Limits::none().with_nodes(nodes)
    }

    /// A timed search: no new iteration after `soft`, abort at `hard`.
    pub fn time(soft: Duration, hard: Duration) -> Limits {
        Limits::none().with_time(TimeLimit::new(soft, hard))
    }

    /// A fixed time per move: both bounds at `time`. Time left over from one move is lost
    /// (nothing banks it), so the search may start iterations until the end and uses the whole
    /// time; the deepening still skips an iteration whose first move it predicts not to finish
    /// (see `othello-search`). Keep the caller's own overhead out of `time`.
    pub fn move_time(time: Duration) -> Limits {
        Limits::time(time, time)
    }

    /// Sets the depth limit.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// Sets the node limit.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Sets the time limit.
    #[must_use]
    pub fn with_time(mut self, time: TimeLimit) -> Limits {
        self.time = Some(time);
        self
    }

    /// Sets the game clock.
    #[must_use]
    pub fn with_clock(mut self, clock: GameClock) -> Limits {
        self.clock = Some(clock);
        self
    }

    /// Sets the stop flag.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }

    /// The time bounds for a move with `empties` empty squares: `time`, the clock's
    /// [`allocate`], or the tighter of both (soft and hard bounds taken separately).
    pub fn time_limit(&self, empties: u32) -> Option<TimeLimit> {
        let from_clock = self.clock.map(|c| allocate(&c, empties));
        match (self.time, from_clock) {
            (Some(a), Some(b)) => Some(TimeLimit::new(a.soft.min(b.soft), a.hard.min(b.hard))),
            (a, b) => a.or(b),
        }
    }

    /// Whether the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether no limit bounds the work (no depth, nodes, time or clock; a stop flag does not
    /// count, since nobody may raise it).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none() && self.clock.is_none()
    }
}

/// A time budget measured from the start of the search. `soft == hard` is a fixed time per
/// move (nothing left over is kept, so the search uses it all; see [`Limits::move_time`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeLimit {
    /// Do not start a new iteration after this much time.
    pub soft: Duration,
    /// Abort the running iteration at this much time.
    pub hard: Duration,
}

impl TimeLimit {
    /// Soft and hard bounds; a `hard` below `soft` is raised to `soft`.
    pub fn new(soft: Duration, hard: Duration) -> TimeLimit {
        TimeLimit {
            soft,
            hard: hard.max(soft),
        }
    }
}

/// The player's game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameClock {
    /// Time left on the player's clock.
    pub remaining: Duration,
    /// Time added to the clock after each move.
    pub increment: Duration,
    /// Moves to make before the clock is next refilled (a tournament control); `None` for a
    /// sudden-death clock, where the player's moves left are estimated from the empty squares.
    pub moves_to_go: Option<u32>,
    /// What each move costs beyond the search ([`MOVE_OVERHEAD`] unless set): [`allocate`]
    /// keeps this much for every move the player may still have to make.
    pub overhead: Duration,
}

impl GameClock {
    /// A sudden-death clock with `remaining` time and `increment` per move.
    pub fn new(remaining: Duration, increment: Duration) -> GameClock {
        GameClock {
            remaining,
            increment,
            moves_to_go: None,
            overhead: MOVE_OVERHEAD,
        }
    }

    /// The clock with `moves` to make before the next refill.
    #[must_use]
    pub fn with_moves_to_go(mut self, moves: u32) -> GameClock {
        self.moves_to_go = Some(moves);
        self
    }

    /// The clock with `overhead` as the cost of each move beyond the search (see
    /// [`MOVE_OVERHEAD`]).
    #[must_use]
    pub fn with_overhead(mut self, overhead: Duration) -> GameClock {
        self.overhead = overhead;
        self
    }
}

/// Most time held back from the clock for the overhead of answering (see [`allocate`]).
pub const MAX_RESERVE: Duration = Duration::from_millis(500);

/// What a move costs beyond the search, by default ([`GameClock::overhead`]): stopping a search
/// the hard bound aborted and answering (`othello bench --movetime 20` measured the return at up
/// to 4.7 ms at the 99th percentile with one thread on a busy 2-core machine), and for an engine
/// behind a pipe (NBoard) the round trip to the GUI. [`allocate`] keeps it for every move left:
/// a reserve that is only a share of the clock halves with the clock near the end of a short
/// game and cannot pay a fixed cost per move (NBoard processes under `othello play --tc 2` with
/// no margin lost 42 of 100 games on time before this floor, none with it: docs/BENCHMARKS.md,
/// "Clocks and fixed move time").
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// Empty squares from which a player's moves are taken as free: [`allocate`] saves no time
/// for them. The default search hands the root to the exact solver at 14 empties, but under
/// the clocks measured its deepening has reached the end of the game (an exact result, which
/// the table keeps for the later moves) by about 20 empties, and every later move takes a few
/// milliseconds: with 14, `othello play pvs pvs --tc 2+0.02` reached 20 empties with 0.25 s of
/// 2.6 s left on average and spent 0.03 s of it; with 10 (measured at 10+0.1), a game ended
/// with 2.2-2.5 s of the 12.8 s unused. The moves from here on still get the time `MIN_MOVES`
/// leaves them (half of what is usable at each).
pub const FREE_EMPTIES: u32 = 20;

/// The fewest moves [`allocate`] shares the clock between, so that no move is given the
/// whole clock.
pub const MIN_MOVES: u32 = 2;

/// The time manager: soft and hard bounds for one move from a game clock, with `empties`
/// empty squares on the board.
///
/// The formula (all durations):
/// - `reserve = min(max(min(remaining / 20, MAX_RESERVE), overhead * left), remaining)`,
///   never spent: a share of the clock (answering takes time too), and at least the clock's
///   [`overhead`](GameClock::overhead) for each of the player's `left` moves (`moves_to_go`, or
///   `empties` with at least 1: the most moves the player can still make, each filling a
///   square, as when the opponent passes; `ceil(empties / 2)`, the count if nobody passes,
///   ran short in games where the opponent passed near the end); `usable = remaining -
///   reserve`;
/// - `moves = moves_to_go`, or for a sudden-death clock
///   `max(MIN_MOVES, ceil((empties - FREE_EMPTIES) / 2))`: the player's own moves left if
///   nobody passes, less those answered at once after the game is solved;
/// - `target = min(usable / moves + increment, usable)`: an equal share of what is left plus the
///   increment this move earns;
/// - `cap = usable / 2` (`usable` when `moves` is 1): no move takes more than half of what is
///   left while other moves remain (measured at 10+0.1 under load: with `usable` alone a move
///   at 16 empties took 0.86 s of 1.17 s, and the least time left after a move was 0.15 s);
/// - `soft = min(target, cap)`: no iteration starts after it. The search adjusts it to the
///   root (twice when the best move just changed, half when it stayed the same for several
///   iterations) and skips an iteration whose first move it predicts to end after the hard
///   bound: see `othello-search`'s deepening. With the halving on settled roots, most moves
///   stop before the target, so the soft bound starts at the target (at `target / 2`, the
///   midgame moves of `othello play pvs pvs --tc 10+0.1` used 0.54 of their target on average
///   and each side 68-71% of its clock; at `target`, 0.96 and 85-88%);
/// - `hard = min(2 * target, cap)`: a running iteration may overrun the target up to twice,
///   never into the reserve nor past the cap.
///
/// So `soft <= hard <= remaining`, and a player that stops at `hard` never loses on time as
/// long as each move costs at most `overhead` beyond its hard bound (and the reserve's share
/// covers anything else), whoever passes: after a move the time left is at least the reserve
/// less one overhead, which is at least the floor of the player's next move's reserve. When the clock is below the floor,
/// `usable` is 0 and the player answers at once.
///
/// ```
/// use othello_engine::{GameClock, allocate};
/// use std::time::Duration;
///
/// let ms = Duration::from_millis;
/// // 10 s left, no increment, 30 empty squares: 5 moves to share 9.5 s.
/// let t = allocate(&GameClock::new(ms(10_000), ms(0)), 30);
/// assert_eq!((t.soft, t.hard), (ms(1_900), ms(3_800)));
/// ```
pub fn allocate(clock: &GameClock, empties: u32) -> TimeLimit {
    let left = clock.moves_to_go.unwrap_or(empties).max(1);
    let floor = clock.overhead.saturating_mul(left);
    let reserve = (clock.remaining / 20).min(MAX_RESERVE).max(floor).min(clock.remaining);
    let usable = clock.remaining.saturating_sub(reserve);
    let own_moves = empties.saturating_sub(FREE_EMPTIES).div_ceil(2).max(MIN_MOVES);
    let moves = clock.moves_to_go.unwrap_or(own_moves).max(1);
    let target = (usable / moves + clock.increment).min(usable);
    let cap = if moves == 1 { usable } else { usable / 2 };
    TimeLimit::new(target.min(cap), (target * 2).min(cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn allocate_follows_the_documented_formula() {
        let us = Duration::from_micros;
        // 60 s sudden death, 52 empties: reserve 0.5 s, 16 moves (the last 20 empties are
        // free), target 3.71875 s.
        let t = allocate(&GameClock::new(ms(60_000), ms(0)), 52);
        assert_eq!((t.soft, t.hard), (ms(3_718) + us(750), ms(7_437) + us(500)));
        // The increment is added to the share.
        let t = allocate(&GameClock::new(ms(60_000), ms(1_000)), 52);
        assert_eq!((t.soft, t.hard), (ms(4_718) + us(750), ms(9_437) + us(500)));
        // A tournament control overrides the estimate from the empties.
        let t = allocate(&GameClock::new(ms(10_000), ms(0)).with_moves_to_go(5), 60);
        assert_eq!((t.soft, t.hard), (ms(1_900), ms(3_800)));
        let t = allocate(&GameClock::new(ms(10_000), ms(0)).with_moves_to_go(0), 40);
        assert_eq!((t.soft, t.hard), (ms(9_500), ms(9_500)));
        // Near the end at least MIN_MOVES share the clock, and no move may take more than half
        // of it while another move remains, the increment included.
        // (From 11 empties the floor, 5 ms a square, passes the share of 50 ms.)
        for empties in [0, 1, 5, 10] {
            let t = allocate(&GameClock::new(ms(1_000), ms(0)), empties);
            assert_eq!((t.soft, t.hard), (ms(475), ms(475)), "{empties}");
        }
        for (empties, half) in [(14, 465), (17, 457), (20, 450)] {
            let t = allocate(&GameClock::new(ms(1_000), ms(0)), empties);
            let half = ms(half) + us(if empties % 2 == 1 { 500 } else { 0 });
            assert_eq!((t.soft, t.hard), (half, half), "{empties}");
        }
        let t = allocate(&GameClock::new(ms(1_000), ms(1_000)), 14);
        assert_eq!((t.soft, t.hard), (ms(465), ms(465)));
        // The last move before a refill may use all that is usable.
        let t = allocate(&GameClock::new(ms(1_000), ms(0)).with_moves_to_go(1), 14);
        assert_eq!((t.soft, t.hard), (ms(950), ms(950)));
        // An odd count of the player's squares rounds its moves up: 25 empties, 3 moves.
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 25);
        assert_eq!((t.soft, t.hard), (ms(950), ms(1_425)));
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 26);
        assert_eq!(t.soft, ms(950));
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 27);
        assert_eq!((t.soft, t.hard), (ms(712) + us(500), ms(1_425)));
        // The reserve is capped: 1 h leaves 0.5 s aside, not 3 min.
        let t = allocate(&GameClock::new(ms(3_600_000), ms(0)).with_moves_to_go(1), 40);
        assert_eq!(t.hard, ms(3_599_500));
        // The floor: 5 ms for each move the player may still make, one a square. 21 empties keep
        // 105 ms of 1 s, not 50.
        let t = allocate(&GameClock::new(ms(1_000), ms(0)), 21);
        assert_eq!((t.soft, t.hard), (ms(447) + us(500), ms(447) + us(500)));
        let t = allocate(&GameClock::new(ms(1_000), ms(0)), 22);
        assert_eq!(t.soft, ms(445));
        let t = allocate(&GameClock::new(ms(1_000), ms(0)), 23);
        assert_eq!(t.soft, ms(442) + us(500));
        // 200 ms at 20 empties: 100 ms kept (not 10), 50 ms a move at most.
        let t = allocate(&GameClock::new(ms(200), ms(0)), 20);
        assert_eq!((t.soft, t.hard), (ms(50), ms(50)));
        let t = allocate(&GameClock::new(ms(200), ms(0)), 19);
        assert_eq!(t.hard, ms(52) + us(500));
        // The last empty square still keeps one overhead, and so does a tournament control's
        // last move; moves_to_go replaces the count from the empties.
        let t = allocate(&GameClock::new(ms(50), ms(0)), 1);
        assert_eq!(t.hard, ms(22) + us(500));
        let t = allocate(&GameClock::new(ms(50), ms(0)).with_moves_to_go(1), 60);
        assert_eq!(t.hard, ms(45));
        let t = allocate(&GameClock::new(ms(1_000), ms(0)).with_moves_to_go(40), 2);
        assert_eq!(t.hard, ms(40));
        // Below the floor nothing is usable: the player answers at once.
        let t = allocate(&GameClock::new(ms(40), ms(0)), 20);
        assert_eq!((t.soft, t.hard), (ms(0), ms(0)));
        // The overhead is the clock's own.
        let c = GameClock::new(ms(1_000), ms(0)).with_overhead(ms(20));
        assert_eq!(
            (c.overhead, GameClock::new(ms(1), ms(0)).overhead),
            (ms(20), MOVE_OVERHEAD)
        );
        assert_eq!(allocate(&c, 20).hard, ms(300));
        let t = allocate(&GameClock::new(ms(1_000), ms(0)).with_overhead(ms(0)), 60);
        assert_eq!(t.hard, ms(2 * 950 / 20));
    }

    /// The reserve of the documented formula for a sudden-death clock at the default overhead.
    fn expected_reserve(remaining: Duration, empties: u32) -> Duration {
        let floor = MOVE_OVERHEAD * empties.max(1);
        (remaining / 20).min(MAX_RESERVE).max(floor).min(remaining)
    }

    /// Plays a player's moves from 60 empties, each taking its hard bound plus `cost`, with the
    /// opponent moving in between (`passes` false) or always passing; the least time left after
    /// a move, or `None` if one ran out of time.
    fn least_left(clock: GameClock, cost: Duration, passes: bool) -> Option<Duration> {
        let mut remaining = clock.remaining;
        let mut least = remaining;
        for empties in (1..=60).rev().step_by(if passes { 1 } else { 2 }) {
            let t = allocate(&GameClock { remaining, ..clock }, empties);
            remaining = remaining.checked_sub(t.hard + cost)?;
            least = least.min(remaining);
            remaining += clock.increment;
        }
        Some(least)
    }

    #[test]
    fn a_fixed_cost_per_move_up_to_the_overhead_never_runs_out_of_time() {
        for (base, inc) in [
            (4_000, 0),
            (1_000, 0),
            (200, 0),
            (100, 0),
            (60, 0),
            (2_000, 20),
            (10_000, 100),
        ] {
            // The clock must hold the floor at the start: 60 squares of overhead.
            for overhead in [1, 5, 12].into_iter().filter(|o| o * 60 <= base) {
                let clock = GameClock::new(ms(base), ms(inc)).with_overhead(ms(overhead));
                for cost in [0, overhead / 2, overhead] {
                    for passes in [false, true] {
                        assert!(
                            least_left(clock, ms(cost), passes).is_some(),
                            "{base}+{inc}, {overhead} ms, cost {cost}, passes {passes}"
                        );
                    }
                }
            }
        }
        // Without the floor the reserve halves with the clock near the end and a cost of 5 ms a
        // move runs out (the losses of two NBoard processes at a 4 s clock).
        let no_floor = GameClock::new(ms(4_000), ms(0)).with_overhead(ms(0));
        assert_eq!(least_left(no_floor, ms(5), false), None);
        assert!(least_left(no_floor, ms(0), false).is_some());
        // A cost above the floor can run out, with the floor as without.
        let clock = GameClock::new(ms(4_000), ms(0));
        assert_eq!(least_left(clock, ms(12), false), None);
    }

    #[test]
    fn a_player_that_always_takes_the_hard_bound_keeps_time_to_the_end() {
        // Every move takes its whole hard bound: the clock keeps its reserve after each
        // move, so it never runs out while answering takes less.
        for (base, inc) in [(10_000, 100), (60_000, 500), (2_000, 50), (1_000, 0), (300, 1_000)] {
            let mut remaining = ms(base);
            for empties in (1..=60).rev().step_by(2) {
                let t = allocate(&GameClock::new(remaining, ms(inc)), empties);
                let reserve = expected_reserve(remaining, empties);
                assert!(
                    t.soft <= t.hard && t.hard + reserve <= remaining,
                    "{base}+{inc} at {empties}"
                );
                remaining -= t.hard;
                assert!(
                    remaining >= reserve && !remaining.is_zero(),
                    "{base}+{inc} at {empties}"
                );
                remaining += ms(inc);
            }
        }
        // The increment is spent: it raises both bounds.
        let c = |inc| allocate(&GameClock::new(ms(10_000), ms(inc)), 40);
        assert!(c(500).soft > c(0).soft && c(500).hard > c(0).hard);
    }

    #[test]
    fn allocate_never_spends_the_reserve() {
        for remaining in [0, 1, 7, 99, 1_000, 20_000, 3_600_000] {
            for inc in [0, 10, 5_000, 100_000] {
                for empties in [0, 1, 2, 13, 60] {
                    let c = GameClock::new(ms(remaining), ms(inc));
                    let t = allocate(&c, empties);
                    let reserve = expected_reserve(ms(remaining), empties);
                    assert!(t.soft <= t.hard, "{c:?} {empties}");
                    assert!(t.hard <= ms(remaining) - reserve, "{c:?} {empties}");
                    // Sudden death shares between at least two moves: half at most.
                    assert!(t.hard <= (ms(remaining) - reserve) / 2, "{c:?} {empties}");
                }
            }
        }
        assert_eq!(
            allocate(&GameClock::new(ms(0), ms(0)), 10),
            TimeLimit::new(ms(0), ms(0))
        );
    }

    #[test]
    fn more_empties_mean_less_time_per_move() {
        let c = GameClock::new(ms(30_000), ms(0));
        assert!(allocate(&c, 50).hard < allocate(&c, 10).hard);
    }

    #[test]
    fn limits_combine_time_and_clock_by_the_tighter_bound() {
        let l = Limits::time(ms(100), ms(10_000)).with_clock(GameClock::new(ms(10_000), ms(0)));
        // Clock: 5 moves of 1.9 s: soft 1.9 s, hard 3.8 s.
        assert_eq!(l.time_limit(30), Some(TimeLimit::new(ms(100), ms(3_800))));
        let l = Limits::time(ms(2_000), ms(3_000)).with_clock(GameClock::new(ms(10_000), ms(0)));
        assert_eq!(l.time_limit(30), Some(TimeLimit::new(ms(1_900), ms(3_000))));
        assert_eq!(Limits::depth(3).time_limit(20), None);
        // A fixed time per move: both bounds at it.
        assert_eq!(
            Limits::move_time(ms(20)).time_limit(5),
            Some(TimeLimit::new(ms(20), ms(20)))
        );
        assert_eq!(TimeLimit::new(ms(5), ms(1)).hard, ms(5));
    }

    #[test]
    fn builders_set_each_field() {
        let stop = Arc::new(AtomicBool::new(false));
        let l = Limits::none()
            .with_depth(3)
            .with_nodes(7)
            .with_time(TimeLimit::new(ms(1), ms(2)))
            .with_stop(stop.clone());
        assert_eq!(
            (l.depth, l.nodes, l.time),
            (Some(3), Some(7), Some(TimeLimit::new(ms(1), ms(2))))
        );
        assert!(!l.stopped() && !l.is_unbounded());
        stop.store(true, Ordering::Relaxed);
        assert!(l.stopped());
        assert!(Limits::none().with_stop(stop).is_unbounded());
        assert!(!Limits::nodes(1).is_unbounded());
        assert!(!Limits::none().with_clock(GameClock::new(ms(1), ms(0))).is_unbounded());
    }
}
