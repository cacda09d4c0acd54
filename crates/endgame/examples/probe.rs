//! Experiments (temporary).
use othello_endgame::{SolveMode, Solver, SolverConfig, ffo};
use std::time::Instant;
fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let obf = ffo::position(args[0]).unwrap();
    let best = obf.best_score().unwrap();
    let mut s = Solver::new(SolverConfig { tt_mib: 256, threads: 1 });
    let t = Instant::now();
    // bisection with null windows; scores are even: test alpha odd
    let (mut lo, mut hi) = (-64, 64); // lo <= score <= hi
    let mut guess = 0;
    while lo < hi {
        let a = (guess - 1).clamp(lo, hi - 1) | 1; // odd
        let a = if a >= hi { hi - 1 } else { a };
        let v = s.solve_window(&obf.position, a, a + 1);
        if v > a { lo = lo.max(v); guess = v.max(a + 1) + if args.len()>1 {args[1] as i32} else {0}; } else { hi = hi.min(v); guess = v.min(a - 1) - if args.len()>1 {args[1] as i32} else {0}; }
        println!("test {a}: {v} -> [{lo},{hi}] {:?}", t.elapsed());
    }
    println!("score {lo} (want {best}) {:?}", t.elapsed());
}
