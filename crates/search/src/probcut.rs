//! Fitting the cut model of selective search: [`collect`] searches sample positions full-width
//! and keeps the value of every depth (the horizon's value at depth 0 too), [`fit`] turns
//! those values into a
//! [`othello_eval::CutTable`] (for each depth pair and phase, least squares of the
//! deep value on the shallow one; `sigma` is the residual RMS).
//!
//! The values come from the search the table will serve: the same evaluation, and the same
//! horizon rule (quiescence on or off), since both change what a depth-`d` value is. Positions
//! are searched to at most `empties - 1` discs, so every value is a heuristic one, as at the
//! nodes where a cut is tried (a node whose depth reaches the end of the game is never cut).
//!
//! ```
//! use othello_eval::WeightedEval;
//! use othello_rules::Position;
//! use othello_search::{SearchConfig, probcut};
//!
//! let positions: Vec<Position> = ["", "f5d6c3d3c4f4", "f5f6e6f4e3"]
//!     .iter()
//!     .map(|l| othello_rules::text::play_sequence(&Position::start(), l).unwrap())
//!     .collect();
//! let samples = probcut::collect(&WeightedEval::default(), &positions, 5, &SearchConfig::default(), |_| {});
//! assert_eq!(samples[0].values.len(), 5); // depths 1 to 5
//! assert!(samples[0].value(0).is_some()); // and the horizon's value
//! let table = probcut::fit(&samples, &[(2, 0), (5, 3)], 1, 2).unwrap();
//! assert_eq!(table.pairs().count(), 2);
//! ```

use crate::reference::{Horizon, negamax_with};
use crate::{Limits, SearchConfig, Searcher, Selectivity};
use othello_eval::{CutModel, CutTable, CutTableError, Evaluator};
use othello_rules::Position;

/// One sample position's full-width values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Its empty squares.
    pub empties: u32,
    /// Its value at the horizon, depth 0 (the evaluation, or quiescence when the search has
    /// it; centi-discs, side to move), when known: the shallow value of the pairs of shallow
    /// depth 0 ([`HORIZON_PAIRS`]).
    pub horizon: Option<i32>,
    /// `values[k - 1]` is its value searched `k` discs deep (centi-discs, side to move).
    pub values: Vec<i32>,
}

impl Sample {
    /// The value at `depth` (0: the horizon's, when known; 1 or more: searched), if known.
    pub fn value(&self, depth: u32) -> Option<i32> {
        match depth.checked_sub(1) {
            None => self.horizon,
            Some(i) => self.values.get(i as usize).copied(),
        }
    }
}

/// The pairs whose shallow search is the horizon itself (depth 0: one evaluation, or
/// quiescence): nodes of depth 1 and 2, the most numerous, cut by the value of the position
/// alone. Not among [`default_pairs`]; `othello-train cuts --horizon-pairs` adds them.
pub const HORIZON_PAIRS: [(u32, u32); 2] = [(1, 0), (2, 0)];

/// Searches each position with `eval` and `config` (selectivity off, no endgame solver, one
/// thread, a fresh table each) to `min(max_depth, empties - 1)` discs and keeps the value of
/// every iteration (iterative deepening completes each depth, and pruning never changes a
/// value, so the value of depth `k` is that of a depth-`k` search), and the horizon's value
/// (depth 0, with the configuration's quiescence: what a depth-0 search returns in an open
/// window). Finished games and positions with one empty square are skipped. `progress` gets
/// the count done.
pub fn collect<E: Evaluator>(
    eval: &E,
    positions: &[Position],
    max_depth: u32,
    config: &SearchConfig,
    mut progress: impl FnMut(usize),
) -> Vec<Sample> {
    let config = config
        .clone()
        .with_selectivity(Selectivity::Off)
        .with_endgame_empties(0)
        .with_threads(1)
        .with_multi_pv(false)
        .with_skip_depths(false);
    let horizon = if config.quiescence {
        Horizon::Quiescence
    } else {
        Horizon::Static
    };
    let mut searcher = Searcher::new(eval, config);
    let mut out = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let empties = pos.empty_count();
        let depth = max_depth.min(empties.saturating_sub(1));
        if pos.is_game_over() || depth == 0 {
            continue;
        }
        searcher.new_game();
        let mut values = Vec::with_capacity(depth as usize);
        searcher.search(pos, &Limits::depth(depth), |it| {
            debug_assert_eq!(it.depth as usize, values.len() + 1);
            values.push(it.score);
        });
        out.push(Sample {
            empties,
            horizon: Some(negamax_with(pos, 0, eval, horizon)),
            values,
        });
        progress(i + 1);
    }
    out
}

