//! The table crate alone: two threads store positions into one shared table and probe each
//! other's. `cargo run --release -p othello-table --example two_threads`.
use othello_rules::{Move, Position};
use othello_table::{Bound, Table, TranspositionTable};
use std::thread;

/// Ten positions along one game: at each ply the `pick`-th legal move (modulo their count).
fn line(pick: usize) -> Vec<Position> {
    let mut pos = Position::start();
    let mut out = vec![pos];
    for _ in 0..10 {
        let moves: Vec<Move> = pos.moves();
        pos = pos.play(moves[pick % moves.len()]).expect("a legal move");
        out.push(pos);
    }
    out
}

fn main() {
    let tt = TranspositionTable::new(4);
    let games = [line(0), line(1)];
    thread::scope(|s| {
        for (t, positions) in games.iter().enumerate() {
            let tt = &tt;
            s.spawn(move || {
                for (i, pos) in positions.iter().enumerate() {
                    let score = (100 * t + i) as i16;
                    tt.store(
                        pos.size(),
                        pos.player().0,
                        pos.opponent().0,
                        1,
                        score,
                        Bound::Exact,
                        None,
                    );
                }
            });
        }
    });
    // Both threads' entries are there, each with what its writer stored; the start position
    // was stored by both (one overwrote the other).
    let found = |pos: &Position| tt.probe(pos.size(), pos.player().0, pos.opponent().0).map(|e| e.score);
    for (t, positions) in games.iter().enumerate() {
        let scores: Vec<Option<i16>> = positions.iter().skip(1).map(found).collect();
        println!("thread {t}: {scores:?}");
        assert!(
            scores
                .iter()
                .enumerate()
                .all(|(i, s)| *s == Some((100 * t + i + 1) as i16))
        );
    }
    let s = Table::stats(&tt);
    println!("stores {}, probes {}, hits {}", s.stores, s.probes, s.hits);
}
