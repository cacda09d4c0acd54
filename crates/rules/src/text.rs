//! Text formats: board strings, OBF lines, move sequences, and a readable board.
//!
//! Printing and parsing live side by side so they cannot drift apart; each pair round-trips.

use crate::{BoardSize, Color, IllegalMoveError, Move, ParseMoveError, Position, Square};
use std::fmt;
use std::str::FromStr;

/// Why a board string (`<board> <side>`) could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// The input is empty.
    Empty,
    /// The board part has a length other than 16, 36 or 64 squares.
    BadLength(usize),
    /// A board character is none of `X x * O o - .` (1-based position in the board part).
    BadSquare {
        /// 1-based character position in the board part.
        at: usize,
        /// The character found there.
        found: char,
    },
    /// The side to move is missing.
    MissingSide,
    /// The side to move is not `X` or `O` (also accepted: `x`, `*`, `o`).
    BadSide(String),
    /// Something follows the side to move.
    Trailing(String),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Empty => write!(f, "empty position string"),
            ParsePositionError::BadLength(n) => {
                write!(f, "board has {n} squares; expected 16 (4x4), 36 (6x6) or 64 (8x8)")
            }
            ParsePositionError::BadSquare { at, found } => {
                write!(
                    f,
                    "bad board character '{found}' at position {at}: expected X, O or - (also x, *, o, .)"
                )
            }
            ParsePositionError::MissingSide => write!(f, "missing side to move after the board (X or O)"),
            ParsePositionError::BadSide(s) => write!(f, "bad side to move '{s}': expected X or O"),
            ParsePositionError::Trailing(s) => write!(f, "unexpected text after the side to move: '{s}'"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

fn square_char(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' => Some(Some(Color::Black)),
        'O' | 'o' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

fn parse_side(s: &str) -> Result<Color, ParsePositionError> {
    match s {
        "X" | "x" | "*" => Ok(Color::Black),
        "O" | "o" => Ok(Color::White),
        _ => Err(ParsePositionError::BadSide(s.to_string())),
    }
}

/// Parses a board of 16, 36 or 64 square characters (size from the length, rows top to bottom,
/// `a1 b1 .. h1 a2 ..`) without the side to move.
///
/// # Errors
/// [`ParsePositionError::BadLength`] or [`ParsePositionError::BadSquare`].
pub fn parse_board(board: &str, side: Color) -> Result<Position, ParsePositionError> {
    let n = board.chars().count();
    let size = match n {
        16 => BoardSize::Four,
        36 => BoardSize::Six,
        64 => BoardSize::Eight,
        0 => return Err(ParsePositionError::Empty),
        _ => {
            // Report a bad character first when there is one: it is the likelier mistake.
            if let Some((i, c)) = board.chars().enumerate().find(|&(_, c)| square_char(c).is_none()) {
                return Err(ParsePositionError::BadSquare { at: i + 1, found: c });
            }
            return Err(ParsePositionError::BadLength(n));
        }
    };
    let side_len = size.side() as usize;
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in board.chars().enumerate() {
        let bit = 1u64 << ((i / side_len) * 8 + i % side_len);
        match square_char(c) {
            Some(Some(Color::Black)) => black |= bit,
            Some(Some(Color::White)) => white |= bit,
            Some(None) => {}
            None => return Err(ParsePositionError::BadSquare { at: i + 1, found: c }),
        }
    }
    Ok(Position::from_discs(black.into(), white.into(), side, size)
        .expect("parsed discs are disjoint and on the board"))
}

/// Parses `<board> <side>`, e.g. the 8x8 start
/// `---------------------------OX------XO--------------------------- X`.
impl FromStr for Position {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let mut parts = s.split_whitespace();
        let board = parts.next().ok_or(ParsePositionError::Empty)?;
        let side_text = parts.next();
        // Validate the board first so its errors are reported before a missing side.
        let pos = parse_board(board, Color::Black)?;
        let side = parse_side(side_text.ok_or(ParsePositionError::MissingSide)?)?;
        let rest: Vec<&str> = parts.collect();
        if !rest.is_empty() {
            return Err(ParsePositionError::Trailing(rest.join(" ")));
        }
        Ok(pos.with_side_to_move(side))
    }
}

impl Position {
    /// The board part of the text form: one character per square, `X`, `O` or `-`.
    pub fn board_string(&self) -> String {
        let n = self.size().side();
        let mut s = String::with_capacity(64);
        for row in 0..n {
            for col in 0..n {
                let sq = Square::from_coords(col, row).expect("on the grid");
                s.push(if self.black().contains(sq) {
                    'X'
                } else if self.white().contains(sq) {
                    'O'
                } else {
                    '-'
                });
            }
        }
        s
    }

    /// A multi-line readable board with coordinates, for terminals.
    pub fn pretty(&self) -> Pretty<'_> {
        Pretty(self)
    }
}

