//! Search speed: nodes per second at a fixed depth on a fixed position set, with the eval
//! crate's standard evaluation. Run: `cargo bench -p othello-benches --bench search`.
//!
//! Every run asserts its scores (equal to a tableless, unordered alpha-beta computed once in
//! the setup) and its node count (equal to the first run's: a single-threaded search is
//! deterministic), so a fast wrong search cannot pass.
#![expect(missing_docs, reason = "criterion_group! defines an undocumented public function")]
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use othello_eval::WeightedEval;
use othello_rules::Position;
use othello_rules::hash::hash_pair;
use othello_search::{Algorithm, Limits, SearchConfig, Searcher};

/// Twelve midgame positions (16 to 27 discs placed) from a fixed pseudo-random rule that does
/// not depend on any library's random generator.
fn positions() -> Vec<Position> {
    (0..12u64)
        .map(|i| {
            let mut pos = Position::start();
            for ply in 0..16 + i {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos
                    .play(moves[hash_pair(i, ply) as usize % moves.len()])
                    .expect("listed move");
            }
            pos
        })
        .collect()
}

/// Searches every position from a fresh state; returns (scores, total nodes).
fn run(searcher: &mut Searcher<WeightedEval>, positions: &[Position], depth: u32) -> (Vec<i32>, u64) {
    let mut nodes = 0;
    let scores = positions
        .iter()
        .map(|pos| {
            searcher.new_game();
            let r = searcher.search(pos, &Limits::depth(depth), |_| {});
            nodes += r.nodes;
            r.score
        })
        .collect();
    (scores, nodes)
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    let plain = SearchConfig::default()
        .with_algorithm(Algorithm::AlphaBeta)
        .with_tt_mib(0)
        .with_killers(false)
        .with_history(false)
        .with_mobility_ordering(false)
        .with_aspiration(false)
        .with_endgame_empties(0);
    for depth in [6, 8] {
        let mut reference = Searcher::new(WeightedEval::standard(), plain.clone());
        let (expected, _) = run(&mut reference, &positions, depth);
        // 4 MiB: clearing the table between positions must not dominate the measurement.
        let variants = [
            (
                "pvs default",
                SearchConfig::default().with_tt_mib(4).with_endgame_empties(0),
            ),
            (
                "pvs no table",
                SearchConfig::default().with_tt_mib(0).with_endgame_empties(0),
            ),
            ("alpha-beta plain", plain.clone()),
        ];
        for (name, config) in variants {
            if name == "alpha-beta plain" && depth > 6 {
                continue;
            }
            let mut searcher = Searcher::new(WeightedEval::standard(), config);
            let (scores, nodes) = run(&mut searcher, &positions, depth);
            assert_eq!(scores, expected, "{name} depth {depth}");
            g.throughput(Throughput::Elements(nodes));
            g.bench_function(format!("{name} depth {depth} x12 (nodes/s)"), |b| {
                b.iter(|| {
                    let (s, n) = run(&mut searcher, &positions, depth);
                    assert_eq!((&s, n), (&expected, nodes));
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
