//! The pattern model's fit: per-phase regularised least squares of the pattern weights,
//! held-out errors, the bootstrap of the phases the labels do not reach, the weights file.
//!
//! - **Split**: the rows of [`crate::data::rows`] (one per canonical key, held out by game).
//! - **Model**: a phase's score is its constant plus one table entry per pattern instance
//!   (`othello_pattern::feature_indices`); entries tied by a pattern's own symmetries are one
//!   unknown. Target: the label in centi-discs.
//! - **Solver**: conjugate gradients on the normal equations `(X^T X + ridge I) w = X^T y`
//!   ([`crate::lstsq::ridge_cg`]; sparse: one 1 per table per row), from zero. A phase is
//!   fitted on its own positions plus those within `margin` empties of it (smoothing across
//!   phase borders). With `prior_previous`, the ridge pulls each weight towards the previous
//!   phase's value instead of zero (a fit of the difference), so a configuration rare in this
//!   phase keeps its neighbour's value. With `prior_weights` (a warm start), the ridge pulls
//!   each phase towards the same phase of given weights instead: a fit on new labels refines
//!   those weights (a configuration the new labels rarely see keeps its old value) rather
//!   than starting over without the data they came from; phases beyond the labels keep them
//!   when the bootstrap is off.
//! - **Bootstrap** ([`crate::bootstrap`]; phases beyond the labels, in order of empties):
//!   positions of the games in the phase are labelled by a PVS of `bootstrap_depth` whose
//!   evaluation is the fit so far, then the phase is fitted on them.

use crate::bootstrap::{self, Candidate, Store};
use crate::data::Row;
use crate::error::{TrainError, TrainResult};
use crate::lstsq::ridge_cg_counted;
use crate::report::{Errors, errors};
use othello_eval::WeightedEval;
use othello_pattern::{FEATURES, PatternEval, Weights, feature_indices, layout};
use othello_rules::Position;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Settings of the fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Phases of the weights (1 to 61).
    pub phases: u32,
    /// Hold out the games whose number is a multiple of this.
    pub test_every: u32,
    /// Ridge term, in (centi-disc) target units squared per unit weight squared.
    pub ridge: f64,
    /// Conjugate-gradient iterations per phase.
    pub iterations: usize,
    /// Positions within this many empties of a phase also train it.
    pub margin: u32,
    /// Bootstrap search depth (0: phases without labels keep zero weights).
    pub bootstrap_depth: u32,
    /// Positions labelled per bootstrapped phase.
    pub bootstrap_positions: usize,
    /// Seed of the bootstrap's choice of positions.
    pub seed: u64,
    /// Pull each phase's weights towards the previous phase's (fewer empties) instead of
    /// towards zero.
    pub prior_previous: bool,
    /// Pull each phase's weights towards these weights' values for the same empties (a warm
    /// start) instead of towards zero or the previous phase; phases beyond the labels keep
    /// them when `bootstrap_depth` is 0. Exclusive with `prior_previous`.
    pub prior_weights: Option<Weights>,
    /// With `prior_weights`: each unknown's ridge grows by this much per training row that uses
    /// it, as if the prior weights had been fitted on this many times the labels given (0: the
    /// plain ridge).
    pub prior_strength: f64,
}

/// A row with its pattern indices.
#[derive(Clone, Debug)]
pub struct Indexed {
    /// Feature indices within the phase (canonical).
    pub idx: [u32; FEATURES],
    /// Target in centi-discs.
    pub target: f64,
    /// Empties.
    pub empties: u32,
    /// Held out?
    pub test: bool,
    /// The position (for the held-out evaluation).
    pub pos: Position,
}

/// The pattern indices of a row.
pub fn indexed(row: &Row) -> Indexed {
    let canonical = &layout().canonical;
    let mut idx = feature_indices(&row.pos);
    for i in &mut idx {
        *i = canonical[*i as usize];
    }
    Indexed {
        idx,
        target: row.target,
        empties: row.empties,
        test: row.test,
        pos: row.pos,
    }
}

/// Solves one phase's ridge regression by conjugate gradients. Returns one value per weight
/// of the phase (tied entries equal). With a `prior` (one value per weight, tied entries
/// equal), the ridge pulls each weight towards its prior value instead of zero: the fit is of
/// the difference, on the targets minus the prior's prediction.
pub fn solve_phase(rows: &[&Indexed], ridge: f64, iterations: usize, prior: Option<&[f64]>) -> Vec<f64> {
    solve_phase_counted(rows, ridge, 0.0, iterations, prior)
}