/// Prints `<board> <side>`; parses back with [`FromStr`].
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board_string(), self.side_to_move().letter())
    }
}

/// A readable board (see [`Position::pretty`]): `X` black, `O` white, `.` empty, `*` a legal
/// move of the side to move.
pub struct Pretty<'a>(&'a Position);

impl fmt::Display for Pretty<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.0;
        let n = pos.size().side();
        let legal = pos.legal_moves();
        write!(f, "  ")?;
        for col in 0..n {
            write!(f, " {}", (b'a' + col) as char)?;
        }
        writeln!(f)?;
        for row in 0..n {
            write!(f, "{:>2}", row + 1)?;
            for col in 0..n {
                let sq = Square::from_coords(col, row).expect("on the grid");
                let c = if pos.black().contains(sq) {
                    'X'
                } else if pos.white().contains(sq) {
                    'O'
                } else if legal.contains(sq) {
                    // Not `*`, which position input reads as a black disc.
                    '+'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let (b, w) = pos.disc_counts();
        write!(f, "X (black) {b}  O (white) {w}  {} to move", pos.side_to_move())
    }
}

/// Why a move sequence could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceError {
    /// A token is not a move (1-based character offset in the text).
    Parse {
        /// 1-based character offset of the token.
        at: usize,
        /// The underlying error.
        error: ParseMoveError,
    },
    /// A move is not legal where it is played (1-based move number in the sequence).
    Illegal {
        /// 1-based index of the move in the sequence.
        index: usize,
        /// The refused move and the position.
        error: IllegalMoveError,
    },
}

impl fmt::Display for SequenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SequenceError::Parse { at, error } => write!(f, "move sequence, character {at}: {error}"),
            SequenceError::Illegal { index, error } => write!(f, "move sequence, move {index}: {error}"),
        }
    }
}

impl std::error::Error for SequenceError {}

/// Splits a move sequence (`f5d6c3`, `F5 D6 PS c3`, `f5,d6`) into moves. Separators (spaces,
/// commas, `-`, `;`) are optional. Returns each move with the 1-based offset of its token.
///
/// # Errors
/// [`SequenceError::Parse`] naming the first bad token.
pub fn parse_moves(text: &str) -> Result<Vec<(usize, Move)>, SequenceError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || matches!(c, ',' | ';' | '-' | '_') {
            i += 1;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 4)].iter().collect();
        let lower = rest.to_ascii_lowercase();
        let len = if lower.starts_with("pass") {
            4
        } else if c.is_ascii_alphabetic() {
            2
        } else {
            1
        };
        let token: String = chars[i..chars.len().min(i + len)].iter().collect();
        let mv = token
            .parse::<Move>()
            .map_err(|error| SequenceError::Parse { at: i + 1, error })?;
        out.push((i + 1, mv));
        i += len;
    }
    Ok(out)
}

/// Replays a move sequence from `start`, checking each move. A forced pass may be written
/// (`PS`, `PA`, `pass`) or left out: when the side to move must pass and the next move is a
/// square, the pass is played first.
///
/// # Errors
/// [`SequenceError`] naming the first bad token or illegal move.
pub fn play_sequence(start: &Position, text: &str) -> Result<Position, SequenceError> {
    let mut pos = *start;
    for (index, (_, mv)) in parse_moves(text)?.into_iter().enumerate() {
        if matches!(mv, Move::Place(_)) && pos.must_pass() {
            pos = pos.pass_unchecked();
        }
        pos = pos.play(mv).map_err(|error| SequenceError::Illegal {
            index: index + 1,
            error,
        })?;
    }
    Ok(pos)
}

/// Formats moves as a sequence: `f5d6PSc3`.
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.sequence_token()).collect()
}

