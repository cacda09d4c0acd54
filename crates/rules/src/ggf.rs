//! GGF, the Generic Game Format of Othello servers and NBoard: one game per `(; ... ;)` record.
//!
//! A record is a list of `TAG[value]` properties. This module reads and writes the tags a game
//! needs: `GM[Othello]`, `PC` (place), `DT` (date), `PB`/`PW` (players), `RB`/`RW` (ratings),
//! `TI` (time control), `TY` (game type: the board side, e.g. `8`), `RE` (result), `BO` (the
//! start position: size, squares row by row with `-`, `*` for black and `O` for white, side to
//! move) and the moves `B[F5/eval/time]`, `W[PA]`: a square or `PA` for a pass, then optional
//! evaluation (discs, from the mover's side) and time taken (seconds). Unknown tags are kept in
//! order and printed back.
//!
//! The time control `TI[main/increment/...]` is kept as text; [`GgfGame::clock`] reads it (typed
//! errors) into the time left of the side to move, as an NBoard engine does on `set game`.
//!
//! The result `RE[+6.000]` is black's disc difference; a suffix `:t` marks a loss on time,
//! `:r` a resignation (anything else after `:` is kept as is); `RE[?]` or no `RE` is unknown.
//!
//! Parsing replays the moves and fails on an illegal one. A record may leave out a pass that
//! was forced (some servers do): the replay passes for the side that must, and the game keeps
//! the moves as written so that printing gives the same text.
//!
//! ```
//! use othello_rules::ggf::GgfGame;
//!
//! let text = "(;GM[Othello]PB[a]PW[b]RE[+2.000]TY[8]\
//!     BO[8 ---------------------------O*------*O--------------------------- *]\
//!     B[F5//1.5]W[D6/-0.5/0.25];)";
//! let game: GgfGame = text.parse().unwrap();
//! assert_eq!(game.black, "a");
//! assert_eq!(game.moves.len(), 2);
//! assert_eq!(game.moves[1].eval, Some(-0.5));
//! let again: GgfGame = game.to_string().parse().unwrap();
//! assert_eq!(again, game);
//! ```

use crate::{BoardSize, Color, Move, Position};
use std::fmt;
use std::str::FromStr;

/// How a game ended, beside its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GgfEnding {
    /// Played to the end (or adjudicated at the final score).
    Scored,
    /// The loser ran out of time (`:t`).
    Timeout,
    /// The loser resigned (`:r`).
    Resigned,
    /// Another suffix, kept as written (without the colon).
    Other(String),
}

/// A game's result: black's disc difference and how the game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfResult {
    /// Black's discs minus white's (positive: black won).
    pub black_margin: f64,
    /// How the game ended.
    pub ending: GgfEnding,
}

/// One move of a record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// Who played it.
    pub color: Color,
    /// The square, or [`Move::Pass`].
    pub mv: Move,
    /// The mover's evaluation in discs, if given.
    pub eval: Option<f64>,
    /// Seconds taken, if given.
    pub time: Option<f64>,
}

/// A game record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// The start position (`BO`).
    pub start: Position,
    /// Black's name (`PB`).
    pub black: String,
    /// White's name (`PW`).
    pub white: String,
    /// Place (`PC`).
    pub place: Option<String>,
    /// Date (`DT`).
    pub date: Option<String>,
    /// Time control (`TI`), as written, e.g. `10:00//0:01`... or a plain number of seconds.
    pub time_control: Option<String>,
    /// The result (`RE`); `None` when unknown.
    pub result: Option<GgfResult>,
    /// The moves in order.
    pub moves: Vec<GgfMove>,
    /// Other tags in order (`RB`, `RW`, `TY` beyond the board side, comments...).
    pub other: Vec<(String, String)>,
}

/// Why a GGF record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseGgfError {
    /// The text does not start with `(;` or does not end with `;)`.
    NotARecord,
    /// A `[` without its `]`.
    Unclosed(String),
    /// A tag's value is malformed.
    BadValue {
        /// The tag.
        tag: String,
        /// The value.
        value: String,
        /// What was wrong.
        why: String,
    },
    /// No start position (`BO`).
    NoBoard,
    /// A move that is not legal where it is played (1-based move number).
    IllegalMove {
        /// Move number in the record, from 1.
        number: usize,
        /// The move as written.
        text: String,
    },
}

