//! [`BoardPicture`]: a position as an SVG board.

use crate::{escape, open_svg, put};
use othello_rules::{BoardSize, Color, Move, Position, Square};
use std::fmt::{self, Write};

/// The side of a square in pixels.
const CELL: u32 = 40;
/// The room left of and above the board for the coordinates.
const MARGIN: u32 = 24;
/// The room right of the board.
const RIGHT: u32 = 8;
/// The height of one caption line under the board.
const LINE: u32 = 18;
/// A disc's radius.
const DISC_R: u32 = 17;
/// The radius of a legal-move dot and of the last-move dot.
const DOT_R: u32 = 5;
/// The radius of a principal-variation disc (smaller than a played disc).
const PV_R: u32 = 12;

/// The board's green.
pub(crate) const BOARD_GREEN: &str = "#1e7b3c";
/// Black discs.
pub(crate) const BLACK_FILL: &str = "#111111";
/// White discs.
pub(crate) const WHITE_FILL: &str = "#f5f5f5";
/// The last move's dot.
pub(crate) const LAST_MOVE_RED: &str = "#e53935";

/// Why a picture cannot be drawn: an annotation that does not fit the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// A marked square lies outside the board (for example `h8` on a 6x6 board).
    OffBoard {
        /// The square.
        square: Square,
        /// The board's size.
        size: BoardSize,
    },
    /// A move value is given on a square that holds a disc.
    ValueOnDisc(Square),
    /// The last move is given on an empty square (a move just played left a disc there).
    LastMoveEmpty(Square),
    /// The principal variation holds an illegal move (`ply` counts from 1).
    IllegalPv {
        /// The 1-based index of the move in the variation.
        ply: usize,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::OffBoard { square, size } => {
                write!(f, "square {square} lies outside the {size} board")
            }
            PictureError::ValueOnDisc(sq) => write!(f, "a move value on {sq}, which holds a disc"),
            PictureError::LastMoveEmpty(sq) => write!(f, "the last move {sq} is an empty square"),
            PictureError::IllegalPv { ply, mv } => {
                write!(f, "move {ply} of the principal variation ({mv}) is illegal")
            }
        }
    }
}

impl std::error::Error for PictureError {}

/// A value shown on a square: whole discs, or centi-discs shown with one decimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Discs(i32),
    Centi(i32),
}

impl Value {
    /// The value in centi-discs, for finding the best.
    fn centi(self) -> i64 {
        match self {
            Value::Discs(d) => i64::from(d) * 100,
            Value::Centi(c) => i64::from(c),
        }
    }

    fn text(self) -> String {
        match self {
            Value::Discs(d) => format!("{d:+}"),
            Value::Centi(c) => {
                // One decimal, rounded half away from zero, and no "-0.0".
                let tenths = (i64::from(c) * 2 + if c < 0 { -10 } else { 10 }) / 20;
                if tenths == 0 {
                    "0.0".to_string()
                } else {
                    let sign = if tenths < 0 { '-' } else { '+' };
                    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
                }
            }
        }
    }
}

/// A picture of a position: coordinates, discs, the legal moves of the side to move, and
/// optionally the last move, a value on each move and a numbered principal variation.
///
/// Built with options, drawn by [`BoardPicture::to_svg`]. Every board size of the rules crate
/// is drawn (4x4, 6x6, 8x8). The board reads like the board strings: a1 top-left, h1
/// top-right, h8 bottom-right.
///
/// ```
/// use othello_rules::{BoardSize, Position};
/// use othello_svg::BoardPicture;
///
/// let svg = BoardPicture::new(&Position::start_of(BoardSize::Six)).to_svg().unwrap();
/// assert_eq!(svg.matches("class=\"disc ").count(), 4);
/// assert_eq!(svg.matches("class=\"legal\"").count(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct BoardPicture {
    position: Position,
    last_move: Option<Square>,
    values: Vec<(Square, Value)>,
    pv: Vec<Move>,
    legal: bool,
    title: Option<String>,
}

impl BoardPicture {
    /// A picture of `position` with its legal moves marked and nothing else.
    pub fn new(position: &Position) -> BoardPicture {
        BoardPicture {
            position: *position,
            last_move: None,
            values: Vec::new(),
            pv: Vec::new(),
            legal: true,
            title: None,
        }
    }

    /// Marks the square of the move that led to the position (a red dot on its disc); `None`
    /// for no mark.
    pub fn last_move(mut self, square: impl Into<Option<Square>>) -> BoardPicture {
        self.last_move = square.into();
        self
    }