/// One line of an OBF file: a position and, optionally, the exact score of some of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfLine {
    /// The position.
    pub position: Position,
    /// `(move, score)` pairs as listed, scores in discs from the side to move.
    pub scores: Vec<(Move, i32)>,
}

/// Why an OBF line could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseObfError {
    /// The position part is malformed.
    Position(ParsePositionError),
    /// A `MOVE:SCORE` field is malformed (the field's text).
    BadField(String),
    /// A well-formed `MOVE:SCORE` field whose move is not legal in the line's position.
    IllegalMove {
        /// The field's text.
        field: String,
        /// The move.
        mv: Move,
    },
}

impl fmt::Display for ParseObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseObfError::Position(e) => e.fmt(f),
            ParseObfError::BadField(s) => write!(f, "bad OBF field '{s}': expected MOVE:SCORE such as F5:+6"),
            ParseObfError::IllegalMove { field, mv } => {
                write!(f, "OBF field '{field}': {mv} is not a legal move in this position")
            }
        }
    }
}

impl std::error::Error for ParseObfError {}

impl From<ParsePositionError> for ParseObfError {
    fn from(e: ParsePositionError) -> ParseObfError {
        ParseObfError::Position(e)
    }
}

/// Parses `<board> <side>; F5:+6; D3:-2;` (the move list may be empty).
impl FromStr for ObfLine {
    type Err = ParseObfError;
    fn from_str(s: &str) -> Result<ObfLine, ParseObfError> {
        let mut fields = s.trim().split(';');
        let position: Position = fields.next().unwrap_or("").trim().parse()?;
        let mut scores = Vec::new();
        for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
            let bad = || ParseObfError::BadField(field.to_string());
            let (m, v) = field.split_once(':').ok_or_else(bad)?;
            let mv: Move = m.trim().parse().map_err(|_| bad())?;
            let v = v.trim();
            let score: i32 = v.strip_prefix('+').unwrap_or(v).parse().map_err(|_| bad())?;
            if !position.is_legal(mv) {
                return Err(ParseObfError::IllegalMove {
                    field: field.to_string(),
                    mv,
                });
            }
            scores.push((mv, score));
        }
        Ok(ObfLine { position, scores })
    }
}

/// Prints `<board> <side>; F5:+6; ...` (moves in upper case, as in the FFO files).
impl fmt::Display for ObfLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            write!(f, " {}:{:+};", mv.sequence_token().to_uppercase(), score)?;
        }
        Ok(())
    }
}