impl fmt::Display for ParseGgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseGgfError::NotARecord => f.write_str("not a GGF record: expected (; ... ;)"),
            ParseGgfError::Unclosed(tag) => write!(f, "GGF tag {tag}[ is not closed"),
            ParseGgfError::BadValue { tag, value, why } => write!(f, "bad GGF {tag}[{value}]: {why}"),
            ParseGgfError::NoBoard => f.write_str("GGF record without a board BO[]"),
            ParseGgfError::IllegalMove { number, text } => write!(f, "GGF move {number} ({text}) is illegal"),
        }
    }
}

impl std::error::Error for ParseGgfError {}

impl GgfGame {
    /// An empty record from `start` between two players.
    pub fn new(start: Position, black: impl Into<String>, white: impl Into<String>) -> GgfGame {
        GgfGame {
            start,
            black: black.into(),
            white: white.into(),
            place: None,
            date: None,
            time_control: None,
            result: None,
            moves: Vec::new(),
            other: Vec::new(),
        }
    }

    /// The position after every move (forced passes left out of the record are played).
    pub fn final_position(&self) -> Position {
        self.positions().last().copied().unwrap_or(self.start)
    }

    /// The position before each move, then the final one (`moves.len() + 1` entries).
    ///
    /// # Panics
    /// Never for a parsed game; a game built by hand with an illegal move stops at it.
    pub fn positions(&self) -> Vec<Position> {
        let mut out = vec![self.start];
        let mut pos = self.start;
        for m in &self.moves {
            match m.mover_position(&pos).and_then(|p| p.play(m.mv).ok()) {
                Some(p) => pos = p,
                None => break,
            }
            out.push(pos);
        }
        out
    }

    /// Whether every move is legal for its colour in turn.
    pub fn is_legal(&self) -> bool {
        self.positions().len() == self.moves.len() + 1
    }
}

/// A time control `TI[main/increment/...]`, as read by [`GgfGame::time_limits`]: the main
/// time and the increment added after each move, in seconds. Each is a GGF time
/// (`[[h:]m:]s`, seconds may have decimals, e.g. `5:00` or `1:02:03.5`); an empty or missing
/// increment is 0; the fields after the increment are not read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfTimeControl {
    /// Each side's main time, in seconds.
    pub main: f64,
    /// Seconds added to a side's clock after each of its moves.
    pub increment: f64,
}

/// The clock of one side at the end of a record ([`GgfGame::clock`], [`GgfGame::clock_of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfClock {
    /// The side whose clock this is (for [`GgfGame::clock`], the side to move after the
    /// record's moves).
    pub side: Color,
    /// Its time left in seconds: the main time, plus an increment for each of its moves that
    /// gives a time, less those times (finite, never below 0).
    pub remaining: f64,
    /// The increment, in seconds.
    pub increment: f64,
}

/// Reads a GGF time (`[[h:]m:]s`) in seconds; `None` unless each field is a finite number
/// at least 0.
fn ggf_seconds(text: &str) -> Option<f64> {
    let mut total = 0.0;
    for part in text.trim().split(':') {
        let v: f64 = part.trim().parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
        total = total * 60.0 + v;
    }
    Some(total).filter(|t: &f64| t.is_finite())
}

impl FromStr for GgfTimeControl {
    type Err = ParseGgfError;
    /// Parses the value of a `TI` tag, e.g. `15:00//2:00` or `5:00/0.5`.
    fn from_str(value: &str) -> Result<GgfTimeControl, ParseGgfError> {
        let mut parts = value.split('/');
        let main = ggf_seconds(parts.next().unwrap_or(""))
            .ok_or_else(|| bad("TI", value, "bad main time: expected [[h:]m:]s"))?;
        let increment = match parts.next().map(str::trim) {
            None | Some("") => 0.0,
            Some(t) => ggf_seconds(t).ok_or_else(|| bad("TI", value, "bad increment: expected [[h:]m:]s"))?,
        };
        Ok(GgfTimeControl { main, increment })
    }
}

