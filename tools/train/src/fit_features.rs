//! The hand-feature model's fit (`othello_eval::WeightedEval`): linear least squares of the
//! weights on labelled positions, an optional bootstrap ([`crate::bootstrap`]) for the phases
//! the labels do not reach, and the error report.
//!
//! The model is the one `WeightedEval` computes: a feature `f` with weight `start/end` at `e`
//! empties contributes `f * (start * e/E0 + end * (1 - e/E0))` (`E0` = 60 on 8x8), so each
//! feature gives two regression columns, `f * e/E0` and `f * (1 - e/E0)`, and the unknowns are
//! the `start` and `end` weights themselves, in centi-discs. With [`StartMode::Default`] the
//! start weights stay the hand-set ones (their contribution is subtracted from the target)
//! and only the end weights are fitted.

use crate::bootstrap::{self, Candidate, Store};
use crate::data::Row;
use crate::error::TrainResult;
use crate::features::{phase, values};
use crate::lstsq::NormalEquations;
use othello_eval::{Evaluator, Feature, Weight, WeightedEval};
use othello_rules::Position;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Instant;

/// Which weights are unknowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StartMode {
    /// Fit both the start and the end weight of every feature.
    Fit,
    /// Keep the hand-set start weights; fit the end weights.
    Default,
}

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The features fitted.
    pub features: Vec<Feature>,
    /// Games whose number is a multiple of this are held out (never fitted; the rows come
    /// split, this splits the bootstrap's labels).
    pub test_every: u32,
    /// Ridge term added to the diagonal of the normal equations.
    pub ridge: f64,
    /// Which weights are fitted.
    pub start: StartMode,
    /// Depth of the bootstrap searches; 0 = no bootstrap.
    pub bootstrap_depth: u32,
    /// Positions labelled per bootstrap band.
    pub bootstrap_positions: usize,
    /// Width of a bootstrap band in empties.
    pub band: u32,
    /// Seed of the bootstrap's choice of positions.
    pub seed: u64,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            features: vec![
                Feature::Discs,
                Feature::Mobility,
                Feature::Potential,
                Feature::Corners,
                Feature::Xc,
                Feature::Parity,
            ],
            test_every: 5,
            ridge: 1.0,
            start: StartMode::Fit,
            bootstrap_depth: 0,
            bootstrap_positions: 2000,
            band: 10,
            seed: 1,
        }
    }
}

/// Where a point's label comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The labels files.
    Labels,
    /// The bootstrap's searches with the evaluation fitted so far.
    Bootstrap,
}

/// A labelled position ready for the regression.
#[derive(Clone, Debug)]
pub struct Point {
    /// The position.
    pub pos: Position,
    /// Its feature values.
    pub values: [i32; Feature::COUNT],
    /// The phase `e / E0`.
    pub phase: f64,
    /// The label in centi-discs for the side to move.
    pub target: f64,
    /// Where the label comes from.
    pub source: Source,
    /// Whether it is held out.
    pub test: bool,
}

impl Point {
    fn new(pos: Position, target: f64, source: Source, test: bool) -> Point {
        Point {
            pos,
            values: values(&pos),
            phase: phase(&pos),
            target,
            source,
            test,
        }
    }
}

/// Fitted weights (real numbers, centi-discs per unit), as `(feature, start, end)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The weights.
    pub weights: Vec<(Feature, f64, f64)>,
}

impl Fitted {
    /// The model's value at `p` in centi-discs.
    pub fn predict(&self, p: &Point) -> f64 {
        self.weights
            .iter()
            .map(|&(f, s, e)| p.values[f as usize] as f64 * (s * p.phase + e * (1.0 - p.phase)))
            .sum()
    }

    /// The weights rounded to integers, as an evaluation (zero terms dropped).
    pub fn eval(&self) -> WeightedEval {
        let clamp = |w: f64| (w.round() as i64).clamp(-(Weight::MAX as i64), Weight::MAX as i64) as i32;
        WeightedEval::from_terms(
            self.weights
                .iter()
                .map(|&(f, s, e)| (f, Weight::phased(clamp(s), clamp(e))))
                .filter(|(_, w)| !w.is_zero()),
        )
    }
}

