//! Time controls and the game clock, measured by the runner on a monotonic clock.
//!
//! - `tc=BASE+INC` (seconds, e.g. `10+0.1`, or `60` without increment): a clock per side; the
//!   time a move takes is subtracted, then the increment is added. A move that takes more than
//!   the time left plus the margin loses the game on time.
//! - `st=SECONDS`: a fixed time per move; a move that takes longer than it plus the margin
//!   loses on time.
//! - neither: the players' own limits (depth, nodes) decide; only the hang timeout applies.
//!
//! Players are told their clock through [`Limits`]: the game clock ([`GameClock`], which the
//! search and MCTS turn into soft and hard limits with `othello_engine::allocate`) or a time
//! limit for a fixed time per move.

use crate::error::{CliResult, input};
use othello_engine::{GameClock, Limits, MOVE_OVERHEAD, TimeLimit};
use std::time::Duration;

/// How a game is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: fixed depth or nodes from the players' specs.
    None,
    /// A fixed time per move.
    PerMove(Duration),
    /// Base time per game plus an increment per move.
    Clock {
        /// Time per side for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

/// Parses seconds (`0.5`, `10`), refusing negative, NaN and absurd values.
fn seconds(text: &str, what: &str) -> CliResult<Duration> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| input(format!("bad {what} '{text}': expected seconds, e.g. 10 or 0.1")))?;
    if !(v.is_finite() && (0.0..=1e6).contains(&v)) {
        return Err(input(format!("bad {what} '{text}': expected 0 to 1000000 seconds")));
    }
    Ok(Duration::from_secs_f64(v))
}

impl TimeControl {
    /// Parses `--tc BASE[+INC]`.
    pub fn parse_tc(text: &str) -> CliResult<TimeControl> {
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let base = seconds(b, "--tc base")?;
        let increment = seconds(i, "--tc increment")?;
        if base.is_zero() {
            return Err(input(format!("bad --tc '{text}': the base time must be above 0")));
        }
        Ok(TimeControl::Clock { base, increment })
    }

    /// Parses `--st SECONDS`.
    pub fn parse_st(text: &str) -> CliResult<TimeControl> {
        let t = seconds(text, "--st")?;
        if t.is_zero() {
            return Err(input(format!("bad --st '{text}': expected more than 0 seconds")));
        }
        Ok(TimeControl::PerMove(t))
    }

    /// The GGF `TI[]` text: `BASE/INC/` in seconds, or the time per move; `None` without clock.
    pub fn ggf(&self) -> Option<String> {
        match *self {
            TimeControl::None => None,
            TimeControl::PerMove(t) => Some(format!("{}", t.as_secs_f64())),
            TimeControl::Clock { base, increment } => {
                Some(format!("{}/{}/", base.as_secs_f64(), increment.as_secs_f64()))
            }
        }
    }

    /// The text form for output (`10+0.1`, `st=0.5`, `none`).
    pub fn describe(&self) -> String {
        match *self {
            TimeControl::None => "none".to_string(),
            TimeControl::PerMove(t) => format!("st={}", t.as_secs_f64()),
            TimeControl::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// What a player keeps in hand of a fixed time per move `t` under a move overhead of
/// `overhead`, with `floor` the least a move costs beyond the search: `min(overhead, max(floor,
/// t / 16), t / 2)`. The runner gives its in-process players `othello_engine::MOVE_OVERHEAD`
/// (5 ms) as the floor, the return from a search the hard bound aborted (docs/BENCHMARKS.md;
/// its own work around a move is microseconds): 5 ms of 75 ms, 12.5 ms of 200 ms. `othello
/// nboard` gives its `--move-overhead`. A fixed time is not a clock: nothing that is left over is kept,
/// so the reserve is only what a search needs to stop and answer (the `--overhead` of a clock,
/// 100 ms by default, would waste most of a short move).
pub fn per_move_reserve(t: Duration, overhead: Duration, floor: Duration) -> Duration {
    overhead.min(floor.max(t / 16)).min(t / 2)
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    /// Time the moves charged so far took.
    used: Duration,
    /// Moves charged so far.
    moves: u32,
    /// Time and count of the searched moves charged so far (see [`Clock::charge`]).
    searched_used: Duration,
    searched_moves: u32,
    /// The least time left after a move charged so far (a clock only).
    least_left: Option<Duration>,
}

/// How one side used its time in a game: the records' `a_time_used`, `a_time_searched`,
/// `a_time_left`, `a_least_left` and B's (see docs/cli.md, "Clocks").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeUse {
    /// The share of its time used over all its moves ([`Clock::share_used`]).
    pub share: f64,
    /// Under a fixed time per move, the share of it used on the searched moves (more than one
    /// legal move, no exact result: the moves that had a reason to use the time); `None` under a
    /// clock or without a searched move.
    pub searched: Option<f64>,
    /// Under a clock, the time left at the end of the game.
    pub left: Option<Duration>,
    /// Under a clock, the least time left after one of its moves.
    pub least_left: Option<Duration>,
}

/// The verdict of the clock on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockCheck {
    /// In time.
    Ok,
    /// Over the limit plus the margin: `allowed` was the limit.
    Flag {
        /// What the move was allowed.
        allowed: Duration,
    },
}

impl Clock {
    /// A full clock for a new game.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control {
            TimeControl::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clock {
            control,
            remaining,
            used: Duration::ZERO,
            moves: 0,
            searched_used: Duration::ZERO,
            searched_moves: 0,
            least_left: None,
        }
    }

