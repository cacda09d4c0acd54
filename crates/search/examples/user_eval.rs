//! A user-written evaluation plays the default engine, both driven through the
//! `othello_engine::Player` trait: `cargo run --release -p othello-search --example user_eval`.
//!
//! (The example lives here rather than in `othello-engine` because the engine crate sits below
//! the search crate: a dev-dependency back on it would make a cycle.)
use othello_eval::{Evaluator, WeightedEval};
use othello_rules::{Color, Position};
use othello_search::{Limits, Player, SearchConfig, Searcher};

/// Corners and mobility, in centi-discs (every evaluator returns centi-discs).
struct CornersAndMobility;

impl Evaluator for CornersAndMobility {
    fn evaluate(&self, pos: &Position) -> i32 {
        let corners = pos.size().corners();
        let mine = (pos.player() & corners).count() as i32;
        let theirs = (pos.opponent() & corners).count() as i32;
        let mobility = pos.legal_moves().count() as i32 - pos.opponent_moves().count() as i32;
        300 * (mine - theirs) + 50 * mobility
    }
}

/// Plays one game from the start; returns the final score from black's side.
fn game(black: &mut dyn Player, white: &mut dyn Player, limits: &Limits) -> i32 {
    black.new_game();
    white.new_game();
    let mut pos = Position::start();
    while !pos.is_game_over() {
        let player: &mut dyn Player = if pos.side_to_move() == Color::Black {
            black
        } else {
            white
        };
        let reply = player.think(&pos, limits);
        pos = pos.play(reply.best_move).expect("players answer legal moves");
        black.observe(reply.best_move);
        white.observe(reply.best_move);
    }
    pos.final_score_black()
}

fn main() {
    let limits = Limits::depth(3);
    let mut mine = Searcher::new(CornersAndMobility, SearchConfig::default().with_tt_mib(1));
    let mut default = Searcher::new(WeightedEval::default(), SearchConfig::default().with_tt_mib(1));
    let a = game(&mut mine, &mut default, &limits);
    let b = game(&mut default, &mut mine, &limits);
    println!("corners+mobility as black: {a:+} discs; as white: {:+} discs", -b);
    println!(
        "(depth {} each; positive = the user evaluator won)",
        limits.depth.unwrap_or(0)
    );
}