/// The hand-set default's start weight of `f` (0 if it is not a default term).
fn default_start(f: Feature) -> f64 {
    WeightedEval::standard().weight(f).map_or(0.0, |w| w.start() as f64)
}

/// Least squares over the training points (those not held out).
pub fn fit(points: &[Point], config: &FitConfig) -> Option<Fitted> {
    let k = config.features.len();
    let cols = match config.start {
        StartMode::Fit => 2 * k,
        StartMode::Default => k,
    };
    let starts: Vec<f64> = config.features.iter().map(|&f| default_start(f)).collect();
    let mut ne = NormalEquations::new(cols);
    let mut x = vec![0.0; cols];
    for p in points.iter().filter(|p| !p.test) {
        let mut y = p.target;
        for (i, &f) in config.features.iter().enumerate() {
            let v = p.values[f as usize] as f64;
            match config.start {
                StartMode::Fit => {
                    x[2 * i] = v * p.phase;
                    x[2 * i + 1] = v * (1.0 - p.phase);
                }
                StartMode::Default => {
                    y -= v * p.phase * starts[i];
                    x[i] = v * (1.0 - p.phase);
                }
            }
        }
        ne.add(&x, y);
    }
    if ne.rows() == 0 {
        return None;
    }
    let w = ne.solve(config.ridge)?;
    let weights = config
        .features
        .iter()
        .enumerate()
        .map(|(i, &f)| match config.start {
            StartMode::Fit => (f, w[2 * i], w[2 * i + 1]),
            StartMode::Default => (f, starts[i], w[i]),
        })
        .collect();
    Some(Fitted { weights })
}

/// Root mean square of `pred - target` over `points`, in discs, and the count.
pub fn rms<'a>(points: impl Iterator<Item = &'a Point>, pred: impl Fn(&Point) -> f64) -> (f64, usize) {
    let (mut sum, mut n) = (0.0, 0usize);
    for p in points {
        let d = (pred(p) - p.target) / 100.0;
        sum += d * d;
        n += 1;
    }
    if n == 0 {
        (f64::NAN, 0)
    } else {
        ((sum / n as f64).sqrt(), n)
    }
}

/// The points of the fit's rows.
pub fn points(rows: &[Row]) -> Vec<Point> {
    rows.iter()
        .map(|r| Point::new(r.pos, r.target, Source::Labels, r.test))
        .collect()
}

/// One bootstrap band, for the report.
#[derive(Clone, Debug)]
pub struct Band {
    /// Fewest empties.
    pub lo: u32,
    /// Most empties.
    pub hi: u32,
    /// Positions labelled by a new search.
    pub searched: usize,
    /// Labels reused from the store.
    pub reused: usize,
    /// Seconds spent.
    pub seconds: f64,
}

/// Labels positions of `candidates` band by band (fewest empties first, from the first count
/// beyond the labels) with a depth-limited PVS whose evaluation is the fit of everything
/// labelled so far, refitting after each band. The new points are appended to `points`.
pub fn bootstrap(
    candidates: &[Candidate],
    store: &mut Store,
    points: &mut Vec<Point>,
    config: &FitConfig,
    mut log: impl FnMut(&Band),
) -> TrainResult<Vec<Band>> {
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut bands = Vec::new();
    let Some(max_labelled) = points.iter().map(|p| p.pos.empty_count()).max() else {
        return Ok(bands);
    };
    let mut lo = max_labelled + 1;
    while lo <= 60 {
        let hi = (lo + config.band - 1).min(60);
        let Some(fitted) = fit(points, config) else {
            break;
        };
        let t = Instant::now();
        let b = bootstrap::label_band(
            store,
            candidates,
            lo,
            hi,
            config.bootstrap_positions,
            config.bootstrap_depth,
            &mut rng,
            fitted.eval(),
        )?;
        points.extend(b.labels.iter().map(|l| {
            Point::new(
                l.pos,
                f64::from(l.centi),
                Source::Bootstrap,
                crate::data::held_out(l, config.test_every),
            )
        }));
        let band = Band {
            lo,
            hi,
            searched: b.searched,
            reused: b.reused,
            seconds: t.elapsed().as_secs_f64(),
        };
        log(&band);
        bands.push(band);
        lo = hi + 1;
    }
    Ok(bands)
}