    /// How this side used its time so far; `None` without a clock or before the first move.
    pub fn time_use(&self) -> Option<TimeUse> {
        let share = self.share_used()?;
        let (searched, left) = match self.control {
            TimeControl::PerMove(t) => {
                let given = t * self.searched_moves;
                let searched = (!given.is_zero()).then(|| self.searched_used.as_secs_f64() / given.as_secs_f64());
                (searched, None)
            }
            _ => (None, Some(self.remaining)),
        };
        Some(TimeUse {
            share,
            searched,
            left,
            least_left: self.least_left,
        })
    }

    /// The share of its time this side used so far: the time its moves took over what it was
    /// given (the base time and the increments of its moves, or the fixed time of each move);
    /// `None` without a clock or before the first move.
    pub fn share_used(&self) -> Option<f64> {
        let given = match self.control {
            TimeControl::None => return None,
            TimeControl::PerMove(t) => t * self.moves,
            TimeControl::Clock { base, increment } => base + increment * self.moves,
        };
        (self.moves > 0 && !given.is_zero()).then(|| self.used.as_secs_f64() / given.as_secs_f64())
    }

    /// `limits` with this clock added for the next move, keeping `overhead` in hand for
    /// whatever the player does not see (the runner's work, the scheduler of a busy machine;
    /// as the "move overhead" of chess engines): the game clock less `min(overhead, left / 2)`
    /// (the player's time manager turns it into soft and hard limits), or for a fixed time per
    /// move both bounds at the time less [`per_move_reserve`] (as `Limits::move_time`).
    ///
    /// The game clock's own per-move floor (`GameClock::overhead`) is 0 here: an in-process
    /// player's moves cost microseconds beyond the search, and what is kept out of the clock
    /// already covers the rest. With the engine's default floor (5 ms a move left) as well,
    /// `othello play pvs pvs --tc 1 --games 100` used 87.0% of the clock against 94.3-94.6%, with no
    /// game lost on time either way (docs/BENCHMARKS.md, "Clocks and fixed move time").
    pub fn limits(&self, limits: Limits, overhead: Duration) -> Limits {
        match self.control {
            TimeControl::None => limits,
            TimeControl::PerMove(t) => {
                let hard = t - per_move_reserve(t, overhead, MOVE_OVERHEAD);
                let soft = hard;
                let time = match limits.time {
                    Some(own) => TimeLimit::new(own.soft.min(soft), own.hard.min(hard)),
                    None => TimeLimit::new(soft, hard),
                };
                limits.with_time(time)
            }
            TimeControl::Clock { increment, .. } => {
                let told = self.remaining - overhead.min(self.remaining / 2);
                limits.with_clock(GameClock::new(told, increment).with_overhead(Duration::ZERO))
            }
        }
    }

    /// Whether moves are timed (a clock or a fixed time per move).
    pub fn is_timed(&self) -> bool {
        self.control != TimeControl::None
    }

    /// Charges a move that took `used`: flags it if over the limit plus `margin`, else takes
    /// the time off and adds the increment. `searched` tells a move the player searched (more
    /// than one legal move and no exact result) from one it could answer at once, for
    /// [`TimeUse::searched`].
    pub fn charge(&mut self, used: Duration, margin: Duration, searched: bool) -> ClockCheck {
        self.used += used;
        self.moves += 1;
        if searched {
            self.searched_used += used;
            self.searched_moves += 1;
        }
        match self.control {
            TimeControl::None => ClockCheck::Ok,
            TimeControl::PerMove(t) => {
                if used > t + margin {
                    ClockCheck::Flag { allowed: t }
                } else {
                    ClockCheck::Ok
                }
            }
            TimeControl::Clock { increment, .. } => {
                if used > self.remaining + margin {
                    let allowed = self.remaining;
                    self.remaining = Duration::ZERO;
                    ClockCheck::Flag { allowed }
                } else {
                    let left = self.remaining.saturating_sub(used);
                    self.least_left = Some(self.least_left.map_or(left, |l| l.min(left)));
                    self.remaining = left + increment;
                    ClockCheck::Ok
                }
            }
        }
    }

