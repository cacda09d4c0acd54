//! Time controls and the game clock, measured by the runner on a monotonic clock.
//!
//! - `tc=BASE+INC` (seconds, e.g. `10+0.1`, or `60` without increment): a clock per side; the
//!   time a move takes is subtracted, then the increment is added. A move that takes more than
//!   the time left plus the margin loses the game on time.
//! - `st=SECONDS`: a fixed time per move; a move that takes longer than it plus the margin
//!   loses on time.
//! - neither: the players' own limits (depth, nodes) decide; only the hang timeout applies.

use crate::error::{CliResult, input};
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

/// What a player is told about its time for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// Time left on the mover's clock (including nothing of this move's increment).
    pub remaining: Option<Duration>,
    /// The increment after this move.
    pub increment: Duration,
    /// A fixed time for this move.
    pub per_move: Option<Duration>,
    /// Empty squares left on the board.
    pub empties: u32,
}

impl MoveBudget {
    /// The soft and hard time limits an in-process player should search under, or `None` when
    /// the game has no clock. The hard limit keeps a reserve for the runner's overhead so a
    /// well-behaved player never flags.
    pub fn time_limits(&self) -> Option<(Duration, Duration)> {
        const OVERHEAD: Duration = Duration::from_millis(3);
        if let Some(t) = self.per_move {
            let hard = t.saturating_sub(OVERHEAD).max(Duration::from_micros(500));
            return Some((hard, hard));
        }
        let remaining = self.remaining?;
        // A reserve against scheduling delays on a busy machine: up to 30 ms, at most half.
        let usable = remaining - (remaining / 2).min(Duration::from_millis(30));
        // Moves still to play by this side, plus a few in reserve for the end.
        let moves_left = (self.empties.div_ceil(2)).max(1) + 2;
        let share = usable / moves_left + self.increment.mul_f64(0.75);
        // An iterative search often runs past its soft limit to the hard one: the hard limit is
        // near the fair share, the soft one half of it.
        let cap = (usable / 2 + self.increment / 2).min(usable);
        let hard = share.mul_f64(1.5).min(cap).max(Duration::from_micros(500));
        let soft = (share / 2).min(hard);
        Some((soft, hard))
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
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
        Clock { control, remaining }
    }

    /// The budget for the next move.
    pub fn budget(&self, empties: u32) -> MoveBudget {
        match self.control {
            TimeControl::None => MoveBudget {
                remaining: None,
                increment: Duration::ZERO,
                per_move: None,
                empties,
            },
            TimeControl::PerMove(t) => MoveBudget {
                remaining: None,
                increment: Duration::ZERO,
                per_move: Some(t),
                empties,
            },
            TimeControl::Clock { increment, .. } => MoveBudget {
                remaining: Some(self.remaining),
                increment,
                per_move: None,
                empties,
            },
        }
    }

    /// The longest a move may take before it loses on time, margin included (`None`: no
    /// clock).
    pub fn allowed(&self, margin: Duration) -> Option<Duration> {
        match self.control {
            TimeControl::None => None,
            TimeControl::PerMove(t) => Some(t + margin),
            TimeControl::Clock { .. } => Some(self.remaining + margin),
        }
    }

    /// Charges a move that took `used`: flags it if over the limit plus `margin`, else takes
    /// the time off and adds the increment.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> ClockCheck {
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
                    self.remaining = self.remaining.saturating_sub(used) + increment;
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
    fn clock_charges_and_flags() {
        let mut c = Clock::new(TimeControl::Clock {
            base: ms(1000),
            increment: ms(100),
        });
        assert_eq!(c.charge(ms(300), ms(0)), ClockCheck::Ok);
        assert_eq!(c.remaining(), ms(800));
        assert_eq!(c.allowed(ms(50)), Some(ms(850)));
        // 850 ms is within 800 + 50 margin; the clock floors at zero before the increment.
        assert_eq!(c.charge(ms(850), ms(50)), ClockCheck::Ok);
        assert_eq!(c.remaining(), ms(100));
        assert_eq!(c.charge(ms(151), ms(50)), ClockCheck::Flag { allowed: ms(100) });
        let mut p = Clock::new(TimeControl::PerMove(ms(100)));
        assert_eq!(p.charge(ms(100), ms(0)), ClockCheck::Ok);
        assert_eq!(p.charge(ms(101), ms(0)), ClockCheck::Flag { allowed: ms(100) });
        let mut n = Clock::new(TimeControl::None);
        assert_eq!(n.charge(ms(1_000_000), ms(0)), ClockCheck::Ok);
        assert_eq!(n.allowed(ms(5)), None);
    }

