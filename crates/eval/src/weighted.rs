//! [`WeightedEval`]: a weighted sum of features with phase-dependent weights.

use crate::features::{Feature, corners, mobility, parity, potential_mobility, stable_discs, xc_squares};
use crate::{Evaluator, Weight};
use othello_rules::{BoardSize, Position};

/// Rows of the weight table: one per number of empty squares, 0..=64.
const ROWS: usize = 65;

/// Weights of every feature for every (board size, empties) pair, precomputed.
type Table = [[[i32; Feature::COUNT]; ROWS]; 3];

/// The default terms: centi-disc weights fitted by least squares (`tools/train`, see
/// `docs/tuning.md`) to exact endgame scores of self-play positions (10 to 20 empties) and to
/// bootstrapped search labels for the earlier phases. Stability is left out so that one call
/// stays cheap. Against the hand-set weights they replaced,
/// `discs*-10/100+mobility*40/20+potential*15/5+corners*350/200+xc*60/10+parity*0/100`, they
/// scored +174 =2 -24 at depth 4 and +189 =2 -9 at depth 6 (200 games each).
pub(crate) const DEFAULT_TERMS: [(Feature, Weight); 6] = [
    (Feature::Discs, Weight::phased(-32, 89)),
    (Feature::Mobility, Weight::phased(86, 385)),
    (Feature::Potential, Weight::phased(105, 27)),
    (Feature::Corners, Weight::phased(4033, -127)),
    (Feature::Xc, Weight::phased(1191, -68)),
    (Feature::Parity, Weight::phased(-79, 202)),
];

/// A weighted combination of features: `sum(weight(e) * feature)` in centi-discs, where each
/// weight may depend on the number of empty squares `e` (see [`Weight`]).
///
/// The interpolated weights are precomputed for every board size and number of empties, so
/// an evaluation is one table row lookup plus the features whose weight is not zero at that
/// phase, each computed directly on the bitboards (no loop over a list, no dynamic dispatch).
///
/// Built in code with [`WeightedEval::with`], or parsed from text (see the crate docs):
///
/// ```
/// use othello_eval::{Evaluator, Feature, Weight, WeightedEval};
/// use othello_rules::Position;
/// let e = WeightedEval::new()
///     .with(Feature::Mobility, 10)
///     .with(Feature::Corners, Weight::phased(80, 40));
/// assert_eq!(e.to_string(), "mobility*10+corners*80/40");
/// assert_eq!(e, "mobility*10+corners*80/40".parse().unwrap());
/// assert_eq!(e.evaluate(&Position::start()), 0);
/// ```
#[derive(Clone)]
pub struct WeightedEval {
    terms: Vec<(Feature, Weight)>,
    table: Box<Table>,
}

impl WeightedEval {
    /// The empty combination (evaluates to 0 everywhere).
    pub fn new() -> WeightedEval {
        WeightedEval {
            terms: Vec::new(),
            table: Box::new([[[0; Feature::COUNT]; ROWS]; 3]),
        }
    }

    /// A combination of these terms; a feature given twice keeps its last weight.
    pub fn from_terms(terms: impl IntoIterator<Item = (Feature, Weight)>) -> WeightedEval {
        let mut e = WeightedEval::new();
        for (f, w) in terms {
            e.set(f, w);
        }
        e
    }

    /// The default combination (text `default`): weights fitted to exact endgame scores (see
    /// `docs/tuning.md`) for mobility, potential mobility, corners, X/C squares, disc difference
    /// and parity. Stability is left out to keep a call cheap.
    pub fn standard() -> WeightedEval {
        WeightedEval::from_terms(DEFAULT_TERMS)
    }

    /// `self` with `feature` weighted by `weight` (replacing its weight if present).
    ///
    /// # Panics
    /// When an `i32` weight exceeds [`Weight::MAX`] in magnitude (see [`Weight::constant`]).
    #[must_use]
    pub fn with(mut self, feature: Feature, weight: impl Into<Weight>) -> WeightedEval {
        self.set(feature, weight.into());
        self
    }

    /// Sets the weight of `feature` (appending it to the terms if absent).
    pub fn set(&mut self, feature: Feature, weight: Weight) {
        match self.terms.iter_mut().find(|(f, _)| *f == feature) {
            Some(term) => term.1 = weight,
            None => self.terms.push((feature, weight)),
        }
        self.fill(feature, weight);
    }

    /// Removes `feature`; returns its weight if it was present.
    pub fn remove(&mut self, feature: Feature) -> Option<Weight> {
        let i = self.terms.iter().position(|(f, _)| *f == feature)?;
        let (_, w) = self.terms.remove(i);
        self.fill(feature, Weight::constant(0));
        Some(w)
    }

    /// The weight of `feature`, if it is a term.
    pub fn weight(&self, feature: Feature) -> Option<Weight> {
        self.terms.iter().find(|(f, _)| *f == feature).map(|&(_, w)| w)
    }

    /// The terms, in the order they were added (the order of the text form).
    pub fn terms(&self) -> &[(Feature, Weight)] {
        &self.terms
    }

    /// The interpolated weight of every feature (indexed as [`Feature::ALL`]) on a board of
    /// `size` with `empties` empty squares.
    pub fn weights_at(&self, size: BoardSize, empties: u32) -> [i32; Feature::COUNT] {
        self.table[size as usize][(empties as usize).min(ROWS - 1)]
    }

    fn fill(&mut self, feature: Feature, weight: Weight) {
        for size in BoardSize::ALL {
            for (e, row) in self.table[size as usize].iter_mut().enumerate() {
                row[feature as usize] = weight.at(size, e as u32);
            }
        }
    }
}

impl Default for WeightedEval {
    /// [`WeightedEval::standard`].
    fn default() -> WeightedEval {
        WeightedEval::standard()
    }
}

/// Equal when the terms are equal, in the same order.
impl PartialEq for WeightedEval {
    fn eq(&self, other: &WeightedEval) -> bool {
        self.terms == other.terms
    }
}

impl Eq for WeightedEval {}

impl std::fmt::Debug for WeightedEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WeightedEval(\"{self}\")")
    }
}

impl Evaluator for WeightedEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        let size = pos.size();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let count = |b: u64| b.count_ones() as i32;
        let (cp, co) = (count(p), count(o));
        // The disc counts give the number of empties too (one popcount less); the `min` keeps a
        // corrupt (overlapping) position from indexing out of the table.
        let n_empty = size.squares() as i32 - cp - co;
        let w = &self.table[size as usize][(n_empty as usize).min(ROWS - 1)];

        // Cheap features are computed unconditionally (a multiply beats a branch); the others
        // only when their weight at this phase is not zero.
        let mut s = w[Feature::Discs as usize] * (cp - co) + w[Feature::Parity as usize] * parity(n_empty as u32);
        if w[Feature::Mobility as usize] != 0 {
            s += w[Feature::Mobility as usize] * mobility(p, o, size);
        }
        if w[Feature::Potential as usize] != 0 {
            s += w[Feature::Potential as usize] * potential_mobility(p, o, size);
        }
        if w[Feature::Corners as usize] != 0 {
            s += w[Feature::Corners as usize] * corners(p, o, size);
        }
        if w[Feature::Xc as usize] != 0 {
            s += w[Feature::Xc as usize] * xc_squares(p, o, size);
        }
        if w[Feature::Stability as usize] != 0 {
            let st = stable_discs(p, o, size);
            s += w[Feature::Stability as usize] * (count(st & p) - count(st & o));
        }
        s
    }
}
