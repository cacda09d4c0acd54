//! Step 3, fit: per-phase regularised least squares of the pattern weights, held-out errors,
//! optional bootstrap of the phases the solver cannot reach, the weights file.
//!
//! - **Split**: every game whose number is a multiple of `test_every` is held out, from the
//!   start and whatever the data (a game's number decides, so more data never moves a
//!   position between the sets). Positions of one game are correlated; splitting by position
//!   would flatter the fit.
//! - **Model**: a phase's score is its constant plus one table entry per pattern instance
//!   (`othello_pattern::feature_indices`); entries tied by a pattern's own symmetries are one
//!   unknown. Target: the label in centi-discs.
//! - **Solver**: conjugate gradients on the normal equations `(X^T X + ridge I) w = X^T y`
//!   (sparse: 47 ones per row), from zero. A phase is fitted on its own positions plus those
//!   within `margin` empties of it (smoothing across phase borders). With `prior_previous`,
//!   the ridge pulls each weight towards the previous phase's value instead of zero (a fit of
//!   the difference), so a configuration rare in this phase keeps its neighbour's value.
//! - **Bootstrap** (phases beyond the labels, in order of empties): positions of the training
//!   games in the phase are labelled by a PVS of `bootstrap_depth` whose evaluation is the fit
//!   so far (its leaves lie in the phases already fitted), then the phase is fitted on them.
//!   Those labels are written (method `search:depth=D`) and reused by a later run.

use crate::error::{TrainError, TrainResult};
use crate::games::Game;
use crate::jsonl::{self, OnBad};
use crate::labels::{self, Label, key};
use ahash::AHashSet;
use othello_eval::{Evaluator, WeightedEval};
use othello_pattern::{FEATURES, PatternEval, Weights, feature_indices, layout};
use othello_rules::Position;
use othello_search::{Limits, SearchConfig, Searcher};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

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
}

/// A position ready for the fit.
#[derive(Clone, Debug)]
pub struct Row {
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

/// Makes a fit row of a label.
pub fn row(label: &Label, test_every: u32) -> Row {
    let canonical = &layout().canonical;
    let mut idx = feature_indices(&label.pos);
    for i in &mut idx {
        *i = canonical[*i as usize];
    }
    Row {
        idx,
        target: f64::from(label.centi),
        empties: label.pos.empty_count(),
        test: label.game.is_multiple_of(test_every),
        pos: label.pos,
    }
}

/// Solves one phase's ridge regression by conjugate gradients. Returns one value per weight
/// of the phase (tied entries equal). With a `prior` (one value per weight, tied entries
/// equal), the ridge pulls each weight towards its prior value instead of zero: the fit is of
/// the difference, on the targets minus the prior's prediction.
pub fn solve_phase(rows: &[&Row], ridge: f64, iterations: usize, prior: Option<&[f64]>) -> Vec<f64> {
    let l = layout();
    let n = l.per_phase;
    if rows.is_empty() {
        return prior.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
    }
    let target = |r: &Row| match prior {
        Some(q) => r.target - r.idx.iter().map(|&i| q[i as usize]).sum::<f64>(),
        None => r.target,
    };
    let w = ridge_cg(
        n,
        || rows.iter().map(|r| &r.idx[..]),
        rows.iter().map(|r| target(r)),
        ridge,
        iterations,
    );
    // Tied entries take their representative's value.
    let prior_of = |c: u32| prior.map_or(0.0, |q| q[c as usize]);
    l.canonical.iter().map(|&c| w[c as usize] + prior_of(c)).collect()
}

/// Ridge least squares by conjugate gradients: `n` unknowns, each row a set of indices (each
/// feature of value 1) given by `rows` (called once per iteration, in the same order as
/// `targets`), minimising the squared error plus `ridge` times the squared weights. Unknowns
/// that no row uses stay zero. The one solver of `fit` and `explore`.
pub fn ridge_cg<'a, I: Iterator<Item = &'a [u32]>>(
    n: usize,
    rows: impl Fn() -> I,
    targets: impl IntoIterator<Item = f64>,
    ridge: f64,
    iterations: usize,
) -> Vec<f64> {
    let mut w = vec![0.0f64; n];
    // Which unknowns appear at all (the rest stay zero).
    let mut used = vec![false; n];
    for r in rows() {
        for &i in r {
            used[i as usize] = true;
        }
    }
    let apply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for r in rows() {
            let s: f64 = r.iter().map(|&i| v[i as usize]).sum();
            for &i in r {
                out[i as usize] += s;
            }
        }
        for (o, (x, &u)) in out.iter_mut().zip(v.iter().zip(&used)) {
            if u {
                *o += ridge * x;
            }
        }
    };
    // b = X^T y
    let mut b = vec![0.0; n];
    for (r, t) in rows().zip(targets) {
        for &i in r {
            b[i as usize] += t;
        }
    }
    let mut res = b;
    let mut p = res.clone();
    let mut ap = vec![0.0; n];
    let mut rr: f64 = res.iter().map(|x| x * x).sum();
    let rr0 = rr;
    for _ in 0..iterations {
        if rr <= rr0 * 1e-14 {
            break;
        }
        apply(&p, &mut ap);
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rr / pap;
        for i in 0..n {
            w[i] += alpha * p[i];
            res[i] -= alpha * ap[i];
        }
        let rr_new: f64 = res.iter().map(|x| x * x).sum();
        let beta = rr_new / rr;
        for i in 0..n {
            p[i] = res[i] + beta * p[i];
        }
        rr = rr_new;
    }
    w
}

