//! The solver alone on one OBF line (board, side, then optionally `; move:score;` pairs):
//! `cargo run --release -p othello-endgame --example obf -- "LINE"`. Without an argument it
//! solves FFO #1. Every move is scored; the line's own scores, if any, are checked.
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::ObfLine;

fn main() {
    let text = std::env::args().nth(1).unwrap_or_else(|| {
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;".to_string()
    });
    let line: ObfLine = match text.parse() {
        Ok(line) => line,
        Err(e) => {
            eprintln!("bad OBF line: {e}");
            std::process::exit(2);
        }
    };
    let mut solver = Solver::new(SolverConfig::default().with_tt_mib(64));
    let solution = solver.solve(&line.position, SolveMode::Exact);
    let pv: Vec<String> = solution.pv.iter().map(ToString::to_string).collect();
    println!(
        "best {} score {:+} nodes {} time {:.3} s pv {}",
        solution.best_move,
        solution.score,
        solution.nodes,
        solution.time.as_secs_f64(),
        pv.join(" ")
    );
    let moves = solver.score_moves(&line.position, SolveMode::Exact);
    let listed: Vec<String> = moves.iter().map(|(m, s)| format!("{m}:{s:+}")).collect();
    println!("{}", listed.join(" "));
    for (m, want) in &line.scores {
        let got = moves.iter().find(|(mv, _)| mv == m).map(|x| x.1);
        if got != Some(*want) {
            eprintln!("mismatch: {m} listed {want:+}, solved {got:?}");
            std::process::exit(1);
        }
    }
}
