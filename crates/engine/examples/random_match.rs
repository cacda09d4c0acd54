//! Two players driven through the `Player` trait alone (here two seeded random players), the
//! loop a match runner is built on: `cargo run --release -p othello-engine --example random_match`.
use othello_engine::{Limits, Player, RandomPlayer};
use othello_rules::{Color, Position};

fn play(black: &mut dyn Player, white: &mut dyn Player, limits: &Limits) -> i32 {
    black.new_game();
    white.new_game();
    let mut pos = Position::start();
    while !pos.is_game_over() {
        let mover: &mut dyn Player = if pos.side_to_move() == Color::Black {
            black
        } else {
            white
        };
        let reply = mover.think(&pos, limits);
        pos = pos.play(reply.best_move).expect("players answer legal moves");
        black.observe(reply.best_move);
        white.observe(reply.best_move);
    }
    pos.final_score_black()
}

fn main() {
    let (mut a, mut b) = (RandomPlayer::new(1), RandomPlayer::new(2));
    let limits = Limits::move_time(std::time::Duration::from_millis(10));
    let mut total = 0;
    for g in 0..10 {
        let s = if g % 2 == 0 {
            play(&mut a, &mut b, &limits)
        } else {
            -play(&mut b, &mut a, &limits)
        };
        total += s.signum();
        println!("game {g}: {s:+} for {}", a.name());
    }
    println!("{} vs {}: {total:+} (wins minus losses)", a.name(), b.name());
}
