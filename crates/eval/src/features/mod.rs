//! The evaluation features, each a stand-alone [`Evaluator`], and [`Feature`], the closed list
//! of them used by [`WeightedEval`](crate::WeightedEval) and the text format.

mod corners;
mod discs;
mod mobility;
mod parity;
mod potential;
mod stability;
mod xc;

pub use corners::{Corners, corners};
pub use discs::Discs;
pub use mobility::{Mobility, mobility};
pub use parity::{Parity, parity};
pub use potential::{PotentialMobility, potential_mobility};
pub use stability::{Stability, stable_discs};
pub use xc::{XcSquares, xc_squares};

use crate::Evaluator;
use othello_rules::Position;
use std::fmt;

/// One of the features, by name. Each evaluates to its natural unit (discs, moves, squares,
/// corners, ...) from the side to move; a [`WeightedEval`](crate::WeightedEval) turns units
/// into centi-discs with one weight per feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// [`Discs`]: disc difference. Text: `discs`.
    Discs,
    /// [`Mobility`]: legal-move difference. Text: `mobility`.
    Mobility,
    /// [`PotentialMobility`]: frontier difference. Text: `potential`.
    Potential,
    /// [`Corners`]: corners held. Text: `corners`.
    Corners,
    /// [`XcSquares`]: X- and C-squares next to an empty corner. Text: `xc`.
    Xc,
    /// [`Stability`]: stable discs. Text: `stability`.
    Stability,
    /// [`Parity`]: odd or even empties (depends on the side to move). Text: `parity`.
    Parity,
}

impl Feature {
    /// Every feature, in the order [`WeightedEval`](crate::WeightedEval) evaluates them.
    pub const ALL: [Feature; 7] = [
        Feature::Discs,
        Feature::Mobility,
        Feature::Potential,
        Feature::Corners,
        Feature::Xc,
        Feature::Stability,
        Feature::Parity,
    ];

    /// The number of features.
    pub const COUNT: usize = Feature::ALL.len();

    /// The canonical text name.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Discs => "discs",
            Feature::Mobility => "mobility",
            Feature::Potential => "potential",
            Feature::Corners => "corners",
            Feature::Xc => "xc",
            Feature::Stability => "stability",
            Feature::Parity => "parity",
        }
    }

    /// The feature with this name or one of its aliases (case-insensitive): `disc`,
    /// `discs`; `mob`, `mobility`; `pot`, `potential`, `frontier`; `corner`, `corners`; `xc`,
    /// `x-c`; `stab`, `stable`, `stability`; `parity`.
    pub fn from_name(name: &str) -> Option<Feature> {
        Some(match name.to_ascii_lowercase().as_str() {
            "discs" | "disc" => Feature::Discs,
            "mobility" | "mob" => Feature::Mobility,
            "potential" | "pot" | "frontier" => Feature::Potential,
            "corners" | "corner" => Feature::Corners,
            "xc" | "x-c" => Feature::Xc,
            "stability" | "stable" | "stab" => Feature::Stability,
            "parity" => Feature::Parity,
            _ => return None,
        })
    }

    /// Whether the value depends on the side to move rather than only on the discs. For these
    /// (only [`Feature::Parity`]) the same discs with the other side to move do not give the
    /// negated value.
    pub const fn depends_on_turn(self) -> bool {
        matches!(self, Feature::Parity)
    }

    /// The feature's value for the side to move, in its own unit.
    #[inline]
    pub fn value(self, pos: &Position) -> i32 {
        match self {
            Feature::Discs => Discs.evaluate(pos),
            Feature::Mobility => Mobility.evaluate(pos),
            Feature::Potential => PotentialMobility.evaluate(pos),
            Feature::Corners => Corners.evaluate(pos),
            Feature::Xc => XcSquares.evaluate(pos),
            Feature::Stability => Stability.evaluate(pos),
            Feature::Parity => Parity.evaluate(pos),
        }
    }
}

/// A single feature is an evaluator in its own unit (one centi-disc per unit).
impl Evaluator for Feature {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.value(pos)
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
