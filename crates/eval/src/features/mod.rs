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

/// One of the features, by name. Its [`Feature::raw`] value is in its natural unit (discs,
/// moves, squares, corners, ...) from the side to move; a [`WeightedEval`](crate::WeightedEval)
/// turns units into centi-discs with one weight per feature. As an [`Evaluator`] a feature
/// alone scores [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) centi-discs per unit.
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

    /// The feature's raw value for the side to move, in its own unit (not centi-discs).
    #[inline]
    pub fn raw(self, pos: &Position) -> i32 {
        match self {
            Feature::Discs => Discs.raw(pos),
            Feature::Mobility => Mobility.raw(pos),
            Feature::Potential => PotentialMobility.raw(pos),
            Feature::Corners => Corners.raw(pos),
            Feature::Xc => XcSquares.raw(pos),
            Feature::Stability => Stability.raw(pos),
            Feature::Parity => Parity.raw(pos),
        }
    }
}

/// A single feature as an evaluator: [`Feature::raw`] x
/// [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT) centi-discs (one unit = one disc).
impl Evaluator for Feature {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        self.raw(pos) * crate::CENTI_DISCS_PER_UNIT
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
