//! The evaluation an engine spec names (`eval=...`, `weights=PATH`): the hand-feature
//! [`WeightedEval`] text form, or `pattern` (the pattern evaluation of `othello-pattern`,
//! optionally plus hand-feature terms: `pattern+parity*20`). The evaluation crate's text form
//! does not know `pattern` (the pattern crate depends on it); this spec layer composes them.
//!
//! Without an `eval` key an engine uses [`CliEval::Auto`]: the pattern evaluation on 8x8 and
//! the tuned hand features ([`WeightedEval::default`], also `eval=default`) on 4x4 and 6x6,
//! where no pattern tables exist. The pattern evaluation won +288 +/- 67 Elo at depth 8 and
//! +232 +/- 70 at 50 ms a move against the hand features (docs/BENCHMARKS.md).

use crate::error::{CliResult, input};
use othello_eval::{CutTable, Evaluator, WeightedEval};
use othello_pattern::PatternEval;
use othello_rules::{BoardSize, Position};

/// The evaluations a CLI engine can use.
#[derive(Clone, Debug)]
pub enum CliEval {
    /// Hand features (the evaluation crate's text form).
    Weighted(WeightedEval),
    /// The pattern evaluation, plus hand-feature terms when given (`pattern+parity*20`).
    Pattern(Box<PatternEval>, Option<WeightedEval>),
    /// The default: the pattern evaluation on 8x8, the hand features on smaller boards.
    Auto(Box<PatternEval>, WeightedEval),
}

impl Default for CliEval {
    fn default() -> CliEval {
        CliEval::Auto(Box::default(), WeightedEval::default())
    }
}

impl Evaluator for CliEval {
    #[inline]
    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            CliEval::Weighted(w) => w.evaluate(pos),
            CliEval::Pattern(p, None) => p.evaluate(pos),
            CliEval::Pattern(p, Some(w)) => p.evaluate(pos) + w.evaluate(pos),
            CliEval::Auto(p, w) => {
                if pos.size() == BoardSize::Eight {
                    p.evaluate(pos)
                } else {
                    w.evaluate(pos)
                }
            }
        }
    }

    /// The pattern evaluation's cut table (the search uses it on 8x8 only); none for hand
    /// features and mixes, which search full-width.
    fn cut_table(&self) -> Option<&CutTable> {
        match self {
            CliEval::Pattern(p, None) | CliEval::Auto(p, _) => p.cut_table(),
            CliEval::Weighted(_) | CliEval::Pattern(_, Some(_)) => None,
        }
    }
}

impl CliEval {
    /// Parses the `eval` value (`None`: the default) with the optional `weights` file of the
    /// pattern evaluation. `engine` names the engine in errors.
    ///
    /// # Errors
    /// A bad evaluation text, a weights file that does not load, or `weights` without
    /// `pattern`.
    pub fn parse(text: Option<&str>, weights: Option<&str>, engine: &str) -> CliResult<CliEval> {
        let Some(text) = text else {
            return match weights {
                None => Ok(CliEval::default()),
                Some(path) => Err(input(format!(
                    "key 'weights' ({path}) of engine '{engine}' needs eval=pattern"
                ))),
            };
        };
        let rest = text
            .strip_prefix("pattern")
            .filter(|r| r.is_empty() || r.starts_with('+'));
        let Some(rest) = rest else {
            if let Some(path) = weights {
                return Err(input(format!(
                    "key 'weights' ({path}) of engine '{engine}' needs eval=pattern"
                )));
            }
            return text
                .parse::<WeightedEval>()
                .map(CliEval::Weighted)
                .map_err(|e| input(format!("bad value '{text}' for key 'eval' of engine '{engine}': {e}")));
        };
        let pattern = match weights {
            None => PatternEval::default(),
            Some(path) => PatternEval::from_path(path).map_err(|e| {
                input(format!(
                    "bad value '{path}' for key 'weights' of engine '{engine}': {e}"
                ))
            })?,
        };
        let extra = match rest.strip_prefix('+') {
            None => None,
            Some(terms) => Some(
                terms
                    .parse::<WeightedEval>()
                    .map_err(|e| input(format!("bad value '{text}' for key 'eval' of engine '{engine}': {e}")))?,
            ),
        };
        Ok(CliEval::Pattern(Box::new(pattern), extra))
    }

    /// Refuses a board size the evaluation does not cover (the pattern tables are 8x8 only).
    ///
    /// # Errors
    /// The size, as bad input.
    pub fn check_size(&self, size: BoardSize) -> CliResult {
        match self {
            CliEval::Weighted(_) | CliEval::Auto(..) => Ok(()),
            CliEval::Pattern(..) => PatternEval::check_size(size).map_err(|e| input(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert!(matches!(CliEval::parse(None, None, "pvs"), Ok(CliEval::Auto(..))));
        assert!(matches!(
            CliEval::parse(Some("default"), None, "pvs"),
            Ok(CliEval::Weighted(_))
        ));
        assert!(matches!(
            CliEval::parse(Some("mobility*10"), None, "pvs"),
            Ok(CliEval::Weighted(_))
        ));
        assert!(matches!(
            CliEval::parse(Some("pattern"), None, "pvs"),
            Ok(CliEval::Pattern(_, None))
        ));
        let mix = CliEval::parse(Some("pattern+parity*20"), None, "pvs").unwrap();
        assert!(matches!(mix, CliEval::Pattern(_, Some(_))));
        let pos = Position::start();
        let plain = CliEval::parse(Some("pattern"), None, "pvs").unwrap();
        let parity = "parity*20".parse::<WeightedEval>().unwrap().evaluate(&pos);
        assert_eq!(mix.evaluate(&pos), plain.evaluate(&pos) + parity);
        for (eval, weights, what) in [
            (Some("patterns"), None, "eval"),
            (Some("pattern+nope*3"), None, "eval"),
            (Some("pattern"), Some("/nonexistent/weights.bin"), "weights"),
            (None, Some("w.bin"), "needs eval=pattern"),
        ] {
            let e = CliEval::parse(eval, weights, "pvs").unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
        }
    }

    #[test]
    fn the_default_is_pattern_on_8x8_and_hand_features_elsewhere() {
        let auto = CliEval::default();
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
        let path = std::env::temp_dir().join(format!("cli-pattern-{}.bin", std::process::id()));
        let w = othello_pattern::Weights::zero(2, 100).unwrap();
        w.write(&path).unwrap();
        let e = CliEval::parse(Some("pattern"), Some(path.to_str().unwrap()), "pvs").unwrap();
        assert_eq!(e.evaluate(&Position::start()), 0);
        std::fs::write(&path, b"garbage").unwrap();
        let err = CliEval::parse(Some("pattern"), Some(path.to_str().unwrap()), "pvs").unwrap_err();
        assert!(err.to_string().contains("too short"), "{err}");
        std::fs::remove_file(&path).unwrap();
        assert!(e.check_size(BoardSize::Six).is_err());
        assert!(e.check_size(BoardSize::Eight).is_ok());
        assert!(CliEval::default().check_size(BoardSize::Four).is_ok());
    }
}
