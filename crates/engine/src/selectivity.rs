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
/// **Full-width plies.** A level or a confidence may add `@N` (`N` from 1 to 60): a cut is then
/// tried only at a node where the shallow search it would run reaches at least `N` plies from
/// the root of the search (`ply + shallow depth >= N`; the root's children are at ply 1), so
/// every line is looked at full-width to at least ply `N`, by the search or by a cut's shallow
/// search. In an iteration to depth `D` a pair whose shallow search is `k` plies shorter than
/// its deep one ends at ply `D - k` from any node (plus the passes on the line): `@N` decides
/// which pairs an iteration tries (those with `D - k >= N`), and a deep iteration tries its cuts
/// from ply 1 on. This is Zebra's rule (its `FULL_WIDTH_DEPTH`, 8, with cuts at one sigma). With
/// `N <= 2` it changes nothing (every shallow depth is at least 1).
///
/// **A guard near the root.** Any of those may add `/G:K`: a level or a confidence `G` (no
/// `@`) and `K` plies (1 to 60): the cuts tried at the nodes of the first `K` plies below the
/// root (and at the root) use `G`'s confidence instead; deeper nodes use the base's (`0@6/2:4`:
/// level 2 at plies 1 to 4, level 0 below, and no cut whose shallow search ends before ply 6).
/// A search's first plies decide its move, and an error there is never searched again, while
/// the nodes there are few: a careful guard costs a few nodes and keeps the errors deep. The
/// guard changes only the confidence: where a cut is tried (`@N`) and the late-move
/// reductions stay the base's.
///
/// **A one-sided guard.** A guard may end in `r` (`0@6/2:5r`): within its plies it then
/// guards only the cuts that would lower a root move's value (refute it), and the cuts the
/// other way keep the base's confidence. Values alternate in sign from ply to ply, so those
/// are the cuts that fail high at an odd ply (the root's children are at ply 1) and those
/// that fail low at an even ply (the root's, a pass counting as a ply). A wrong cut that
/// raises a root move above the best so far is searched again by the root's full window
/// (PVS); one that lowers it drops the move unseen. So the careful confidence goes where an
/// error is never checked, for about half the guard's nodes.
///
/// Text form (`FromStr` and `Display` round-trip): `off`, `0` to `4`, or `t` and a confidence
/// with at most two decimals (`t1.80`; `Display` writes two decimals), either of the last two
/// optionally followed by `@N` (`1@8`, `t1.80@6`), then optionally by a guard `/G:K`
/// (`0@6/2:4`, `t1.10/t2.50:3`), or a one-sided guard `/G:Kr` (`0@6/2:5r`). A search is selective
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
/// let z: Selectivity = "0@8".parse().unwrap();
/// assert_eq!((z, z.confidence(), z.full_width_plies()), (Selectivity::LevelFrom(0, 8), Some(110), 8));
/// let g: Selectivity = "0@6/2:4".parse().unwrap();
/// assert_eq!((g.confidence(), g.full_width_plies(), g.guard()), (Some(110), 6, Some((200, 4))));
/// // The confidences of the cuts that fail high and fail low, at the root and plies 1 and 5.
/// let r: Selectivity = "0@6/2:4r".parse().unwrap();
/// assert_eq!(g.confidences_at(1), Some((200, 200)));
/// assert_eq!([0, 1, 5].map(|p| r.confidences_at(p)), [Some((110, 200)), Some((200, 110)), Some((110, 110))]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selectivity {
    /// Full-width search.
    Off,
    /// One of the five levels (0 to 4; a `Level` above 4 counts as `Off`).
    Level(u8),
    /// A confidence in hundredths of a standard deviation (tests and experiments).
    Confidence(u32),
    /// A level (as [`Selectivity::Level`]) whose cuts are tried only where the shallow search
    /// reaches the given number of plies from the root (`@N` in the text form; see above; 0
    /// plies is no limit, and `Display` writes the level alone).
    LevelFrom(u8, u8),
    /// A confidence (as [`Selectivity::Confidence`]) whose cuts are tried only where the
    /// shallow search reaches the given number of plies from the root.
    ConfidenceFrom(u32, u8),
    /// A base confidence with its full-width plies (`from`, as in [`Selectivity::LevelFrom`];
    /// 0 for none), and a guard: the cuts at the nodes of the first `plies` plies below the
    /// root (and at the root) use the guard's confidence (`/G:K` in the text form; 0 plies is
    /// no guard), all of them or, `one_sided` (`/G:Kr`), only those that would lower a root
    /// move's value. Off when the base is off; without a guard when the guard is off.
    Guarded {
        /// The confidence of the cuts below the guard's plies.
        base: Confidence,
        /// The full-width plies (`@N`; 0 for none).
        from: u8,
        /// The confidence of the cuts within the guard's plies.
        guard: Confidence,
        /// The plies below the root that the guard covers.
        plies: u8,
        /// Whether the guard covers only the cuts that would lower a root move's value (those
        /// that fail high at odd plies and fail low at even plies), `r` in the text form.
        one_sided: bool,
    },
}

