//! MCTS alone: a 2 000-iteration UCT player against a uniformly random one, a few games.
//! `cargo run --release -p othello-mcts --example mcts_alone -- [GAMES]`.
use othello_mcts::{Limits, Mcts, MctsConfig};
use othello_rules::{Color, Position};

/// A tiny seeded generator, so the example needs only the MCTS and rules crates.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let limits = Limits::nodes(2_000);
    let mut wins = 0;
    let mut rng = 7u64;
    for g in 0..games {
        let mcts_color = if g % 2 == 0 { Color::Black } else { Color::White };
        let mut mcts = Mcts::new(MctsConfig::default().with_seed(g));
        let mut pos = Position::start();
        while !pos.is_game_over() {
            let mv = if pos.side_to_move() == mcts_color {
                mcts.search(&pos, &limits).best_move
            } else {
                let moves = pos.moves();
                moves[next(&mut rng) as usize % moves.len()]
            };
            mcts.advance(mv); // keep the subtree for the next search
            pos = pos.play(mv).expect("legal");
        }
        let score = pos.final_score_black() * mcts_color.sign();
        wins += u32::from(score > 0);
        println!("game {g}: MCTS as {mcts_color:?} {score:+}");
    }
    println!("MCTS won {wins} of {games}");
}
