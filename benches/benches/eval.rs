//! Evaluation features and combinations, per call. Run: `cargo bench -p othello-benches --bench eval`.
//!
//! Each benchmark evaluates the same 1024 positions (8x8, every phase, from seeded random play)
//! and asserts the sum of the scores, so a fast wrong answer cannot pass. The sums are the
//! evaluation's functional signature: a change that claims not to alter any value keeps them.
//!
//! Each benchmark runs twice: timed by the wall clock (`eval x1024/...`) and by the CPU time of
//! the benchmark thread (`eval-cpu x1024/...`, from Linux `/proc/thread-self/schedstat`), which
//! leaves out the time the thread waits for a core on a shared machine. Divide by 1024 for
//! the time per call.
#![expect(missing_docs, reason = "criterion_group! generates undocumented functions")]

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use othello_benches::{bench_scores, spread_positions};
use othello_eval::{
    Corners, Discs, Evaluator, Feature, Mobility, Parity, PotentialMobility, Stability, WeightedEval, XcSquares,
};
use othello_rules::Position;

const N: usize = 1024;

/// 1024 positions from random play (the shared harness's spread set): plies 0..=59 spread
/// evenly; finished games are kept.
fn positions() -> Vec<Position> {
    spread_positions(N)
}

/// Sums of each feature over the positions (in `Feature::ALL` order), then of the default
/// combination and of the all-feature combination below.
const EXPECTED: [i64; 9] = [-2637, 376, 1900, -73, 189, -279, -2, 177677, -131587];

fn all_features() -> WeightedEval {
    "discs*-10/100+mobility*40/20+potential*15/5+corners*350/200+xc*60/10+stability*50/100+parity*0/100"
        .parse()
        .unwrap()
}

fn run<E: Evaluator, M: Measurement>(g: &mut BenchmarkGroup<'_, M>, name: &str, e: E, ps: &[Position], want: i64) {
    bench_scores(g, name, ps, want, |p| e.evaluate(p));
}

fn bench<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let ps = positions();
    let mut sums: Vec<i64> = Feature::ALL
        .iter()
        .map(|f| ps.iter().map(|p| f.raw(p) as i64).sum())
        .collect();
    let default = WeightedEval::default();
    let all = all_features();
    // The combinations also equal the interpolated sums of their features, computed slowly.
    for e in [&default, &all] {
        let slow: i64 = ps
            .iter()
            .map(|p| {
                e.terms()
                    .iter()
                    .map(|&(f, w)| (w.at(p.size(), p.empty_count()) * f.raw(p)) as i64)
                    .sum::<i64>()
            })
            .sum();
        sums.push(slow);
    }
    assert_eq!(sums, EXPECTED, "the evaluation changed");

    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(N as u64));
    run(&mut g, "discs", Discs, &ps, EXPECTED[0]);
    run(&mut g, "mobility", Mobility, &ps, EXPECTED[1]);
    run(&mut g, "potential", PotentialMobility, &ps, EXPECTED[2]);
    run(&mut g, "corners", Corners, &ps, EXPECTED[3]);
    run(&mut g, "xc", XcSquares, &ps, EXPECTED[4]);
    run(&mut g, "stability", Stability, &ps, EXPECTED[5]);
    run(&mut g, "parity", Parity, &ps, EXPECTED[6]);
    run(&mut g, "default", &default, &ps, EXPECTED[7]);
    run(&mut g, "all seven", &all, &ps, EXPECTED[8]);
    g.finish();
}

othello_benches::wall_and_cpu_main!(bench, "eval x1024", "eval-cpu x1024");
