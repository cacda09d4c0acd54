//! The text form of a [`WeightedEval`]: `feature*weight` terms joined by `+`.

use crate::weighted::DEFAULT_TERMS;
use crate::{Feature, Weight, WeightedEval};
use std::fmt;
use std::str::FromStr;

/// Names of the whole default combination in text.
const DEFAULT_NAMES: [&str; 2] = ["default", "standard"];
/// The name of the empty combination (it evaluates to 0).
const ZERO_NAME: &str = "zero";

/// Why a text is not a valid evaluation. Each variant holds the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseEvalError {
    /// The text is empty.
    #[error("empty evaluation text")]
    Empty,
    /// A `+` with nothing on one side.
    #[error("empty term in evaluation text {0:?}")]
    EmptyTerm(String),
    /// A feature name that is not known.
    #[error(
        "unknown feature {0:?} (expected discs, mobility, potential, corners, xc, stability, parity, default or zero)"
    )]
    UnknownFeature(String),
    /// A weight that is not an integer or a `start/end` pair of integers.
    #[error("bad weight {0:?} (expected an integer or start/end, e.g. 10 or 80/40)")]
    BadWeight(String),
    /// A weight whose magnitude exceeds [`Weight::MAX`].
    #[error("weight {0:?} out of range (at most 1000000 in magnitude)")]
    WeightOutOfRange(String),
    /// A feature given twice (directly, or once directly and once through `default`).
    #[error("feature {0:?} given twice")]
    DuplicateFeature(String),
}

/// Parses `start/end` or a constant.
impl FromStr for Weight {
    type Err = ParseEvalError;

    fn from_str(s: &str) -> Result<Weight, ParseEvalError> {
        let int = |t: &str| -> Result<i32, ParseEvalError> {
            let v: i64 = t.trim().parse().map_err(|_| ParseEvalError::BadWeight(s.to_string()))?;
            if v.abs() > Weight::MAX as i64 {
                return Err(ParseEvalError::WeightOutOfRange(s.to_string()));
            }
            Ok(v as i32)
        };
        match s.split_once('/') {
            Some((a, b)) => Ok(Weight::phased(int(a)?, int(b)?)),
            None => Ok(Weight::constant(int(s)?)),
        }
    }
}

/// Parses the text form: terms joined by `+`, each a feature name with an optional weight after
/// `*` (a constant or `start/end`, in centi-discs per unit; a missing weight means
/// [`CENTI_DISCS_PER_UNIT`](crate::CENTI_DISCS_PER_UNIT), 100, so that `discs` alone scores as
/// the [`Discs`](crate::Discs) evaluator does), for example
/// `mobility*10+corners*80/40+discs*0/30`. Feature names and aliases are those of
/// [`Feature::from_name`]; the term `default` (or `standard`) stands for all the terms of
/// [`WeightedEval::standard`], and the whole text `zero` for the empty combination. Spaces
/// around tokens are ignored. The text contains neither `,` nor `=`, so it fits as a value in
/// a `key=value,...` component spec.
impl FromStr for WeightedEval {
    type Err = ParseEvalError;

    fn from_str(text: &str) -> Result<WeightedEval, ParseEvalError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ParseEvalError::Empty);
        }
        if text.eq_ignore_ascii_case(ZERO_NAME) {
            return Ok(WeightedEval::new());
        }
        let mut eval = WeightedEval::new();
        let add = |eval: &mut WeightedEval, feature: Feature, weight: Weight, token: &str| {
            if eval.weight(feature).is_some() {
                return Err(ParseEvalError::DuplicateFeature(token.to_string()));
            }
            eval.set(feature, weight);
            Ok(())
        };
        for term in text.split('+') {
            let term = term.trim();
            if term.is_empty() {
                return Err(ParseEvalError::EmptyTerm(text.to_string()));
            }
            if DEFAULT_NAMES.iter().any(|n| term.eq_ignore_ascii_case(n)) {
                for (f, w) in DEFAULT_TERMS {
                    add(&mut eval, f, w, term)?;
                }
                continue;
            }
            let (name, weight) = match term.split_once('*') {
                Some((n, w)) => (n.trim(), w.parse::<Weight>()?),
                None => (term, Weight::constant(crate::CENTI_DISCS_PER_UNIT)),
            };
            let feature = Feature::from_name(name).ok_or_else(|| ParseEvalError::UnknownFeature(name.to_string()))?;
            add(&mut eval, feature, weight, name)?;
        }
        Ok(eval)
    }
}

/// The canonical text form, which parses back to an equal combination: the terms in order,
/// canonical feature names, `*weight` omitted when the weight is the constant 100; `zero` for
/// the empty combination.
impl fmt::Display for WeightedEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms().is_empty() {
            return f.write_str(ZERO_NAME);
        }
        for (i, (feature, weight)) in self.terms().iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            if *weight == Weight::constant(crate::CENTI_DISCS_PER_UNIT) {
                write!(f, "{feature}")?;
            } else {
                write!(f, "{feature}*{weight}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_text_parses_to_default() {
        assert_eq!("default".parse::<WeightedEval>().unwrap(), WeightedEval::default());
        assert_eq!(" Standard ".parse::<WeightedEval>().unwrap(), WeightedEval::default());
        let text = WeightedEval::default().to_string();
        assert!(!text.contains(',') && !text.contains('='));
        assert_eq!(text.parse::<WeightedEval>().unwrap(), WeightedEval::default());
    }

    #[test]
    fn default_plus_another_feature() {
        let e: WeightedEval = "default+stability*20".parse().unwrap();
        assert_eq!(e.weight(Feature::Stability), Some(Weight::constant(20)));
        assert_eq!(e.terms().len(), DEFAULT_TERMS.len() + 1);
        assert_eq!(
            "default+corners".parse::<WeightedEval>(),
            Err(ParseEvalError::DuplicateFeature("corners".into()))
        );
    }
}
