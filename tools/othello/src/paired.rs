//! `othello stats --records R... --against S...`: two runs of the same openings (two versions
//! of player A against one opponent, say) compared game pair by game pair. Each pair of games
//! (`2p + 1` and `2p + 2`: one opening, both colours) present in both runs gives the difference
//! of A's points a game; their mean, with a 95% interval from their spread, is the change from
//! the second run to the first. Pairing removes the part of the spread the openings cause, so
//! the interval is narrower than the two runs' own intervals combined.

use crate::error::{CliResult, input};
use crate::records::{Pairs, Records};
use crate::stats::elo_of_score;
use serde_json::{Value, json};

/// Two runs compared game pair by game pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// Game pairs in both runs.
    pub pairs: u64,
    /// Complete game pairs in only one of the runs (not counted).
    pub unmatched: u64,
    /// A's score a game over the common pairs in the first run.
    pub score: f64,
    /// The same in the second run (`--against`).
    pub against: f64,
    /// The mean difference of A's points a game, first run minus second.
    pub difference: f64,
    /// Half the 95% interval of `difference` (`None` with fewer than two pairs).
    pub error: Option<f64>,
}

/// Compares the game pairs of two runs.
///
/// # Errors
/// Bad input when no pair is in both runs, or when a pair names different openings in the two
/// runs (the runs then did not play the same openings in the same order).
pub fn paired(records: &Records, against: &Records) -> CliResult<Paired> {
    compare(&records.pairs(), &against.pairs())
}

