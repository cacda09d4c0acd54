//! The data set: one JSON object per line,
//! `{"game":7,"empties":14,"position":"<board> <side>","score":-6}`, where `score` is the exact
//! final disc difference for the side to move with best play (empties to the winner), or
//! `null` for a position stored unlabelled (more empties than the solver was asked to solve;
//! the `fit` bootstrap labels some of them by search).

use crate::error::{TuneError, TuneResult};
use othello_rules::Position;
use serde_json::json;
use std::io::{BufRead, BufReader, BufWriter, Write};

/// One position of the data set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The self-play game it comes from (the held-out split is by game).
    pub game: u32,
    /// The position.
    pub pos: Position,
    /// The exact score in discs for the side to move, if solved.
    pub score: Option<i32>,
}

impl Sample {
    /// The JSON Lines form (without the newline).
    pub fn to_line(&self) -> String {
        json!({"game": self.game, "empties": self.pos.empty_count(), "position": self.pos.to_string(),
            "score": self.score})
        .to_string()
    }

    /// Parses one line; `what` names it in errors (`file:line`).
    pub fn from_line(line: &str, what: &str) -> TuneResult<Sample> {
        let bad = |m: &str| TuneError::Input(format!("{what}: {m}"));
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(&format!("not JSON: {e}")))?;
        let game = v["game"].as_u64().ok_or_else(|| bad("missing or bad 'game'"))?;
        let game = u32::try_from(game).map_err(|_| bad("'game' too large"))?;
        let text = v["position"].as_str().ok_or_else(|| bad("missing or bad 'position'"))?;
        let pos: Position = text.parse().map_err(|e| bad(&format!("bad position: {e}")))?;
        let score = match &v["score"] {
            serde_json::Value::Null => None,
            s => {
                let s = s.as_i64().ok_or_else(|| bad("bad 'score'"))?;
                let max = pos.size().squares() as i64;
                if s.abs() > max {
                    return Err(bad(&format!("score {s} out of range")));
                }
                Some(s as i32)
            }
        };
        if let Some(e) = v["empties"].as_u64()
            && e != pos.empty_count() as u64
        {
            return Err(bad(&format!(
                "'empties' {e} does not match the position ({})",
                pos.empty_count()
            )));
        }
        Ok(Sample { game, pos, score })
    }
}

/// Writes samples as JSON Lines.
pub fn write(path: &str, samples: &[Sample]) -> TuneResult<()> {
    let err = |e: std::io::Error| TuneError::Input(format!("cannot write {path}: {e}"));
    let file = std::fs::File::create(path).map_err(err)?;
    let mut w = BufWriter::new(file);
    for s in samples {
        writeln!(w, "{}", s.to_line()).map_err(err)?;
    }
    w.flush().map_err(err)
}

/// Reads a JSON Lines data set (blank lines are skipped).
pub fn read(path: &str) -> TuneResult<Vec<Sample>> {
    let file = std::fs::File::open(path).map_err(|e| TuneError::Input(format!("cannot read {path}: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| TuneError::Input(format!("cannot read {path}: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(Sample::from_line(&line, &format!("{path} line {}", i + 1))?);
    }
    if out.is_empty() {
        return Err(TuneError::Input(format!("{path} has no positions")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_round_trip_and_errors() {
        let s = Sample {
            game: 3,
            pos: Position::start(),
            score: Some(-4),
        };
        assert_eq!(Sample::from_line(&s.to_line(), "t").unwrap(), s);
        let u = Sample {
            score: None,
            ..s.clone()
        };
        assert_eq!(Sample::from_line(&u.to_line(), "t").unwrap(), u);
        for bad in [
            "nope",
            r#"{"game":1,"position":"xx X","score":1}"#,
            r#"{"position":"---------------------------OX------XO--------------------------- X","score":1}"#,
            r#"{"game":1,"empties":3,"position":"---------------------------OX------XO--------------------------- X","score":1}"#,
            r#"{"game":1,"position":"---------------------------OX------XO--------------------------- X","score":99}"#,
        ] {
            assert!(Sample::from_line(bad, "t").is_err(), "{bad}");
        }
    }
}