impl ObfLine {
    /// The best listed score, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// The listed score of `mv` (its first listing), if listed.
    ///
    /// ```
    /// use othello_rules::ObfLine;
    /// let line: ObfLine = "---------------------------OX------XO--------------------------- X; F5:+0; D3:-2;".parse().unwrap();
    /// assert_eq!(line.score_of("d3".parse().unwrap()), Some(-2));
    /// assert_eq!(line.score_of("c4".parse().unwrap()), None);
    /// assert!(!line.lists_every_move());
    /// ```
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }

    /// Whether the line lists every legal move of its position ([`Position::moves`]), each
    /// once: a finished game lists nothing, a position where the side to move must pass its
    /// pass.
    pub fn lists_every_move(&self) -> bool {
        let legal = self.position.moves();
        self.scores.len() == legal.len()
            && legal
                .iter()
                .all(|&m| self.scores.iter().filter(|&&(s, _)| s == m).count() == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn obf_fields_name_what_is_wrong() {
        let line = format!("{START}; A1:+18;");
        assert_eq!(
            line.parse::<ObfLine>(),
            Err(ParseObfError::IllegalMove {
                field: "A1:+18".into(),
                mv: "a1".parse().unwrap()
            })
        );
        assert!(
            line.parse::<ObfLine>()
                .unwrap_err()
                .to_string()
                .contains("a1 is not a legal move")
        );
        for bad in ["F5", "F5:x", "Z9:+1", ":+1"] {
            assert_eq!(
                format!("{START}; {bad};").parse::<ObfLine>(),
                Err(ParseObfError::BadField(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(format!("{START}; F5:+0;").parse::<ObfLine>().unwrap().scores.len(), 1);
    }

    #[test]
    fn a_line_lists_every_move_only_with_each_legal_move_once() {
        let line = |fields: &str| format!("{START};{fields}").parse::<ObfLine>().unwrap();
        assert!(line(" F5:+0; D3:+0; C4:+0; E6:+0;").lists_every_move());
        assert!(line(" E6:-2; C4:+0; D3:+1; F5:+0;").lists_every_move(), "any order");
        assert!(!line("").lists_every_move());
        assert!(!line(" F5:+0; D3:+0; C4:+0;").lists_every_move(), "one missing");
        assert!(
            !line(" F5:+0; D3:+0; C4:+0; E6:+0; E6:+0;").lists_every_move(),
            "one twice"
        );
        assert!(
            !line(" F5:+0; D3:+0; C4:+0; C4:+0;").lists_every_move(),
            "one twice, one missing"
        );
        let l = line(" F5:+3; D3:-1; F5:+7; C4:+0; E6:+0;");
        assert_eq!(l.score_of("f5".parse().unwrap()), Some(3), "the first listing");
        assert_eq!(l.score_of("e6".parse().unwrap()), Some(0));
        assert_eq!(l.score_of(Move::Pass), None);
        // A finished game lists nothing; a position that must pass lists its pass.
        let over: ObfLine = format!("{} X", "X".repeat(64)).parse().unwrap();
        assert!(over.lists_every_move());
        let pass: ObfLine = format!("{}X- X;", "O".repeat(62)).parse().unwrap();
        assert!(pass.position.must_pass());
        assert!(!pass.lists_every_move());
        let pass: ObfLine = format!("{}X- X; PS:-64;", "O".repeat(62)).parse().unwrap();
        assert!(pass.lists_every_move());
        assert_eq!(pass.score_of(Move::Pass), Some(-64));
    }

    #[test]
    fn pretty_marks_legal_moves_with_a_sign_position_input_rejects() {
        let p = Position::start();
        let text = p.pretty().to_string();
        assert_eq!(text.matches('+').count(), 4, "{text}");
        assert!(!text.contains('*'));
        assert!(format!("{} X", "+".repeat(64)).parse::<Position>().is_err());
    }

    #[test]
    fn start_round_trips() {
        let p: Position = START.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), START);
    }

    #[test]
    fn aliases_and_errors() {
        let p: Position = "...........................ox......xo........................... *"
            .parse()
            .unwrap();
        assert_eq!(p, Position::start());
        assert_eq!("".parse::<Position>(), Err(ParsePositionError::Empty));
        assert_eq!(
            "---------------------------OX------XO--------------------------- Q".parse::<Position>(),
            Err(ParsePositionError::BadSide("Q".into()))
        );
        assert_eq!(
            "---------------------------OX------XO---------------------------".parse::<Position>(),
            Err(ParsePositionError::MissingSide)
        );
        assert_eq!(
            "----------------------------OX------XO--------------------------- X".parse::<Position>(),
            Err(ParsePositionError::BadLength(65))
        );
        assert_eq!(
            "--------------------------AOX------XO--------------------------- X".parse::<Position>(),
            Err(ParsePositionError::BadSquare { at: 27, found: 'A' })
        );
        assert!(matches!(
            "---------------------------OX------XO--------------------------- X extra".parse::<Position>(),
            Err(ParsePositionError::Trailing(_))
        ));
    }

    #[test]
    fn sequences() {
        let p = play_sequence(&Position::start(), "f5d6C3 d3,c4").unwrap();
        assert_eq!(p.disc_counts().0 + p.disc_counts().1, 9);
        assert!(matches!(
            play_sequence(&Position::start(), "f5f5"),
            Err(SequenceError::Illegal { index: 2, .. })
        ));
        assert!(matches!(
            play_sequence(&Position::start(), "f5z9"),
            Err(SequenceError::Parse { at: 3, .. })
        ));
        assert!(matches!(
            play_sequence(&Position::start(), "pass"),
            Err(SequenceError::Illegal { index: 1, .. })
        ));
        let moves: Vec<Move> = parse_moves("f5PSd6pass").unwrap().into_iter().map(|(_, m)| m).collect();
        assert_eq!(format_moves(&moves), "f5PSd6PS");
    }

    #[test]
    fn obf_round_trip() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
        let obf: ObfLine = line.parse().unwrap();
        assert_eq!(obf.scores.len(), 8);
        assert_eq!(obf.best_score(), Some(18));
        assert_eq!(obf.to_string(), line);
        assert!(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8+18;"
                .parse::<ObfLine>()
                .is_err()
        );
    }
}
