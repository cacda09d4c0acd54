//! Endgame solver: exact solves of quick FFO positions (fresh table each time), asserting the
//! published score so a fast wrong answer cannot pass.
//! Run: `cargo bench -p othello-benches --bench endgame`.
#![expect(missing_docs, reason = "criterion_group! generates undocumented items")]

use criterion::{Criterion, criterion_group, criterion_main};
use othello_endgame::{SolveMode, Solver, SolverConfig, ffo};
use std::hint::black_box;

fn bench_ffo(c: &mut Criterion) {
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    // A small table: clearing it is part of every iteration.
    let mut solver = Solver::new(SolverConfig::default().with_tt_mib(4).with_threads(1));
    for n in [1, 5, 10, 21] {
        let obf = ffo::position(n).expect("bundled FFO position");
        let want = obf.best_score().expect("scored");
        group.bench_function(format!("ffo{n}_exact"), |b| {
            b.iter(|| {
                solver.new_game();
                let s = solver.solve(black_box(&obf.position), SolveMode::Exact);
                assert_eq!(s.score, want);
                s.nodes
            })
        });
        group.bench_function(format!("ffo{n}_wld"), |b| {
            b.iter(|| {
                solver.new_game();
                let s = solver.solve(black_box(&obf.position), SolveMode::WinLossDraw);
                assert_eq!(s.score, want.signum());
                s.nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_ffo);
criterion_main!(benches);
