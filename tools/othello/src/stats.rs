//! Match statistics: the pentanomial model over game pairs, Elo with a 95% interval, the
//! likelihood of superiority, and the generalised SPRT, as fishtest and fastchess compute them.
//!
//! Every opening is played twice, each side once, so the unit of observation is a *game pair*.
//! A pair scores 0, 1/2, 1, 3/2 or 2 points (LL, LD, WL or DD, WD, WW); [`Pentanomial`] counts
//! the five outcomes. Per-game figures divide a pair's score by two, so the pair outcomes are the
//! values `a = 0, 1/4, 1/2, 3/4, 1` with frequencies `p`:
//!
//! - mean score `mu = sum p a`, variance of a pair's mean `var = sum p (a - mu)^2`;
//! - Elo `= -400 log10(1/mu - 1)` (logistic), 95% interval from `mu -+ 1.959964 sqrt(var / N)`
//!   mapped through the same curve (`N` pairs); `elo_error` is half its width;
//! - LOS `= Phi((mu - 1/2) / sqrt(var / N))`;
//! - SPRT, logistic bounds (default): the generalised log-likelihood ratio of fishtest,
//!   `LLR = N sum p log(p1/p0)` where `p0`, `p1` are the maximum-likelihood distributions on the
//!   five outcomes with expected score `s0 = L(elo0)`, `s1 = L(elo1)` (`L(e) = 1/(1+10^(-e/400))`);
//!   `p_s = p / (1 + x (a - s))` with `x` the root of `sum p (a - s) / (1 + x (a - s)) = 0`;
//! - SPRT, normalized bounds: fishtest's closed form (normalized Elo `= nt * 800 / ln 10`,
//!   `nt = (mu - 1/2) / sqrt(2 var)`), `LLR = N log((1 + (nt - nt0)^2) / (1 + (nt - nt1)^2))`
//!   (`N` pairs, that is `games / 2`);
//! - bounds `ln(beta / (1 - alpha))` (accept H0) and `ln((1 - beta) / alpha)` (accept H1).
//!
//! Degenerate data: for the LLR an outcome never seen counts 0.001 pairs (fishtest's
//! regularisation), so a sweep has a finite, growing LLR. The Elo point estimate and interval are
//! not numbers when the score is 0% or 100% (`None`: printed `-inf`/`+inf`, JSON `null`), and the
//! interval is unknown (`None`) when the variance is zero (every pair alike); the LOS is then 0,
//! 1/2 or 1 by the sign of `mu - 1/2`. No figure is printed as `-0.0`.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of normalized t-value: `800 / ln 10`.
pub const NELO_PER_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Expected score of a player `elo` points stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of an expected score; `None` at 0 and 1 (unbounded).
pub fn elo_of_score(s: f64) -> Option<f64> {
    if s <= 0.0 || s >= 1.0 || s.is_nan() {
        return None;
    }
    Some(no_negative_zero(-400.0 * (1.0 / s - 1.0).log10()))
}

