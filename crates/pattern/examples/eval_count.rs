//! A small driver for instruction counts (`valgrind --tool=callgrind`, which has no AVX-512):
//! evaluates the positions of seeded random games `reps` times with one extraction, with the
//! default weights (`set2`) or the same weights with the global tables zeroed (`set1`, which
//! skips the global features), and prints the sum of the scores.
//!
//! `cargo run --release -p othello-pattern --example eval_count -- avx2 set2 20`
//! Per call: the difference of two runs' instruction counts (`reps` 20 and 40, say) divided by
//! 20 times the number of positions printed.

use othello_eval::Evaluator;
use othello_pattern::{Extraction, PatternEval, Weights, layout};
use othello_rules::Position;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: eval_count portable|bmi2|avx2|avx2-loads|avx512 set1|set2 REPS";
    let (Some(x), Some(set), Some(reps)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(extraction) = Extraction::ALL.into_iter().find(|e| e.name() == x) else {
        eprintln!("unknown extraction {x:?}; {usage}");
        std::process::exit(2);
    };
    let Ok(reps) = reps.parse::<u32>() else {
        eprintln!("REPS is not a number: {reps:?}");
        std::process::exit(2);
    };
    let w = Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS).expect("embedded weights");
    let w = match set.as_str() {
        "set2" => w,
        "set1" => {
            let l = layout();
            let mut v = w.values().to_vec();
            for phase in v.chunks_exact_mut(l.per_phase) {
                phase[l.globals as usize..].iter_mut().for_each(|x| *x = 0);
            }
            Weights::new(w.phases(), w.scale(), v).expect("same shape")
        }
        _ => {
            eprintln!("unknown weights {set:?}; {usage}");
            std::process::exit(2);
        }
    };
    let Some(eval) = PatternEval::new(&w).with_extraction(extraction) else {
        eprintln!("this CPU cannot run {x}");
        std::process::exit(2);
    };
    // Positions of 40 seeded random games (xorshift), every ply.
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut positions = Vec::new();
    for _ in 0..40 {
        let mut pos = Position::start();
        while !pos.is_game_over() {
            positions.push(pos);
            let moves = pos.moves();
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            pos = pos
                .play(moves[(s % moves.len() as u64) as usize])
                .expect("a legal move");
        }
    }
    let mut sum = 0i64;
    for _ in 0..reps {
        for p in &positions {
            sum += i64::from(eval.evaluate(std::hint::black_box(p)));
        }
    }
    println!("{} positions x {reps}: sum {sum}", positions.len());
}