    /// Writes a value in whole discs (from the side to move's view, `+4`, `-2`) on each
    /// empty square given, usually the legal moves; the highest is drawn in bold yellow. A
    /// square that carries a variation number shows the number instead. Replaces values given
    /// before.
    pub fn values(mut self, values: impl IntoIterator<Item = (Square, i32)>) -> BoardPicture {
        self.values = values.into_iter().map(|(sq, v)| (sq, Value::Discs(v))).collect();
        self
    }

    /// As [`BoardPicture::values`], with values in centi-discs (an evaluation's unit), written
    /// with one decimal (`+1.3`).
    pub fn values_centi(mut self, values: impl IntoIterator<Item = (Square, i32)>) -> BoardPicture {
        self.values = values.into_iter().map(|(sq, v)| (sq, Value::Centi(v))).collect();
        self
    }

    /// A principal variation from the position: each move's square gets a small disc of the
    /// mover's colour numbered by its ply (1, 2, ...; a pass takes a number but no square), and
    /// the caption lists the line. A square played twice keeps its first number.
    pub fn pv(mut self, pv: &[Move]) -> BoardPicture {
        self.pv = pv.to_vec();
        self
    }

    /// Whether the legal moves are marked (default `true`). A legal square with a value or a
    /// principal-variation number is marked by it rather than by a dot.
    pub fn legal(mut self, show: bool) -> BoardPicture {
        self.legal = show;
        self
    }

    /// A line of text above the board (and the document's `<title>`).
    pub fn title(mut self, text: impl Into<String>) -> BoardPicture {
        self.title = Some(text.into());
        self
    }

