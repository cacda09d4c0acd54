//! MCTS: playout speed and search iterations. Run: `cargo bench -p othello-benches --bench mcts`.
//!
//! Each benchmark runs twice: timed by the wall clock (`mcts/...`) and by the CPU time of the
//! benchmark thread (`mcts-cpu/...`, Linux `/proc/thread-self/schedstat`), which does not count
//! the time the thread waits for a core on a shared machine.
#![expect(missing_docs, reason = "criterion_group! generates undocumented functions")]

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use othello_mcts::{Mcts, MctsConfig, PlayoutPolicy, playout, random_playout};
use othello_rules::{Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

const PLAYOUTS: u64 = 1000;
const ITERATIONS: u64 = 10_000;

/// The obvious playout on the allocating `Position` API, drawing from the generator exactly as
/// the fast one does (the `k`-th legal square in index order; a pass draws nothing).
fn reference_playout(pos: &Position, rng: &mut SmallRng) -> i32 {
    let mut p = *pos;
    loop {
        let moves = p.moves();
        match moves.as_slice() {
            [] => return p.final_score() * p.side_to_move().sign() * pos.side_to_move().sign(),
            [Move::Pass] => p = p.pass_unchecked(),
            _ => p = p.play(moves[rng.random_range(0..moves.len() as u32) as usize]).unwrap(),
        }
    }
}

fn run<M: Measurement>(mut g: BenchmarkGroup<'_, M>) {
    let start = Position::start();
    let mut rng = SmallRng::seed_from_u64(1);
    let expected: i64 = (0..PLAYOUTS)
        .map(|_| i64::from(reference_playout(&start, &mut rng)))
        .sum();

    g.throughput(Throughput::Elements(PLAYOUTS));
    g.bench_function("random_playout/start x1000", |b| {
        b.iter(|| {
            let mut rng = SmallRng::seed_from_u64(1);
            let sum: i64 = (0..PLAYOUTS)
                .map(|_| i64::from(random_playout(black_box(&start), &mut rng)))
                .sum();
            assert_eq!(sum, expected);
        })
    });
    g.bench_function("corners_first_playout/start x1000", |b| {
        let policy = PlayoutPolicy::CornersFirst { epsilon: 0.1 };
        b.iter(|| {
            let mut rng = SmallRng::seed_from_u64(1);
            let sum: i64 = (0..PLAYOUTS)
                .map(|_| i64::from(playout(black_box(&start), policy, &mut rng)))
                .sum();
            assert!(sum.unsigned_abs() <= 64 * PLAYOUTS);
        })
    });
    g.throughput(Throughput::Elements(ITERATIONS));
    g.bench_function("search/start 10k iterations", |b| {
        b.iter(|| {
            let mut mcts = Mcts::new(MctsConfig {
                playouts: Some(ITERATIONS),
                seed: 3,
                reuse_tree: false,
                ..MctsConfig::default()
            });
            let r = mcts.search(black_box(&start));
            assert!(start.is_legal(r.best_move));
            assert_eq!(r.iterations, ITERATIONS);
            assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), ITERATIONS);
        })
    });
    g.finish();
}

fn wall(c: &mut Criterion<WallTime>) {
    run(c.benchmark_group("mcts"));
}

fn cpu(c: &mut Criterion<ThreadCpuTime>) {
    if thread_cpu_ns().is_some() {
        run(c.benchmark_group("mcts-cpu"));
    }
}

/// CPU time of the calling thread in nanoseconds (Linux only).
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// CPU time of the benchmark thread, in nanoseconds.
struct ThreadCpuTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns().unwrap_or(0)
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().unwrap_or(0).saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NanosFormatter
    }
}

struct NanosFormatter;

impl ValueFormatter for NanosFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Elements(n) => n as f64,
        };
        let (div, unit) = match per * 1e9 / typical {
            r if r < 1e3 => (1.0, "elem/s"),
            r if r < 1e6 => (1e3, "Kelem/s"),
            _ => (1e6, "Melem/s"),
        };
        values.iter_mut().for_each(|v| *v = per * 1e9 / *v / div);
        unit
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group! {
    name = wall_time;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(4));
    targets = wall
}
criterion_group! {
    name = cpu_time;
    config = Criterion::default()
        .with_measurement(ThreadCpuTime)
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    targets = cpu
}
criterion_main!(wall_time, cpu_time);
