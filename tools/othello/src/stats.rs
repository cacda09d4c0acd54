//! Match statistics: Elo difference with a 95% interval, and the SPRT.
//!
//! Model: the logistic Elo model, with the per-game score (1, 1/2, 0) treated as a trinomial
//! random variable. The interval is the normal approximation on the mean score mapped through
//! the Elo curve. The SPRT is the generalised SPRT used by chess engine testing frameworks
//! (fishtest's "GSPRT"): with the score's sample mean `s` and variance `v` per game,
//! `LLR = n * (s1 - s0) * (2 s - s0 - s1) / (2 v)` where `s0`, `s1` are the expected scores of
//! the hypotheses `elo0`, `elo1`; bounds `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`
//! with alpha = beta = 0.05.

/// Expected score of a player `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (clamped away from 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Results from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// The SPRT's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accept H0 (the difference is at most elo0).
    H0,
    /// Accept H1 (the difference is at least elo1).
    H1,
    /// Keep playing.
    Continue,
}

impl Verdict {
    /// `"H0"`, `"H1"` or `"continue"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "continue",
        }
    }
}

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0.5 when no game was played).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let elo = elo_of_score(s);
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        if self.variance() == 0.0 {
            // Every game had the same result: the data bound the difference on one side only.
            return (elo, f64::INFINITY);
        }
        let se = (self.variance() / n).sqrt();
        let lo = elo_of_score(s - 1.96 * se);
        let hi = elo_of_score(s + 1.96 * se);
        (elo, (hi - lo) / 2.0)
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let v = self.variance();
        if n == 0.0 || v <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * v)
    }

    /// The SPRT verdict for `elo0 < elo1` with alpha = beta = 0.05.
    pub fn sprt(&self, elo0: f64, elo1: f64) -> Verdict {
        let (alpha, beta) = (0.05f64, 0.05f64);
        let lower = (beta / (1.0 - alpha)).ln();
        let upper = ((1.0 - beta) / alpha).ln();
        let llr = self.llr(elo0, elo1);
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_curve() {
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-6);
        let t = Tally {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        let (elo, err) = t.elo();
        assert!((elo - 70.4).abs() < 0.5, "{elo}");
        assert!(err > 50.0 && err < 90.0, "{err}");
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let strong = Tally {
            wins: 900,
            draws: 50,
            losses: 50,
        };
        assert_eq!(strong.sprt(0.0, 10.0), Verdict::H1);
        let weak = Tally {
            wins: 50,
            draws: 50,
            losses: 900,
        };
        assert_eq!(weak.sprt(0.0, 10.0), Verdict::H0);
        let few = Tally {
            wins: 3,
            draws: 0,
            losses: 2,
        };
        assert_eq!(few.sprt(0.0, 10.0), Verdict::Continue);
    }
}