    #[test]
    fn time_limits_stay_inside_the_clock() {
        for remaining in [1u64, 5, 20, 100, 1000, 60_000] {
            for empties in [1u32, 10, 30, 60] {
                for inc in [0u64, 10, 1000] {
                    let b = MoveBudget {
                        remaining: Some(ms(remaining)),
                        increment: ms(inc),
                        per_move: None,
                        empties,
                    };
                    let (soft, hard) = b.time_limits().unwrap();
                    assert!(soft <= hard);
                    // Never more than what is left after the reserve (half of it, plus half the
                    // increment), except the tiny floor on an almost empty clock.
                    let reserve = (ms(remaining) / 2).min(ms(30));
                    assert!(hard <= (ms(remaining) - reserve).max(Duration::from_micros(500)));
                }
            }
        }
        let none = MoveBudget {
            remaining: None,
            increment: ms(0),
            per_move: None,
            empties: 10,
        };
        assert_eq!(none.time_limits(), None);
        let st = MoveBudget {
            per_move: Some(ms(100)),
            ..none
        };
        assert_eq!(st.time_limits(), Some((ms(97), ms(97))));
        // 10 s left, 40 empties: 9.970 s usable (30 ms reserve), 20 + 2 moves to plan for:
        // share 9.970 / 22 = 453.2 ms; soft = half of it, hard = 1.5 times.
        let b = MoveBudget {
            remaining: Some(ms(10_000)),
            increment: ms(0),
            per_move: None,
            empties: 40,
        };
        let (soft, hard) = b.time_limits().unwrap();
        assert_eq!(soft.as_micros(), 226_590);
        assert_eq!(hard.as_micros(), 679_772);
        // 20 ms left, increment 10 ms, 4 empties: 10 ms usable, share 10/4 + 7.5 = 10 ms,
        // hard capped at 10/2 + 5 = 10 ms, soft 5 ms.
        let end = MoveBudget {
            remaining: Some(ms(20)),
            increment: ms(10),
            per_move: None,
            empties: 4,
        };
        assert_eq!(end.time_limits(), Some((ms(5), ms(10))));
    }
}

/// Parses a GGF time (`[[h:]m:]s`, seconds may have decimals).
fn ggf_seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.trim().split(':') {
        let v: f64 = part.trim().parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
        total = total * 60.0 + v;
    }
    Some(total)
}

/// The clock of the side to move in a GGF record, as an NBoard engine reads it from
/// `set game`: `TI[main/increment/...]` minus the times of its moves so far plus an increment
/// per move. `None` without a readable `TI`.
pub fn ggf_budget(game: &othello_rules::GgfGame) -> Option<MoveBudget> {
    let ti = game.time_control.as_deref()?;
    let mut parts = ti.split('/');
    let base = ggf_seconds(parts.next()?)?;
    let increment = match parts.next().map(str::trim) {
        None | Some("") => 0.0,
        Some(t) => ggf_seconds(t)?,
    };
    let pos = game.final_position();
    let side = pos.side_to_move();
    let (mut used, mut moves) = (0.0, 0u32);
    for m in game.moves.iter().filter(|m| m.color == side) {
        if let Some(t) = m.time {
            used += t;
            moves += 1;
        }
    }
    let left = (base + increment * moves as f64 - used).max(0.0);
    Some(MoveBudget {
        remaining: Some(Duration::from_secs_f64(left.min(1e9))),
        increment: Duration::from_secs_f64(increment.min(1e9)),
        per_move: None,
        empties: pos.empty_count(),
    })
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
        let b = ggf_budget(&g).unwrap();
        assert_eq!(b.remaining, Some(Duration::from_millis(59_500)));
        assert_eq!(b.increment, Duration::from_millis(500));
        assert_eq!(b.empties, 57);
        let mut none = g.clone();
        none.time_control = None;
        assert_eq!(ggf_budget(&none), None);
        none.time_control = Some("x".into());
        assert_eq!(ggf_budget(&none), None);
        assert_eq!(ggf_seconds("1:02:03.5"), Some(3723.5));
    }
}
