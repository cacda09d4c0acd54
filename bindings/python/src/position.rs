//! `Position`: an immutable board and side to move, with the rules crate's text formats,
//! move generation, game end, scores and symmetries; `perft`.

use crate::random::{PyRng, game_over, random_move};
use crate::value_error;
use othello_rules::text::{self, ObfLine};
use othello_rules::{Bitboard, BoardSize, Color, Move, Position, Symmetry, canonical, perft as rules_perft};
use othello_svg::BoardPicture;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyType};

/// The names of the eight symmetries, in the order of `othello_rules::Symmetry::ALL`.
pub(crate) const SYMMETRY_NAMES: [&str; 8] = [
    "identity",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_anti_diagonal",
    "rotate90",
    "rotate180",
    "rotate270",
];

/// An Othello position: the discs and the side to move, on a 4x4, 6x6 or 8x8 board.
///
/// Immutable: `play` and the other moves return a new position. `Position()` is the 8x8
/// start; `Position("<64 squares> X")` parses the board string of the CLI (`X` black,
/// `O` white, `-` empty, then the side to move).
#[pyclass(name = "Position", module = "othello_toolkit", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPosition(pub Position);

/// A move given from Python: a string (`"d3"`, `"pass"`, `"PS"`) or a square index 0..63
/// (64 is the pass). Read by type check, so that neither form pays for a failed conversion.
pub(crate) fn to_move(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(i) = obj.cast::<PyInt>() {
        let Ok(i) = i.extract::<i64>() else {
            return Err(PyValueError::new_err(
                "bad move index: expected 0..63, or 64 for the pass",
            ));
        };
        return u8::try_from(i)
            .ok()
            .and_then(Move::from_u8)
            .ok_or_else(|| PyValueError::new_err(format!("bad move index {i}: expected 0..63, or 64 for the pass")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_cow()?.trim().parse::<Move>().map_err(value_error);
    }
    Err(PyTypeError::new_err(format!(
        "a move is a string such as 'd3' or a square index, not {}",
        obj.get_type().name()?
    )))
}

/// A symmetry given as its index in `SYMMETRIES` or its name.
#[derive(FromPyObject)]
pub(crate) enum SymmetryArg {
    /// Its name.
    Name(String),
    /// Its index 0..7.
    Index(i64),
}

impl SymmetryArg {
    fn to_symmetry(&self) -> PyResult<Symmetry> {
        let index = match self {
            SymmetryArg::Name(n) => SYMMETRY_NAMES.iter().position(|s| s == n),
            SymmetryArg::Index(i) => usize::try_from(*i).ok().filter(|&i| i < 8),
        };
        index.map(|i| Symmetry::ALL[i]).ok_or_else(|| {
            PyValueError::new_err(format!(
                "bad symmetry: expected an index 0..7 or one of {}",
                SYMMETRY_NAMES.join(", ")
            ))
        })
    }
}

pub(crate) fn parse_color(side: &str) -> PyResult<Color> {
    match side {
        "X" | "x" | "*" | "black" => Ok(Color::Black),
        "O" | "o" | "white" => Ok(Color::White),
        other => Err(PyValueError::new_err(format!(
            "bad side to move '{other}': expected X or O"
        ))),
    }
}

fn parse_size(size: u8) -> PyResult<BoardSize> {
    BoardSize::from_side(size)
        .ok_or_else(|| PyValueError::new_err(format!("bad board size {size}: expected 4, 6 or 8")))
}

#[pymethods]
impl PyPosition {
    /// Parses a position `"<board> <side>"` (the CLI's format); without text, the 8x8 start.
    #[new]
    #[pyo3(signature = (text=None))]
    fn new(text: Option<&str>) -> PyResult<Self> {
        match text {
            None => Ok(PyPosition(Position::start())),
            Some(t) => t.parse().map(PyPosition).map_err(value_error),
        }
    }

    /// The start position of a board of side `size` (4, 6 or 8).
    #[classmethod]
    #[pyo3(signature = (size=8))]
    fn start(_cls: &Bound<'_, PyType>, size: u8) -> PyResult<Self> {
        Ok(PyPosition(Position::start_of(parse_size(size)?)))
    }

    /// The position after a move sequence such as `"f5d6c3"` (spaces, commas and passes
    /// `PS`/`pass` allowed; a forced pass may be left out) from `start` (default: the 8x8 start).
    #[classmethod]
    #[pyo3(signature = (moves, start=None))]
    fn from_moves(_cls: &Bound<'_, PyType>, moves: &str, start: Option<PyPosition>) -> PyResult<Self> {
        let start = start.map_or(Position::start(), |p| p.0);
        text::play_sequence(&start, moves).map(PyPosition).map_err(value_error)
    }

    /// The position of an OBF line (`"<board> <side>; F5:+6; ..."`); the move scores are
    /// dropped (see `parse_obf`).
    #[classmethod]
    fn from_obf(_cls: &Bound<'_, PyType>, line: &str) -> PyResult<Self> {
        line.parse::<ObfLine>()
            .map(|l| PyPosition(l.position))
            .map_err(value_error)
    }

    /// A position from the black and white discs as 64-bit masks (bit `8 * row + col`; a1 is
    /// bit 0, h8 bit 63).
    #[classmethod]
    #[pyo3(signature = (black, white, side="X", size=8))]
    fn from_discs(_cls: &Bound<'_, PyType>, black: u64, white: u64, side: &str, size: u8) -> PyResult<Self> {
        Position::from_discs(Bitboard(black), Bitboard(white), parse_color(side)?, parse_size(size)?)
            .map(PyPosition)
            .map_err(value_error)
    }

    /// A position from the side to move's discs (`player`) and its opponent's.
    #[classmethod]
    #[pyo3(signature = (player, opponent, side="X", size=8))]
    fn from_bitboards(_cls: &Bound<'_, PyType>, player: u64, opponent: u64, side: &str, size: u8) -> PyResult<Self> {
        Position::from_side_relative(
            Bitboard(player),
            Bitboard(opponent),
            parse_color(side)?,
            parse_size(size)?,
        )
        .map(PyPosition)
        .map_err(value_error)
    }

    /// The discs of the side to move.
    #[getter]
    fn player(&self) -> u64 {
        self.0.player().0
    }

    /// The discs of the side not to move.
    #[getter]
    fn opponent(&self) -> u64 {
        self.0.opponent().0
    }

    /// Black's discs.
    #[getter]
    fn black(&self) -> u64 {
        self.0.black().0
    }

    /// White's discs.
    #[getter]
    fn white(&self) -> u64 {
        self.0.white().0
    }

    /// The side to move: `"X"` (black) or `"O"` (white).
    #[getter]
    fn side(&self) -> String {
        self.0.side_to_move().letter().to_string()
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.0.size().side()
    }

    /// The empty squares as a mask.
    #[getter]
    fn empties(&self) -> u64 {
        self.0.empties().0
    }

    /// The number of empty squares.
    #[getter]
    fn empty_count(&self) -> u32 {
        self.0.empty_count()
    }

    /// `(black, white)` disc counts.
    fn disc_counts(&self) -> (u32, u32) {
        self.0.disc_counts()
    }

    /// The legal squares of the side to move as a 64-bit mask (0 when it must pass).
    #[getter]
    fn legal_moves(&self) -> u64 {
        self.0.legal_moves().0
    }

    /// The legal moves as text, `["d3", "c4", ...]` by square index; `["pass"]` when the side
    /// to move must pass; `[]` when the game is over.
    fn moves(&self) -> Vec<String> {
        self.0.moves().iter().map(Move::to_string).collect()
    }

    /// The legal squares as indices (0 is a1, 63 is h8), by index; `[64]` (the pass) when the
    /// side to move must pass; `[]` when the game is over. The cheapest list to choose from.
    fn move_indices(&self) -> Vec<u8> {
        self.0.moves().iter().map(|m| m.to_u8()).collect()
    }

    /// Whether `move` (text or index) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.is_legal(to_move(r#move)?))
    }

    /// The discs a disc on `square` would flip (0 if the square is occupied or flips nothing).
    fn flips(&self, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        match to_move(square)? {
            Move::Place(sq) => Ok(self.0.flips(sq).0),
            Move::Pass => Err(PyValueError::new_err("flips takes a square, not the pass")),
        }
    }

    /// The position after `move` (`"d3"`, `"pass"`, or a square index, 64 for the pass).
    /// Raises `ValueError` naming why an illegal move is illegal.
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.0.play(to_move(r#move)?).map(PyPosition).map_err(value_error)
    }

    /// A uniformly drawn legal move from `rng` (an `Rng`), as an index (0..63, 64 for a forced
    /// pass); `ValueError` when the game is over.
    fn random_move(&self, mut rng: PyRefMut<'_, PyRng>) -> PyResult<u8> {
        random_move(&self.0, &mut rng.0)
            .map(|m| m.to_u8())
            .ok_or_else(game_over)
    }

    /// The position after a uniformly drawn legal move from `rng` (the pass when it is
    /// forced): `p.play(p.random_move(rng))` in one call; `ValueError` when the game is over.
    fn play_random(&self, mut rng: PyRefMut<'_, PyRng>) -> PyResult<Self> {
        let mv = random_move(&self.0, &mut rng.0).ok_or_else(game_over)?;
        Ok(PyPosition(self.0.play_unchecked(mv)))
    }

    /// The position after a sequence of moves (as `from_moves`).
    fn play_moves(&self, moves: &str) -> PyResult<Self> {
        text::play_sequence(&self.0, moves).map(PyPosition).map_err(value_error)
    }

    /// The position after a pass; raises `ValueError` unless the side to move must pass.
    fn pass_turn(&self) -> PyResult<Self> {
        self.0.play(Move::Pass).map(PyPosition).map_err(value_error)
    }

    /// Whether the side to move has no legal square while the opponent has one.
    fn must_pass(&self) -> bool {
        self.0.must_pass()
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.0.is_game_over()
    }

    /// The side to move's discs minus the opponent's.
    fn disc_difference(&self) -> i32 {
        self.0.disc_difference()
    }

    /// The final score in discs from the side to move: the disc difference with the empty
    /// squares given to the winner (meaningful when the game is over).
    fn final_score(&self) -> i32 {
        self.0.final_score()
    }

    /// `final_score` from black's side.
    fn final_score_black(&self) -> i32 {
        self.0.final_score_black()
    }

    /// The image of the position under a symmetry (its index in `SYMMETRIES` or its name).
    fn symmetry(&self, symmetry: SymmetryArg) -> PyResult<Self> {
        Ok(PyPosition(symmetry.to_symmetry()?.apply_position(&self.0)))
    }

    /// The eight images of the position, in the order of `SYMMETRIES`.
    fn symmetries(&self) -> Vec<Self> {
        Symmetry::ALL
            .iter()
            .map(|s| PyPosition(s.apply_position(&self.0)))
            .collect()
    }

    /// The canonical image: the least `(player, opponent)` among the eight symmetries (the
    /// key of the hashed perft and of position sets), with the same side to move.
    fn canonical(&self) -> Self {
        let p = &self.0;
        let (player, opponent) = canonical(p.player().0, p.opponent().0, p.size());
        PyPosition(Position::from_raw_unchecked(
            player,
            opponent,
            p.side_to_move(),
            p.size(),
        ))
    }

    /// The 64-bit hash key of the rules crate.
    fn hash_key(&self) -> u64 {
        self.0.hash_key()
    }

    /// The board alone: 16, 36 or 64 characters `X`, `O`, `-`, row by row from a1.
    fn board_string(&self) -> String {
        self.0.board_string()
    }

    /// The position as an OBF line without scores (`"<board> <side>;"`).
    #[allow(clippy::wrong_self_convention, reason = "a method of a Python class takes &self")]
    fn to_obf(&self) -> String {
        ObfLine {
            position: self.0,
            scores: Vec::new(),
        }
        .to_string()
    }

    /// A readable board with coordinates, legal moves marked `+`, and the disc counts.
    fn pretty(&self) -> String {
        self.0.pretty().to_string()
    }

    /// The position as an SVG picture (coordinates, discs, legal moves marked), which
    /// notebooks show in place of the text.
    fn _repr_svg_(&self) -> PyResult<String> {
        BoardPicture::new(&self.0).to_svg().map_err(value_error)
    }

    /// An SVG picture of the position (the `othello-svg` crate's board): `last_move` (a square)
    /// marked; `values`, a dict or a list of `(move, value)` pairs (such as
    /// `Solver.score_moves` or `Reply.root_moves`), written on their squares, in discs or, with
    /// `centi=True`, in centi-discs shown with one decimal; `pv`, a principal variation (a
    /// move sequence or a list of moves), numbered; the legal moves marked unless
    /// `legal=False`; a `title` above the board. `ValueError` when an annotation does not fit
    /// the position (a value on a disc, an illegal move in the variation, ...).
    #[pyo3(signature = (last_move=None, values=None, centi=false, pv=None, legal=true, title=None))]
    #[allow(clippy::too_many_arguments, reason = "the picture's keyword options")]
    fn svg(
        &self,
        last_move: Option<&Bound<'_, PyAny>>,
        values: Option<&Bound<'_, PyAny>>,
        centi: bool,
        pv: Option<&Bound<'_, PyAny>>,
        legal: bool,
        title: Option<String>,
    ) -> PyResult<String> {
        let mut picture = BoardPicture::new(&self.0).legal(legal);
        if let Some(m) = last_move {
            match to_move(m)? {
                Move::Place(sq) => picture = picture.last_move(sq),
                Move::Pass => {
                    return Err(PyValueError::new_err(
                        "the last move to mark must be a square, not the pass",
                    ));
                }
            }
        }
        if let Some(v) = values {
            let items: Vec<(Bound<'_, PyAny>, i32)> = match v.cast::<PyDict>() {
                Ok(d) => d.items().extract()?,
                Err(_) => v.extract()?,
            };
            let mut squares = Vec::with_capacity(items.len());
            for (m, value) in &items {
                match to_move(m)? {
                    Move::Place(sq) => squares.push((sq, *value)),
                    // A forced pass has no square to write its value on.
                    Move::Pass => {}
                }
            }
            picture = if centi {
                picture.values_centi(squares)
            } else {
                picture.values(squares)
            };
        }
        if let Some(line) = pv {
            let moves: Vec<Move> = match line.cast::<PyString>() {
                Ok(s) => text::parse_moves(&s.to_cow()?)
                    .map_err(value_error)?
                    .into_iter()
                    .map(|(_, m)| m)
                    .collect(),
                Err(_) => {
                    let items: Vec<Bound<'_, PyAny>> = line.extract()?;
                    items.iter().map(to_move).collect::<PyResult<_>>()?
                }
            };
            picture = picture.pv(&moves);
        }
        if let Some(t) = title {
            picture = picture.title(t);
        }
        picture.to_svg().map_err(value_error)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }

    fn __getnewargs__(&self) -> (String,) {
        (self.0.to_string(),)
    }

    fn __copy__(&self) -> Self {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        *self
    }
}

/// The number of move sequences of `depth` plies from `position` (a pass is a ply; a finished
/// game counts once). With `threads > 1` or `hash_mib > 0`, the rules crate's threaded or
/// hashed perft (same counts). Runs without the interpreter lock.
#[pyfunction]
#[pyo3(signature = (position, depth, threads=1, hash_mib=0))]
pub(crate) fn perft(
    py: Python<'_>,
    position: PyPosition,
    depth: u32,
    threads: usize,
    hash_mib: usize,
) -> PyResult<u64> {
    let threads = othello_spec::resources::threads_ok(threads).map_err(PyValueError::new_err)?;
    if hash_mib > 0 {
        othello_spec::resources::hash_ok(hash_mib).map_err(PyValueError::new_err)?;
    }
    let pos = position.0;
    Ok(py.detach(move || {
        if threads <= 1 && hash_mib == 0 {
            rules_perft::perft(&pos, depth)
        } else if threads <= 1 {
            rules_perft::perft_hashed(&pos, depth, hash_mib)
        } else {
            rules_perft::perft_parallel(&pos, depth, threads, hash_mib)
        }
    }))
}

/// Parses an OBF line: the position and its listed `(move, score)` pairs.
#[pyfunction]
pub(crate) fn parse_obf(line: &str) -> PyResult<(PyPosition, Vec<(String, i32)>)> {
    let obf: ObfLine = line.parse().map_err(value_error)?;
    let scores = obf.scores.iter().map(|(m, s)| (m.to_string(), *s)).collect();
    Ok((PyPosition(obf.position), scores))
}

/// Parses a move sequence (`"f5d6 c3"`, passes as `PS`/`pass`) into move texts, without
/// playing it.
#[pyfunction]
pub(crate) fn parse_moves(moves: &str) -> PyResult<Vec<String>> {
    let parsed = text::parse_moves(moves).map_err(value_error)?;
    Ok(parsed.iter().map(|(_, m)| m.to_string()).collect())
}
