//! Static evaluation of Othello positions: features, weighted combinations, stable discs.
//!
//! An [`Evaluator`] scores a position for its side to move (negamax perspective) in
//! centi-discs: a tuned evaluation estimates the final disc difference times 100, so it
//! compares directly with exact endgame scores. Searches are generic over the trait, so the
//! evaluator is compiled into them (no dynamic dispatch in the hot path).
//!
//! Design:
//! - **Units.** Every type that implements [`Evaluator`] returns centi-discs, without
//!   exception. A feature's raw value in its natural unit (one disc, one move, one square, one
//!   corner...) is a different function: `raw` on each feature type, [`Feature::raw`], and the
//!   free functions on bitboards ([`mobility`], [`corners`], ...). A feature used alone as an
//!   evaluator scores [`CENTI_DISCS_PER_UNIT`] (100) centi-discs per unit: one unit = one disc.
//! - **Features** are small types that each implement [`Evaluator`] on their own: [`Discs`], [`Mobility`],
//!   [`PotentialMobility`], [`Corners`], [`XcSquares`], [`Stability`] (with the sound
//!   bitboard rule [`stable_discs`], also usable by solvers) and [`Parity`]. All work on 4x4,
//!   6x6 and 8x8 boards. All but parity are properties of the discs only: the same discs with
//!   the other side to move evaluate to the negated value. Parity is a property of the side
//!   to move (see [`Feature::depends_on_turn`]).
//! - A **[`WeightedEval`]** sums features times [`Weight`]s in centi-discs per unit; a weight
//!   is a constant or a `start/end` pair interpolated linearly by the number of empty
//!   squares. Weights are precomputed per board size and number of empties, so a call is a
//!   table lookup plus the features present (the default costs about 13 ns of CPU time when
//!   compiled for x86-64-v3, 27 ns for the baseline x86-64 target, which has no popcount
//!   instruction; see `docs/BENCHMARKS.md`).
//! - **Text**: `feature*weight` terms joined by `+`, e.g. `mobility*10+corners*80/40+discs*0/30`
//!   (a missing weight means [`CENTI_DISCS_PER_UNIT`], so a bare `discs` scores 100 per disc as
//!   the [`Discs`] evaluator does; `default` names [`WeightedEval::standard`]). It uses neither
//!   `,` nor `=`, so it fits in a `key=value,...` engine spec. [`WeightedEval`] implements
//!   `FromStr` (typed [`ParseEvalError`] naming the bad token) and `Display` (canonical form,
//!   round-trips).
//!
//! ```
//! use othello_eval::{Discs, Evaluator, Feature, Mobility, WeightedEval};
//! use othello_rules::{Move, Position};
//!
//! let pos = Position::start().play("f5".parse::<Move>().unwrap()).unwrap();
//! // White to move: 3 moves against black's 3 after f5.
//! assert_eq!(Mobility.raw(&pos), 0);
//! // White has 3 discs fewer: -3 discs raw, -300 centi-discs as an evaluator.
//! assert_eq!((Discs.raw(&pos), Discs.evaluate(&pos)), (-3, -300));
//! assert_eq!("discs".parse::<WeightedEval>().unwrap().evaluate(&pos), -300);
//!
//! let eval: WeightedEval = "mobility*10+corners*80/40+discs*0/30".parse().unwrap();
//! assert_eq!(eval.weight(Feature::Corners).unwrap().at(pos.size(), 60), 80);
//! assert_eq!(eval.to_string(), "mobility*10+corners*80/40+discs*0/30");
//! // White has 3 discs fewer; discs weigh 1 (0.5 rounded up) with 59 empties.
//! assert_eq!(eval.evaluate(&pos), -3);
//!
//! let default = WeightedEval::default();
//! assert_eq!(default, "default".parse().unwrap());
//! let _score: i32 = default.evaluate(&pos);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bits;
mod features;
pub mod probcut;
mod text;
mod weight;
mod weighted;

pub use features::{
    Corners, Discs, Feature, Mobility, Parity, PotentialMobility, Stability, XcSquares, corners, mobility, parity,
    potential_mobility, stable_discs, xc_squares,
};
pub use probcut::{CutModel, CutTable, CutTableError};
pub use text::ParseEvalError;
pub use weight::Weight;
pub use weighted::WeightedEval;

use othello_rules::Position;

/// Centi-discs per unit of a feature used alone as an [`Evaluator`] (and the weight of a term
/// written without one in the text form): one unit of any feature is worth one disc.
pub const CENTI_DISCS_PER_UNIT: i32 = 100;

/// A static evaluation: an estimate of the final disc difference for the side to move, in
/// centi-discs (1/100 disc), so that it compares directly with exact endgame scores x100.
///
/// Implementations must be cheap and deterministic, a function of the position alone (the
/// search caches values by position); the search is generic over this trait, so calls are
/// static, not dynamic.
pub trait Evaluator: Send + Sync {
    /// The score of `pos` for its side to move, in centi-discs.
    fn evaluate(&self, pos: &Position) -> i32;

    /// [`Evaluator::evaluate`] of a position whose side to move's legal squares the caller
    /// already has: `moves` must be exactly those squares (`pos.moves()` as a bitboard on
    /// `pos`'s board). The same value as `evaluate`; an evaluation that counts mobility may
    /// skip generating them again (a search has them at every node). The default ignores them.
    #[inline]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        let _ = moves;
        self.evaluate(pos)
    }

    /// The cut model of selective search with this evaluation ([`CutTable`]: how well its
    /// shallow searches predict its deep ones), if it has one. A search runs selectively only
    /// with an evaluation that has a table; the default is none, so hand features
    /// ([`WeightedEval`]), mixes of evaluations and evaluations of 4x4 and 6x6 boards search
    /// full-width whatever the selectivity asked. A table is fitted for one evaluation and one
    /// horizon rule (`othello-train cuts`); another evaluation's would mislead.
    fn cut_table(&self) -> Option<&CutTable> {
        None
    }
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }

    #[inline]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        (**self).evaluate_with_moves(pos, moves)
    }

    #[inline]
    fn cut_table(&self) -> Option<&CutTable> {
        (**self).cut_table()
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }

    #[inline]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        (**self).evaluate_with_moves(pos, moves)
    }

    #[inline]
    fn cut_table(&self) -> Option<&CutTable> {
        (**self).cut_table()
    }
}

impl<E: Evaluator + ?Sized> Evaluator for std::sync::Arc<E> {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }

    #[inline]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        (**self).evaluate_with_moves(pos, moves)
    }

    #[inline]
    fn cut_table(&self) -> Option<&CutTable> {
        (**self).cut_table()
    }
}
