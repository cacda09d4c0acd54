//! Match openings: the built-in set, or a file of move sequences, GGF games or OBF positions.
//!
//! A file holds one opening per line; blank lines and lines starting with `#` are skipped. Each
//! line is read as a GGF record when it starts with `(;` (its start position and all its
//! moves), as an OBF position when its first word is a board (`-`, `X`/`*`, `O` squares) and
//! its second a side to move (anything after is ignored), and as a move sequence (`f5d6c3`)
//! otherwise. Every opening must leave a game to play, on the match's board size.

use crate::error::{CliResult, input};
use othello_rules::text::{format_moves, parse_moves, play_sequence};
use othello_rules::{BoardSize, GgfGame, Move, Position};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

/// An opening: a root position and moves from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where the record starts (the start position, or an OBF/GGF board).
    pub root: Position,
    /// The opening moves from `root` (passes included).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start from.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.root, |p, &m| p.play_unchecked(m))
    }

    /// A short label: the moves, or the root board when the opening has no moves.
    pub fn label(&self) -> String {
        if self.moves.is_empty() && self.root != Position::start_of(self.root.size()) {
            self.root.to_string()
        } else {
            format_moves(&self.moves)
        }
    }
}

/// The built-in openings: every line of `plies` moves from the start, with the first move
/// fixed on 8x8 (the four first moves are symmetric), in generation order.
pub fn builtin(size: BoardSize) -> Vec<Opening> {
    let start = Position::start_of(size);
    let (first, plies): (Vec<Move>, usize) = match size {
        BoardSize::Eight => (vec!["f5".parse().expect("a move")], 4),
        _ => (Vec::new(), 2),
    };
    let mut lines = vec![first];
    while lines[0].len() < plies {
        let mut next = Vec::new();
        for line in &lines {
            let pos = line.iter().fold(start, |p, &m| p.play_unchecked(m));
            for m in pos.moves() {
                let mut l = line.clone();
                l.push(m);
                next.push(l);
            }
        }
        lines = next;
    }
    lines.into_iter().map(|moves| Opening { root: start, moves }).collect()
}

fn looks_like_board(word: &str) -> bool {
    matches!(word.len(), 16 | 36 | 64) && word.chars().all(|c| "-.XxOo*".contains(c))
}

/// Reads one line of an openings file.
fn parse_line(line: &str, size: BoardSize) -> Result<Opening, String> {
    let start = Position::start_of(size);
    let opening = if line.starts_with("(;") {
        let game: GgfGame = line.parse().map_err(|e: othello_rules::ParseGgfError| e.to_string())?;
        // Re-derive the moves with the forced passes a record may leave out.
        let positions = game.positions();
        let mut moves = Vec::new();
        for (m, before) in game.moves.iter().zip(&positions) {
            if before.side_to_move() != m.color {
                moves.push(Move::Pass);
            }
            moves.push(m.mv);
        }
        Opening {
            root: game.start,
            moves,
        }
    } else if line.split_whitespace().next().is_some_and(looks_like_board) {
        let mut words = line.split_whitespace();
        let board = words.next().unwrap_or("");
        let side = words.next().unwrap_or("").trim_end_matches(';');
        let root: Position = format!("{board} {side}").parse().map_err(|e| format!("{e}"))?;
        Opening {
            root,
            moves: Vec::new(),
        }
    } else {
        let moves: Vec<Move> = parse_moves(line)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        play_sequence(&start, line).map_err(|e| e.to_string())?;
        Opening { root: start, moves }
    };
    if opening.root.size() != size {
        return Err(format!(
            "the opening is {0}x{0}, the match {1}x{1}",
            opening.root.size().side(),
            size.side()
        ));
    }
    if opening.position().is_game_over() {
        return Err("the opening ends the game".to_string());
    }
    Ok(opening)
}