    /// The picture as an SVG document.
    ///
    /// # Errors
    /// [`PictureError`] when an annotation does not fit the position: a square off the board,
    /// a value on a disc, a last move on an empty square, an illegal move in the variation.
    pub fn to_svg(&self) -> Result<String, PictureError> {
        let pos = &self.position;
        let size = pos.size();
        let on_board = |square: Square| {
            if size.contains(square) {
                Ok(())
            } else {
                Err(PictureError::OffBoard { square, size })
            }
        };
        let occupied = pos.black() | pos.white();
        if let Some(sq) = self.last_move {
            on_board(sq)?;
            if !occupied.contains(sq) {
                return Err(PictureError::LastMoveEmpty(sq));
            }
        }
        for &(sq, _) in &self.values {
            on_board(sq)?;
            if occupied.contains(sq) {
                return Err(PictureError::ValueOnDisc(sq));
            }
        }
        // The variation's squares, movers and plies, checked by replaying it.
        let mut pv_marks: Vec<(Square, Color, usize)> = Vec::new();
        let mut p = *pos;
        for (i, &mv) in self.pv.iter().enumerate() {
            let mover = p.side_to_move();
            p = p.play(mv).map_err(|_| PictureError::IllegalPv { ply: i + 1, mv })?;
            if let Move::Place(sq) = mv
                && !pv_marks.iter().any(|m| m.0 == sq)
            {
                pv_marks.push((sq, mover, i + 1));
            }
        }

        let n = u32::from(size.side());
        let mut captions = vec![self.status_line()];
        if !self.pv.is_empty() {
            // The line, wrapped to the board's width (about 8 pixels a character).
            let per_line = ((n * CELL + RIGHT) / 8) as usize;
            let mut line = "PV".to_string();
            for mv in &self.pv {
                let token = mv.to_string();
                if line.len() + 1 + token.len() > per_line {
                    captions.push(std::mem::replace(&mut line, "  ".to_string()));
                }
                line.push(' ');
                line.push_str(&token);
            }
            captions.push(line);
        }
        let top = MARGIN + if self.title.is_some() { LINE } else { 0 };
        let width = MARGIN + n * CELL + RIGHT;
        let height = top + n * CELL + 6 + LINE * captions.len() as u32;
        let mut out = String::with_capacity(8192);
        let doc_title = match &self.title {
            Some(t) => format!("{t}: {pos}"),
            None => pos.to_string(),
        };
        open_svg(&mut out, width, height, &doc_title);
        put!(out, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n");
        if let Some(t) = &self.title {
            put!(
                out,
                "<text class=\"title\" x=\"{MARGIN}\" y=\"{}\" font-size=\"14\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
                LINE - 2,
                escape(t)
            );
        }
        // The board and its grid.
        let side = n * CELL;
        put!(
            out,
            "<rect class=\"board\" x=\"{MARGIN}\" y=\"{top}\" width=\"{side}\" height=\"{side}\" fill=\"{BOARD_GREEN}\"/>\n<g stroke=\"#0b3519\" stroke-width=\"1\">\n"
        );
        for k in 0..=n {
            let x = MARGIN + k * CELL;
            let y = top + k * CELL;
            put!(
                out,
                "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{}\"/><line x1=\"{MARGIN}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>\n",
                top + side,
                MARGIN + side
            );
        }
        out.push_str("</g>\n");
        // The star points of the 8x8 board (the corners of the centre 4x4).
        if size == BoardSize::Eight {
            for (c, r) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
                put!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#0b3519\"/>\n",
                    MARGIN + c * CELL,
                    top + r * CELL
                );
            }
        }
        // Coordinates.
        out.push_str("<g font-size=\"13\" fill=\"#333333\" text-anchor=\"middle\">\n");
        for k in 0..n {
            put!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\">{}</text><text class=\"coord\" x=\"{}\" y=\"{}\">{}</text>\n",
                MARGIN + k * CELL + CELL / 2,
                top - 8,
                (b'a' + k as u8) as char,
                MARGIN / 2,
                top + k * CELL + CELL / 2 + 5,
                k + 1
            );
        }
        out.push_str("</g>\n");

        let centre = |sq: Square| {
            (
                MARGIN + u32::from(sq.col()) * CELL + CELL / 2,
                top + u32::from(sq.row()) * CELL + CELL / 2,
            )
        };
        // Discs.
        for (color, fill, stroke) in [
            (Color::Black, BLACK_FILL, "#000000"),
            (Color::White, WHITE_FILL, "#555555"),
        ] {
            for sq in pos.discs(color) {
                let (x, y) = centre(sq);
                put!(
                    out,
                    "<circle class=\"disc {color}\" data-square=\"{sq}\" cx=\"{x}\" cy=\"{y}\" r=\"{DISC_R}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\"/>\n"
                );
            }
        }
        if let Some(sq) = self.last_move {
            let (x, y) = centre(sq);
            put!(
                out,
                "<circle class=\"last-move\" data-square=\"{sq}\" cx=\"{x}\" cy=\"{y}\" r=\"{DOT_R}\" fill=\"{LAST_MOVE_RED}\"/>\n"
            );
        }
        // Legal moves: a dot, unless a value or a variation number marks the square.
        let value_at = |sq: Square| self.values.iter().find(|v| v.0 == sq).map(|v| v.1);
        let pv_at = |sq: Square| pv_marks.iter().any(|m| m.0 == sq);
        if self.legal {
            for sq in pos.legal_moves() {
                let (x, y) = centre(sq);
                if value_at(sq).is_some() || pv_at(sq) {
                    put!(out, "<g class=\"legal\" data-square=\"{sq}\"/>\n");
                } else {
                    put!(
                        out,
                        "<circle class=\"legal\" data-square=\"{sq}\" cx=\"{x}\" cy=\"{y}\" r=\"{DOT_R}\" fill=\"#000000\" fill-opacity=\"0.35\"/>\n"
                    );
                }
            }
        }
        // Values, the best in yellow (every square that shares the best value).
        let best = self.values.iter().map(|v| v.1.centi()).max();
        for &(sq, value) in &self.values {
            if pv_at(sq) {
                continue;
            }
            let (x, y) = centre(sq);
            let (fill, weight) = if Some(value.centi()) == best {
                ("#ffeb3b", "bold")
            } else {
                ("#ffffff", "normal")
            };
            let text = value.text();
            let font = if text.len() > 4 { 12 } else { 14 };
            put!(
                out,
                "<text class=\"value\" data-square=\"{sq}\" x=\"{x}\" y=\"{}\" font-size=\"{font}\" font-weight=\"{weight}\" fill=\"{fill}\" text-anchor=\"middle\">{text}</text>\n",
                y + 5
            );
        }
        // The principal variation: small numbered discs of the mover's colour.
        for &(sq, mover, ply) in &pv_marks {
            let (x, y) = centre(sq);
            let (fill, ink) = match mover {
                Color::Black => (BLACK_FILL, "#ffffff"),
                Color::White => (WHITE_FILL, "#111111"),
            };
            put!(
                out,
                "<g class=\"pv\" data-square=\"{sq}\"><circle cx=\"{x}\" cy=\"{y}\" r=\"{PV_R}\" fill=\"{fill}\" stroke=\"#ffeb3b\" stroke-width=\"2\"/><text x=\"{x}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\">{ply}</text></g>\n",
                y + 5
            );
        }
        // Captions under the board.
        for (i, line) in captions.iter().enumerate() {
            put!(
                out,
                "<text class=\"caption\" x=\"{MARGIN}\" y=\"{}\" font-size=\"13\" fill=\"#222222\">{}</text>\n",
                top + side + 6 + LINE * (i as u32 + 1) - 5,
                escape(line)
            );
        }
        out.push_str("</svg>\n");
        Ok(out)
    }

    /// `black 4, white 1, white to move` (or `must pass`, or the result of a finished game).
    fn status_line(&self) -> String {
        let pos = &self.position;
        let (b, w) = pos.disc_counts();
        let state = if pos.is_game_over() {
            let margin = pos.final_score_black();
            match margin.signum() {
                1 => format!("game over, black wins by {margin}"),
                -1 => format!("game over, white wins by {}", -margin),
                _ => "game over, a draw".to_string(),
            }
        } else if pos.must_pass() {
            format!("{} must pass", pos.side_to_move())
        } else {
            format!("{} to move", pos.side_to_move())
        };
        format!("black {b}, white {w}, {state}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn centi_values_round_to_one_decimal() {
        for (c, text) in [
            (0, "0.0"),
            (4, "0.0"),
            (-4, "0.0"),
            (5, "+0.1"),
            (-5, "-0.1"),
            (125, "+1.3"),
            (-125, "-1.3"),
            (1234, "+12.3"),
            (-6400, "-64.0"),
        ] {
            assert_eq!(Value::Centi(c).text(), text, "{c}");
        }
        assert_eq!(Value::Discs(0).text(), "+0");
        assert_eq!(Value::Discs(-3).text(), "-3");
        assert_eq!(Value::Discs(5).centi(), 500);
    }

    #[test]
    fn bad_annotations_are_typed_errors() {
        let six = Position::start_of(BoardSize::Six);
        assert_eq!(
            BoardPicture::new(&six).last_move(sq("h8")).to_svg(),
            Err(PictureError::OffBoard {
                square: sq("h8"),
                size: BoardSize::Six
            })
        );
        assert_eq!(
            BoardPicture::new(&six).values([(sq("a6"), 1), (sq("g1"), 2)]).to_svg(),
            Err(PictureError::OffBoard {
                square: sq("g1"),
                size: BoardSize::Six
            })
        );
        let start = Position::start();
        assert_eq!(
            BoardPicture::new(&start).values([(sq("d4"), 1)]).to_svg(),
            Err(PictureError::ValueOnDisc(sq("d4")))
        );
        assert_eq!(
            BoardPicture::new(&start).last_move(sq("a1")).to_svg(),
            Err(PictureError::LastMoveEmpty(sq("a1")))
        );
        let line = [Move::Place(sq("f5")), Move::Place(sq("f5"))];
        let e = BoardPicture::new(&start).pv(&line).to_svg().unwrap_err();
        assert_eq!(
            e,
            PictureError::IllegalPv {
                ply: 2,
                mv: Move::Place(sq("f5"))
            }
        );
        assert_eq!(e.to_string(), "move 2 of the principal variation (f5) is illegal");
        assert!(BoardPicture::new(&start).pv(&[Move::Pass]).to_svg().is_err());
    }

    #[test]
    fn a_long_variation_wraps_under_the_board() {
        let pos: Position = "---------------------------OX------XO--------------------------- X"
            .parse()
            .unwrap();
        let mut pv = Vec::new();
        let mut p = pos;
        while !p.is_game_over() && pv.len() < 40 {
            let mv = p.moves()[0];
            pv.push(mv);
            p = p.play(mv).unwrap();
        }
        let svg = BoardPicture::new(&pos).pv(&pv).to_svg().unwrap();
        let lines: Vec<&str> = svg.lines().filter(|l| l.contains("class=\"caption\"")).collect();
        assert!(lines.len() >= 3, "{lines:?}");
        for l in &lines {
            let text = &l[l.find('>').unwrap() + 1..l.rfind('<').unwrap()];
            assert!(text.len() <= 44, "{text}");
        }
        let all: String = lines[1..]
            .iter()
            .map(|l| &l[l.find('>').unwrap() + 1..l.rfind('<').unwrap()])
            .collect::<Vec<_>>()
            .join(" ");
        let words: Vec<&str> = all.split_whitespace().collect();
        assert_eq!(words.len(), pv.len() + 1);
    }

    #[test]
    fn captions_name_the_state() {
        let start = Position::start();
        assert_eq!(
            BoardPicture::new(&start).status_line(),
            "black 2, white 2, black to move"
        );
        let full: Position = format!("{} X", "X".repeat(40) + &"O".repeat(24)).parse().unwrap();
        assert_eq!(
            BoardPicture::new(&full).status_line(),
            "black 40, white 24, game over, black wins by 16"
        );
        let lost: Position = format!("{} O", "O".repeat(10) + &"-".repeat(54)).parse().unwrap();
        assert_eq!(
            BoardPicture::new(&lost).status_line(),
            "black 0, white 10, game over, white wins by 64"
        );
    }
}