impl GgfGame {
    /// The time control of the `TI` tag; `Ok(None)` without one.
    ///
    /// # Errors
    /// [`ParseGgfError::BadValue`] (tag `TI`) when the tag is not a time control.
    pub fn time_limits(&self) -> Result<Option<GgfTimeControl>, ParseGgfError> {
        self.time_control.as_deref().map(str::parse).transpose()
    }

    /// The clock of the side to move after the record's moves, from the `TI` tag and the
    /// times of its moves (as an NBoard engine reads it from `set game`); `Ok(None)` without
    /// a `TI` tag.
    ///
    /// # Errors
    /// [`ParseGgfError::BadValue`] (tag `TI`) when the tag is not a time control.
    pub fn clock(&self) -> Result<Option<GgfClock>, ParseGgfError> {
        self.clock_of(self.final_position().side_to_move())
    }

    /// The clock of `side` after the record's moves: the main time of the `TI` tag, plus an
    /// increment for each of `side`'s moves that gives a time, less those times. Both sides'
    /// clocks are needed by an engine that is told later moves one at a time (NBoard's `move`).
    ///
    /// # Errors
    /// [`ParseGgfError::BadValue`] (tag `TI`) when the tag is not a time control.
    pub fn clock_of(&self, side: Color) -> Result<Option<GgfClock>, ParseGgfError> {
        let Some(tc) = self.time_limits()? else {
            return Ok(None);
        };
        let (mut used, mut timed) = (0.0, 0u32);
        for m in self.moves.iter().filter(|m| m.color == side) {
            if let Some(t) = m.time {
                used += t;
                timed += 1;
            }
        }
        // Finite and at least 0 whatever the sums (huge times overflow to infinity).
        let remaining = tc.main + tc.increment * f64::from(timed) - used;
        // NaN from infinity minus infinity.
        let remaining = if remaining.is_nan() {
            0.0
        } else {
            remaining.clamp(0.0, f64::MAX)
        };
        Ok(Some(GgfClock {
            side,
            remaining,
            increment: tc.increment,
        }))
    }
}

fn bad(tag: &str, value: &str, why: impl Into<String>) -> ParseGgfError {
    ParseGgfError::BadValue {
        tag: tag.to_string(),
        value: value.to_string(),
        why: why.into(),
    }
}

fn parse_board(value: &str) -> Result<Position, ParseGgfError> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    if parts.len() < 3 {
        return Err(bad("BO", value, "expected SIZE SQUARES SIDE"));
    }
    let side_len: u8 = parts[0].parse().map_err(|_| bad("BO", value, "bad board size"))?;
    let size = BoardSize::from_side(side_len).ok_or_else(|| bad("BO", value, "board size must be 4, 6 or 8"))?;
    let squares: String = parts[1..parts.len() - 1].concat();
    if squares.chars().count() != size.squares() as usize {
        return Err(bad("BO", value, format!("expected {} squares", size.squares())));
    }
    let side = match parts[parts.len() - 1] {
        "*" | "X" | "x" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        _ => return Err(bad("BO", value, "side to move must be * or O")),
    };
    crate::text::parse_board(&squares, side).map_err(|e| bad("BO", value, e.to_string()))
}

impl GgfMove {
    /// Reads a move of `color` as a record writes it inside `B[...]` or `W[...]`, and as the
    /// NBoard protocol's `move` command sends it: `SQUARE[/EVAL[/TIME]]` (`F5`, `F5//1.25`,
    /// `PA/-2.00/0.5`); an empty or missing evaluation or time is `None`.
    ///
    /// # Errors
    /// [`ParseGgfError::BadValue`] (tag `B` or `W`) for a bad square, or an evaluation or time
    /// that is not a finite number. Legality is not checked here.
    pub fn parse(text: &str, color: Color) -> Result<GgfMove, ParseGgfError> {
        let tag = match color {
            Color::Black => "B",
            Color::White => "W",
        };
        parse_move(tag, text, color)
    }

    /// The position this move is played in, reached from `pos`: `pos` when the move's colour
    /// is to move there, or `pos` after the other side's forced pass, which a record (and
    /// NBoard's `move`) may leave out; `None` when it is not the colour's turn.
    pub fn mover_position(&self, pos: &Position) -> Option<Position> {
        if pos.side_to_move() == self.color {
            Some(*pos)
        } else if self.mv != Move::Pass && pos.must_pass() {
            Some(pos.pass_unchecked())
        } else {
            None
        }
    }
}