/// The usual pairs up to `max_deep`: for each deep depth `d` from 3, the shallow depth
/// `2 * (d / 4) + d % 2` (of the same parity as `d`, about a quarter to a half of it, as in
/// the usual selective programs), and with `multi`, from `d = 8`, also the shallow depth 2
/// below it (multi-ProbCut: the cheaper check first).
pub fn default_pairs(max_deep: u32, multi: bool) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for d in 3..=max_deep {
        let s = 2 * (d / 4) + d % 2;
        if multi && d >= 8 {
            out.push((d, s - 2));
        }
        out.push((d, s));
    }
    out
}

/// Fewest samples for a phase's own model; a phase with fewer takes the model fitted on every
/// phase together.
pub const MIN_PHASE_SAMPLES: usize = 30;

/// Least squares of `y` on `x`: `(a, b, rms residual)`; `None` below two points. A constant
/// `x` gives the slope 1.
fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let a = if sxx > 0.0 { sxy / sxx } else { 1.0 };
    let b = my - a * mx;
    let rss: f64 = points.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    Some((a, b, (rss / n).sqrt()))
}

/// The model of `(a, b, sigma)` fitted on `samples` points, in the table's units and ranges.
fn model((a, b, sigma): (f64, f64, f64), samples: usize) -> CutModel {
    CutModel {
        a: ((a * f64::from(CutModel::ONE)).round() as i32).clamp(1, 65536),
        b: (b.round() as i32).clamp(-10000, 10000),
        sigma: (sigma.round() as i32).clamp(0, 10000),
        samples: samples as u32,
    }
}