/// Errors of one group of positions, in discs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Errors {
    /// Positions.
    pub n: usize,
    /// Root mean square error.
    pub rms: f64,
    /// Mean absolute error.
    pub mae: f64,
    /// Standard deviation of the labels themselves (how spread the scores are: the error of
    /// always answering their mean).
    pub sd: f64,
    /// Mean of the labels.
    pub mean: f64,
}

/// The errors of `eval` on `rows`.
pub fn errors<'a>(eval: &impl Evaluator, rows: impl IntoIterator<Item = &'a Row>) -> Errors {
    let (mut n, mut sq, mut abs, mut sum, mut sum_sq) = (0usize, 0.0, 0.0, 0.0, 0.0);
    for r in rows {
        let d = (f64::from(eval.evaluate(&r.pos)) - r.target) / 100.0;
        let y = r.target / 100.0;
        n += 1;
        sq += d * d;
        abs += d.abs();
        sum += y;
        sum_sq += y * y;
    }
    if n == 0 {
        return Errors::default();
    }
    let mean = sum / n as f64;
    Errors {
        n,
        rms: (sq / n as f64).sqrt(),
        mae: abs / n as f64,
        sd: (sum_sq / n as f64 - mean * mean).max(0.0).sqrt(),
        mean,
    }
}

/// The errors over the empties `lo..=hi` from per-empties errors `(empties, pattern, hand)`,
/// weighted by their position counts: `(pattern, hand)`.
pub fn band(by_e: &[(u32, Errors, Errors)], lo: u32, hi: u32) -> (Errors, Errors) {
    let merge = |pick: &dyn Fn(&(u32, Errors, Errors)) -> Errors| {
        let (mut n, mut sq, mut ab, mut sum, mut sum_sq) = (0usize, 0.0, 0.0, 0.0, 0.0);
        for x in by_e.iter().filter(|x| (lo..=hi).contains(&x.0)) {
            let e = pick(x);
            let w = e.n as f64;
            n += e.n;
            sq += e.rms * e.rms * w;
            ab += e.mae * w;
            sum += e.mean * w;
            sum_sq += (e.sd * e.sd + e.mean * e.mean) * w;
        }
        let d = n.max(1) as f64;
        let mean = sum / d;
        Errors {
            n,
            rms: (sq / d).sqrt(),
            mae: ab / d,
            sd: (sum_sq / d - mean * mean).max(0.0).sqrt(),
            mean,
        }
    };
    (merge(&|x| x.1), merge(&|x| x.2))
}

