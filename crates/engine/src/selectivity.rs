//! [`Selectivity`]: how far a selective search trusts its cut model (ProbCut). It lives here,
//! beside [`Limits`](crate::Limits), because it is part of the question a search answers: the
//! alpha-beta search (`othello-search`) takes it in its configuration and reports it in each
//! [`Progress`](crate::Progress) and [`Reply`](crate::Reply).

use std::fmt;
use std::str::FromStr;

/// The selectivity of the midgame search: off (full width), or a confidence `t` in the
/// evaluation's cut model (`othello_eval::CutTable`): a non-PV node whose value a shallow
/// search predicts beyond the window by `t` standard deviations of the model's error is cut
/// without its full search (multi-ProbCut). A higher confidence cuts less and errs less.
///
/// The five levels are those of the usual selective Othello programs:
///
/// | level | `t` (sigma) | a cut is wrong about (one-sided normal tail) |
/// |-------|-------------|-----------------------------------------------|
/// | `0`   | 1.1         | 14 %                                          |
/// | `1`   | 1.5         | 7 %                                           |
/// | `2`   | 2.0         | 2.3 %                                         |
/// | `3`   | 2.6         | 0.5 %                                         |
/// | `4`   | 3.3         | 0.05 %                                        |
///
/// Text form (`FromStr` and `Display` round-trip): `off`, `0` to `4`, or `t` and a confidence
/// with at most two decimals (`t1.80`; `Display` writes two decimals). A search is selective
/// only with an evaluation that has a cut table (see `othello_eval::Evaluator::cut_table`),
/// on 8x8, with a pruning
/// algorithm; otherwise every level searches full-width. Exact solves stay exact: no cut is
/// tried at a node whose depth reaches the end of the game.
///
/// ```
/// use othello_engine::Selectivity;
/// let s: Selectivity = "2".parse().unwrap();
/// assert_eq!((s, s.confidence()), (Selectivity::Level(2), Some(200)));
/// assert_eq!("off".parse::<Selectivity>().unwrap().confidence(), None);
/// assert_eq!("t1.8".parse::<Selectivity>().unwrap().to_string(), "t1.80");
/// assert!("5".parse::<Selectivity>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selectivity {
    /// Full-width search.
    Off,
    /// One of the five levels (0 to 4; a `Level` above 4 counts as `Off`).
    Level(u8),
    /// A confidence in hundredths of a standard deviation (tests and experiments).
    Confidence(u32),
}

/// The confidences of the levels, in hundredths of a standard deviation.
pub const LEVEL_CONFIDENCES: [u32; 5] = [110, 150, 200, 260, 330];

impl Selectivity {
    /// The confidence in hundredths of a standard deviation; `None` for full width.
    pub fn confidence(self) -> Option<u32> {
        match self {
            Selectivity::Off => None,
            Selectivity::Level(l) => LEVEL_CONFIDENCES.get(usize::from(l)).copied(),
            Selectivity::Confidence(t) => Some(t),
        }
    }

    /// Whether the search is full-width.
    pub fn is_off(self) -> bool {
        self.confidence().is_none()
    }
}

/// A text that is not a [`Selectivity`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSelectivityError(pub String);

impl fmt::Display for ParseSelectivityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad selectivity {:?}: expected off, a level 0 to 4, or t and a confidence such as t1.80",
            self.0
        )
    }
}

impl std::error::Error for ParseSelectivityError {}

impl FromStr for Selectivity {
    type Err = ParseSelectivityError;

    fn from_str(s: &str) -> Result<Selectivity, ParseSelectivityError> {
        let bad = || ParseSelectivityError(s.to_string());
        match s {
            "off" => return Ok(Selectivity::Off),
            "0" | "1" | "2" | "3" | "4" => return Ok(Selectivity::Level(s.as_bytes()[0] - b'0')),
            _ => {}
        }
        let t = s.strip_prefix('t').ok_or_else(bad)?;
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits = |x: &str| !x.is_empty() && x.len() <= 6 && x.bytes().all(|b| b.is_ascii_digit());
        if !digits(whole) || (!frac.is_empty() && !digits(frac)) || frac.len() > 2 || t.ends_with('.') {
            return Err(bad());
        }
        let whole: u32 = whole.parse().map_err(|_| bad())?;
        let frac: u32 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
        Ok(Selectivity::Confidence(whole * 100 + frac))
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Selectivity::Level(l) if l <= 4 => write!(f, "{l}"),
            Selectivity::Off | Selectivity::Level(_) => f.write_str("off"),
            Selectivity::Confidence(t) => write!(f, "t{}.{:02}", t / 100, t % 100),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        for s in ["off", "0", "1", "2", "3", "4", "t0.00", "t1.10", "t12.05", "t999999.99"] {
            let v: Selectivity = s.parse().unwrap();
            assert_eq!(v.to_string(), s);
        }
        assert_eq!("t2".parse::<Selectivity>().unwrap(), Selectivity::Confidence(200));
        assert_eq!("t2.5".parse::<Selectivity>().unwrap(), Selectivity::Confidence(250));
        for bad in [
            "", "5", "-1", "on", "t", "t.", "t1.", "t.5", "t1.234", "t-1", "t1e3", "01", " 1", "t1234567",
        ] {
            assert_eq!(
                bad.parse::<Selectivity>(),
                Err(ParseSelectivityError(bad.to_string())),
                "{bad:?}"
            );
        }
        assert_eq!(Selectivity::Level(9).to_string(), "off");
        assert!(Selectivity::Level(9).is_off());
    }

    #[test]
    fn levels_grow_in_confidence() {
        let t: Vec<u32> = (0..5).map(|l| Selectivity::Level(l).confidence().unwrap()).collect();
        assert_eq!(t, LEVEL_CONFIDENCES);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert!(Selectivity::Off.is_off() && !Selectivity::Confidence(0).is_off());
    }
}
