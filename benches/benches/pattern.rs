//! The pattern evaluation per call. Run: `cargo bench -p othello-benches --bench pattern`.
//!
//! The same 1024 positions as the `eval` bench (8x8, every phase, seeded random play). Each
//! benchmark asserts the sum of the scores, computed first by a plain sum of table entries
//! over the reference feature indices, so a fast wrong answer cannot pass. Variants: the
//! BMI2 (`pext`) path, the portable path, and the default hand-feature evaluation beside
//! them. Timed by the wall clock (`pattern x1024/...`) and by the thread's CPU time
//! (`pattern-cpu x1024/...`); divide by 1024 for the time per call.
#![expect(missing_docs, reason = "criterion_group! generates undocumented functions")]

use criterion::measurement::{Measurement, WallTime};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use othello_benches::{Rate, ThreadCpu, thread_cpu_ns};
use othello_eval::{Evaluator, WeightedEval};
use othello_pattern::{PatternEval, Weights, feature_indices, weights::per_phase};
use othello_rules::Position;
use othello_rules::hash::mix64;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 1024;

/// The positions of the `eval` bench: random play by a counter-based generator.
fn positions() -> Vec<Position> {
    let mut out = Vec::with_capacity(N);
    let mut k = 0u64;
    while out.len() < N {
        let plies = out.len() % 60;
        let mut pos = Position::start();
        for _ in 0..plies {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            k += 1;
            pos = pos.play_unchecked(moves[(mix64(k) % moves.len() as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

fn run<E: Evaluator, M: Measurement>(g: &mut BenchmarkGroup<'_, M>, name: &str, e: E, ps: &[Position], want: i64) {
    g.bench_function(name, |b| {
        b.iter(|| {
            let s: i64 = ps.iter().map(|p| e.evaluate(black_box(p)) as i64).sum();
            assert_eq!(s, want, "{name}");
        })
    });
}

fn bench<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let ps = positions();
    let w = Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).expect("embedded weights");
    // The plain sum of table entries (scale 100: centi-discs), clamped like the evaluator.
    let plain: i64 = ps
        .iter()
        .map(|p| {
            let base = w.phase_of(p.empty_count()) as usize * per_phase();
            let s: i32 = feature_indices(p)
                .iter()
                .map(|&i| i32::from(w.values()[base + i as usize]))
                .sum();
            i64::from((s * 100 / w.scale() as i32).clamp(-6400, 6400))
        })
        .sum();
    let fast = PatternEval::new(&w);
    let portable = fast.clone().portable();
    let default = WeightedEval::default();
    let default_sum: i64 = ps.iter().map(|p| i64::from(default.evaluate(p))).sum();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(N as u64));
    if fast.uses_bmi2() {
        run(&mut g, "pattern (bmi2)", &fast, &ps, plain);
    }
    run(&mut g, "pattern (portable)", &portable, &ps, plain);
    run(&mut g, "hand features (default)", &default, &ps, default_sum);
    g.finish();
}

fn wall(c: &mut Criterion<WallTime>) {
    bench(c, "pattern x1024");
}

fn cpu(c: &mut Criterion<ThreadCpu>) {
    if thread_cpu_ns().is_some() {
        bench(c, "pattern-cpu x1024");
    }
}

criterion_group!(wall_time, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default()
        .with_measurement(ThreadCpu(Rate::TimePerElement))
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    targets = cpu
}
criterion_main!(wall_time, cpu_time);
