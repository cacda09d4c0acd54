//! Error reports: RMS and mean absolute error in discs of an evaluation against labels, per
//! number of empties and pooled over bands of empties.

use crate::data::Row;
use othello_eval::{Evaluator, WeightedEval};
use othello_rules::Position;

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

/// The errors of `eval` on `rows` (each a position and its target in centi-discs).
pub fn errors<'a>(eval: &impl Evaluator, rows: impl IntoIterator<Item = (&'a Position, f64)>) -> Errors {
    errors_of(
        rows.into_iter()
            .map(|(pos, target)| (f64::from(eval.evaluate(pos)), target)),
    )
}

/// The errors of predictions: pairs (prediction, target), both in centi-discs.
pub fn errors_of(pairs: impl IntoIterator<Item = (f64, f64)>) -> Errors {
    let (mut n, mut sq, mut abs, mut sum, mut sum_sq) = (0usize, 0.0, 0.0, 0.0, 0.0);
    for (pred, target) in pairs {
        let d = (pred - target) / 100.0;
        let y = target / 100.0;
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

/// Errors of `eval` and of the hand-feature default on `rows` (those with `pick`), per number
/// of empties: `(empties, eval, hand)` for every count that has rows.
pub fn by_empties(eval: &impl Evaluator, rows: &[Row], pick: impl Fn(&Row) -> bool) -> Vec<(u32, Errors, Errors)> {
    let hand = WeightedEval::default();
    let mut groups: Vec<Vec<&Row>> = vec![Vec::new(); 61];
    for r in rows.iter().filter(|r| pick(r)) {
        groups[r.empties.min(60) as usize].push(r);
    }
    groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_empty())
        .map(|(e, g)| {
            let pairs = || g.iter().map(|r| (&r.pos, r.target));
            (e as u32, errors(eval, pairs()), errors(&hand, pairs()))
        })
        .collect()
}

/// Prints `by_e` as a Markdown table (per empties, then pooled in buckets of `bucket`
/// empties), with the 14-20 and 10-20 bands below, and the band of all its rows when that
/// is neither.
pub fn print_table(by_e: &[(u32, Errors, Errors)], bucket: u32) {
    println!("| empties | n | RMS | MAE | hand RMS | hand MAE | score SD |");
    println!("|---|---|---|---|---|---|---|");
    let row = |name: String, o: &Errors, h: &Errors| {
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            o.n, o.rms, o.mae, h.rms, h.mae, o.sd
        )
    };
    if bucket <= 1 {
        for (e, o, h) in by_e {
            row(e.to_string(), o, h);
        }
    } else {
        let mut lo = 0;
        while lo <= 60 {
            let hi = (lo + bucket - 1).min(60);
            let (o, h) = band(by_e, lo, hi);
            if o.n > 0 {
                row(format!("{lo}-{hi}"), &o, &h);
            }
            lo = hi + 1;
        }
    }
    // The fixed bands, then every row's range when it is none of them (e.g. a file of
    // 20-24 empties).
    let mut bands = vec![(14, 20), (10, 20)];
    if let (Some(first), Some(last)) = (by_e.first(), by_e.last())
        && !bands.contains(&(first.0, last.0))
    {
        bands.push((first.0, last.0));
    }
    for (lo, hi) in bands {
        let (o, h) = band(by_e, lo, hi);
        if o.n > 0 {
            println!(
                "{lo}-{hi} empties: n {}, RMS {:.2}, MAE {:.2} discs (hand features RMS {:.2}, MAE {:.2}; scores' SD {:.2})",
                o.n, o.rms, o.mae, h.rms, h.mae, o.sd
            );
        }
    }
}
