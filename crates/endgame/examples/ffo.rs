//! Solves FFO positions and prints nodes, time and speed for each, then the totals.
//!
//! `cargo run --release -p othello-endgame --example ffo -- 40 49 [--threads N] [--wld]
//! [--no-stability] [--no-parity] [--no-fastest-first] [--no-table] [--no-etc] [--no-last-four] [--tt MIB]`

use othello_endgame::{SolveMode, Solver, SolverConfig, Techniques, ffo};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut numbers = Vec::new();
    let mut threads = 1;
    let mut tt_mib = 256;
    let mut mode = SolveMode::Exact;
    let mut tech = Techniques::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--threads" => threads = it.next().and_then(|v| v.parse().ok()).expect("--threads N"),
            "--tt" => tt_mib = it.next().and_then(|v| v.parse().ok()).expect("--tt MIB"),
            "--wld" => mode = SolveMode::WinLossDraw,
            "--no-stability" => tech.stability = false,
            "--no-parity" => tech.parity = false,
            "--no-fastest-first" => tech.fastest_first = false,
            "--no-table" => tech.table = false,
            "--no-etc" => tech.etc = false,
            "--no-last-four" => tech.last_four = false,
            n => numbers.push(n.parse::<u32>().expect("an FFO number")),
        }
    }
    let (first, last) = match numbers.as_slice() {
        [] => (40, 49),
        [a] => (*a, *a),
        [a, b, ..] => (*a, *b),
    };
    let mut solver = Solver::with_techniques(SolverConfig::default().with_tt_mib(tt_mib).with_threads(threads), tech);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    println!(" #  empties  move  score        nodes     time(s)   Mnodes/s  ok");
    for (n, obf) in ffo::positions()
        .into_iter()
        .filter(|&(n, _)| (first..=last).contains(&n))
    {
        solver.new_game();
        let s = solver.solve(&obf.position, mode);
        let best = obf.best_score().expect("FFO lines list scores");
        let want = if mode == SolveMode::Exact { best } else { best.signum() };
        let ok = s.score == want
            && obf
                .scores
                .iter()
                .any(|&(m, v)| m == s.best_move && (if mode == SolveMode::Exact { v } else { v.signum() }) == want);
        println!(
            "{n:2}  {:7}  {:>4}  {:+5}  {:11}  {:10.3}  {:9.1}  {}",
            obf.position.empty_count(),
            s.best_move.to_string(),
            s.score,
            s.nodes,
            s.time.as_secs_f64(),
            s.nodes as f64 / s.time.as_secs_f64() / 1e6,
            if ok { "ok" } else { "WRONG" }
        );
        nodes += s.nodes;
        time += s.time;
    }
    println!(
        "total {first}-{last}: {nodes} nodes, {:.3} s, {:.1} Mnodes/s",
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64() / 1e6
    );
}