/// A confidence as the text form names it: a level (its confidence from
/// [`LEVEL_CONFIDENCES`]) or hundredths of a standard deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// A level, 0 to 4 (above 4: none, full width).
    Level(u8),
    /// Hundredths of a standard deviation.
    Hundredths(u32),
}

impl Confidence {
    /// The confidence in hundredths of a standard deviation; `None` for a level above 4.
    pub fn hundredths(self) -> Option<u32> {
        match self {
            Confidence::Level(l) => LEVEL_CONFIDENCES.get(usize::from(l)).copied(),
            Confidence::Hundredths(t) => Some(t),
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Confidence::Level(l) if l <= 4 => write!(f, "{l}"),
            Confidence::Level(_) => f.write_str("off"),
            Confidence::Hundredths(t) => write!(f, "t{}.{:02}", t / 100, t % 100),
        }
    }
}

/// A selectivity's base confidence, full-width plies and guard with its plies and sidedness
/// (`Selectivity::parts`).
type Parts = (Confidence, u8, Option<(Confidence, u8, bool)>);

/// The largest number of full-width plies (`@N`) the text form accepts.
pub const MAX_FULL_WIDTH_PLIES: u8 = 60;

/// The confidences of the levels, in hundredths of a standard deviation.
pub const LEVEL_CONFIDENCES: [u32; 5] = [110, 150, 200, 260, 330];

impl Selectivity {
    /// The confidence in hundredths of a standard deviation; `None` for full width.
    pub fn confidence(self) -> Option<u32> {
        match self {
            Selectivity::Off => None,
            Selectivity::Level(l) | Selectivity::LevelFrom(l, _) => LEVEL_CONFIDENCES.get(usize::from(l)).copied(),
            Selectivity::Confidence(t) | Selectivity::ConfidenceFrom(t, _) => Some(t),
            Selectivity::Guarded { base, .. } => base.hundredths(),
        }
    }

    /// The plies from the root that a cut's shallow search must reach (`@N`); 0 without a
    /// limit (and for full width).
    pub fn full_width_plies(self) -> u32 {
        match self {
            Selectivity::LevelFrom(_, n) | Selectivity::ConfidenceFrom(_, n) | Selectivity::Guarded { from: n, .. }
                if !self.is_off() =>
            {
                u32::from(n)
            }
            _ => 0,
        }
    }

    /// The guard near the root (`/G:K`): its confidence in hundredths of a standard deviation
    /// and the plies below the root it covers. `None` without a guard (also for full width,
    /// a guard that is off, or 0 plies).
    pub fn guard(self) -> Option<(u32, u32)> {
        match self {
            Selectivity::Guarded { guard, plies, .. } if !self.is_off() && plies > 0 => {
                guard.hundredths().map(|t| (t, u32::from(plies)))
            }
            _ => None,
        }
    }

    /// Whether the guard is one-sided (`/G:Kr`: it covers only the cuts that would lower a
    /// root move's value). False without a guard.
    pub fn guard_is_one_sided(self) -> bool {
        matches!(self, Selectivity::Guarded { one_sided: true, .. }) && self.guard().is_some()
    }

