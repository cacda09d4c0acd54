//! The pattern evaluation per call. Run: `cargo bench -p othello-benches --bench pattern`.
//!
//! Two position sets, because the weights are 15 phases x 335 KB (5 MB, beyond L2) and which
//! of them a run touches decides much of the cost:
//! - `all phases`: the 1024 positions of the `eval` bench (every phase, one after another in
//!   turn), so every call reads the tables of another phase: a worst case for the caches.
//! - `search order`: the positions a real search evaluates, in the order it evaluates them
//!   (the default PVS at depth 8 with this evaluation, from 12 positions of one game line, 8 to
//!   52 plies; up to 4096 evaluations recorded per search): one or two phases at a time, as in
//!   a game. This is the realistic per-call figure.
//!
//! Each benchmark asserts the sum of the scores, computed first by a plain sum of table entries
//! over the reference feature indices, so a fast wrong answer cannot pass. Variants: every
//! index extraction this CPU supports (`Extraction::ALL`: portable, BMI2, AVX2 with gathers,
//! AVX2 with scalar table reads, AVX-512), and the default hand-feature evaluation beside them.
//! Timed by the wall clock (`pattern ...`) and by the thread's CPU time (`pattern-cpu ...`),
//! per call.
#![expect(missing_docs, reason = "criterion_group! generates undocumented functions")]

use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput};
use othello_benches::{bench_scores, spread_positions};
use othello_eval::{Evaluator, WeightedEval};
use othello_pattern::{Extraction, PatternEval, Weights, feature_indices, weights::per_phase};
use othello_rules::Position;
use othello_rules::hash::mix64;
use othello_search::{Limits, SearchConfig, Searcher};
use std::sync::Mutex;

/// Records every position it evaluates (up to a cap), scoring with the pattern evaluation.
struct Recorder {
    eval: PatternEval,
    seen: Mutex<Vec<Position>>,
    cap: usize,
}

impl Evaluator for Recorder {
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut seen = self.seen.lock().expect("single-threaded");
        if seen.len() < self.cap {
            seen.push(*pos);
        }
        self.eval.evaluate(pos)
    }
}

/// The positions evaluated by depth-8 searches from 12 positions of one seeded game line.
fn search_order_positions(eval: &PatternEval) -> Vec<Position> {
    let mut out = Vec::new();
    let mut pos = Position::start();
    let mut k = 0u64;
    for ply in 0..=52 {
        if ply >= 8 && ply % 4 == 0 {
            let recorder = Recorder {
                eval: eval.clone(),
                seen: Mutex::new(Vec::new()),
                cap: 4096,
            };
            let mut s = Searcher::new(recorder, SearchConfig::default().with_tt_mib(4));
            s.search(&pos, &Limits::depth(8), |_| {});
            out.extend(s.evaluator().seen.lock().expect("single-threaded").iter());
        }
        let moves = pos.moves();
        if moves.is_empty() {
            pos = pos.pass_unchecked();
            continue;
        }
        k += 1;
        pos = pos.play_unchecked(moves[(mix64(k) % moves.len() as u64) as usize]);
    }
    out
}

fn bench<M: Measurement>(c: &mut Criterion<M>, group: &str) {
    let w = Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).expect("embedded weights");
    let fast = PatternEval::new(&w);
    let sets = [
        ("all phases", spread_positions(1024)),
        ("search order", search_order_positions(&fast)),
    ];
    let default = WeightedEval::default();
    for (set, ps) in &sets {
        // The plain sum of table entries, scaled and clamped like the evaluator.
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
        let default_sum: i64 = ps.iter().map(|p| i64::from(default.evaluate(p))).sum();
        let mut g = c.benchmark_group(format!("{group} {set} x{}", ps.len()));
        g.throughput(Throughput::Elements(ps.len() as u64));
        for x in Extraction::ALL {
            if let Some(e) = fast.clone().with_extraction(x) {
                bench_scores(&mut g, &format!("pattern ({})", x.name()), ps, plain, |p| e.evaluate(p));
            }
        }
        bench_scores(&mut g, "hand features (default)", ps, default_sum, |p| {
            default.evaluate(p)
        });
        g.finish();
    }
}

othello_benches::wall_and_cpu_main!(bench, "pattern", "pattern-cpu");