/// Maps `-0.0` to `0.0` (and leaves every other value alone).
pub fn no_negative_zero(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x }
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function (Abramowitz-Stegun 7.1.26 is too coarse for LOS near 1; this is the
/// series / continued fraction split, accurate to about 1e-15).
fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // Continued fraction for erfc (Lentz), converges fast for x >= 2.5.
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..200 {
        let a = k as f64 / 2.0;
        d = 1.0 / (x + a * d);
        c = x + a / c;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    1.0 - (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

/// Results from one player's side, game by game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
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

    /// Adds one game's result, in half points (0 loss, 1 draw, 2 win).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }
}

/// Counts of game-pair outcomes by the pair's score in half points: `[LL, LD, WL+DD, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: pairs that scored `k` half points (0 to 4).
    pub counts: [u64; 5],
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    /// Logistic Elo; `None` at a score of 0% or 100%.
    pub elo: Option<f64>,
    /// Lower end of the 95% interval; `None` when not a number (see the module docs).
    pub low: Option<f64>,
    /// Upper end of the 95% interval.
    pub high: Option<f64>,
    /// Half the interval's width.
    pub error: Option<f64>,
    /// Normalized Elo (`nt * 800 / ln 10`); `None` when the variance is zero.
    pub nelo: Option<f64>,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

impl Pentanomial {
    /// Adds a pair from its two games' half points (0 loss, 1 draw, 2 win each).
    pub fn add_pair(&mut self, first: u8, second: u8) {
        self.counts[(first.min(2) + second.min(2)) as usize] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The empirical distribution `(a, p)`; with `regularize`, zero counts become 0.001.
    fn pdf(&self, regularize: bool) -> [(f64, f64); 5] {
        let c: Vec<f64> = self
            .counts
            .iter()
            .map(|&n| if n == 0 && regularize { 1e-3 } else { n as f64 })
            .collect();
        let total: f64 = c.iter().sum();
        let mut pdf = [(0.0, 0.0); 5];
        for (k, slot) in pdf.iter_mut().enumerate() {
            *slot = (k as f64 / 4.0, if total > 0.0 { c[k] / total } else { 0.0 });
        }
        pdf
    }

    /// Mean per-game score and the variance of a pair's mean score.
    pub fn mean_variance(&self) -> (f64, f64) {
        if self.pairs() == 0 {
            return (0.5, 0.0);
        }
        mean_var(&self.pdf(false))
    }

    /// Elo, its 95% interval, normalized Elo and the LOS.
    pub fn elo(&self) -> EloEstimate {
        let n = self.pairs() as f64;
        let (mu, var) = self.mean_variance();
        let elo = elo_of_score(mu);
        let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
        let (low, high, error, nelo, los);
        if se > 0.0 {
            low = elo_of_score(mu - Z95 * se);
            high = elo_of_score(mu + Z95 * se);
            error = match (low, high) {
                (Some(l), Some(h)) => Some((h - l) / 2.0),
                _ => None,
            };
            nelo = Some(no_negative_zero((mu - 0.5) / (2.0 * var).sqrt() * NELO_PER_NT));
            los = phi((mu - 0.5) / se);
        } else {
            (low, high, error, nelo) = (None, None, None, None);
            los = if mu > 0.5 {
                1.0
            } else if mu < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        EloEstimate {
            score: mu,
            elo,
            low,
            high,
            error,
            nelo,
            los,
        }
    }
}

fn mean_var(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var: f64 = pdf.iter().map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// The maximum-likelihood distribution on the support of `pdf` with expectation `s`
/// (fishtest's `MLE_expected`): `p_i / (1 + x (a_i - s))`, `x` solving the secular equation.
/// `s` must lie strictly between the smallest and largest `a` with positive mass.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<(f64, f64)> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let lo_a = shifted
        .iter()
        .filter(|x| x.1 > 0.0)
        .map(|x| x.0)
        .fold(f64::INFINITY, f64::min);
    let hi_a = shifted
        .iter()
        .filter(|x| x.1 > 0.0)
        .map(|x| x.0)
        .fold(f64::NEG_INFINITY, f64::max);
    // 1 + x a > 0 for every a: x in (-1/hi_a, -1/lo_a); f(x) = sum p a / (1 + x a) decreases.
    let f = |x: f64| shifted.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / hi_a, -1.0 / lo_a);
    let eps = 1e-12 * (hi - lo);
    (lo, hi) = (lo + eps, hi - eps);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    pdf.iter().map(|&(a, p)| (a, p / (1.0 + x * (a - s)))).collect()
}

/// How the SPRT's hypotheses are expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (the expected score `1/(1+10^(-elo/400))`), the default.
    Logistic,
    /// Normalized Elo (fishtest's: Elo per unit of the score's standard deviation).
    Normalized,
}

impl EloModel {
    /// `"logistic"` or `"normalized"`.
    pub fn as_str(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
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

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo (greater than `elo0`).
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: EloModel,
}

impl Sprt {
    /// The test with alpha = beta = 0.05 in logistic Elo.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }

    /// The LLR bounds: accept H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pairs so far (0 with no pair).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        let n = penta.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let pdf = penta.pdf(true);
        let n = n + penta.counts.iter().filter(|&&c| c == 0).count() as f64 * 1e-3;
        let llr = match self.model {
            EloModel::Logistic => {
                let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
                let (p0, p1) = (mle_expected(&pdf, s0), mle_expected(&pdf, s1));
                n * pdf
                    .iter()
                    .zip(p0.iter().zip(&p1))
                    .map(|(&(_, p), (q0, q1))| p * (q1.1.ln() - q0.1.ln()))
                    .sum::<f64>()
            }
            EloModel::Normalized => {
                let (mu, var) = mean_var(&pdf);
                let nt = (mu - 0.5) / (2.0 * var).sqrt();
                let (nt0, nt1) = (self.elo0 / NELO_PER_NT, self.elo1 / NELO_PER_NT);
                n * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
            }
        };
        no_negative_zero(llr)
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
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

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_curve_and_normal() {
        assert_eq!(elo_of_score(0.5), Some(0.0));
        assert!(elo_of_score(0.5).unwrap().is_sign_positive());
        assert!(close(elo_of_score(score_of_elo(123.0)).unwrap(), 123.0, 1e-9));
        assert_eq!(elo_of_score(0.0), None);
        assert_eq!(elo_of_score(1.0), None);
        // Phi(1.959964) = 0.975, Phi(0) = 1/2, Phi(-1) = 0.158655253931457, Phi(3) = 0.998650101968.
        assert!(close(phi(Z95), 0.975, 1e-12));
        assert_eq!(phi(0.0), 0.5);
        assert!(close(phi(-1.0), 0.158_655_253_931_457, 1e-13));
        assert!(close(phi(3.0), 0.998_650_101_968_370, 1e-13));
        assert!(close(phi(4.0), 0.999_968_328_758_167, 1e-13));
    }

    #[test]
    fn pentanomial_hand_computed() {
        // Pairs: LL x1, WL x2, WD x1, WW x2 (N = 6), values a = 0, 1/2, 3/4, 1.
        // mu  = (0 + 2*0.5 + 0.75 + 2*1) / 6 = 3.75 / 6 = 0.625
        // var = (0.625^2 + 2*0.125^2 + 0.125^2 + 2*0.375^2) / 6 = 0.71875 / 6 = 0.11979167
        // se  = sqrt(var / 6) = sqrt(0.01996528) = 0.14129856
        // Elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.739499
        // 95%: mu -+ 1.959964 * se = 0.625 -+ 0.27693943 = [0.34806057, 0.90193943]
        //      Elo(0.34806057) = -400 log10(1.87306575) = -109.0214
        //      Elo(0.90193943) = -400 log10(0.10872247) =  385.4744, error = 247.2479
        // LOS = Phi(0.125 / 0.14129856) = Phi(0.88465) = 0.81183
        // nElo = 0.125 / sqrt(2 * 0.11979167) * 347.43559 = 0.25537696 * 347.43559 = 88.7269
        let mut p = Pentanomial::default();
        p.add_pair(0, 0);
        p.add_pair(2, 0);
        p.add_pair(0, 2);
        p.add_pair(2, 1);
        p.add_pair(2, 2);
        p.add_pair(2, 2);
        assert_eq!(p.counts, [1, 0, 2, 1, 2]);
        let e = p.elo();
        assert!(close(e.score, 0.625, 1e-12));
        assert!(close(e.elo.unwrap(), 88.739_499, 1e-5));
        assert!(close(e.low.unwrap(), -109.0214, 1e-3), "{e:?}");
        assert!(close(e.high.unwrap(), 385.4744, 1e-3), "{e:?}");
        assert!(close(e.error.unwrap(), 247.2479, 1e-3), "{e:?}");
        assert!(close(e.los, 0.81183, 1e-4), "{e:?}");
        assert!(close(e.nelo.unwrap(), 88.7269, 1e-3), "{e:?}");
    }

    #[test]
    fn degenerate_cases() {
        // 0%: three LL pairs. No Elo, no interval, LOS 0, and no -0.0 anywhere.
        let zero = Pentanomial {
            counts: [3, 0, 0, 0, 0],
        };
        let e = zero.elo();
        assert_eq!((e.elo, e.low, e.high, e.error, e.nelo), (None, None, None, None, None));
        assert_eq!(e.los, 0.0);
        assert!(e.los.is_sign_positive());
        let full = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(full.elo().elo, None);
        assert_eq!(full.elo().los, 1.0);
        // Zero variance at 50%: every pair split. Elo exactly +0.0, interval unknown.
        let even = Pentanomial {
            counts: [0, 0, 4, 0, 0],
        };
        let e = even.elo();
        assert_eq!(e.elo, Some(0.0));
        assert!(e.elo.unwrap().is_sign_positive());
        assert_eq!((e.error, e.los), (None, 0.5));
        // No pairs at all.
        let none = Pentanomial::default();
        assert_eq!(none.elo().elo, Some(0.0));
        assert_eq!(Sprt::new(0.0, 10.0).llr(&none), 0.0);
    }

    #[test]
    fn mle_has_the_asked_mean() {
        let p = Pentanomial {
            counts: [3, 10, 40, 12, 5],
        };
        let pdf = p.pdf(true);
        for s in [0.45, 0.5, 0.52, 0.6] {
            let q = mle_expected(&pdf, s);
            let (m, _) = mean_var(&q);
            assert!(close(m, s, 1e-9), "{s}: {m}");
            assert!(close(q.iter().map(|x| x.1).sum::<f64>(), 1.0, 1e-9));
        }
    }

    #[test]
    fn llr_hand_computed() {
        // Data scoring exactly 1/2 with H0 = -5, H1 = +5: the two MLE distributions are mirror
        // images weighted by symmetric data, so the LLR is 0.
        let sym = Pentanomial {
            counts: [5, 20, 50, 20, 5],
        };
        assert!(close(Sprt::new(-5.0, 5.0).llr(&sym), 0.0, 1e-9));
        // Data scoring exactly s1 = L(10): the MLE for s1 is the data itself, so the LLR is
        // N * KL(data || MLE at s0) > 0; with H1 at the data's own mean the LLR for the test
        // (s0, s1) is larger than for any (s0, s) with s != s1 (the GLR peaks at the mean).
        let sprt = Sprt::new(0.0, 5.0);
        let bad = Pentanomial {
            counts: [5, 300, 600, 100, 5],
        };
        let l = sprt.llr(&bad);
        assert!(l < sprt.bounds().0, "{l}");
        assert_eq!(sprt.verdict(l), Verdict::H0);
        assert_eq!(
            sprt.verdict(sprt.llr(&Pentanomial {
                counts: [0, 0, 600, 400, 0]
            })),
            Verdict::H1
        );
    }

    #[test]
    fn llr_matches_reference_values() {
        // fishtest's GLR (zero counts regularised to 0.001, MLE by the secular equation),
        // computed by an independent implementation of the same formulas, elo0 = 0, elo1 = 10:
        // [10, 20, 40, 20, 10] (mu = 1/2) -0.137899; [2, 10, 30, 15, 6] 0.726367;
        // [0, 0, 0, 0, 3] (a 6-0 sweep) 0.085160, far from the bound 2.944;
        // [0, 0, 600, 400, 0] 28.368010.
        for (counts, want) in [
            ([10, 20, 40, 20, 10], -0.137_899),
            ([2, 10, 30, 15, 6], 0.726_367),
            ([0, 0, 0, 0, 3], 0.085_160),
            ([0, 0, 600, 400, 0], 28.368_010),
        ] {
            let got = Sprt::new(0.0, 10.0).llr(&Pentanomial { counts });
            assert!(close(got, want, 2e-6), "{counts:?}: {got} vs {want}");
        }
        // Bounds: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let (lo, hi) = Sprt::new(0.0, 10.0).bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
    }

    #[test]
    fn normalized_llr() {
        // [2, 10, 30, 15, 6], nelo 0..10 (regularisation changes nothing: no zero count).
        // mu = (10*0.25 + 30*0.5 + 15*0.75 + 6)/63 = 34.75/63 = 0.55158730
        // var = (2*0.55159^2 + 10*0.30159^2 + 30*0.05159^2 + 15*0.19841^2 + 6*0.44841^2)/63
        //     = 3.39484/63 = 0.05388637; sigma_pg = sqrt(2 var) = 0.32828766
        // nt = 0.05158730 / 0.32828766 = 0.15714058; nt0 = 0, nt1 = 10/347.43559 = 0.02878232
        // LLR = 63 ln((1 + 0.15714058^2) / (1 + 0.12835826^2))
        //     = 63 ln(1.02469316 / 1.01647584) = 63 * 0.00805169 = 0.50726
        let s = Sprt {
            model: EloModel::Normalized,
            ..Sprt::new(0.0, 10.0)
        };
        let got = s.llr(&Pentanomial {
            counts: [2, 10, 30, 15, 6],
        });
        assert!(close(got, 0.507_252, 1e-5), "{got}");
    }
}