/// [`solve_phase`] with the ridge of each unknown grown by `per_use` times the rows that use
/// it ([`crate::lstsq::ridge_cg_counted`]): with a prior, as if the prior had been fitted on
/// `per_use` times these rows.
pub fn solve_phase_counted(
    rows: &[&Indexed],
    ridge: f64,
    per_use: f64,
    iterations: usize,
    prior: Option<&[f64]>,
) -> Vec<f64> {
    let l = layout();
    let n = l.per_phase;
    if rows.is_empty() {
        return prior.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
    }
    let target = |r: &Indexed| match prior {
        Some(q) => r.target - r.idx.iter().map(|&i| q[i as usize]).sum::<f64>(),
        None => r.target,
    };
    let w = ridge_cg_counted(
        n,
        || rows.iter().map(|r| &r.idx[..]),
        rows.iter().map(|r| target(r)),
        ridge,
        per_use,
        iterations,
    );
    // Tied entries take their representative's value.
    let prior_of = |c: u32| prior.map_or(0.0, |q| q[c as usize]);
    l.canonical.iter().map(|&c| w[c as usize] + prior_of(c)).collect()
}

/// Quantises a phase's values into `out` (scale 100: centi-discs).
fn store_phase(out: &mut [i16], values: &[f64]) {
    for (o, v) in out.iter_mut().zip(values) {
        *o = v.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
    }
}

/// The values of `weights` for a phase made of `empties` (ascending), in centi-discs, one per
/// weight of a phase (tied entries equal when the weights are): the weights' phase that holds
/// the middle of `empties` (the same phase when both have the same phase count), rescaled
/// from the weights' scale to 100.
pub fn prior_phase(weights: &Weights, empties: &[u32]) -> Vec<f64> {
    let per = layout().per_phase;
    let p = weights.phase_of(empties[empties.len() / 2]) as usize;
    let scale = 100.0 / f64::from(weights.scale());
    weights.values()[p * per..(p + 1) * per]
        .iter()
        .map(|&v| f64::from(v) * scale)
        .collect()
}

/// `weights` with every section of `prior` added (a section of the same tag replaced): the
/// search's cut table (`CUTS`) of the weights a warm start refined, which the fitted weights
/// otherwise lack, so that a search with them is selective as with the prior. The table was
/// measured with the prior's weights: this suits a refinement of a few phases, not a new fit.
pub fn with_prior_sections(weights: Weights, prior: &Weights) -> Weights {
    prior
        .sections()
        .fold(weights, |w, (tag, bytes)| w.with_section(tag, bytes.to_vec()))
}

/// The empties of phase `p` of `phases`.
pub fn phase_empties(p: u32, phases: u32) -> Vec<u32> {
    (0..=60).filter(|&e| e * phases / 61 == p).collect()
}

/// What the fit produced.
pub struct Fitted {
    /// The weights.
    pub weights: Weights,
    /// Per phase: (empties range, source of its labels, held-out errors of the pattern
    /// evaluation, of the hand-feature default on the same positions).
    pub report: Vec<(u32, u32, String, Errors, Errors)>,
}