    /// The confidences of the cuts at a node `ply` plies below the root, as `(t_high, t_low)`:
    /// `t_high` for the shallow search that would cut with beta (fail high), `t_low` for the one
    /// that would cut with alpha. The guard's within its plies (a one-sided guard's only for
    /// the cut that fails high at an odd ply and the one that fails low at an even ply), the
    /// base's elsewhere; `None` for full width.
    pub fn confidences_at(self, ply: u32) -> Option<(u32, u32)> {
        let t = self.confidence()?;
        Some(match self.guard() {
            Some((g, plies)) if ply <= plies => match (self.guard_is_one_sided(), ply % 2 == 1) {
                (false, _) => (g, g),
                (true, true) => (g, t),
                (true, false) => (t, g),
            },
            _ => (t, t),
        })
    }

    /// Every form as one: the base confidence, its full-width plies (0: none) and the guard
    /// with its plies; `None` for full width. A guard that is off or covers no ply is none.
    fn parts(self) -> Option<Parts> {
        let (base, from, guard) = match self {
            Selectivity::Off => return None,
            Selectivity::Level(l) => (Confidence::Level(l), 0, None),
            Selectivity::Confidence(t) => (Confidence::Hundredths(t), 0, None),
            Selectivity::LevelFrom(l, n) => (Confidence::Level(l), n, None),
            Selectivity::ConfidenceFrom(t, n) => (Confidence::Hundredths(t), n, None),
            Selectivity::Guarded {
                base,
                from,
                guard,
                plies,
                one_sided,
            } => (
                base,
                from,
                (plies > 0 && guard.hundredths().is_some()).then_some((guard, plies, one_sided)),
            ),
        };
        base.hundredths().map(|_| (base, from, guard))
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
            "bad selectivity {:?}: expected off, a level 0 to 4, or t and a confidence such as t1.80, \
             either optionally followed by @ and full-width plies 1 to 60 (1@8), then optionally \
             by / a level or confidence : and guarded plies 1 to 60 (0@6/2:4), r after them for a \
             one-sided guard (0@6/2:5r)",
            self.0
        )
    }
}

impl std::error::Error for ParseSelectivityError {}

impl FromStr for Selectivity {
    type Err = ParseSelectivityError;