fn parse_move(tag: &str, value: &str, color: Color) -> Result<GgfMove, ParseGgfError> {
    let mut fields = value.split('/');
    let mv_text = fields.next().unwrap_or("").trim();
    let mv: Move = mv_text.parse().map_err(|_| bad(tag, value, "bad square"))?;
    let mut num = |what: &str| -> Result<Option<f64>, ParseGgfError> {
        match fields.next().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                // -0 reads as 0: the printer writes no sign for zero.
                .map(|x| Some(if x == 0.0 { 0.0 } else { x }))
                .ok_or_else(|| bad(tag, value, format!("bad {what}"))),
        }
    };
    let eval = num("evaluation")?;
    let time = num("time")?;
    Ok(GgfMove { color, mv, eval, time })
}

fn parse_result(value: &str) -> Result<Option<GgfResult>, ParseGgfError> {
    let v = value.trim();
    if v.is_empty() || v == "?" {
        return Ok(None);
    }
    let (num, suffix) = match v.split_once(':') {
        Some((n, s)) => (n, Some(s)),
        None => (v, None),
    };
    let black_margin: f64 = num
        .trim()
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .map(|x| if x == 0.0 { 0.0 } else { x })
        .ok_or_else(|| bad("RE", value, "expected a disc difference such as +6.000"))?;
    let ending = match suffix {
        None => GgfEnding::Scored,
        Some("t") => GgfEnding::Timeout,
        Some("r") => GgfEnding::Resigned,
        Some(s) => GgfEnding::Other(s.to_string()),
    };
    Ok(Some(GgfResult { black_margin, ending }))
}

impl FromStr for GgfGame {
    type Err = ParseGgfError;
    fn from_str(text: &str) -> Result<GgfGame, ParseGgfError> {
        let t = text.trim();
        let body = t
            .strip_prefix("(;")
            .and_then(|b| b.strip_suffix(";)"))
            .ok_or(ParseGgfError::NotARecord)?;
        let mut game = GgfGame::new(Position::start(), "", "");
        let mut board = None;
        let mut rest = body;
        while let Some(open) = rest.find('[') {
            let tag = rest[..open].trim().to_string();
            let close = rest[open..]
                .find(']')
                .ok_or_else(|| ParseGgfError::Unclosed(tag.clone()))?
                + open;
            let value = &rest[open + 1..close];
            rest = &rest[close + 1..];
            if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_uppercase()) {
                return Err(bad(&tag, value, "bad tag name"));
            }
            // A record is one line: a line break inside a text value reads as a space (as
            // the printer writes it), so parse, print and parse give the same game.
            let text = || value.replace(['\n', '\r'], " ");
            match tag.as_str() {
                "GM" => {
                    if !value.eq_ignore_ascii_case("othello") {
                        return Err(bad("GM", value, "not an Othello game"));
                    }
                }
                "PB" => game.black = text(),
                "PW" => game.white = text(),
                "PC" => game.place = Some(text()),
                "DT" => game.date = Some(text()),
                "TI" => game.time_control = Some(text()),
                "RE" => game.result = parse_result(&text())?,
                "BO" => board = Some(parse_board(value)?),
                "B" | "W" => {
                    let color = if tag == "B" { Color::Black } else { Color::White };
                    game.moves.push(parse_move(&tag, value, color)?);
                }
                // The board side is in BO; TY is printed from it (a variant such as `8r` is kept).
                "TY" if value.trim().parse::<u8>().is_ok() => {}
                _ => game.other.push((tag, text())),
            }
        }
        if !rest.trim().is_empty() {
            return Err(bad("", rest.trim(), "text after the last tag"));
        }
        game.start = board.ok_or(ParseGgfError::NoBoard)?;
        let mut pos = game.start;
        for (i, m) in game.moves.iter().enumerate() {
            pos = m
                .mover_position(&pos)
                .and_then(|p| p.play(m.mv).ok())
                .ok_or_else(|| ParseGgfError::IllegalMove {
                    number: i + 1,
                    text: format!("{}[{}]", if m.color == Color::Black { "B" } else { "W" }, m.mv),
                })?;
        }
        Ok(game)
    }
}

