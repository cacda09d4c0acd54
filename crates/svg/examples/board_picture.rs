//! A board after f5 d6 c3 with made-up move values and a two-move variation, as SVG on stdout:
//! `cargo run --release -p othello-svg --example board_picture > board.svg`.

use othello_rules::{Move, Position, Square, text::play_sequence};
use othello_svg::BoardPicture;

fn main() {
    let pos = play_sequence(&Position::start(), "f5d6c3").expect("a legal opening");
    let last: Square = "c3".parse().expect("a square");
    // One value per legal move (white to move), in discs: -2, -1, 0, ...
    let values: Vec<_> = pos.legal_moves().into_iter().zip(-2..).collect();
    // A two-move variation: the first legal move, then the reply's first.
    let first = pos.moves()[0];
    let reply = pos.play(first).expect("legal").moves()[0];
    let pv: Vec<Move> = vec![first, reply];
    match BoardPicture::new(&pos).last_move(last).values(values).pv(&pv).to_svg() {
        Ok(svg) => print!("{svg}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