/// Runs the fit on `rows` (from [`crate::data::rows`] with `config.test_every`); the
/// bootstrap takes its positions from `candidates` and its labels from and to `store`.
pub fn run(
    config: &FitConfig,
    rows: &[Row],
    candidates: &[Candidate],
    store: &mut Store,
    mut log: impl FnMut(&str),
) -> TrainResult<Fitted> {
    if config.test_every < 2 {
        return Err(TrainError::Input(format!(
            "bad --test-every {}: expected at least 2",
            config.test_every
        )));
    }
    if config.prior_previous && config.prior_weights.is_some() {
        return Err(TrainError::Input(
            "the prior towards the previous phase and the prior weights exclude each other".into(),
        ));
    }
    let per = layout().per_phase;
    let mut values = vec![0i16; per * config.phases as usize];
    let mut rows: Vec<Indexed> = rows.iter().map(indexed).collect();
    let max_labelled = rows.iter().map(|r| r.empties).max().unwrap_or(0);
    let mut report = Vec::new();
    let hand = WeightedEval::default();
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut previous: Vec<f64> = Vec::new();
    for p in 0..config.phases {
        let empties = phase_empties(p, config.phases);
        let (lo, hi) = (empties[0], *empties.last().expect("a phase has empties"));
        let mut method = "labels".to_string();
        let given = config.prior_weights.as_ref().map(|w| prior_phase(w, &empties));
        if lo > max_labelled {
            if let (0, Some(q)) = (config.bootstrap_depth, &given) {
                // No labels and no bootstrap: the phase keeps the prior weights.
                store_phase(&mut values[p as usize * per..(p as usize + 1) * per], q);
                log(&format!("phase {p:2} ({lo:2}-{hi:2} empties): the prior weights, kept"));
                report.push((lo, hi, "prior".into(), Errors::default(), Errors::default()));
                continue;
            }
            if config.bootstrap_depth == 0 {
                report.push((lo, hi, "none".into(), Errors::default(), Errors::default()));
                continue;
            }
            method = format!("search:depth={}", config.bootstrap_depth);
            let eval = PatternEval::new(&Weights::new(config.phases, 100, values.clone()).expect("sizes match"));
            let band = bootstrap::label_band(
                store,
                candidates,
                lo,
                hi,
                config.bootstrap_positions,
                config.bootstrap_depth,
                &mut rng,
                eval,
            )?;
            log(&format!(
                "phase {p} ({lo}-{hi} empties): {} positions labelled by depth-{} search, {} reused",
                band.searched, config.bootstrap_depth, band.reused
            ));
            rows.extend(band.labels.iter().map(|l| indexed(&Row::of(l, config.test_every))));
        }
        let lo_m = lo.saturating_sub(config.margin);
        let hi_m = hi + config.margin;
        let train: Vec<&Indexed> = rows
            .iter()
            .filter(|r| !r.test && (lo_m..=hi_m).contains(&r.empties))
            .collect();
        let prior = match &given {
            Some(q) => Some(q.as_slice()),
            None => (config.prior_previous && p > 0).then_some(previous.as_slice()),
        };
        let per_use = if given.is_some() { config.prior_strength } else { 0.0 };
        let w = solve_phase_counted(&train, config.ridge, per_use, config.iterations, prior);
        store_phase(&mut values[p as usize * per..(p as usize + 1) * per], &w);
        previous = w;
        let eval = PatternEval::new(&Weights::new(config.phases, 100, values.clone()).expect("sizes match"));
        let test = || {
            rows.iter()
                .filter(|r| r.test && (lo..=hi).contains(&r.empties))
                .map(|r| (&r.pos, r.target))
        };
        let ours = errors(&eval, test());
        let theirs = errors(&hand, test());
        log(&format!(
            "phase {p:2} ({lo:2}-{hi:2} empties, {method}): {} train, {} held out: RMS {:.2} MAE {:.2} discs (hand features {:.2} / {:.2})",
            train.len(),
            ours.n,
            ours.rms,
            ours.mae,
            theirs.rms,
            theirs.mae
        ));
        report.push((lo, hi, method, ours, theirs));
    }
    let weights = Weights::new(config.phases, 100, values).expect("sizes match");
    Ok(Fitted { weights, report })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Label, Source};
    use crate::report::band;
    use othello_eval::Evaluator;
    use othello_rules::random::random_move;
    use rand::Rng;

    fn per_phase() -> usize {
        layout().per_phase
    }

    fn ix(labels: &[Label], test_every: u32) -> Vec<Indexed> {
        labels.iter().map(|l| indexed(&Row::of(l, test_every))).collect()
    }

    fn pairs<'a>(rows: impl IntoIterator<Item = &'a Indexed>) -> impl Iterator<Item = (&'a Position, f64)> {
        rows.into_iter().map(|r| (&r.pos, r.target))
    }

    /// The positions of `games` random games (every one after a move), each labelled by
    /// `score`.
    fn random_game_labels(
        rng: &mut SmallRng,
        games: u32,
        mut score: impl FnMut(&Position, &mut SmallRng) -> i32,
    ) -> Vec<Label> {
        let mut labels = Vec::new();
        for game in 0..games {
            let mut pos = Position::start();
            while !pos.is_game_over() {
                pos = pos.play_unchecked(random_move(&pos, rng).expect("not over"));
                let centi = score(&pos, rng);
                labels.push(Label {
                    pos,
                    centi,
                    source: Source::Exact,
                    game: Some(game),
                    seed: None,
                    nodes: None,
                });
            }
        }
        labels
    }

    #[test]
    fn recovers_known_weights_from_synthetic_data() {
        // Known weights on the short diagonals and the constant (every other table zero); the
        // targets are exactly what an evaluator with them returns. The fit must predict
        // unseen positions with them.
        let l = layout();
        let mut rng = SmallRng::seed_from_u64(11);
        let mut known = vec![0i16; per_phase()];
        known[0] = 150;
        for p in [8usize, 9, 10] {
            let start = l.offsets[p] as usize;
            let len = 3usize.pow(othello_pattern::PATTERNS[p].mask.count_ones());
            let raw: Vec<i16> = (0..len).map(|_| rng.random_range(-200..=200)).collect();
            for i in start..start + len {
                known[i] = raw[l.canonical[i] as usize - start];
            }
        }
        let truth = PatternEval::new(&Weights::new(1, 100, known).unwrap());
        let labels = random_game_labels(&mut rng, 500, |pos, _| truth.evaluate(pos));
        let rows = ix(&labels, 10);
        let train: Vec<&Indexed> = rows.iter().filter(|r| !r.test).collect();
        let w = solve_phase(&train, 1e-3, 200, None);
        let mut q = vec![0i16; per_phase()];
        store_phase(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q).unwrap());
        let e = errors(&fitted, pairs(rows.iter().filter(|r| r.test)));
        assert!(e.n > 1500);
        // Close on unseen positions (configurations of the big tables never seen in training
        // keep the small share of the signal the ridge spread onto them).
        assert!(e.rms < 0.2, "held-out RMS {} discs", e.rms);
        let zero = PatternEval::new(&Weights::new(1, 100, vec![0; per_phase()]).unwrap());
        assert!(errors(&zero, pairs(rows.iter().filter(|r| r.test))).rms > 1.0);
    }

    /// Known weights of the global tables (potential mobility, frontier, odd quadrants) and the
    /// constant, every pattern table zero: the fit finds them again (the entries seen often
    /// within a few centi-discs) and predicts unseen positions with them.
    #[test]
    fn recovers_known_global_weights_from_synthetic_data() {
        let l = layout();
        let mut rng = SmallRng::seed_from_u64(14);
        let mut known = vec![0i16; per_phase()];
        known[0] = -120;
        for v in &mut known[l.globals as usize..] {
            *v = rng.random_range(-300..=300);
        }
        let truth = PatternEval::new(&Weights::new(1, 100, known.clone()).unwrap());
        // Full boards left out: there every global entry is at its zero together, so only
        // their sum could be found.
        let labels = random_game_labels(&mut rng, 400, |pos, _| truth.evaluate(pos));
        let rows: Vec<Indexed> = labels
            .iter()
            .filter(|l| l.pos.empty_count() > 0)
            .map(|l| indexed(&Row::of(l, 10)))
            .collect();
        let train: Vec<&Indexed> = rows.iter().filter(|r| !r.test).collect();
        let w = solve_phase(&train, 1e-3, 300, None);
        let mut q = vec![0i16; per_phase()];
        store_phase(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q.clone()).unwrap());
        let e = errors(&fitted, pairs(rows.iter().filter(|r| r.test)));
        assert!(e.n > 1000 && e.rms < 0.2, "held-out RMS {} discs", e.rms);
        // Each global table is fixed up to a constant shared with the others (the tables of
        // one row always sum five entries), and the big pattern tables can take a little of
        // the signal (a full board is also a pattern configuration): compare entries relative
        // to the table's most frequent one, for the entries seen at least 500 times, within a
        // quarter of a disc, and all of them together by their correlation.
        let mut seen = vec![0usize; per_phase()];
        for r in &train {
            for &i in &r.idx {
                seen[i as usize] += 1;
            }
        }
        let (mut want_all, mut got_all) = (Vec::new(), Vec::new());
        let mut start = l.globals as usize;
        for g in othello_pattern::set::GLOBALS {
            let range = start..start + g.size as usize;
            let anchor = range.clone().max_by_key(|&i| seen[i]).unwrap();
            for i in range.filter(|&i| seen[i] >= 500) {
                let want = f64::from(known[i]) - f64::from(known[anchor]);
                let got = f64::from(q[i]) - f64::from(q[anchor]);
                assert!((want - got).abs() <= 25.0, "entry {i}: {got} against {want}");
                want_all.push(want);
                got_all.push(got);
            }
            start += g.size as usize;
        }
        let checked = want_all.len();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mw, mg) = (mean(&want_all), mean(&got_all));
        let cov: f64 = want_all.iter().zip(&got_all).map(|(a, b)| (a - mw) * (b - mg)).sum();
        let var = |v: &[f64], m: f64| v.iter().map(|a| (a - m) * (a - m)).sum::<f64>();
        let corr = cov / (var(&want_all, mw) * var(&got_all, mg)).sqrt();
        assert!(corr > 0.99, "correlation {corr}");
        assert!(checked > 50, "{checked} entries checked");
    }

    /// With a prior, the ridge pulls towards it: without rows the prior comes back whole; with a
    /// huge ridge every weight stays at its prior; with targets the prior already predicts, the
    /// fit keeps it; a zero prior is the plain fit; and the fit still recovers known weights
    /// starting from an unrelated prior.
    #[test]
    fn prior_pulls_the_ridge_towards_it() {
        let l = layout();
        let mut rng = SmallRng::seed_from_u64(12);
        let tied = |rng: &mut SmallRng, lo: i16, hi: i16| -> Vec<f64> {
            let raw: Vec<f64> = (0..per_phase()).map(|_| f64::from(rng.random_range(lo..=hi))).collect();
            l.canonical.iter().map(|&c| raw[c as usize]).collect()
        };
        let prior = tied(&mut rng, -300, 300);
        assert_eq!(solve_phase(&[], 10.0, 50, Some(&prior)), prior);
        assert!(solve_phase(&[], 10.0, 50, None).iter().all(|&x| x == 0.0));

        let mut known = vec![0i16; per_phase()];
        for p in [8usize, 9, 10] {
            let start = l.offsets[p] as usize;
            let len = 3usize.pow(othello_pattern::PATTERNS[p].mask.count_ones());
            for (k, &c) in known[start..start + len]
                .iter_mut()
                .zip(&l.canonical[start..start + len])
            {
                *k = (c as i64 % 97 - 48) as i16 * 3;
            }
        }
        let truth = PatternEval::new(&Weights::new(1, 100, known.clone()).unwrap());
        let labels = random_game_labels(&mut rng, 500, |pos, _| truth.evaluate(pos));
        let rows = ix(&labels, 10);
        let train: Vec<&Indexed> = rows.iter().filter(|r| !r.test).collect();
        let max_gap = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);

        let held = solve_phase(&train, 1e12, 50, Some(&prior));
        assert!(max_gap(&held, &prior) < 1e-3, "gap {}", max_gap(&held, &prior));
        let shrunk = solve_phase(&train, 1e12, 50, None);
        assert!(shrunk.iter().all(|x| x.abs() < 1e-3));

        let exact: Vec<f64> = known.iter().map(|&k| f64::from(k)).collect();
        let kept = solve_phase(&train, 1e-3, 50, Some(&exact));
        assert!(max_gap(&kept, &exact) < 1e-6, "gap {}", max_gap(&kept, &exact));

        let zero = vec![0.0; per_phase()];
        assert_eq!(
            solve_phase(&train, 5.0, 30, Some(&zero)),
            solve_phase(&train, 5.0, 30, None)
        );

        // An unrelated prior on the tables the truth uses (short diagonals: every
        // configuration is seen in training), zero elsewhere.
        let lo = l.offsets[8] as usize;
        let hi = l.offsets[10] as usize + 3usize.pow(othello_pattern::PATTERNS[10].mask.count_ones());
        let partial: Vec<f64> = (0..per_phase())
            .map(|i| if (lo..hi).contains(&i) { prior[i] } else { 0.0 })
            .collect();
        let w = solve_phase(&train, 1e-3, 200, Some(&partial));
        let mut q = vec![0i16; per_phase()];
        store_phase(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q).unwrap());
        let e = errors(&fitted, pairs(rows.iter().filter(|r| r.test)));
        assert!(e.n > 1000 && e.rms < 0.3, "held-out RMS {} discs", e.rms);
    }

    /// `prior_previous`: a phase without labels of its own (between labelled ones) takes the
    /// previous phase's weights; without it, zeros.
    #[test]
    fn a_phase_without_labels_inherits_the_previous_one_with_the_prior() {
        let mut rng = SmallRng::seed_from_u64(13);
        // Three phases: 0-20, 21-40, 41-60 empties; labels in the first and the last only.
        let labels: Vec<Label> = random_game_labels(&mut rng, 30, |pos, _| othello_eval::Discs.evaluate(pos))
            .into_iter()
            .filter(|l| !(21..=40).contains(&l.pos.empty_count()))
            .collect();
        let mut config = FitConfig {
            phases: 3,
            test_every: 10,
            ridge: 1.0,
            iterations: 30,
            margin: 0,
            bootstrap_depth: 0,
            bootstrap_positions: 0,
            seed: 1,
            prior_previous: true,
            prior_weights: None,
            prior_strength: 0.0,
        };
        let per = per_phase();
        let fitted = run(
            &config,
            &crate::data::rows(&labels, 10).0,
            &[],
            &mut Store::memory(),
            |_| {},
        )
        .unwrap();
        let v = fitted.weights.values();
        assert!(v[..per].iter().any(|&x| x != 0));
        assert!(v[..per] == v[per..2 * per], "phase 1 is not phase 0");
        config.prior_previous = false;
        let fitted = run(
            &config,
            &crate::data::rows(&labels, 10).0,
            &[],
            &mut Store::memory(),
            |_| {},
        )
        .unwrap();
        let w = fitted.weights.values();
        assert!(v[..per] == w[..per], "phase 0 depends on the prior");
        assert!(w[per..2 * per].iter().all(|&x| x == 0));
        assert!(w[2 * per..].iter().any(|&x| x != 0));
    }

    /// Tied random weights of `phases` phases in `lo..=hi`, zero outside `tables` (pattern
    /// table numbers; `None`: every table).
    fn tied_weights(rng: &mut SmallRng, phases: u32, tables: Option<&[usize]>) -> Vec<i16> {
        let l = layout();
        let inside = |i: usize| match tables {
            None => true,
            Some(t) => t.iter().any(|&p| {
                let start = l.offsets[p] as usize;
                (start..start + 3usize.pow(othello_pattern::PATTERNS[p].mask.count_ones())).contains(&i)
            }),
        };
        let mut out = Vec::new();
        for _ in 0..phases {
            let raw: Vec<i16> = (0..per_phase()).map(|_| rng.random_range(-300..=300)).collect();
            out.extend((0..per_phase()).map(|i| if inside(i) { raw[l.canonical[i] as usize] } else { 0 }));
        }
        out
    }

    fn config(phases: u32, ridge: f64, prior_weights: Option<Weights>) -> FitConfig {
        FitConfig {
            phases,
            test_every: 10,
            ridge,
            iterations: 200,
            margin: 0,
            bootstrap_depth: 0,
            bootstrap_positions: 0,
            seed: 1,
            prior_previous: false,
            prior_weights,
            prior_strength: 0.0,
        }
    }

    fn fit(config: &FitConfig, labels: &[Label]) -> Weights {
        run(
            config,
            &crate::data::rows(labels, 10).0,
            &[],
            &mut Store::memory(),
            |_| {},
        )
        .unwrap()
        .weights
    }

    /// The warm start (`prior_weights`): with a huge ridge the fit returns the given weights;
    /// phases beyond the labels keep them (zeros without them); a zero prior is the plain fit;
    /// the prior's scale and phase count are converted; and it excludes `prior_previous`.
    #[test]
    fn prior_weights_are_a_warm_start() {
        let mut rng = SmallRng::seed_from_u64(21);
        let per = per_phase();
        // Three phases (0-20, 21-40, 41-60 empties); labels up to 40 empties only.
        let labels: Vec<Label> = random_game_labels(&mut rng, 30, |pos, _| othello_eval::Discs.evaluate(pos))
            .into_iter()
            .filter(|l| l.pos.empty_count() <= 40)
            .collect();
        let w0 = Weights::new(3, 100, tied_weights(&mut rng, 3, None)).unwrap();
        let held = fit(&config(3, 1e12, Some(w0.clone())), &labels);
        assert_eq!(held.values(), w0.values(), "a huge ridge keeps the prior");
        let mut strong = config(3, 0.0, Some(w0.clone()));
        strong.prior_strength = 1e12;
        assert_eq!(fit(&strong, &labels).values(), w0.values(), "a huge strength keeps it");
        // A moderate strength keeps the predictions on the training positions closer to the
        // prior's than the plain ridge does.
        let rows = crate::data::rows(&labels, 10).0;
        let start = PatternEval::new(&w0);
        let moved = |w: &Weights| -> f64 {
            let e = PatternEval::new(w);
            let train = rows.iter().filter(|r| !r.test && r.empties <= 20);
            train
                .map(|r| f64::from(e.evaluate(&r.pos) - start.evaluate(&r.pos)).powi(2))
                .sum()
        };
        strong.ridge = 1.0;
        strong.prior_strength = 4.0;
        let (g1, g0) = (
            moved(&fit(&strong, &labels)),
            moved(&fit(&config(3, 1.0, Some(w0.clone())), &labels)),
        );
        strong.prior_strength = 100.0;
        let g2 = moved(&fit(&strong, &labels));
        assert!(g2 < g1 && g1 < 0.8 * g0, "{g2}, {g1} against {g0}");
        assert!(g2 < 0.2 * g0, "{g2} against {g0}");

        let refined = fit(&config(3, 1.0, Some(w0.clone())), &labels);
        let plain = fit(&config(3, 1.0, None), &labels);
        let v = refined.values();
        assert!(v[..per] != w0.values()[..per], "the labels moved phase 0");
        assert!(v[per..2 * per] != w0.values()[per..2 * per], "the labels moved phase 1");
        assert_eq!(
            v[2 * per..],
            w0.values()[2 * per..],
            "phase 2 (no labels) keeps the prior"
        );
        assert!(plain.values()[2 * per..].iter().all(|&x| x == 0));
        assert!(plain.values()[..per].iter().any(|&x| x != 0));

        let zero = Weights::zero(3, 100).unwrap();
        let from_zero = fit(&config(3, 1.0, Some(zero)), &labels);
        assert_eq!(from_zero.values()[..2 * per], plain.values()[..2 * per]);

        // Scale 50 (two units a disc): the same prior in centi-discs; one phase for three.
        let halves: Vec<i16> = w0.values()[..per].iter().map(|&x| x / 2).collect();
        let one = Weights::new(1, 50, halves.clone()).unwrap();
        let kept = fit(&config(3, 1e12, Some(one)), &labels);
        for p in 0..3 {
            let want: Vec<i16> = halves.iter().map(|&x| x * 2).collect();
            assert_eq!(kept.values()[p * per..(p + 1) * per], want[..], "phase {p}");
        }

        let mut both = config(3, 1.0, Some(w0));
        both.prior_previous = true;
        assert!(matches!(
            run(&both, &rows, &[], &mut Store::memory(), |_| {}),
            Err(TrainError::Input(_))
        ));
    }

    /// With a nearly zero ridge, the warm start from unrelated weights finds known weights
    /// again (targets exactly representable): its held-out predictions match the truth and the
    /// plain fit's.
    #[test]
    fn prior_weights_recover_known_weights() {
        let mut rng = SmallRng::seed_from_u64(22);
        let short = [8usize, 9, 10];
        let truth = PatternEval::new(&Weights::new(1, 100, tied_weights(&mut rng, 1, Some(&short))).unwrap());
        let labels = random_game_labels(&mut rng, 500, |pos, _| truth.evaluate(pos));
        // An unrelated prior on the same tables (every configuration is seen in training).
        let w0 = Weights::new(1, 100, tied_weights(&mut rng, 1, Some(&short))).unwrap();
        let start = PatternEval::new(&w0);
        let warm = PatternEval::new(&fit(&config(1, 1e-6, Some(w0)), &labels));
        let plain = PatternEval::new(&fit(&config(1, 1e-6, None), &labels));
        let rows = crate::data::rows(&labels, 10).0;
        let test: Vec<&Row> = rows.iter().filter(|r| r.test).collect();
        // RMS in discs of the warm fit against the plain fit, the truth, and of the prior alone.
        let rms = |f: &dyn Fn(&Row) -> f64| {
            (test.iter().map(|r| f(r).powi(2)).sum::<f64>() / test.len() as f64).sqrt() / 100.0
        };
        let warm_at = |r: &Row| f64::from(warm.evaluate(&r.pos));
        let gap = rms(&|r| warm_at(r) - f64::from(plain.evaluate(&r.pos)));
        let truth_gap = rms(&|r| warm_at(r) - r.target);
        let start_gap = rms(&|r| f64::from(start.evaluate(&r.pos)) - r.target);
        assert!(test.len() > 1000);
        assert!(truth_gap < 0.3, "warm start off the truth by {truth_gap} discs");
        assert!(gap < 0.3, "warm start off the plain fit by {gap} discs");
        assert!(start_gap > 2.0, "the prior alone is off by {start_gap} discs only");
    }

    /// The prior's sections (the cut table) are carried over byte for byte, replacing one of
    /// the same tag, and the fitted values stay; without sections nothing is added.
    #[test]
    fn prior_sections_are_carried_over() {
        use othello_pattern::weights::CUTS_TAG;
        let mut rng = SmallRng::seed_from_u64(5);
        let fitted = Weights::new(2, 100, tied_weights(&mut rng, 2, None)).unwrap();
        let bare = Weights::new(3, 100, tied_weights(&mut rng, 3, None)).unwrap();
        assert_eq!(with_prior_sections(fitted.clone(), &bare).sections().len(), 0);
        // The embedded default's cut table (a valid one: the reader checks it).
        let default = Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).unwrap();
        let cuts = default.section(CUTS_TAG).expect("the default has a cut table").to_vec();
        let prior = bare
            .with_section(CUTS_TAG, cuts.clone())
            .with_section(*b"XTRA", vec![9]);
        let stale = fitted.clone().with_section(CUTS_TAG, vec![7]);
        for start in [fitted.clone(), stale] {
            let out = with_prior_sections(start, &prior);
            assert_eq!(out.values(), fitted.values());
            assert_eq!(out.phases(), 2);
            assert_eq!(out.section(CUTS_TAG), Some(cuts.as_slice()));
            assert_eq!(out.section(*b"XTRA"), Some(&[9u8][..]));
            assert_eq!(out.sections().len(), 2);
            let read = Weights::from_bytes(&out.to_bytes()).unwrap();
            assert_eq!(read.section(CUTS_TAG), Some(cuts.as_slice()));
            assert_eq!(read.values(), fitted.values());
        }
    }

    #[test]
    fn phases_cover_every_empties_count_once() {
        for phases in [1, 12, 15, 61] {
            let all: Vec<u32> = (0..phases).flat_map(|p| phase_empties(p, phases)).collect();
            assert_eq!(all, (0..=60).collect::<Vec<_>>());
        }
        assert_eq!(phase_empties(4, 15), vec![17, 18, 19, 20]);
    }

    /// Errors of an evaluation against labels: the RMS, MAE, the labels' own spread, and the
    /// pooling of several groups into a band equal the figures of the union computed directly.
    #[test]
    fn errors_and_bands_pool_exactly() {
        let mut rng = SmallRng::seed_from_u64(5);
        let eval = othello_eval::Discs;
        let labels = random_game_labels(&mut rng, 40, |_, rng| rng.random_range(-6400..=6400));
        let rows = ix(&labels, 1);
        // Direct figures over rows with 10-20 empties.
        let chosen: Vec<&Indexed> = rows.iter().filter(|r| (10..=20).contains(&r.empties)).collect();
        let d: Vec<f64> = chosen
            .iter()
            .map(|r| (f64::from(eval.evaluate(&r.pos)) - r.target) / 100.0)
            .collect();
        let y: Vec<f64> = chosen.iter().map(|r| r.target / 100.0).collect();
        let n = d.len() as f64;
        let rms = (d.iter().map(|x| x * x).sum::<f64>() / n).sqrt();
        let mae = d.iter().map(|x| x.abs()).sum::<f64>() / n;
        let mean = y.iter().sum::<f64>() / n;
        let sd = (y.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt();
        let whole = errors(&eval, pairs(chosen.iter().copied()));
        assert_eq!(whole.n, chosen.len());
        for (a, b) in [(whole.rms, rms), (whole.mae, mae), (whole.sd, sd), (whole.mean, mean)] {
            assert!((a - b).abs() < 1e-9, "{a} against {b}");
        }
        // Pooled by empties: the same figures; the hand errors pool the same way.
        let by_e: Vec<(u32, Errors, Errors)> = (0..=60)
            .map(|e| {
                let g: Vec<&Indexed> = rows.iter().filter(|r| r.empties == e).collect();
                (
                    e,
                    errors(&eval, pairs(g.iter().copied())),
                    errors(&othello_eval::Discs, pairs(g.iter().copied())),
                )
            })
            .collect();
        let (ours, hand) = band(&by_e, 10, 20);
        assert_eq!(ours.n, chosen.len());
        for (a, b) in [
            (ours.rms, rms),
            (ours.mae, mae),
            (ours.sd, sd),
            (ours.mean, mean),
            (hand.rms, rms),
        ] {
            assert!((a - b).abs() < 1e-9, "{a} against {b}");
        }
        assert!(rms > 1.0 && sd > 1.0);
    }
}