/// A number as GGF writes it: the shortest text that reads back to the same value.
struct Num(f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = if self.0 == 0.0 { 0.0 } else { self.0 };
        write!(f, "{x}")
    }
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clean = |s: &str| s.replace([']', '\n', '\r'], " ");
        f.write_str("(;GM[Othello]")?;
        if let Some(pc) = &self.place {
            write!(f, "PC[{}]", clean(pc))?;
        }
        if let Some(dt) = &self.date {
            write!(f, "DT[{}]", clean(dt))?;
        }
        write!(f, "PB[{}]PW[{}]", clean(&self.black), clean(&self.white))?;
        match &self.result {
            None => f.write_str("RE[?]")?,
            Some(r) => {
                let x = if r.black_margin == 0.0 { 0.0 } else { r.black_margin };
                write!(f, "RE[{x:+.3}")?;
                match &r.ending {
                    GgfEnding::Scored => {}
                    GgfEnding::Timeout => f.write_str(":t")?,
                    GgfEnding::Resigned => f.write_str(":r")?,
                    GgfEnding::Other(s) => write!(f, ":{}", clean(s))?,
                }
                f.write_str("]")?;
            }
        }
        if let Some(ti) = &self.time_control {
            write!(f, "TI[{}]", clean(ti))?;
        }
        let size = self.start.size();
        write!(f, "TY[{}]", size.side())?;
        for (tag, value) in &self.other {
            write!(f, "{tag}[{}]", clean(value))?;
        }
        let board: String = self
            .start
            .board_string()
            .chars()
            .map(|c| match c {
                'X' | 'x' | '*' => '*',
                'O' | 'o' => 'O',
                _ => '-',
            })
            .collect();
        let side = if self.start.side_to_move() == Color::Black {
            '*'
        } else {
            'O'
        };
        write!(f, "BO[{} {board} {side}]", size.side())?;
        for m in &self.moves {
            let tag = if m.color == Color::Black { "B" } else { "W" };
            write!(f, "{tag}[{m}]")?;
        }
        f.write_str(";)")
    }
}

/// The move as a record writes it inside `B[...]` or `W[...]` and NBoard's `move` command
/// sends it: `F5`, `F5/-2/`, `F5//1.25`, `PA/0/0.5` ([`GgfMove::parse`] reads it back).
impl fmt::Display for GgfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Move::Pass => f.write_str("PA")?,
            Move::Place(sq) => write!(f, "{}", sq.to_string().to_uppercase())?,
        }
        match (self.eval, self.time) {
            (None, None) => Ok(()),
            (Some(e), None) => write!(f, "/{}", Num(e)),
            (None, Some(t)) => write!(f, "//{}", Num(t)),
            (Some(e), Some(t)) => write!(f, "/{}/{}", Num(e), Num(t)),
        }
    }
}

