//! [`Weight`]: a constant or a start/end pair interpolated by the number of empty squares.

use othello_rules::BoardSize;
use std::fmt;

/// The weight of one feature, in centi-discs per unit of the feature: a constant, or a pair
/// `start/end` interpolated linearly by the number of empty squares.
///
/// `start` is the value at the start of the game (the board's squares minus 4 empties: 60 on
/// 8x8, 32 on 6x6, 12 on 4x4), `end` the value at 0 empties. Between them
/// `w(e) = (start * e + end * (E - e)) / E` with `E` the start's empties, rounded to the nearest
/// integer (halves up); positions with more empties than the start use `start`.
///
/// Fitting a pair is still linear: the feature times `e / E` and times `1 - e / E` are two
/// regressors, so a least-squares tuner can fit `start` and `end` directly.
///
/// ```
/// use othello_eval::Weight;
/// use othello_rules::BoardSize;
/// let w = Weight::phased(80, 40);
/// assert_eq!(w.at(BoardSize::Eight, 60), 80);
/// assert_eq!(w.at(BoardSize::Eight, 30), 60);
/// assert_eq!(w.at(BoardSize::Eight, 0), 40);
/// assert_eq!(w.to_string(), "80/40");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    start: i32,
    end: i32,
}

impl Weight {
    /// The largest weight magnitude accepted: with it no sum of feature values times weights
    /// can overflow an `i32` (seven features, each at most 64 units in magnitude).
    pub const MAX: i32 = 1_000_000;

    /// The same weight at every phase.
    ///
    /// # Panics
    /// When `|w| > Weight::MAX`.
    pub const fn constant(w: i32) -> Weight {
        Weight::phased(w, w)
    }

    /// `start` at the start of the game, `end` with no empty square, linear in between.
    ///
    /// # Panics
    /// When `|start|` or `|end|` exceeds [`Weight::MAX`].
    pub const fn phased(start: i32, end: i32) -> Weight {
        assert!(
            start.abs() <= Weight::MAX && end.abs() <= Weight::MAX,
            "weight out of range"
        );
        Weight { start, end }
    }

    /// The weight at the start of the game.
    pub const fn start(self) -> i32 {
        self.start
    }

    /// The weight with no empty square left.
    pub const fn end(self) -> i32 {
        self.end
    }

    /// Whether the weight is the same at every phase.
    pub const fn is_constant(self) -> bool {
        self.start == self.end
    }

    /// Whether the weight is zero at every phase.
    pub const fn is_zero(self) -> bool {
        self.start == 0 && self.end == 0
    }

    /// The weight on a board of `size` with `empties` empty squares.
    pub const fn at(self, size: BoardSize, empties: u32) -> i32 {
        let full = (size.squares() - 4) as i64;
        let e = if empties as i64 > full { full } else { empties as i64 };
        let num = self.start as i64 * e + self.end as i64 * (full - e);
        (num + full / 2).div_euclid(full) as i32
    }
}

impl From<i32> for Weight {
    /// A constant weight.
    ///
    /// # Panics
    /// As [`Weight::constant`].
    fn from(w: i32) -> Weight {
        Weight::constant(w)
    }
}

/// `w` for a constant weight, `start/end` otherwise.
impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_constant() {
            write!(f, "{}", self.start)
        } else {
            write!(f, "{}/{}", self.start, self.end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_ends_and_rounding() {
        for size in BoardSize::ALL {
            let full = size.squares() - 4;
            let w = Weight::phased(-7, 13);
            assert_eq!(w.at(size, full), -7);
            assert_eq!(w.at(size, full + 3), -7);
            assert_eq!(w.at(size, 0), 13);
            for e in 0..=full {
                let exact = (-7.0 * e as f64 + 13.0 * (full - e) as f64) / full as f64;
                assert_eq!(w.at(size, e), (exact + 0.5).floor() as i32, "{size} {e}");
            }
        }
        assert_eq!(Weight::constant(5).at(BoardSize::Six, 17), 5);
    }
}