/// Quantises a phase's values into `out` (scale 100: centi-discs).
fn store(out: &mut [i16], values: &[f64]) {
    for (o, v) in out.iter_mut().zip(values) {
        *o = v.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
    }
}

/// The empties of phase `p` of `phases`.
pub fn phase_empties(p: u32, phases: u32) -> Vec<u32> {
    (0..=60).filter(|&e| e * phases / 61 == p).collect()
}

/// What the fit produced.
pub struct Fitted {
    /// The weights.
    pub weights: Weights,
    /// Per phase: (empties range, method of its labels, held-out errors of the pattern
    /// evaluation, of the hand-feature default on the same positions).
    pub report: Vec<(u32, u32, String, Errors, Errors)>,
}

/// Runs the fit. `boot_path`: where bootstrap labels are read from and appended to.
pub fn run(
    config: &FitConfig,
    exact: &[Label],
    games: &[Game],
    boot_path: Option<&str>,
    on_bad: OnBad,
    mut log: impl FnMut(&str),
) -> TrainResult<Fitted> {
    if config.test_every < 2 {
        return Err(TrainError::Input(format!(
            "bad --test-every {}: expected at least 2",
            config.test_every
        )));
    }
    let per = layout().per_phase;
    let mut values = vec![0i16; per * config.phases as usize];
    let mut rows: Vec<Row> = exact.iter().map(|l| row(l, config.test_every)).collect();
    let max_labelled = exact.iter().map(|l| l.pos.empty_count()).max().unwrap_or(0);
    let mut report = Vec::new();
    let hand = WeightedEval::default();
    // Cut a line left partial by an interruption first, then read what is there.
    let mut boot_out = match boot_path {
        Some(p) if config.bootstrap_depth > 0 => Some((p, jsonl::append(p)?)),
        _ => None,
    };
    let mut boot_existing: Vec<Label> = match boot_path {
        Some(p) => labels::read(p, true, on_bad)?,
        None => Vec::new(),
    };
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut previous: Vec<f64> = Vec::new();
    for p in 0..config.phases {
        let empties = phase_empties(p, config.phases);
        let (lo, hi) = (empties[0], *empties.last().expect("a phase has empties"));
        let mut method = "exact".to_string();
        if lo > max_labelled {
            if config.bootstrap_depth == 0 {
                report.push((lo, hi, "none".into(), Errors::default(), Errors::default()));
                continue;
            }
            method = format!("search:depth={}", config.bootstrap_depth);
            // Labels made before (a resumed or repeated run) are reused.
            let have: AHashSet<_> = boot_existing
                .iter()
                .filter(|l| l.method == method)
                .map(|l| key(&l.pos))
                .collect();
            let mut candidates: Vec<(u32, Position)> = Vec::new();
            let mut seen = AHashSet::new();
            for g in games {
                for pos in g.positions() {
                    let e = pos.empty_count();
                    if (lo..=hi).contains(&e) && seen.insert(key(&pos)) {
                        candidates.push((g.game, pos));
                    }
                }
            }
            candidates.sort_by_key(|(g, pos)| (*g, pos.empty_count()));
            candidates.shuffle(&mut rng);
            let eval = PatternEval::new(&Weights::new(config.phases, 100, values.clone()).expect("sizes match"));
            let mut searcher = Searcher::new(eval, SearchConfig::default().with_tt_mib(16).with_endgame_empties(0));
            let mut made = 0;
            let wanted = config.bootstrap_positions;
            let already = candidates
                .iter()
                .take(wanted)
                .filter(|(_, pos)| have.contains(&key(pos)))
                .count();
            for (game, pos) in candidates.iter().take(wanted) {
                if have.contains(&key(pos)) {
                    continue;
                }
                searcher.new_game();
                let r = searcher.search(pos, &Limits::depth(config.bootstrap_depth), |_| {});
                let label = Label {
                    game: *game,
                    pos: *pos,
                    centi: r.score.clamp(-6400, 6400),
                    method: method.clone(),
                };
                if let Some((path, w)) = &mut boot_out {
                    jsonl::write_line(w, path, &label.to_line(0, r.nodes))?;
                }
                boot_existing.push(label);
                made += 1;
            }
            log(&format!(
                "phase {p} ({lo}-{hi} empties): {made} positions labelled by depth-{} search, {already} reused",
                config.bootstrap_depth
            ));
            let want: AHashSet<_> = candidates.iter().take(wanted).map(|(_, pos)| key(pos)).collect();
            rows.extend(
                boot_existing
                    .iter()
                    .filter(|l| l.method == method && want.contains(&key(&l.pos)))
                    .map(|l| row(l, config.test_every)),
            );
        }
        let lo_m = lo.saturating_sub(config.margin);
        let hi_m = hi + config.margin;
        let train: Vec<&Row> = rows
            .iter()
            .filter(|r| !r.test && (lo_m..=hi_m).contains(&r.empties))
            .collect();
        let prior = (config.prior_previous && p > 0).then_some(previous.as_slice());
        let w = solve_phase(&train, config.ridge, config.iterations, prior);
        store(&mut values[p as usize * per..(p as usize + 1) * per], &w);
        previous = w;
        let eval = PatternEval::new(&Weights::new(config.phases, 100, values.clone()).expect("sizes match"));
        let test: Vec<&Row> = rows
            .iter()
            .filter(|r| r.test && (lo..=hi).contains(&r.empties))
            .collect();
        let ours = errors(&eval, test.iter().copied());
        let theirs = errors(&hand, test.iter().copied());
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

/// Held-out errors of `weights` per number of empties, on exact labels (rows of held-out games).
pub fn errors_by_empties(weights: &Weights, exact: &[Label], test_every: u32) -> Vec<(u32, Errors, Errors)> {
    let eval = PatternEval::new(weights);
    let hand = WeightedEval::default();
    let rows: Vec<Row> = exact.iter().map(|l| row(l, test_every)).filter(|r| r.test).collect();
    (0..=60)
        .filter_map(|e| {
            let rs: Vec<&Row> = rows.iter().filter(|r| r.empties == e).collect();
            if rs.is_empty() {
                return None;
            }
            Some((e, errors(&eval, rs.iter().copied()), errors(&hand, rs.iter().copied())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_pattern::weights::per_phase;
    use rand::Rng;

    /// The positions of `games` random games (every one after a move), each labelled by
    /// `score` and `method`.
    fn random_game_labels(
        rng: &mut SmallRng,
        games: u32,
        method: &str,
        mut score: impl FnMut(&Position, &mut SmallRng) -> i32,
    ) -> Vec<Label> {
        let mut labels = Vec::new();
        for game in 0..games {
            let mut pos = Position::start();
            while !pos.is_game_over() {
                let moves = pos.moves();
                pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
                let centi = score(&pos, rng);
                labels.push(Label {
                    game,
                    pos,
                    centi,
                    method: method.into(),
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
        let labels = random_game_labels(&mut rng, 500, "synthetic", |pos, _| truth.evaluate(pos));
        let rows: Vec<Row> = labels.iter().map(|l| row(l, 10)).collect();
        let train: Vec<&Row> = rows.iter().filter(|r| !r.test).collect();
        let w = solve_phase(&train, 1e-3, 200, None);
        let mut q = vec![0i16; per_phase()];
        store(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q).unwrap());
        let e = errors(&fitted, rows.iter().filter(|r| r.test));
        assert!(e.n > 1500);
        // Close on unseen positions (configurations of the big tables never seen in training
        // keep the small share of the signal the ridge spread onto them).
        assert!(e.rms < 0.2, "held-out RMS {} discs", e.rms);
        let zero = PatternEval::new(&Weights::zero(1, 100).unwrap());
        assert!(errors(&zero, rows.iter().filter(|r| r.test)).rms > 1.0);
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
        let labels = random_game_labels(&mut rng, 400, "synthetic", |pos, _| truth.evaluate(pos));
        let rows: Vec<Row> = labels
            .iter()
            .filter(|l| l.pos.empty_count() > 0)
            .map(|l| row(l, 10))
            .collect();
        let train: Vec<&Row> = rows.iter().filter(|r| !r.test).collect();
        let w = solve_phase(&train, 1e-3, 300, None);
        let mut q = vec![0i16; per_phase()];
        store(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q.clone()).unwrap());
        let e = errors(&fitted, rows.iter().filter(|r| r.test));
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
        let labels = random_game_labels(&mut rng, 500, "synthetic", |pos, _| truth.evaluate(pos));
        let rows: Vec<Row> = labels.iter().map(|l| row(l, 10)).collect();
        let train: Vec<&Row> = rows.iter().filter(|r| !r.test).collect();
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
        store(&mut q, &w);
        let fitted = PatternEval::new(&Weights::new(1, 100, q).unwrap());
        let e = errors(&fitted, rows.iter().filter(|r| r.test));
        assert!(e.n > 1000 && e.rms < 0.3, "held-out RMS {} discs", e.rms);
    }

    /// `prior_previous`: a phase without labels of its own (between labelled ones) takes the
    /// previous phase's weights; without it, zeros.
    #[test]
    fn a_phase_without_labels_inherits_the_previous_one_with_the_prior() {
        let mut rng = SmallRng::seed_from_u64(13);
        // Three phases: 0-20, 21-40, 41-60 empties; labels in the first and the last only.
        let labels: Vec<Label> = random_game_labels(&mut rng, 30, "exact", |pos, _| othello_eval::Discs.evaluate(pos))
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
        };
        let per = per_phase();
        let fitted = run(&config, &labels, &[], None, OnBad::Skip, |_| {}).unwrap();
        let v = fitted.weights.values();
        assert!(v[..per].iter().any(|&x| x != 0));
        assert!(v[..per] == v[per..2 * per], "phase 1 is not phase 0");
        config.prior_previous = false;
        let fitted = run(&config, &labels, &[], None, OnBad::Skip, |_| {}).unwrap();
        let w = fitted.weights.values();
        assert!(v[..per] == w[..per], "phase 0 depends on the prior");
        assert!(w[per..2 * per].iter().all(|&x| x == 0));
        assert!(w[2 * per..].iter().any(|&x| x != 0));
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
        let labels = random_game_labels(&mut rng, 40, "exact", |_, rng| rng.random_range(-6400..=6400));
        let rows: Vec<Row> = labels.iter().map(|l| row(l, 1)).collect();
        // Direct figures over rows with 10-20 empties.
        let chosen: Vec<&Row> = rows.iter().filter(|r| (10..=20).contains(&r.empties)).collect();
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
        let whole = errors(&eval, chosen.iter().copied());
        assert_eq!(whole.n, chosen.len());
        for (a, b) in [(whole.rms, rms), (whole.mae, mae), (whole.sd, sd), (whole.mean, mean)] {
            assert!((a - b).abs() < 1e-9, "{a} against {b}");
        }
        // Pooled by empties: the same figures; the hand errors pool the same way.
        let by_e: Vec<(u32, Errors, Errors)> = (0..=60)
            .map(|e| {
                let g: Vec<&Row> = rows.iter().filter(|r| r.empties == e).collect();
                (
                    e,
                    errors(&eval, g.iter().copied()),
                    errors(&othello_eval::Discs, g.iter().copied()),
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
