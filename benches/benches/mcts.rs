//! MCTS: playout speed and search iterations. Run: `cargo bench -p othello-benches --bench mcts`.
//!
//! Each benchmark runs twice: timed by the wall clock (`mcts/...`) and by the CPU time of the
//! benchmark thread (`mcts-cpu/...`, Linux `/proc/thread-self/schedstat`), which does not count
//! the time the thread waits for a core on a shared machine.
#![expect(missing_docs, reason = "criterion_group! generates undocumented functions")]

use criterion::measurement::{Measurement, WallTime};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use othello_benches::{Rate, ThreadCpu, thread_cpu_ns};
use othello_mcts::{Limits, Mcts, MctsConfig, PlayoutPolicy, playout, random_playout};
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
            let mut mcts = Mcts::new(MctsConfig::default().with_seed(3).with_reuse_tree(false));
            let r = mcts.search(black_box(&start), &Limits::nodes(ITERATIONS));
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

fn cpu(c: &mut Criterion<ThreadCpu>) {
    if thread_cpu_ns().is_some() {
        run(c.benchmark_group("mcts-cpu"));
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
        .with_measurement(ThreadCpu(Rate::ElementsPerSecond))
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    targets = cpu
}
criterion_main!(wall_time, cpu_time);
