//! The evaluation an engine spec names (`eval=...`, `weights=PATH`): the hand-feature
//! [`WeightedEval`] text form, or `pattern` (the pattern evaluation of `othello-pattern`,
//! optionally plus hand-feature terms: `pattern+parity*20`). The evaluation crate's text form
//! does not know `pattern` (the pattern crate depends on it); this spec layer composes them.
//!
//! Without an `eval` key an engine uses [`SpecEval::Auto`]: the pattern evaluation on 8x8 and
//! the tuned hand features ([`WeightedEval::default`], also `eval=default`) on 4x4 and 6x6,
//! where no pattern tables exist. The pattern evaluation won +288 +/- 67 Elo at depth 8 and
//! +232 +/- 70 at 50 ms a move against the hand features (docs/BENCHMARKS.md).

use crate::SpecError;
use othello_eval::{CutTable, Evaluator, WeightedEval};
use othello_pattern::PatternEval;
use othello_rules::{BoardSize, Position};

/// The evaluations a spec can name.
#[derive(Clone, Debug)]
pub enum SpecEval {
    /// Hand features (the evaluation crate's text form).
    Weighted(WeightedEval),
    /// The pattern evaluation, plus hand-feature terms when given (`pattern+parity*20`).
    Pattern(Box<PatternEval>, Option<WeightedEval>),
    /// The default: the pattern evaluation on 8x8, the hand features on smaller boards.
    Auto(Box<PatternEval>, WeightedEval),
}

impl Default for SpecEval {
    fn default() -> SpecEval {
        SpecEval::Auto(Box::default(), WeightedEval::default())
    }
}

impl Evaluator for SpecEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            SpecEval::Weighted(w) => w.evaluate(pos),
            SpecEval::Pattern(p, None) => p.evaluate(pos),
            SpecEval::Pattern(p, Some(w)) => p.evaluate(pos) + w.evaluate(pos),
            SpecEval::Auto(p, w) => {
                if pos.size() == BoardSize::Eight {
                    p.evaluate(pos)
                } else {
                    w.evaluate(pos)
                }
            }
        }
    }

    #[inline]
    fn evaluate_with_moves(&self, pos: &Position, moves: u64) -> i32 {
        match self {
            SpecEval::Weighted(w) => w.evaluate_with_moves(pos, moves),
            SpecEval::Pattern(p, None) => p.evaluate_with_moves(pos, moves),
            SpecEval::Pattern(p, Some(w)) => p.evaluate_with_moves(pos, moves) + w.evaluate_with_moves(pos, moves),
            SpecEval::Auto(p, w) => {
                if pos.size() == BoardSize::Eight {
                    p.evaluate_with_moves(pos, moves)
                } else {
                    w.evaluate_with_moves(pos, moves)
                }
            }
        }
    }

    /// The pattern evaluation's cut table (the search uses it on 8x8 only); none for hand
    /// features and mixes, which search full-width.
    fn cut_table(&self) -> Option<&CutTable> {
        match self {
            SpecEval::Pattern(p, None) | SpecEval::Auto(p, _) => p.cut_table(),
            SpecEval::Weighted(_) | SpecEval::Pattern(_, Some(_)) => None,
        }
    }
}

impl SpecEval {
    /// The ordering evaluation a search with this evaluation gives the endgame solver it hands
    /// 8x8 roots to ([`othello_search::SearchConfig::solver_ordering`]): this evaluation when it
    /// is the pattern evaluation (alone, mixed, or the default's 8x8 side), as `othello solve
    /// --eval auto` orders; none for hand features, which keep the solver's built-in ordering.
    pub fn solver_ordering(&self) -> Option<othello_search::OrderingEval> {
        match self {
            SpecEval::Weighted(_) => None,
            SpecEval::Pattern(..) | SpecEval::Auto(..) => {
                let eval = self.clone();
                Some(othello_search::OrderingEval::new(move |p| eval.evaluate(p)))
            }
        }
    }

    /// Parses the `eval` value (`None`: the default) with the optional `weights` file of the
    /// pattern evaluation. `engine` names the engine in errors.
    ///
    /// # Errors
    /// A bad evaluation text or a weights file that does not load
    /// ([`SpecError::BadValue`]), or `weights` without `pattern`
    /// ([`SpecError::WeightsNeedPattern`]).
    pub fn parse(text: Option<&str>, weights: Option<&str>, engine: &str) -> Result<SpecEval, SpecError> {
        let needs_pattern = |path: &str| SpecError::WeightsNeedPattern {
            engine: engine.to_string(),
            path: path.to_string(),
        };
        let Some(text) = text else {
            return match weights {
                None => Ok(SpecEval::default()),
                Some(path) => Err(needs_pattern(path)),
            };
        };
        let bad_text = |e: othello_eval::ParseEvalError| SpecError::bad_value(engine, "eval", text, e.to_string());
        let rest = text
            .strip_prefix("pattern")
            .filter(|r| r.is_empty() || r.starts_with('+'));
        let Some(rest) = rest else {
            if let Some(path) = weights {
                return Err(needs_pattern(path));
            }
            return text.parse::<WeightedEval>().map(SpecEval::Weighted).map_err(bad_text);
        };
        let pattern = match weights {
            None => PatternEval::default(),
            Some(path) => PatternEval::from_path(path)
                .map_err(|e| SpecError::bad_value(engine, "weights", path, e.to_string()))?,
        };
        let extra = match rest.strip_prefix('+') {
            None => None,
            Some(terms) => Some(terms.parse::<WeightedEval>().map_err(bad_text)?),
        };
        Ok(SpecEval::Pattern(Box::new(pattern), extra))
    }

