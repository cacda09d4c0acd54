//! Players built from spec strings play a game through the `Player` trait, and a bad spec is
//! refused with its message: `cargo run --release -p othello-spec --example spec_match`.
//! Optional arguments: two specs (default `pvs:depth=2,eval=mobility*10` and
//! `mcts:playouts=300,seed=1`).
use othello_engine::Player;
use othello_rules::{Color, Position};
use othello_spec::Engine;

fn main() {
    let mut args = std::env::args().skip(1);
    let a = args
        .next()
        .unwrap_or_else(|| "pvs:depth=2,eval=mobility*10".to_string());
    let b = args.next().unwrap_or_else(|| "mcts:playouts=300,seed=1".to_string());
    let build = |text: &str| {
        text.parse::<Engine>().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        })
    };
    let (mut black, mut white) = (build(&a), build(&b));
    let mut pos = Position::start();
    let mut plies = 0;
    while !pos.is_game_over() {
        let mover = if pos.side_to_move() == Color::Black {
            &mut black
        } else {
            &mut white
        };
        let limits = mover.limits();
        let reply = mover.think(&pos, &limits);
        if let Some(m) = reply.mcts {
            let share = m
                .visit_share()
                .map_or("-".to_string(), |s| format!("{:.0}%", 100.0 * s));
            println!(
                "{:>2} mcts {} visits {share} mean {:.2}",
                plies + 1,
                reply.best_move,
                m.mean_result
            );
        } else if let Some(score) = reply.score {
            println!(
                "{:>2} {} {} {:+.2} discs",
                plies + 1,
                mover.name(),
                reply.best_move,
                score as f64 / 100.0
            );
        }
        black.observe(reply.best_move);
        white.observe(reply.best_move);
        pos = pos.play(reply.best_move).expect("players answer legal moves");
        plies += 1;
    }
    let (x, o) = pos.disc_counts();
    println!("{a} (black) {x} - {o} {b} (white), {plies} plies");
    let bad = "mcts:c=-1".parse::<Engine>().err().expect("refused");
    println!("a bad spec: {bad}");
}