    /// Time left.
    #[cfg(test)]
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The time charged or spent so far.
    pub fn used(&self) -> Duration {
        self.used
    }

    /// What the next move may take before the margin: the time left on a clock, the fixed
    /// time per move, `None` without a clock.
    pub fn allowed(&self) -> Option<Duration> {
        match self.control {
            TimeControl::None => None,
            TimeControl::PerMove(t) => Some(t),
            TimeControl::Clock { .. } => Some(self.remaining),
        }
    }

    /// Takes `used` off the clock without counting a move or adding the increment (time spent
    /// on something that is not a move, such as asking to take a move back); flags as
    /// [`Clock::charge`] when it is over the time left plus `margin`.
    pub fn spend(&mut self, used: Duration, margin: Duration) -> ClockCheck {
        self.used += used;
        match self.control {
            TimeControl::None => ClockCheck::Ok,
            TimeControl::PerMove(t) if used > t.saturating_add(margin) => ClockCheck::Flag { allowed: t },
            TimeControl::PerMove(_) => ClockCheck::Ok,
            TimeControl::Clock { .. } if used > self.remaining.saturating_add(margin) => {
                let allowed = self.remaining;
                self.remaining = Duration::ZERO;
                ClockCheck::Flag { allowed }
            }
            TimeControl::Clock { .. } => {
                self.remaining -= used.min(self.remaining);
                ClockCheck::Ok
            }
        }
    }

