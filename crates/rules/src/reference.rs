//! A slow, obviously correct reference: square by square, direction by direction, on plain
//! arrays. Kept public so every crate can check its fast code against it.

use crate::{Bitboard, BoardSize, Color, Position, Square};

const DIRS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// A position as a grid of cells (`None` = empty), for the reference functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Side length (4, 6 or 8).
    pub n: i32,
    /// Cells in row-major order, `n * n` of them.
    pub cells: Vec<Option<Color>>,
    /// The side to move.
    pub side: Color,
}

impl Grid {
    /// The grid of a position.
    pub fn from_position(pos: &Position) -> Grid {
        let n = pos.size().side() as i32;
        let mut cells = Vec::with_capacity((n * n) as usize);
        for r in 0..n {
            for c in 0..n {
                let sq = Square::from_coords(c as u8, r as u8).expect("on the grid");
                cells.push(if pos.black().contains(sq) {
                    Some(Color::Black)
                } else if pos.white().contains(sq) {
                    Some(Color::White)
                } else {
                    None
                });
            }
        }
        Grid {
            n,
            cells,
            side: pos.side_to_move(),
        }
    }

    /// Back to a [`Position`].
    pub fn to_position(&self) -> Position {
        let (mut b, mut w) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for r in 0..self.n {
            for c in 0..self.n {
                let sq = Square::from_coords(c as u8, r as u8).expect("on the grid");
                match self.at(c, r) {
                    Some(Color::Black) => b = b.with(sq),
                    Some(Color::White) => w = w.with(sq),
                    None => {}
                }
            }
        }
        let size = BoardSize::from_side(self.n as u8).expect("valid size");
        Position::from_discs(b, w, self.side, size).expect("grid cells are disjoint")
    }

    fn at(&self, c: i32, r: i32) -> Option<Color> {
        self.cells[(r * self.n + c) as usize]
    }

    fn inside(&self, c: i32, r: i32) -> bool {
        c >= 0 && r >= 0 && c < self.n && r < self.n
    }

    /// The discs flipped by `color` playing at `(c, r)`: for each direction, walk over
    /// opponent discs; if the walk ends on one of `color`'s discs, they all flip.
    pub fn flips_for(&self, color: Color, c: i32, r: i32) -> Vec<(i32, i32)> {
        if self.at(c, r).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (dc, dr) in DIRS {
            let mut line = Vec::new();
            let (mut x, mut y) = (c + dc, r + dr);
            while self.inside(x, y) && self.at(x, y) == Some(color.opposite()) {
                line.push((x, y));
                x += dc;
                y += dr;
            }
            if !line.is_empty() && self.inside(x, y) && self.at(x, y) == Some(color) {
                out.extend(line);
            }
        }
        out
    }

    /// The legal squares of `color`, row by row.
    pub fn moves_for(&self, color: Color) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flips_for(color, c, r).is_empty() {
                    out.push((c, r));
                }
            }
        }
        out
    }
}

fn sq(c: i32, r: i32) -> Square {
    Square::from_coords(c as u8, r as u8).expect("on the grid")
}

/// Legal squares of the side to move.
pub fn legal_moves(pos: &Position) -> Bitboard {
    let g = Grid::from_position(pos);
    g.moves_for(g.side).into_iter().map(|(c, r)| sq(c, r)).collect()
}

/// Discs flipped by the side to move playing `square` (empty if illegal).
pub fn flips(pos: &Position, square: Square) -> Bitboard {
    let g = Grid::from_position(pos);
    let n = g.n as u8;
    if square.col() >= n || square.row() >= n {
        return Bitboard::EMPTY;
    }
    g.flips_for(g.side, square.col() as i32, square.row() as i32)
        .into_iter()
        .map(|(c, r)| sq(c, r))
        .collect()
}

/// Whether neither side has a legal move.
pub fn is_game_over(pos: &Position) -> bool {
    let g = Grid::from_position(pos);
    g.moves_for(Color::Black).is_empty() && g.moves_for(Color::White).is_empty()
}

/// Plays a square (or passes when `square` is `None`) on the grid, by the rules above.
pub fn play(pos: &Position, square: Option<Square>) -> Position {
    let mut g = Grid::from_position(pos);
    if let Some(s) = square {
        let (c, r) = (s.col() as i32, s.row() as i32);
        for (x, y) in g.flips_for(g.side, c, r) {
            g.cells[(y * g.n + x) as usize] = Some(g.side);
        }
        g.cells[(r * g.n + c) as usize] = Some(g.side);
    }
    g.side = g.side.opposite();
    g.to_position()
}

/// Perft by the published convention (a forced pass is a ply; a finished game is one leaf),
/// on the grid.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if moves.is_empty() {
        if is_game_over(pos) {
            return 1;
        }
        return perft(&play(pos, None), depth - 1);
    }
    moves.into_iter().map(|s| perft(&play(pos, Some(s)), depth - 1)).sum()
}

/// Final disc difference for the side to move, empties to the winner, counted on the grid.
pub fn final_score(pos: &Position) -> i32 {
    let g = Grid::from_position(pos);
    let mine = g.cells.iter().filter(|&&c| c == Some(g.side)).count() as i32;
    let theirs = g.cells.iter().filter(|&&c| c == Some(g.side.opposite())).count() as i32;
    let empty = g.cells.iter().filter(|c| c.is_none()).count() as i32;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}