/// Reads an openings file.
///
/// # Errors
/// Bad input naming the file, the line and the problem.
pub fn read_file(path: &str, size: BoardSize) -> CliResult<Vec<Opening>> {
    let (path, text) = crate::input::read_source(path, "openings file")?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_line(t, size).map_err(|e| input(format!("{path} line {}: {e}", i + 1)))?);
    }
    if out.is_empty() {
        return Err(input(format!("openings file {path} has no openings")));
    }
    Ok(out)
}

/// Shuffles the openings with a seeded generator (the same seed gives the same order).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    openings.shuffle(&mut SmallRng::seed_from_u64(seed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sets() {
        let eight = builtin(BoardSize::Eight);
        // f5 then every 3-ply continuation: 3 * ... distinct lines, all legal, none over.
        assert!(eight.len() > 20);
        assert!(eight.iter().all(|o| o.moves.len() == 4 && !o.position().is_game_over()));
        assert_eq!(builtin(BoardSize::Six).len(), 12);
    }

    /// The committed book's build script extends the book from each built-in 8x8 opening,
    /// listed in tools/book/roots-4ply.txt: the list must stay the built-in set, in its order.
    #[test]
    fn the_book_scripts_roots_are_the_builtin_openings() {
        let listed: Vec<&str> = include_str!("../../../book/roots-4ply.txt").lines().collect();
        let builtin: Vec<String> = builtin(BoardSize::Eight).iter().map(Opening::label).collect();
        assert_eq!(listed, builtin);
    }

    /// The committed book (crates/book/data/opening.bin) reads, writes back byte for byte,
    /// holds every built-in 8x8 opening, and keeps to the book along its best line from each
    /// for at least six moves, seven and more on average: its build reaches 7 moves beyond
    /// each opening within 1 disc, and its last deepening may move a best line onto a leaf
    /// earlier (docs/book.md, "The committed book").
    #[test]
    fn the_committed_book_holds_the_builtin_openings() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/book/data/opening.bin");
        let bytes = std::fs::read(path).expect("the committed book");
        let book = othello_book::Book::from_bytes(&bytes).expect("a valid book");
        assert_eq!(book.to_bytes(), bytes);
        let openings = builtin(BoardSize::Eight);
        let mut total = 0;
        for opening in &openings {
            let mut pos = opening.position();
            let mut reach = 0;
            while let Some(entry) = book.lookup(&pos) {
                reach += 1;
                let best = entry.moves[0];
                if !best.propagated {
                    break;
                }
                pos = pos.play_unchecked(best.mv);
            }
            assert!(reach >= 6, "{}: {reach} book moves", opening.label());
            total += reach;
        }
        assert!(total >= 7 * openings.len(), "{total} book moves");
    }

    #[test]
    fn reads_each_kind() {
        let start = "---------------------------O*------*O---------------------------";
        let obf = "---------------------------OX------XXX-------------------------- O; comment";
        let ggf = format!("(;GM[Othello]BO[8 {start} *]B[F5]W[D6];)");
        let kinds = [
            ("f5d6c3", vec!["f5", "d6", "c3"]),
            (ggf.as_str(), vec!["f5", "d6"]),
            (obf, vec![]),
        ];
        for (line, moves) in kinds {
            let o = parse_line(line, BoardSize::Eight).unwrap();
            let want: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
            assert_eq!(o.moves, want, "{line}");
        }
        let o = parse_line(obf, BoardSize::Eight).unwrap();
        assert_eq!(o.position(), play_sequence(&Position::start(), "f5").unwrap());
        assert!(parse_line("f5f5", BoardSize::Eight).is_err());
        assert!(parse_line("f5", BoardSize::Six).is_err());
        assert!(parse_line("zz", BoardSize::Eight).is_err());
        assert!(parse_line(&format!("{} X", "X".repeat(64)), BoardSize::Eight).is_err());
    }

    #[test]
    fn shuffle_is_seeded() {
        let mut a = builtin(BoardSize::Eight);
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut c = builtin(BoardSize::Eight);
        shuffle(&mut c, 8);
        assert_ne!(a, c);
    }
}
