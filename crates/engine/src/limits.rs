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
}

impl GameClock {
    /// A sudden-death clock with `remaining` time and `increment` per move.
    pub fn new(remaining: Duration, increment: Duration) -> GameClock {
        GameClock {
            remaining,
            increment,
            moves_to_go: None,
        }
    }

    /// The clock with `moves` to make before the next refill.
    #[must_use]
    pub fn with_moves_to_go(mut self, moves: u32) -> GameClock {
        self.moves_to_go = Some(moves);
        self
    }
}

/// Most time held back from the clock for the overhead of answering (see [`allocate`]).
pub const MAX_RESERVE: Duration = Duration::from_millis(500);

/// Empty squares below which a player's moves are taken as free: the exact solver ends the
/// game in milliseconds there, so [`allocate`] does not save time for those moves.
pub const FREE_EMPTIES: u32 = 10;

/// The fewest moves [`allocate`] shares the clock between, so that no move is given the
/// whole clock.
pub const MIN_MOVES: u32 = 2;

/// The time manager: soft and hard bounds for one move from a game clock, with `empties`
/// empty squares on the board.
///
/// The formula (all durations):
/// - `reserve = min(remaining / 20, MAX_RESERVE)`, never spent (answering takes time too);
///   `usable = remaining - reserve`;
/// - `moves = moves_to_go`, or for a sudden-death clock
///   `max(MIN_MOVES, ceil((empties - FREE_EMPTIES) / 2))`: the player's own moves left if
///   nobody passes, less those the solver plays at once;
/// - `target = min(usable / moves + increment, usable)`: an equal share of what is left plus the
///   increment this move earns;
/// - `soft = target / 2`: no iteration starts after it (the search doubles it when the best
///   move just changed, and skips an iteration whose first move it predicts to end after the
///   hard bound: see `othello-search`'s deepening), so a move takes about the target on average;
/// - `hard = min(2 * target, usable / 2)` (`usable` when `moves` is 1): a running iteration
///   may overrun the target up to twice, never into the reserve nor past half of what is left
///   while other moves remain (measured at 10+0.1 under load: with `usable` alone a move at 16
///   empties took 0.86 s of 1.17 s, and the least time left after a move was 0.15 s).
///
/// So `soft <= hard <= remaining`, and a player that stops at `hard` never loses on time as
/// long as answering takes less than the reserve.
///
/// ```
/// use othello_engine::{GameClock, allocate};
/// use std::time::Duration;
///
/// let ms = Duration::from_millis;
/// // 10 s left, no increment, 20 empty squares: 5 moves to share 9.5 s.
/// let t = allocate(&GameClock::new(ms(10_000), ms(0)), 20);
/// assert_eq!((t.soft, t.hard), (ms(950), ms(3_800)));
/// ```
pub fn allocate(clock: &GameClock, empties: u32) -> TimeLimit {
    let reserve = (clock.remaining / 20).min(MAX_RESERVE);
    let usable = clock.remaining.saturating_sub(reserve);
    let own_moves = empties.saturating_sub(FREE_EMPTIES).div_ceil(2).max(MIN_MOVES);
    let moves = clock.moves_to_go.unwrap_or(own_moves).max(1);
    let target = (usable / moves + clock.increment).min(usable);
    let cap = if moves == 1 { usable } else { usable / 2 };
    TimeLimit::new(target / 2, (target * 2).min(cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn allocate_follows_the_documented_formula() {
        // 60 s sudden death, 50 empties: reserve 0.5 s, 20 moves (the last 10 empties are
        // free), target 2.975 s.
        let t = allocate(&GameClock::new(ms(60_000), ms(0)), 50);
        assert_eq!((t.soft, t.hard), (ms(1_487) + Duration::from_micros(500), ms(5_950)));
        // The increment is added to the share.
        let t = allocate(&GameClock::new(ms(60_000), ms(1_000)), 50);
        assert_eq!((t.soft, t.hard), (ms(1_987) + Duration::from_micros(500), ms(7_950)));
        // A tournament control overrides the estimate from the empties.
        let t = allocate(&GameClock::new(ms(10_000), ms(0)).with_moves_to_go(5), 60);
        assert_eq!((t.soft, t.hard), (ms(950), ms(3_800)));
        let t = allocate(&GameClock::new(ms(10_000), ms(0)).with_moves_to_go(0), 40);
        assert_eq!(t.hard, ms(9_500));
        // Near the end at least MIN_MOVES share the clock, and no move may take more than half
        // of it while another move remains.
        for empties in [0, 1, 5, 10, 13, 14] {
            let t = allocate(&GameClock::new(ms(1_000), ms(0)), empties);
            assert_eq!(
                (t.soft, t.hard),
                (ms(237) + Duration::from_micros(500), ms(475)),
                "{empties}"
            );
        }
        let t = allocate(&GameClock::new(ms(1_000), ms(1_000)), 14);
        assert_eq!((t.soft, t.hard), (ms(475), ms(475)));
        // The last move before a refill may use all that is usable.
        let t = allocate(&GameClock::new(ms(1_000), ms(0)).with_moves_to_go(1), 14);
        assert_eq!((t.soft, t.hard), (ms(475), ms(950)));
        // An odd count of the player's squares rounds its moves up: 15 empties, 3 moves.
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 15);
        assert_eq!(t.soft, ms(475));
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 16);
        assert_eq!(t.soft, ms(475));
        let t = allocate(&GameClock::new(ms(3_000), ms(0)), 17);
        assert_eq!(t.soft, ms(356) + Duration::from_micros(250));
        // The reserve is capped: 1 h leaves 0.5 s aside, not 3 min.
        let t = allocate(&GameClock::new(ms(3_600_000), ms(0)).with_moves_to_go(1), 40);
        assert_eq!(t.hard, ms(3_599_500));
    }

    #[test]
    fn allocate_never_spends_the_reserve() {
        for remaining in [0, 1, 7, 99, 1_000, 20_000, 3_600_000] {
            for inc in [0, 10, 5_000, 100_000] {
                for empties in [0, 1, 2, 13, 60] {
                    let c = GameClock::new(ms(remaining), ms(inc));
                    let t = allocate(&c, empties);
                    let reserve = (ms(remaining) / 20).min(MAX_RESERVE);
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
        // Clock: 5 moves of 1.9 s: soft 950 ms, hard 3.8 s.
        assert_eq!(l.time_limit(20), Some(TimeLimit::new(ms(100), ms(3_800))));
        let l = Limits::time(ms(2_000), ms(3_000)).with_clock(GameClock::new(ms(10_000), ms(0)));
        assert_eq!(l.time_limit(20), Some(TimeLimit::new(ms(950), ms(3_000))));
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