/// [`paired`] on the pairs of the two runs.
fn compare(first: &Pairs, second: &Pairs) -> CliResult<Paired> {
    let mut diffs = Vec::new();
    let (mut a, mut b) = (0u64, 0u64);
    for (&p, (ha, oa)) in first {
        let Some((hb, ob)) = second.get(&p) else {
            continue;
        };
        if let (Some(x), Some(y)) = (oa, ob)
            && x != y
        {
            return Err(input(format!(
                "--against: games {} and {} open with {x} in --records and {y} in --against: compare runs of the same openings",
                2 * p + 1,
                2 * p + 2
            )));
        }
        diffs.push((f64::from(*ha) - f64::from(*hb)) / 4.0);
        a += u64::from(*ha);
        b += u64::from(*hb);
    }
    let n = diffs.len();
    if n == 0 {
        return Err(input(
            "--against: no game pair is in both --records and --against (pairs are matched by game number)",
        ));
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let error = (n >= 2).then(|| {
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        1.96 * (var / n as f64).sqrt()
    });
    Ok(Paired {
        pairs: n as u64,
        unmatched: (first.len() + second.len() - 2 * n) as u64,
        score: a as f64 / (4 * n) as f64,
        against: b as f64 / (4 * n) as f64,
        difference: mean,
        error,
    })
}

impl Paired {
    /// The Elo difference of the two scores, and half its 95% interval from the paired
    /// interval of the difference (scaled by the slope of the Elo curve at the mean of the two
    /// scores). `None` where a score is 0 or 1.
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let elo = elo_of_score(self.score)
            .zip(elo_of_score(self.against))
            .map(|(x, y)| x - y);
        let mid = (self.score + self.against) / 2.0;
        let slope = 400.0 / std::f64::consts::LN_10 / (mid * (1.0 - mid));
        (elo, self.error.filter(|_| elo.is_some()).map(|e| e * slope))
    }

    /// The comparison as JSON (the `against` field of `stats --json`).
    pub fn json(&self) -> Value {
        let (elo, elo_error) = self.elo();
        json!({"pairs": self.pairs, "unmatched_pairs": self.unmatched, "score": self.score,
            "against_score": self.against, "difference": self.difference,
            "difference_error": self.error, "elo": elo, "elo_error": elo_error})
    }

    /// The comparison as a line of text.
    pub fn text(&self) -> String {
        let pm = |e: Option<f64>, digits: usize| e.map_or("inf".to_string(), |e| format!("{e:.digits$}"));
        let (elo, elo_error) = self.elo();
        let mut s = format!(
            "against: {}, A's score {:.4} here and {:.4} there, difference {:+.4} +/- {} a game (95%, paired)",
            crate::output::count(self.pairs as usize, "common game pair", "common game pairs"),
            self.score,
            self.against,
            self.difference,
            pm(self.error, 4),
        );
        if let Some(elo) = elo {
            s += &format!(
                ", {:+.1} +/- {} Elo",
                crate::stats::no_negative_zero(elo),
                pm(elo_error, 1)
            );
        }
        if self.unmatched > 0 {
            s += &format!(
                "; {} in one run only, not counted",
                crate::output::count(self.unmatched as usize, "pair", "pairs")
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(u64, u8, Option<&str>)]) -> Pairs {
        items.iter().map(|&(p, h, o)| (p, (h, o.map(str::to_string)))).collect()
    }

    #[test]
    fn mean_interval_scores_and_unmatched_pairs() {
        // Common pairs 0, 1, 2: differences (4-2)/4, (2-2)/4, (1-2)/4 = 0.5, 0, -0.25.
        let a = pairs(&[(0, 4, Some("f5d6")), (1, 2, None), (2, 1, Some("f5f6")), (7, 3, None)]);
        let b = pairs(&[
            (0, 2, Some("f5d6")),
            (1, 2, Some("f5f4")),
            (2, 2, Some("f5f6")),
            (8, 0, None),
            (9, 1, None),
        ]);
        let p = compare(&a, &b).unwrap();
        assert_eq!((p.pairs, p.unmatched), (3, 3));
        assert!((p.difference - 0.25 / 3.0).abs() < 1e-12);
        // Sample variance of 0.5, 0, -0.25 about 1/12: (25/144 + 1/144 + 16/144) / 2 = 21/144.
        let error = 1.96 * (21.0 / 144.0 / 3.0f64).sqrt();
        assert!((p.error.unwrap() - error).abs() < 1e-12, "{p:?}");
        assert!((p.score - 7.0 / 12.0).abs() < 1e-12);
        assert!((p.against - 0.5).abs() < 1e-12);
        let (elo, elo_error) = p.elo();
        let expected = elo_of_score(7.0 / 12.0).unwrap();
        assert!((elo.unwrap() - expected).abs() < 1e-9);
        let mid: f64 = 13.0 / 24.0;
        let slope = 400.0 / std::f64::consts::LN_10 / (mid * (1.0 - mid));
        assert!((elo_error.unwrap() - error * slope).abs() < 1e-9);
        let text = p.text();
        assert!(
            text.starts_with(
                "against: 3 common game pairs, A's score 0.5833 here and 0.5000 there, difference +0.0833 +/- "
            ),
            "{text}"
        );
        assert!(text.ends_with("; 3 pairs in one run only, not counted"), "{text}");
        let v = p.json();
        assert_eq!((v["pairs"].as_u64(), v["unmatched_pairs"].as_u64()), (Some(3), Some(3)));
        assert_eq!(v["difference"].as_f64(), Some(p.difference));
    }

    #[test]
    fn one_pair_has_no_interval_and_equal_runs_differ_by_nothing() {
        let a = pairs(&[(0, 3, None)]);
        let p = compare(&a, &a).unwrap();
        assert_eq!((p.pairs, p.unmatched, p.difference, p.error), (1, 0, 0.0, None));
        assert_eq!(
            p.elo(),
            (Some(elo_of_score(0.75).unwrap() - elo_of_score(0.75).unwrap()), None)
        );
        assert!(p.text().contains("+/- inf a game"), "{}", p.text());
        assert!(!p.text().contains("one run only"));
        // A score of 1 has no Elo.
        let all = pairs(&[(0, 4, None), (1, 4, None)]);
        let p = compare(&all, &pairs(&[(0, 2, None), (1, 3, None)])).unwrap();
        assert_eq!(p.elo(), (None, None));
        assert!(!p.text().contains("Elo"));
    }

    #[test]
    fn other_openings_or_no_common_pair_are_refused() {
        let a = pairs(&[(0, 2, Some("f5d6")), (4, 2, Some("f5f6"))]);
        let b = pairs(&[(0, 2, Some("f5d6")), (4, 2, Some("f5f4"))]);
        let e = compare(&a, &b).unwrap_err().to_string();
        assert!(
            e.contains("games 9 and 10 open with f5f6 in --records and f5f4 in --against"),
            "{e}"
        );
        let e = compare(&a, &pairs(&[(1, 2, None)])).unwrap_err().to_string();
        assert!(e.contains("no game pair is in both"), "{e}");
    }
}