    /// Refuses a board size the evaluation does not cover (the pattern tables are 8x8 only).
    ///
    /// # Errors
    /// [`SpecError::UnsupportedSize`].
    pub fn check_size(&self, size: BoardSize) -> Result<(), SpecError> {
        match self {
            SpecEval::Weighted(_) | SpecEval::Auto(..) => Ok(()),
            SpecEval::Pattern(..) => Ok(PatternEval::check_size(size)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert!(matches!(SpecEval::parse(None, None, "pvs"), Ok(SpecEval::Auto(..))));
        assert!(matches!(
            SpecEval::parse(Some("default"), None, "pvs"),
            Ok(SpecEval::Weighted(_))
        ));
        assert!(matches!(
            SpecEval::parse(Some("mobility*10"), None, "pvs"),
            Ok(SpecEval::Weighted(_))
        ));
        assert!(matches!(
            SpecEval::parse(Some("pattern"), None, "pvs"),
            Ok(SpecEval::Pattern(_, None))
        ));
        let mix = SpecEval::parse(Some("pattern+parity*20"), None, "pvs").unwrap();
        assert!(matches!(mix, SpecEval::Pattern(_, Some(_))));
        let pos = Position::start();
        let plain = SpecEval::parse(Some("pattern"), None, "pvs").unwrap();
        let parity = "parity*20".parse::<WeightedEval>().unwrap().evaluate(&pos);
        assert_eq!(mix.evaluate(&pos), plain.evaluate(&pos) + parity);
        // Given the legal squares, every form evaluates as without them, on 8x8 and 6x6.
        let auto = SpecEval::default();
        let hand = SpecEval::parse(Some("mobility*10+parity*30"), None, "pvs").unwrap();
        let f5 = pos.play("f5".parse().unwrap()).unwrap();
        let six = Position::start_of(BoardSize::Six);
        for p in [pos, f5, six, six.play("c2".parse().unwrap()).unwrap_or(six)] {
            for e in [&mix, &plain, &auto, &hand] {
                assert_eq!(e.evaluate_with_moves(&p, p.legal_moves().0), e.evaluate(&p), "{p}");
            }
        }
        assert_ne!(
            auto.evaluate(&six),
            auto.evaluate(&pos.play("f5".parse().unwrap()).unwrap())
        );
        for (eval, weights, what) in [
            (
                Some("patterns"),
                None,
                "bad value 'patterns' for key 'eval' of engine 'pvs': ",
            ),
            (
                Some("pattern+nope*3"),
                None,
                "bad value 'pattern+nope*3' for key 'eval'",
            ),
            (Some("pattern"), Some("/nonexistent/weights.bin"), "for key 'weights'"),
            (
                None,
                Some("w.bin"),
                "key 'weights' (w.bin) of engine 'pvs' needs eval=pattern",
            ),
            (Some("mobility"), Some("w.bin"), "needs eval=pattern"),
        ] {
            let e = SpecEval::parse(eval, weights, "pvs").unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
        }
    }

    #[test]
    fn the_default_is_pattern_on_8x8_and_hand_features_elsewhere() {
        let auto = SpecEval::default();
        let pattern = PatternEval::default();
        let hand = WeightedEval::default();
        let mut pos = Position::start();
        for mv in ["f5", "d6", "c3"] {
            pos = pos.play(mv.parse().unwrap()).unwrap();
            assert_eq!(auto.evaluate(&pos), pattern.evaluate(&pos));
        }
        assert_ne!(pattern.evaluate(&pos), hand.evaluate(&pos));
        for size in [BoardSize::Four, BoardSize::Six] {
            let mut p = Position::start_of(size);
            p = p.play(p.moves()[0]).unwrap();
            assert_eq!(auto.evaluate(&p), hand.evaluate(&p));
            assert!(auto.check_size(size).is_ok());
        }
    }

    #[test]
    fn loads_a_weights_file_and_refuses_small_boards() {
        let path = std::env::temp_dir().join(format!("spec-pattern-{}.bin", std::process::id()));
        let w = othello_pattern::Weights::zero(2, 100).unwrap();
        w.write(&path).unwrap();
        let e = SpecEval::parse(Some("pattern"), Some(path.to_str().unwrap()), "pvs").unwrap();
        assert_eq!(e.evaluate(&Position::start()), 0);
        std::fs::write(&path, b"garbage").unwrap();
        let err = SpecEval::parse(Some("pattern"), Some(path.to_str().unwrap()), "pvs").unwrap_err();
        assert!(err.to_string().contains("too short"), "{err}");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            e.check_size(BoardSize::Six).unwrap_err(),
            SpecError::UnsupportedSize(othello_pattern::UnsupportedSize(BoardSize::Six))
        );
        assert!(e.check_size(BoardSize::Eight).is_ok());
        assert!(SpecEval::default().check_size(BoardSize::Four).is_ok());
    }
}