/// Fits a [`CutTable`] with `phases` phases on `samples` for each `(deep, shallow)` pair (with
/// `shallow < deep`; shallow 0 is the horizon's value, [`Sample::horizon`]): per pair and
/// phase, the least squares of the deep value on the shallow one over the samples searched to
/// `deep`, `sigma` the residual RMS; a phase with fewer than [`MIN_PHASE_SAMPLES`] samples
/// takes the pair's model over every phase. A pair with fewer than `min_samples` samples in
/// all (at least 2) is left out.
///
/// # Errors
/// A pair or phase count the table refuses (see [`CutTable::new`]).
pub fn fit(
    samples: &[Sample],
    pairs: &[(u32, u32)],
    phases: u8,
    min_samples: usize,
) -> Result<CutTable, CutTableError> {
    // Only for the phase function.
    let shape = CutTable::new(phases, Vec::new())?;
    let mut out = Vec::with_capacity(pairs.len());
    for &(deep, shallow) in pairs {
        let points: Vec<(usize, (f64, f64))> = samples
            .iter()
            .filter_map(|s| {
                let (x, y) = (s.value(shallow)?, s.value(deep)?);
                Some((shape.phase(s.empties), (f64::from(x), f64::from(y))))
            })
            .collect();
        let all: Vec<(f64, f64)> = points.iter().map(|p| p.1).collect();
        let Some(pooled) = least_squares(&all).filter(|_| all.len() >= min_samples.max(2)) else {
            continue;
        };
        let models = (0..usize::from(phases))
            .map(|ph| {
                let mine: Vec<(f64, f64)> = points.iter().filter(|p| p.0 == ph).map(|p| p.1).collect();
                match least_squares(&mine).filter(|_| mine.len() >= MIN_PHASE_SAMPLES) {
                    Some(f) => model(f, mine.len()),
                    None => model(pooled, all.len()),
                }
            })
            .collect();
        let depth = |d: u32| u8::try_from(d).unwrap_or(u8::MAX);
        out.push((depth(deep), depth(shallow), models));
    }
    CutTable::new(phases, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_line() {
        let pts: Vec<(f64, f64)> = (0..50).map(|x| (f64::from(x), 2.0 * f64::from(x) + 3.0)).collect();
        let (a, b, s) = least_squares(&pts).unwrap();
        assert!((a - 2.0).abs() < 1e-9 && (b - 3.0).abs() < 1e-9 && s < 1e-9);
        // Residuals +-1 around y = x: sigma 1.
        let pts: Vec<(f64, f64)> = (0..50)
            .map(|x| (f64::from(x), f64::from(x) + if x % 2 == 0 { 1.0 } else { -1.0 }))
            .collect();
        let (_, _, s) = least_squares(&pts).unwrap();
        assert!((s - 1.0).abs() < 0.01, "{s}");
        assert_eq!(least_squares(&[(1.0, 2.0)]), None);
        assert_eq!(least_squares(&[(1.0, 2.0), (1.0, 4.0)]), Some((1.0, 2.0, 1.0)));
    }

    #[test]
    fn fit_per_phase_and_pooled() {
        // Phase 0 (empties < 31): deep = shallow + 100; phase 1: deep = 2 shallow, few samples.
        let mut samples = Vec::new();
        for k in 0..60 {
            samples.push(Sample {
                empties: 20,
                horizon: (k % 2 == 0).then_some(k * 10 - 50),
                values: vec![k * 10, 0, k * 10 + 100],
            });
        }
        for k in 0..5 {
            samples.push(Sample {
                empties: 40,
                horizon: None,
                values: vec![k * 10, 0, k * 20],
            });
        }
        let t = fit(&samples, &[(3, 1), (3, 2)], 2, 10).unwrap();
        let m0 = t.model(3, 1, 20).unwrap();
        assert_eq!((m0.a, m0.b, m0.sigma, m0.samples), (1024, 100, 0, 60));
        // Phase 1 has 5 samples: the pooled model.
        assert_eq!(t.model(3, 1, 40).unwrap().samples, 65);
        // Shallow values all 0 at depth 2: slope 1.
        assert_eq!(t.model(3, 2, 20).unwrap().a, 1024);
        // Too few samples for a pair: left out.
        assert_eq!(fit(&samples, &[(3, 1)], 2, 100).unwrap().pairs().count(), 0);
        // Deeper than searched: no samples.
        assert_eq!(fit(&samples, &[(4, 2)], 2, 2).unwrap().pairs().count(), 0);
        // Shallow 0 reads the horizon's value, where known (30 of phase 0's samples, none of
        // phase 1's: the pooled model there): deep 1 = horizon + 50.
        let t = fit(&samples, &[(1, 0), (3, 0)], 2, 10).unwrap();
        let m = t.model(1, 0, 20).unwrap();
        assert_eq!((m.a, m.b, m.sigma, m.samples), (1024, 50, 0, 30));
        assert_eq!(t.model(1, 0, 40).unwrap().samples, 30);
        let m = t.model(3, 0, 20).unwrap();
        assert_eq!((m.a, m.b, m.sigma, m.samples), (1024, 150, 0, 30));
        assert_eq!(fit(&samples, &[(1, 0)], 2, 31).unwrap().pairs().count(), 0);
    }

    #[test]
    fn default_pairs_match_parity() {
        let p = default_pairs(14, false);
        assert_eq!(p.len(), 12);
        assert!(p.iter().all(|&(d, s)| s >= 1 && s < d && (d - s) % 2 == 0));
        assert_eq!(p[..4], [(3, 1), (4, 2), (5, 3), (6, 2)]);
        assert_eq!(p.last(), Some(&(14, 6)));
        let m = default_pairs(14, true);
        assert!(m.contains(&(14, 4)) && m.contains(&(14, 6)) && m.contains(&(5, 3)) && !m.contains(&(5, 1)));
    }
}