    fn from_str(s: &str) -> Result<Selectivity, ParseSelectivityError> {
        let bad = || ParseSelectivityError(s.to_string());
        // A ply count 1 to 60, digits only, without a leading zero.
        let plies_of = |plies: &str| {
            (!plies.is_empty()
                && plies.len() <= 2
                && plies.bytes().all(|b| b.is_ascii_digit())
                && !plies.starts_with('0'))
            .then(|| plies.parse::<u8>().ok())
            .flatten()
            .filter(|n| (1..=MAX_FULL_WIDTH_PLIES).contains(n))
        };
        if let Some((base, guarded)) = s.split_once('/') {
            let (guard, plies) = guarded.split_once(':').ok_or_else(bad)?;
            let (plies, one_sided) = match plies.strip_suffix('r') {
                Some(plies) => (plies, true),
                None => (plies, false),
            };
            let plies = plies_of(plies).ok_or_else(bad)?;
            // Each side read as a selectivity without a guard (neither holds a `/`); the
            // guard without `@N`.
            let guard = match guard.parse::<Selectivity>().ok().and_then(Selectivity::parts) {
                Some((guard, 0, None)) => guard,
                _ => return Err(bad()),
            };
            let (base, from, _) = base
                .parse::<Selectivity>()
                .ok()
                .and_then(Selectivity::parts)
                .ok_or_else(bad)?;
            return Ok(Selectivity::Guarded {
                base,
                from,
                guard,
                plies,
                one_sided,
            });
        }
        if let Some((base, plies)) = s.split_once('@') {
            let n = plies_of(plies).ok_or_else(bad)?;
            return match base.parse::<Selectivity>().map_err(|_| bad())? {
                Selectivity::Level(l) => Ok(Selectivity::LevelFrom(l, n)),
                Selectivity::Confidence(t) => Ok(Selectivity::ConfidenceFrom(t, n)),
                _ => Err(bad()),
            };
        }
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
        let Some((base, from, guard)) = self.parts() else {
            return f.write_str("off");
        };
        write!(f, "{base}")?;
        if from > 0 {
            write!(f, "@{from}")?;
        }
        if let Some((guard, plies, one_sided)) = guard {
            write!(f, "/{guard}:{plies}{}", if one_sided { "r" } else { "" })?;
        }
        Ok(())
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
    fn full_width_plies_round_trip() {
        for s in ["0@1", "3@8", "4@60", "t1.10@8", "t0.00@2", "t999999.99@60"] {
            let v: Selectivity = s.parse().unwrap();
            assert_eq!(v.to_string(), s);
        }
        let z: Selectivity = "1@8".parse().unwrap();
        assert_eq!(z, Selectivity::LevelFrom(1, 8));
        assert_eq!(
            (z.confidence(), z.full_width_plies(), z.is_off()),
            (Some(150), 8, false)
        );
        let t: Selectivity = "t2.5@12".parse().unwrap();
        assert_eq!(t, Selectivity::ConfidenceFrom(250, 12));
        assert_eq!((t.confidence(), t.full_width_plies()), (Some(250), 12));
        assert_eq!("4@60".parse::<Selectivity>().unwrap().full_width_plies(), 60);
        // Without `@`, and for full width, no limit.
        for s in ["off", "2", "t1.50"] {
            assert_eq!(s.parse::<Selectivity>().unwrap().full_width_plies(), 0, "{s}");
        }
        // A level out of range is full width, with or without plies.
        assert!(Selectivity::LevelFrom(9, 8).is_off());
        assert_eq!(Selectivity::LevelFrom(9, 8).full_width_plies(), 0);
        assert_eq!(Selectivity::LevelFrom(9, 8).to_string(), "off");
        // Zero plies (only built in code: the text form starts at 1) is no limit, and prints so.
        assert_eq!(Selectivity::LevelFrom(2, 0).to_string(), "2");
        assert_eq!(Selectivity::ConfidenceFrom(150, 0).to_string(), "t1.50");
        assert_eq!(Selectivity::LevelFrom(2, 0).full_width_plies(), 0);
        for bad in [
            "1@0", "1@61", "1@", "@8", "off@8", "1@8@8", "1@08", "1@+8", "1@ 8", "5@8", "t1.234@8", "1@100", "1@-1",
        ] {
            assert_eq!(
                bad.parse::<Selectivity>(),
                Err(ParseSelectivityError(bad.to_string())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn guards_round_trip_and_apply_within_their_plies() {
        for s in [
            "0@6/2:4",
            "0/2:1",
            "t1.10/t2.50:3",
            "4@60/0:60",
            "t0.00@2/t999999.99:7",
            "1/1:5",
        ] {
            let v: Selectivity = s.parse().unwrap();
            assert_eq!(v.to_string(), s);
            assert!(!v.is_off());
        }
        let g: Selectivity = "0@6/2:4".parse().unwrap();
        assert_eq!(
            g,
            Selectivity::Guarded {
                base: Confidence::Level(0),
                from: 6,
                guard: Confidence::Level(2),
                plies: 4,
                one_sided: false,
            }
        );
        assert_eq!(
            (g.confidence(), g.full_width_plies(), g.guard()),
            (Some(110), 6, Some((200, 4)))
        );
        let at: Vec<_> = (0..7).map(|ply| g.confidences_at(ply)).collect();
        assert_eq!(at, [200, 200, 200, 200, 200, 110, 110].map(|t| Some((t, t))));
        assert!(!g.guard_is_one_sided());
        let t: Selectivity = "t1.25/t3.05:2".parse().unwrap();
        assert_eq!(
            (t.confidence(), t.full_width_plies(), t.guard()),
            (Some(125), 0, Some((305, 2)))
        );
        assert_eq!(
            (t.confidences_at(2), t.confidences_at(3)),
            (Some((305, 305)), Some((125, 125)))
        );
        // Without a guard, the confidence at every ply is the selectivity's.
        for s in ["off", "2", "1@8", "t1.50"] {
            let v: Selectivity = s.parse().unwrap();
            assert_eq!(v.guard(), None);
            assert!(!v.guard_is_one_sided());
            assert!(
                (0..61).all(|ply| v.confidences_at(ply) == v.confidence().map(|t| (t, t))),
                "{s}"
            );
        }
        // Built in code: a base that is off is off, a guard that is off or covers no ply is none.
        let off = Selectivity::Guarded {
            base: Confidence::Level(9),
            from: 6,
            guard: Confidence::Level(2),
            plies: 4,
            one_sided: true,
        };
        assert!(off.is_off() && off.guard().is_none() && off.full_width_plies() == 0);
        assert!(!off.guard_is_one_sided());
        assert_eq!((off.to_string(), off.confidences_at(0)), ("off".to_string(), None));
        for (guard, plies, one_sided) in [
            (Confidence::Level(5), 3, false),
            (Confidence::Level(2), 0, false),
            (Confidence::Level(5), 3, true),
            (Confidence::Level(2), 0, true),
        ] {
            let g = Selectivity::Guarded {
                base: Confidence::Hundredths(150),
                from: 0,
                guard,
                plies,
                one_sided,
            };
            assert_eq!(
                (g.guard(), g.guard_is_one_sided(), g.confidences_at(1), g.to_string()),
                (None, false, Some((150, 150)), "t1.50".to_string())
            );
        }
        assert_eq!(Confidence::Level(5).to_string(), "off");
        for bad in [
            "0/",
            "0/2",
            "0/2:",
            "0/:4",
            "/2:4",
            "off/2:4",
            "0/off:4",
            "0/2:0",
            "0/2:61",
            "0/2:04",
            "0/2@3:4",
            "0@6/2:4/1:2",
            "0/2:4@6",
            "5/2:4",
            "0/5:4",
            "0@0/2:4",
            "0/t1.234:4",
            "0/2:x",
            "0/2::4",
            "0/2:r",
            "0/2:4rr",
            "0/2:r4",
            "0/2:4R",
            "0/2:0r",
            "0/2:61r",
            "0/2r:4",
            "0r/2:4",
            "0@6r/2:4",
        ] {
            assert_eq!(
                bad.parse::<Selectivity>(),
                Err(ParseSelectivityError(bad.to_string())),
                "{bad:?}"
            );
        }
    }

    /// A one-sided guard (`r`) takes the guard's confidence within its plies only for the cut
    /// that fails high at an odd ply and the one that fails low at an even ply (the root's
    /// included), the base's for the other and below.
    #[test]
    fn one_sided_guards_round_trip_and_alternate_by_ply() {
        for s in ["0@6/2:5r", "0/2:1r", "t1.10/t2.50:3r", "4@60/0:60r", "1/1:5r"] {
            let v: Selectivity = s.parse().unwrap();
            assert_eq!(v.to_string(), s);
            assert!(v.guard_is_one_sided() && !v.is_off());
        }
        let r: Selectivity = "0@6/2:5r".parse().unwrap();
        assert_eq!(
            r,
            Selectivity::Guarded {
                base: Confidence::Level(0),
                from: 6,
                guard: Confidence::Level(2),
                plies: 5,
                one_sided: true,
            }
        );
        assert_eq!(
            (r.confidence(), r.full_width_plies(), r.guard()),
            (Some(110), 6, Some((200, 5)))
        );
        let at: Vec<_> = (0..8).map(|ply| r.confidences_at(ply).unwrap()).collect();
        assert_eq!(
            at,
            [
                (110, 200),
                (200, 110),
                (110, 200),
                (200, 110),
                (110, 200),
                (200, 110),
                (110, 110),
                (110, 110)
            ]
        );
        // The two-sided guard of the same numbers takes the guard's for both.
        let g: Selectivity = "0@6/2:5".parse().unwrap();
        assert_ne!(g, r);
        assert!((0..8).all(|ply| g.confidences_at(ply) == Some(if ply <= 5 { (200, 200) } else { (110, 110) })));
    }

    #[test]
    fn levels_grow_in_confidence() {
        let t: Vec<u32> = (0..5).map(|l| Selectivity::Level(l).confidence().unwrap()).collect();
        assert_eq!(t, LEVEL_CONFIDENCES);
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        assert!(Selectivity::Off.is_off() && !Selectivity::Confidence(0).is_off());
    }
}
