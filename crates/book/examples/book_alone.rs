//! The book crate alone: build a small book from a stand-in search (each move scored by the
//! mover's disc lead after it), save it, load it back, and play the first moves of a game from
//! it with a seeded choice.
//!
//! `cargo run --release -p othello-book --example book_alone`

use othello_book::{Book, BuildConfig, build};
use othello_rules::{Move, Position};
use rand::SeedableRng;

fn main() {
    let mut search = |pos: &Position| -> Vec<(Move, i32)> {
        pos.moves()
            .into_iter()
            .map(|m| (m, -pos.play(m).expect("a legal move").disc_difference() * 100))
            .collect()
    };
    let config = BuildConfig {
        depth: 4,
        max_positions: 200,
        deviation: 100,
        ..BuildConfig::default()
    };
    let mut book = Book::new();
    let report = build(&mut book, &Position::start(), &config, &mut search, &mut |_| {}).expect("legal values");
    let path = std::env::temp_dir().join(format!("book_alone-{}.bin", std::process::id()));
    book.write(&path).expect("write the book");
    let loaded = Book::from_path(&path).expect("read the book");
    std::fs::remove_file(&path).expect("remove the book");
    assert_eq!(loaded, book);
    println!(
        "{} entries, {} positions searched in {} rounds",
        report.entries, report.searched, report.rounds
    );
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut pos = Position::start();
    while let Some((mv, value)) = loaded.choose(&pos, 100, &mut rng) {
        println!("{mv} ({:+.2} discs for the side to move)", value as f64 / 100.0);
        pos = pos.play(mv).expect("a book move is legal");
    }
    println!("out of book at {pos}");
}