/// The RMS errors (discs) on the held-out points of one group, for the report.
#[derive(Clone, Debug)]
pub struct Errors {
    /// Held-out positions.
    pub n: usize,
    /// The real-valued fit.
    pub fitted: f64,
    /// The fit rounded to integer weights (the `WeightedEval` actually printed).
    pub rounded: f64,
    /// The hand-set default.
    pub default: f64,
}

/// Held-out errors of the fit, its rounding and the default over `points` with `lo..=hi`
/// empties from `source`.
pub fn errors(points: &[Point], fitted: &Fitted, source: Source, lo: u32, hi: u32) -> Errors {
    let eval = fitted.eval();
    let default = WeightedEval::standard();
    let sel = || {
        points
            .iter()
            .filter(move |p| p.test && p.source == source && (lo..=hi).contains(&p.pos.empty_count()))
    };
    let (f, n) = rms(sel(), |p| fitted.predict(p));
    let (r, _) = rms(sel(), |p| eval.evaluate(&p.pos) as f64);
    let (d, _) = rms(sel(), |p| default.evaluate(&p.pos) as f64);
    Errors {
        n,
        fitted: f,
        rounded: r,
        default: d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::random_move;
    use rand::Rng;

    /// Random positions labelled by a known `WeightedEval` with real-valued structure: the
    /// fit must find its weights back.
    #[test]
    fn recovers_a_known_evaluation() {
        let truth: WeightedEval = "discs*-7/90+mobility*35/12+potential*-9/4+corners*300/180+xc*50/-20+parity*3/80"
            .parse()
            .unwrap();
        let truth_real = Fitted {
            weights: truth
                .terms()
                .iter()
                .map(|&(f, w)| (f, w.start() as f64, w.end() as f64))
                .collect(),
        };
        let mut rng = SmallRng::seed_from_u64(9);
        let mut points = Vec::new();
        for game in 0..200 {
            let mut pos = Position::start();
            while !pos.is_game_over() {
                let mut p = Point::new(pos, 0.0, Source::Labels, game % 5 == 0);
                p.target = truth_real.predict(&p);
                points.push(p);
                pos = pos.play_unchecked(random_move(&pos, &mut rng).expect("not over"));
            }
        }
        let config = FitConfig {
            ridge: 0.0,
            ..FitConfig::default()
        };
        let got = fit(&points, &config).unwrap();
        for (&(f, s, e), &(tf, ts, te)) in got.weights.iter().zip(&truth_real.weights) {
            assert_eq!(f, tf);
            assert!(
                (s - ts).abs() < 1e-6 && (e - te).abs() < 1e-6,
                "{f}: {s}/{e} vs {ts}/{te}"
            );
        }
        assert_eq!(got.eval(), truth);
        let (r, n) = rms(points.iter().filter(|p| p.test), |p| got.predict(p));
        assert!(n > 0 && r < 1e-6);
        // The real model equals the integer evaluation up to its rounding (half a centi-disc
        // per feature).
        for p in points.iter().take(500) {
            assert!((truth_real.predict(p) - truth.evaluate(&p.pos) as f64).abs() < 40.0);
        }
    }

    #[test]
    fn fixed_start_keeps_the_default_starts() {
        let mut points = Vec::new();
        let mut pos = Position::start();
        let mut rng = SmallRng::seed_from_u64(2);
        while !pos.is_game_over() {
            points.push(Point::new(
                pos,
                rng.random_range(-3000.0..3000.0),
                Source::Labels,
                false,
            ));
            pos = pos.play_unchecked(random_move(&pos, &mut rng).expect("not over"));
        }
        let config = FitConfig {
            start: StartMode::Default,
            ..FitConfig::default()
        };
        let got = fit(&points, &config).unwrap();
        for &(f, s, _) in &got.weights {
            assert_eq!(s, default_start(f));
        }
    }
}