    /// The clock as shown to a person: `m:ss.t` left on a clock, the time per move for a
    /// fixed time per move, `None` without a clock.
    pub fn show(&self) -> Option<String> {
        match self.control {
            TimeControl::None => None,
            TimeControl::PerMove(t) => Some(format!("{:.1} s a move", t.as_secs_f64())),
            TimeControl::Clock { .. } => {
                let tenths = self.remaining.as_millis() / 100;
                Some(format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_controls() {
        assert_eq!(
            TimeControl::parse_tc("10+0.1").unwrap(),
            TimeControl::Clock {
                base: ms(10_000),
                increment: ms(100)
            }
        );
        assert_eq!(
            TimeControl::parse_tc("60").unwrap(),
            TimeControl::Clock {
                base: ms(60_000),
                increment: ms(0)
            }
        );
        assert_eq!(TimeControl::parse_st("0.25").unwrap(), TimeControl::PerMove(ms(250)));
        for bad in ["", "x", "-1", "1+-1", "0+0", "0+1", "nan", "1e9", "1+2+3"] {
            assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
        }
        assert!(TimeControl::parse_st("0").is_err());
        assert_eq!(TimeControl::parse_tc("10+0.1").unwrap().ggf().unwrap(), "10/0.1/");
    }

    #[test]
    fn spending_takes_time_without_a_move_or_an_increment() {
        let mut c = Clock::new(TimeControl::Clock {
            base: ms(65_000),
            increment: ms(100),
        });
        assert_eq!(c.show().as_deref(), Some("1:05.0"));
        assert_eq!(c.allowed(), Some(ms(65_000)));
        assert_eq!(c.spend(ms(5_050), ms(0)), ClockCheck::Ok);
        assert_eq!(c.remaining(), ms(59_950));
        assert_eq!(c.show().as_deref(), Some("0:59.9"));
        assert_eq!(c.share_used(), None, "no move counted");
        assert_eq!(
            c.clone().spend(ms(59_950), ms(0)),
            ClockCheck::Ok,
            "all of it, not more"
        );
        assert_eq!(c.spend(ms(60_000), ms(49)), ClockCheck::Flag { allowed: ms(59_950) });
        assert_eq!(c.remaining(), ms(0));
        let mut st = Clock::new(TimeControl::PerMove(ms(500)));
        assert_eq!(st.allowed(), Some(ms(500)));
        assert_eq!(st.show().as_deref(), Some("0.5 s a move"));
        assert_eq!(st.spend(ms(500), ms(0)), ClockCheck::Ok);
        assert_eq!(st.spend(ms(501), ms(0)), ClockCheck::Flag { allowed: ms(500) });
        let mut none = Clock::new(TimeControl::None);
        assert_eq!((none.allowed(), none.show()), (None, None));
        assert_eq!(none.spend(ms(1_000_000), ms(0)), ClockCheck::Ok);
    }

    #[test]
    fn clock_charges_and_flags() {
        let mut c = Clock::new(TimeControl::Clock {
            base: ms(1000),
            increment: ms(100),
        });
        assert_eq!(c.charge(ms(300), ms(0), true), ClockCheck::Ok);
        assert_eq!(c.remaining(), ms(800));
        // 850 ms is within 800 + 50 margin; the clock floors at zero before the increment.
        assert_eq!(c.charge(ms(850), ms(50), true), ClockCheck::Ok);
        assert_eq!(c.remaining(), ms(100));
        assert_eq!(c.charge(ms(151), ms(50), true), ClockCheck::Flag { allowed: ms(100) });
        let mut p = Clock::new(TimeControl::PerMove(ms(100)));
        assert_eq!(p.charge(ms(100), ms(0), true), ClockCheck::Ok);
        assert_eq!(p.charge(ms(101), ms(0), true), ClockCheck::Flag { allowed: ms(100) });
        let mut n = Clock::new(TimeControl::None);
        assert_eq!(n.charge(ms(1_000_000), ms(0), false), ClockCheck::Ok);
    }

    #[test]
    fn per_move_reserve_is_small_and_bounded() {
        let per_move_reserve = |t, overhead| per_move_reserve(t, overhead, MOVE_OVERHEAD);
        assert_eq!(per_move_reserve(ms(75), ms(100)), ms(5));
        assert_eq!(per_move_reserve(ms(200), ms(100)), ms(12) + Duration::from_micros(500));
        assert_eq!(per_move_reserve(ms(20), ms(100)), ms(5));
        assert_eq!(per_move_reserve(ms(4), ms(100)), ms(2));
        assert_eq!(per_move_reserve(ms(10_000), ms(100)), ms(100));
        assert_eq!(per_move_reserve(ms(75), ms(0)), ms(0));
        assert_eq!(per_move_reserve(ms(75), ms(3)), ms(3));
        // Another floor: 20 ms of 75, none beyond t / 16, at most half.
        assert_eq!(super::per_move_reserve(ms(75), ms(75), ms(20)), ms(20));
        assert_eq!(super::per_move_reserve(ms(160), ms(160), ms(0)), ms(10));
        assert_eq!(super::per_move_reserve(ms(160), ms(160), ms(500)), ms(80));
    }

    #[test]
    fn the_share_used_counts_the_time_given() {
        let mut c = Clock::new(TimeControl::Clock {
            base: ms(1000),
            increment: ms(100),
        });
        assert_eq!(c.share_used(), None);
        c.charge(ms(300), ms(0), true);
        c.charge(ms(300), ms(0), true);
        // 600 ms of 1000 + 2 * 100.
        assert_eq!(c.share_used(), Some(0.5));
        let mut p = Clock::new(TimeControl::PerMove(ms(100)));
        p.charge(ms(90), ms(0), true);
        p.charge(ms(60), ms(0), true);
        assert!((p.share_used().unwrap() - 0.75).abs() < 1e-12);
        let mut n = Clock::new(TimeControl::None);
        n.charge(ms(5), ms(0), true);
        assert_eq!(n.share_used(), None);
    }

    #[test]
    fn the_time_use_separates_searched_moves_and_tracks_the_time_left() {
        // A fixed time per move: all moves count in the share, the searched ones alone in
        // `searched`.
        let mut p = Clock::new(TimeControl::PerMove(ms(100)));
        assert_eq!(p.time_use(), None);
        p.charge(ms(90), ms(0), true);
        p.charge(ms(2), ms(0), false);
        p.charge(ms(80), ms(0), true);
        let u = p.time_use().unwrap();
        assert!((u.share - 172.0 / 300.0).abs() < 1e-12);
        assert!((u.searched.unwrap() - 0.85).abs() < 1e-12);
        assert_eq!((u.left, u.least_left), (None, None));
        let mut forced = Clock::new(TimeControl::PerMove(ms(100)));
        forced.charge(ms(1), ms(0), false);
        assert_eq!(forced.time_use().unwrap().searched, None);
        // A clock: the time left at the end and the least left after a move (before its
        // increment).
        let mut c = Clock::new(TimeControl::Clock {
            base: ms(1000),
            increment: ms(100),
        });
        c.charge(ms(700), ms(0), true);
        c.charge(ms(100), ms(0), true);
        c.charge(ms(50), ms(0), false);
        let u = c.time_use().unwrap();
        assert_eq!(u.searched, None);
        assert_eq!((u.left, u.least_left), (Some(ms(450)), Some(ms(300))));
        assert!((u.share - 850.0 / 1300.0).abs() < 1e-12);
        assert_eq!(Clock::new(TimeControl::None).time_use(), None);
    }

    #[test]
    fn limits_carry_the_clock() {
        let c = Clock::new(TimeControl::Clock {
            base: ms(5000),
            increment: ms(20),
        });
        let l = c.limits(Limits::depth(9), ms(30));
        let clock = |remaining, increment| Some(GameClock::new(remaining, increment).with_overhead(ms(0)));
        assert_eq!(l.clock, clock(ms(4970), ms(20)));
        assert_eq!(l.depth, Some(9));
        assert_eq!(c.limits(Limits::none(), ms(0)).clock, clock(ms(5000), ms(20)));
        // The overhead takes at most half of what is left.
        let mut low = c;
        low.charge(ms(4960), ms(0), true);
        assert_eq!(low.limits(Limits::none(), ms(30)).clock, clock(ms(30), ms(20)));
        // A fixed time per move keeps max(5 ms, t / 16) in hand, and uses the rest.
        let p = Clock::new(TimeControl::PerMove(ms(100)));
        let rest = ms(93) + Duration::from_micros(750);
        assert_eq!(p.limits(Limits::none(), ms(30)).time, Some(TimeLimit::new(rest, rest)));
        assert_eq!(
            Clock::new(TimeControl::PerMove(ms(75)))
                .limits(Limits::none(), ms(100))
                .time,
            Some(TimeLimit::new(ms(70), ms(70)))
        );
        // A smaller overhead is kept as given.
        assert_eq!(
            p.limits(Limits::none(), ms(1)).time,
            Some(TimeLimit::new(ms(99), ms(99)))
        );
        // A spec's own tighter time stays.
        let own = p.limits(Limits::time(ms(10), ms(20)), ms(30));
        assert_eq!(own.time, Some(TimeLimit::new(ms(10), ms(20))));
        assert!(
            Clock::new(TimeControl::None)
                .limits(Limits::none(), ms(30))
                .is_unbounded()
        );
    }
}

/// The clock of the side to move in a GGF record, as an NBoard engine reads it from
/// `set game`: the record's own reading (`GgfGame::clock`: `TI[main/increment/...]` minus the
/// times of its moves so far plus an increment per timed move) as a [`GameClock`]. `Ok(None)`
/// without `TI`.
///
/// # Errors
/// A `TI` value that is not a time control.
pub fn ggf_clock(game: &othello_rules::GgfGame) -> Result<Option<GameClock>, othello_rules::ParseGgfError> {
    Ok(game.clock()?.map(|c| {
        GameClock::new(
            Duration::from_secs_f64(c.remaining.min(1e9)),
            Duration::from_secs_f64(c.increment.min(1e9)),
        )
    }))
}

#[cfg(test)]
mod ggf_tests {
    use super::*;

    #[test]
    fn reads_the_clock_of_a_record() {
        let start = "---------------------------O*------*O---------------------------";
        let g: othello_rules::GgfGame =
            format!("(;GM[Othello]TI[1:00/0.5/]BO[8 {start} *]B[F5//2.5]W[D6//1]B[C3//4];)")
                .parse()
                .unwrap();
        // White to move: 60 s + 1 increment - 1 s used = 59.5 s.
        let b = ggf_clock(&g).unwrap().unwrap();
        assert_eq!(b.remaining, Duration::from_millis(59_500));
        assert_eq!(b.increment, Duration::from_millis(500));
        let mut none = g.clone();
        none.time_control = None;
        assert_eq!(ggf_clock(&none), Ok(None));
        none.time_control = Some("x".into());
        assert!(ggf_clock(&none).is_err());
        none.time_control = Some("1:02:03.5".into());
        let white = ggf_clock(&none).unwrap().unwrap();
        assert_eq!(white.remaining, Duration::from_millis(3_723_500 - 1_000));
        for bad in ["-5", "1:-5", "inf"] {
            none.time_control = Some(bad.into());
            assert!(ggf_clock(&none).is_err(), "{bad}");
        }
        // Black to move after two timed moves of its own: 60 + 2 * 0.5 - 2.5 - 4 = 54.5 s.
        let mut black = g.clone();
        black.moves.push(othello_rules::GgfMove {
            color: othello_rules::Color::White,
            mv: "d3".parse().unwrap(),
            eval: None,
            time: Some(3.0),
        });
        assert!(black.is_legal());
        assert_eq!(
            ggf_clock(&black).unwrap().unwrap().remaining,
            Duration::from_millis(54_500)
        );
    }
}