/// The `(; ... ;)` records of a text holding several games (a GGF file: one record per line,
/// or several on a line, with anything between them ignored), in order, each ready for
/// `parse::<GgfGame>()`. Tag values are skipped whole, so a `;)` inside brackets does not end
/// a record; an unfinished last record is returned as it is (its parse then reports it).
///
/// ```
/// use othello_rules::ggf::{GgfGame, records};
///
/// let text = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
///             (;GM[Othello]C[a ;) in a value]BO[8 ---------------------------O*------*O--------------------------- *];)";
/// let games = records(text);
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].parse::<GgfGame>().unwrap().moves.len(), 1);
/// assert!(games[1].parse::<GgfGame>().is_ok());
/// ```
pub fn records(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = None;
    let mut in_value = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b']' if in_value => in_value = false,
            _ if in_value => {}
            b'[' if start.is_some() => in_value = true,
            b'(' if start.is_none() && bytes.get(i + 1) == Some(&b';') => {
                start = Some(i);
                i += 1;
            }
            b';' if bytes.get(i + 1) == Some(&b')') => {
                if let Some(s) = start.take() {
                    out.push(&text[s..i + 2]);
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_a_file_and_skip_values() {
        let one =
            "(;GM[Othello]PB[a;)b]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
        let text = format!("junk {one}\n{one}(;GM[Othello]");
        let recs = records(&text);
        assert_eq!(recs, [one, one, "(;GM[Othello]"]);
        assert_eq!(recs[0].parse::<GgfGame>().unwrap().black, "a;)b");
        assert_eq!(recs[2].parse::<GgfGame>(), Err(ParseGgfError::NotARecord));
        assert!(records("no record here ;)").is_empty());
        assert!(records("").is_empty());
    }

    const START: &str = "---------------------------O*------*O---------------------------";

    #[test]
    fn minus_zero_reads_as_zero() {
        // Found by fuzzing: a move time (or evaluation, or result) of -0 printed as 0, so parse,
        // print, parse changed the game's value.
        let text = "(;GM[Othello]PB[]PW[]RE[-0]BO[8 ---------------------------O*------*O--------------------------- *]B[F5/-0/-0];)";
        let game: GgfGame = text.parse().unwrap();
        let m = &game.moves[0];
        assert!(m.time.unwrap().is_sign_positive() && m.eval.unwrap().is_sign_positive());
        assert!(game.result.as_ref().unwrap().black_margin.is_sign_positive());
        let again: GgfGame = game.to_string().parse().unwrap();
        assert_eq!(format!("{again:?}"), format!("{game:?}"));
    }

    #[test]
    fn a_line_break_in_the_result_reads_as_a_space() {
        // Found by fuzzing: the printer writes a line break inside a value as a space, so the
        // parser must read it so, or parse, print, parse changes the game.
        let text = "(;GM[Othello]PB[a]PW[b]RE[+4.000:x\ry]BO[8 ---------------------------O*------*O--------------------------- *];)";
        let game: GgfGame = text.parse().unwrap();
        assert_eq!(game.result.as_ref().unwrap().ending, GgfEnding::Other("x y".into()));
        let again: GgfGame = game.to_string().parse().unwrap();
        assert_eq!(again, game);
    }

    #[test]
    fn parses_tags_moves_and_passes() {
        let text = format!(
            "(;GM[Othello]PC[here]DT[2026-11-30]PB[pvs]PW[edax]RB[1500]RE[-4.000:t]TI[5:00//0:01]TY[8]\
             BO[8 {START} *]B[F5//1.5]W[f6/-0.25/0.125]B[e6];)"
        );
        let g: GgfGame = text.parse().unwrap();
        assert_eq!((g.black.as_str(), g.white.as_str()), ("pvs", "edax"));
        assert_eq!(g.place.as_deref(), Some("here"));
        assert_eq!(g.time_control.as_deref(), Some("5:00//0:01"));
        assert_eq!(
            g.result,
            Some(GgfResult {
                black_margin: -4.0,
                ending: GgfEnding::Timeout
            })
        );
        assert_eq!(g.other, vec![("RB".to_string(), "1500".to_string())]);
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0].eval, None);
        assert_eq!(g.moves[0].time, Some(1.5));
        assert_eq!((g.moves[1].eval, g.moves[1].time), (Some(-0.25), Some(0.125)));
        assert_eq!(g.moves[1].color, Color::White);
        let expect = crate::text::play_sequence(&Position::start(), "f5f6e6").unwrap();
        assert_eq!(g.final_position(), expect);
        // Round trip: printing and parsing again gives the same game, and the same text.
        let printed = g.to_string();
        let again: GgfGame = printed.parse().unwrap();
        assert_eq!(again, g);
        assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn passes_explicit_and_implicit() {
        // 4x4: white to move must pass (black to move afterwards has a move? build a position
        // where white has no move but black has).
        let board = format!("-O{}", "*".repeat(14));
        let explicit = format!("(;GM[Othello]BO[4 {board} O]W[PA];)");
        let g: GgfGame = explicit.parse().unwrap();
        assert_eq!(g.moves[0].mv, Move::Pass);
        assert_eq!(g.final_position().side_to_move(), Color::Black);
        // A record leaving the forced pass out: black's move replays after the implied pass.
        let implicit = format!("(;GM[Othello]BO[4 {board} O]B[A1];)");
        let g: GgfGame = implicit.parse().unwrap();
        assert!(g.final_position().is_game_over());
        assert_eq!(g.to_string().parse::<GgfGame>().unwrap(), g);
        // A pass by a side that has a move is illegal.
        let wrong = format!("(;GM[Othello]BO[8 {START} *]B[PA];)");
        assert!(matches!(
            wrong.parse::<GgfGame>(),
            Err(ParseGgfError::IllegalMove { number: 1, .. })
        ));
    }

    #[test]
    fn line_breaks_in_text_values_round_trip() {
        // Found by fuzzing: the printer writes a line break as a space, so the parser reads
        // it as one too, and parse -> print -> parse gives the same game.
        let text = "(;GM[Othello]PC[a\r\nb]PB[x\ry]PW[w]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]ZZ[p\nq];)";
        let g: GgfGame = text.parse().unwrap();
        assert_eq!(g.place.as_deref(), Some("a  b"));
        assert_eq!(g.black, "x y");
        let again: GgfGame = g.to_string().parse().unwrap();
        assert_eq!(again, g);
        assert_eq!(again.to_string(), g.to_string());
    }

    #[test]
    fn rejects_bad_records() {
        for bad in [
            "".to_string(),
            "GM[Othello]".to_string(),
            "(;GM[Othello]B[F5];)".to_string(),
            format!("(;GM[Chess]BO[8 {START} *];)"),
            format!("(;GM[Othello]BO[8 {START} *]B[Z9];)"),
            format!("(;GM[Othello]BO[8 {START} *]B[F5/x];)"),
            format!("(;GM[Othello]BO[8 {START} *]B[A1];)"),
            format!("(;GM[Othello]BO[7 {START} *];)"),
            format!("(;GM[Othello]BO[8 {START}];)"),
            format!("(;GM[Othello]RE[abc]BO[8 {START} *];)"),
            format!("(;GM[Othello]BO[8 {START} *]B[F5;)"),
            format!("(;GM[Othello]BO[8 {START} *]W[F5];)"),
        ] {
            assert!(bad.parse::<GgfGame>().is_err(), "{bad}");
        }
    }

    #[test]
    fn result_forms_and_rows_with_spaces() {
        let rows = START
            .as_bytes()
            .chunks(8)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>();
        let text = format!("(;GM[Othello]RE[+0.000]BO[8 {} *];)", rows.join(" "));
        let g: GgfGame = text.parse().unwrap();
        assert_eq!(g.start, Position::start());
        assert_eq!(g.result.as_ref().unwrap().black_margin, 0.0);
        assert!(g.to_string().contains("RE[+0.000]"));
        let r: GgfGame = format!("(;GM[Othello]RE[+64.000:r]BO[8 {START} *];)").parse().unwrap();
        assert_eq!(r.result.unwrap().ending, GgfEnding::Resigned);
        let u: GgfGame = format!("(;GM[Othello]RE[?]BO[8 {START} *];)").parse().unwrap();
        assert_eq!(u.result, None);
    }

    #[test]
    fn a_move_as_nboard_sends_it() {
        let f5: Move = "f5".parse().unwrap();
        let m = |eval, time| GgfMove {
            color: Color::White,
            mv: f5,
            eval,
            time,
        };
        assert_eq!(GgfMove::parse("F5", Color::White), Ok(m(None, None)));
        assert_eq!(GgfMove::parse("f5//1.25", Color::White), Ok(m(None, Some(1.25))));
        assert_eq!(GgfMove::parse("F5/-2.00/0", Color::White), Ok(m(Some(-2.0), Some(0.0))));
        assert_eq!(GgfMove::parse("F5/3/", Color::White), Ok(m(Some(3.0), None)));
        let pass = GgfMove::parse("PA", Color::Black).unwrap();
        assert_eq!((pass.color, pass.mv), (Color::Black, Move::Pass));
        // Played where its colour is to move, or after the other side's forced pass only.
        let start = Position::start();
        let black = GgfMove::parse("F5", Color::Black).unwrap();
        assert_eq!(black.mover_position(&start), Some(start));
        assert_eq!(m(None, None).mover_position(&start), None);
        assert_eq!(GgfMove::parse("PA", Color::White).unwrap().mover_position(&start), None);
        // The error names the tag, the text and what was wrong.
        let e = GgfMove::parse("F5//x", Color::White).unwrap_err();
        assert_eq!(e.to_string(), "bad GGF W[F5//x]: bad time");
        // Written back as read.
        for text in ["F5", "F5//1.25", "F5/-2/0", "F5/3", "PA", "A1/0/0.5"] {
            assert_eq!(GgfMove::parse(text, Color::Black).unwrap().to_string(), text);
        }
        for (bad, why) in [
            ("Z9", "bad square"),
            ("F5/x", "bad evaluation"),
            ("F5//inf", "bad time"),
            ("F5//1s", "bad time"),
        ] {
            match GgfMove::parse(bad, Color::Black) {
                Err(ParseGgfError::BadValue { tag, value, why: w }) => {
                    assert_eq!((tag.as_str(), value.as_str(), w.as_str()), ("B", bad, why));
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn clock_of_the_side_to_move() {
        let g: GgfGame = format!("(;GM[Othello]TI[1:00/0.5/]BO[8 {START} *]B[F5//2.5]W[D6//1]B[C3//4];)")
            .parse()
            .unwrap();
        assert_eq!(
            g.time_limits().unwrap(),
            Some(GgfTimeControl {
                main: 60.0,
                increment: 0.5
            })
        );
        // White to move: 60 s + 1 increment - 1 s used = 59.5 s.
        let c = g.clock().unwrap().unwrap();
        assert_eq!((c.side, c.remaining, c.increment), (Color::White, 59.5, 0.5));
        // Black to move after two timed moves of its own: 60 + 2 * 0.5 - 2.5 - 4 = 54.5 s;
        // a move without a time adds no increment: 60 + 0.5 - 2.5 = 58 s.
        let mut black = g.clone();
        black.moves.push(GgfMove {
            color: Color::White,
            mv: "d3".parse().unwrap(),
            eval: None,
            time: Some(3.0),
        });
        let c = black.clock().unwrap().unwrap();
        assert_eq!((c.side, c.remaining), (Color::Black, 54.5));
        black.moves[2].time = None;
        assert_eq!(black.clock().unwrap().unwrap().remaining, 58.0);
        // Never below zero.
        let over: GgfGame = format!("(;TI[0:01]BO[8 {START} *]B[F5//5]W[D6//0];)").parse().unwrap();
        assert_eq!(over.clock().unwrap().unwrap().remaining, 0.0);
        // Finite when the sums overflow.
        let huge: GgfGame = format!("(;TI[1e308/1e308]BO[8 {START} *]B[F5//1]W[D6//1];)")
            .parse()
            .unwrap();
        assert_eq!(huge.clock().unwrap().unwrap().remaining, f64::MAX);
        let nan: GgfGame = format!("(;TI[0/1e308]BO[8 {START} *]B[F5//1e308]W[D6//1]B[C3//1e308]W[D3//1];)")
            .parse()
            .unwrap();
        assert_eq!(nan.clock().unwrap().unwrap().remaining, 0.0);
        // Either side's clock: black after its two timed moves, white after its one.
        let b = g.clock_of(Color::Black).unwrap().unwrap();
        assert_eq!((b.side, b.remaining, b.increment), (Color::Black, 54.5, 0.5));
        assert_eq!(g.clock_of(Color::White).unwrap(), g.clock().unwrap());
        // No TI: no clock.
        let mut none = g.clone();
        none.time_control = None;
        assert_eq!(none.clock(), Ok(None));
        assert_eq!(none.clock_of(Color::Black), Ok(None));
        assert_eq!("1:02:03.5".parse::<GgfTimeControl>().unwrap().main, 3723.5);
        assert_eq!("5:00".parse::<GgfTimeControl>().unwrap().increment, 0.0);
        assert_eq!("15:00//2:00".parse::<GgfTimeControl>().unwrap().increment, 0.0);
        assert_eq!("15:00/2:00".parse::<GgfTimeControl>().unwrap().increment, 120.0);
        for bad in ["x", "", "-5", "1:-5", "inf", "NaN", "1:00/abc", "1:00/-1"] {
            none.time_control = Some(bad.to_string());
            assert!(
                matches!(none.clock(), Err(ParseGgfError::BadValue { ref tag, .. }) if tag == "TI"),
                "{bad}"
            );
        }
    }
}
