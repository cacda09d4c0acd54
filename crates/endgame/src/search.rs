//! The recursive solver: alpha-beta (fail-soft, PVS where the window is open) from the root's
//! children down to the last empty square.
//!
//! Layers, as in Edax's `endgame.c`, by number of empty squares `e`:
//! - `e > SHALLOW_MAX` ([`ab`]): stop check, stability cut-off, transposition table (the
//!   thread's own [`Cache`] up to [`CACHE_MAX`] empties, the shared table above), moves sorted
//!   fastest-first (fewest opponent moves, corners counted twice; then the opponent's potential
//!   mobility; then parity and square quality), plus from [`SORT_MIN`] empties the value of a
//!   1-ply (2 from [`SORT_DEEPER`], 3 from [`SORT_DEEPEST`]) search with a mobility/corner
//!   evaluation; PVS when the window is open;
//! - `5 <= e <= SHALLOW_MAX` (`shallow`): no table, no sorting and no move generation: the
//!   empty squares tried in odd quadrants first (parity), then by static square quality, with
//!   the stability cut-off;
//! - `e <= 4`: `solve4`..`solve2` try the empty squares directly (no move generation), in
//!   parity order, and `last1` scores the last square from a flip count alone.
//!
//! The recursion is written once in a macro and compiled once per move-generation back end
//! ([`Backend`]): portable, and on x86-64 with each back end's target features enabled so its
//! move generator, flips and `popcnt` inline into it. The rules crate's CPU check
//! ([`Backend::supported`], [`movegen::backend`]) picks the instantiation. Each is generic over
//! the table type of its context ([`Ctx`]), so it is monomorphised per table type too.

use crate::cache::{CACHE_MAX, Cache};
use crate::last::count_last_flip;
use crate::layout::Layout;
use crate::stability::stable_discs;
use othello_eval::probcut::CutModel;
use othello_rules::movegen::{self, Backend};
use othello_rules::{Color, Move, Position};
use othello_table::{BoardTable, Bound, BusySet, Table};
use std::sync::atomic::{AtomicBool, Ordering};

/// A value beyond every score (scores lie in `-64..=64`).
pub(crate) const INF: i32 = 127;

/// Most empty squares searched without the table and without sorting moves (7 in Edax; 6
/// measured faster here, with fewer nodes: docs/BENCHMARKS.md).
pub(crate) const SHALLOW_MAX: u32 = 6;

/// Fewest empty squares at which the transposition table is probed and written.
pub(crate) const TABLE_MIN: u32 = 8;

const _: () = assert!(CACHE_MAX < 16, "nws_mid keeps at most 16 moves");

/// Enhanced transposition cut-offs are tried above this many empty squares: from 11, whose
/// children at [`CACHE_MAX`] are probed in the thread's cache (since 2026-12-01; above 12
/// before: 10 instead of 12 measured 1.6% fewer nodes on the 24-empty random
/// lines and 1.7% on FFO #40-#49, every line fewer).
pub(crate) const ETC_MIN: u32 = 10;

/// Fewest empty squares at which moves are ordered by a shallow search with an evaluation.
pub(crate) const SORT_MIN: u32 = 14;

/// With an ordering evaluation: fewest empty squares at which moves are ordered by it, each
/// child by its evaluation alone (0 plies) below [`EVAL_SORT_PLY`] empty squares. Measured
/// 2026-12-01, with [`EVAL_SORT_WEIGHT`] 250 instead of 300 and [`ETC_MIN`] 10, nodes
/// on the 24-empty random lines / FFO #40-#49: before 3 200.1 M / 646.7 M; from 13 (kept)
/// 3 011.3 M / 632.9 M; from 12, 3 013.1 M / 624.2 M but slower (more evaluations per node);
/// from 14 (weight and ETC only) 3 112.9 M / 647.2 M.
pub(crate) const EVAL_SORT_MIN: u32 = 13;

/// With an ordering evaluation: from this many empty squares the ordering search looks one
/// ply ahead (the evaluation at the grandchildren).
pub(crate) const EVAL_SORT_PLY: u32 = 14;

/// With an ordering evaluation: from this many empty squares the ordering search looks two
/// plies ahead (one below). Tuned on FFO #41, #42, #44 (docs/BENCHMARKS.md).
pub(crate) const EVAL_SORT_DEEPER: u32 = 16;

/// With an ordering evaluation: the weight of one centi-disc of its ordering-search value in a
/// move's sort key (the fastest-first key weighs one opponent move 65536): about 2.6 discs
/// weigh one opponent move (300, 2.2 discs, until 2026-12-01). Tuned with
/// [`EVAL_SORT_DEEPER`] and [`EVAL_SORT_MIN`].
pub(crate) const EVAL_SORT_WEIGHT: i32 = 250;

/// Scale of an exact final score inside the ordering evaluation (one disc).
const EVAL_DISC: i32 = 8;

/// Beyond every ordering evaluation.
const EVAL_INF: i32 = 1 << 20;

/// Depth of the ordering search (plies before the evaluation): 1, 2 from [`SORT_DEEPER`]
/// empty squares, 3 from [`SORT_DEEPEST`].
const SORT_DEPTH: u32 = 1;

/// Fewest empty squares at which the ordering search looks two plies ahead.
const SORT_DEEPER: u32 = 20;

/// Fewest empty squares at which the ordering search looks three plies ahead.
const SORT_DEEPEST: u32 = 24;

/// Weight of the ordering search's value in a move's sort key (a shift): one unit of the
/// evaluation's mobility term weighs as much as one opponent move in the fastest-first key.
const SORT_SHIFT: u32 = 14;

/// The ordering evaluation of `(p, o)` for `p`, given both sides' moves: mobility (corners
/// twice), corners held and potential mobility, in units where a disc of final score is
/// [`EVAL_DISC`].
#[inline(always)]
fn eval_leaf(p: u64, o: u64, pm: u64, om: u64, lay: &Layout) -> i32 {
    let c = lay.corners;
    let mob = (pm.count_ones() + (pm & c).count_ones()) as i32 - (om.count_ones() + (om & c).count_ones()) as i32;
    let corners = (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
    let empty = lay.mask & !(p | o);
    let pot = (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    4 * mob + 12 * corners + pot
}

/// The leaves of the ordering search (`order_ab`): the built-in mobility evaluation or the
/// caller's.
pub(crate) trait OrderLeaf {
    /// The value of one disc of a final score.
    const DISC: i32;
    /// Whether [`OrderLeaf::leaf`] reads the opponent's moves (otherwise it gets 0 for them,
    /// except when the side to move has no move).
    const OPPONENT_MOVES: bool;
    /// The value of `(p, o)` for `p`, whose moves are `pm` and the opponent's `om`.
    fn leaf(&self, lay: &Layout, p: u64, o: u64, pm: u64, om: u64) -> i32;
}

/// The built-in ordering evaluation ([`eval_leaf`]).
struct Mobility;

impl OrderLeaf for Mobility {
    const DISC: i32 = EVAL_DISC;
    const OPPONENT_MOVES: bool = true;
    #[inline(always)]
    fn leaf(&self, lay: &Layout, p: u64, o: u64, pm: u64, om: u64) -> i32 {
        eval_leaf(p, o, pm, om, lay)
    }
}

/// The caller's evaluation, in centi-discs (a disc of final score is 100).
impl OrderLeaf for OrderingEval {
    const DISC: i32 = 100;
    const OPPONENT_MOVES: bool = false;
    #[inline(always)]
    fn leaf(&self, lay: &Layout, p: u64, o: u64, _: u64, _: u64) -> i32 {
        self.evaluate(&Position::from_raw_unchecked(p, o, Color::Black, lay.size))
    }
}

/// Which techniques are on (all by default); switching one off measures what it brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Techniques {
    /// Stability cut-offs: give up a node when even losing every unstable disc keeps the score
    /// at or below alpha.
    pub stability: bool,
    /// Play in quadrants with an odd number of empty squares first near the leaves.
    pub parity: bool,
    /// Sort moves by the opponent's resulting mobility far from the leaves (otherwise by the
    /// static square order).
    pub fastest_first: bool,
    /// Use the transposition table.
    pub table: bool,
    /// Enhanced transposition cut-offs: probe the table for every child before searching any
    /// (far from the leaves only).
    pub etc: bool,
    /// Specialised code for the last four empty squares (otherwise the generic shallow search
    /// runs to the end of the game).
    pub last_four: bool,
    /// With an ordering evaluation ([`crate::SolverConfig::with_ordering`]), an exact solve
    /// far from the end first runs a selective search (probable cut-offs by the evaluation,
    /// as Edax and Egaroucid do) whose score is the exact search's first guess: the exact
    /// search then mostly confirms a known score. Scores never depend on it.
    pub presolve: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            stability: true,
            parity: true,
            fastest_first: true,
            table: true,
            etc: true,
            last_four: true,
            presolve: true,
        }
    }
}

/// The value of `(p, o)` for `p` by a `depth`-ply fail-soft search with `eval` at its leaves
/// (the ordering search of the nodes below), in centi-discs; its nodes are added to `nodes`.
/// Used once per root move, so the portable instantiation serves.
pub(crate) fn eval_search(lay: &Layout, eval: &OrderingEval, p: u64, o: u64, depth: u32, nodes: &mut u64) -> i32 {
    portable::order_ab(lay, eval, p, o, -EVAL_INF, EVAL_INF, depth, nodes)
}

/// One thread's search state, over a table of type `T` (any [`Table`]: the solver's own, or
/// in a multi-threaded solve the shared [`othello_table::TranspositionTable`] it gave through
/// [`Table::as_shared`]). The recursion is generic over `T`, so each table type gets its own
/// monomorphised copy of every back end's instantiation.
pub(crate) struct Ctx<'a, T> {
    pub layout: &'static Layout,
    /// The solver's table, seen for the board size of the solve.
    pub tt: BoardTable<'a, T>,
    pub tech: Techniques,
    pub nodes: u64,
    /// The caller's stop request.
    pub stop: &'a AtomicBool,
    /// A second stop flag (helper threads stop when the main thread is done).
    pub halt: &'a AtomicBool,
    /// Set once a stop was seen: every value computed since is garbage and nothing is stored.
    pub stopped: bool,
    /// Fewest empty squares at which the table is used.
    pub table_min: u32,
    /// The thread's own table for positions with up to [`CACHE_MAX`] empty squares.
    pub cache: Cache,
    /// The caller's ordering evaluation, with the thresholds that go with it.
    pub ordering: Option<EvalOrdering<'a>>,
    /// The nodes the threads of a multi-threaded solve are in (none single-threaded).
    pub busy: Option<&'a BusySet>,
    /// Set during a selective pre-solve (see [`Probcut`]); `None` in the exact search.
    pub probcut: Option<Probcut>,
}

/// The selectivity of a pre-solve: nodes with at least [`PROBCUT_MIN`] empty squares whose
/// value a shallow search by the ordering evaluation puts beyond the window by `t` standard
/// deviations of its error are cut (probable cut-offs, as in Edax's and Egaroucid's
/// selective endgame searches). Its values are only guesses for the exact search's windows:
/// its table entries carry `level` and never serve as bounds to a less selective search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probcut {
    /// The confidence, in hundredths of a standard deviation.
    pub t: i32,
    /// The level stamped on table entries, below [`EXACT_LEVEL`]; a higher level is a more
    /// confident search.
    pub level: u8,
}

/// The level of the exact search's table entries (see [`Probcut::level`]).
pub(crate) const EXACT_LEVEL: u8 = 3;

/// Fewest empty squares at which a selective search tries a probable cut-off.
pub(crate) const PROBCUT_MIN: u32 = 12;
const _: () = assert!(PROBCUT_MIN > CACHE_MAX, "the thread's cache holds exact values only");

/// The standard deviation of the error of a `d`-ply search by the pattern evaluation (index
/// `d`) against the exact score, in centi-discs, measured on 10 000 positions of 10-19 empty
/// squares from self-play with their exact scores (nearly flat in the number of empties).
const PROBCUT_SIGMA: [i32; 7] = [810, 750, 690, 630, 580, 530, 490];

/// The cut model of a `d`-ply shallow search predicting the exact score: the midgame search's
/// [`CutModel`] (one implementation of the cut bounds for both searches) with slope 1, no
/// intercept and [`PROBCUT_SIGMA`]`[d]` as its error. `sigma` may be the mean of two errors
/// (the static test of [`probcut`](self)).
const fn exact_model(sigma: i32) -> CutModel {
    CutModel {
        a: CutModel::ONE,
        b: 0,
        sigma,
        samples: 10_000,
    }
}

/// The depth of a probable cut-off's shallow search at `empties` empty squares.
#[inline]
const fn probcut_depth(empties: u32) -> usize {
    match empties {
        0..=13 => 0,
        14..=17 => 2,
        18..=21 => 3,
        _ => 4,
    }
}

/// The table's depth byte: the empty squares and the search's level (exact above every
/// selective level, so the table's replacement keeps exact entries first).
#[inline]
pub(crate) fn table_depth(empties: u32, level: u8) -> u8 {
    (empties << 2 | u32::from(level)) as u8
}

/// Whether a table entry's bounds hold for a search at `level` (they come from a search at
/// least as confident).
#[inline]
pub(crate) fn usable(depth: u8, level: u8) -> bool {
    depth & 3 >= level
}

/// With several threads, nodes with at least this many empty squares (those whose results go
/// to the shared table, above the thread-private cache) are marked busy while searched.
pub(crate) const BUSY_MIN: u32 = CACHE_MAX + 1;

/// How the ordering search runs when the caller gave an evaluation (see [`OrderingEval`]).
#[derive(Clone, Copy)]
pub(crate) struct EvalOrdering<'a> {
    pub eval: &'a OrderingEval,
    /// Fewest empty squares at which moves are sorted by the evaluation.
    pub min: u32,
    /// Plies of the ordering search before the evaluation at `min` empty squares.
    pub depth: u32,
    /// From this many empty squares the ordering search looks one ply deeper.
    pub ply: u32,
    /// From this many empty squares the ordering search looks one more ply deeper.
    pub deeper: u32,
    /// Weight of one centi-disc of the evaluation in a move's sort key.
    pub weight: i32,
}

/// An evaluation for the solver's move ordering: centi-discs for the side to move (any scale
/// works, only the order of the values matters much). It only orders moves, so it can never
/// change a score, only the node count. See [`crate::SolverConfig::with_ordering`].
#[derive(Clone)]
pub struct OrderingEval(std::sync::Arc<dyn Fn(&Position) -> i32 + Send + Sync>);

impl OrderingEval {
    /// Wraps an evaluation function (for example `move |p| pattern.evaluate(p)`).
    pub fn new(f: impl Fn(&Position) -> i32 + Send + Sync + 'static) -> OrderingEval {
        OrderingEval(std::sync::Arc::new(f))
    }

    /// The evaluation of `pos`.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        (self.0)(pos)
    }
}

impl std::fmt::Debug for OrderingEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OrderingEval(..)")
    }
}

/// Two ordering evaluations are equal when they are the same function object.
impl PartialEq for OrderingEval {
    fn eq(&self, other: &OrderingEval) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for OrderingEval {}

impl<T> Ctx<'_, T> {
    #[inline(always)]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.halt.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }
}

/// Edax's `NWS_STABILITY_THRESHOLD` (8x8): the stability test is only worth its cost when alpha
/// is at least this high for the number of empty squares.
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 48, 50, 50, 52,
    52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64,
];

#[inline(always)]
fn stability_threshold(empties: u32, squares: i32) -> i32 {
    // The same margin below the maximum score on every board size.
    STABILITY_THRESHOLD[empties as usize] - (64 - squares)
}

/// Whether the stability cut-off can fire at all: the stable discs of the opponent `o` are
/// some of its discs, so the bound `squares - 2 * stable` is at least `squares - 2 * |o|`;
/// when that is above `alpha` the stable discs need not be computed (same cut-offs, cheaper).
#[inline(always)]
fn may_cut_by_stability(o: u64, alpha: i32, squares: i32) -> bool {
    squares - 2 * o.count_ones() as i32 <= alpha
}

/// The stability cut-off, tried only where it can pay (`alpha` past Edax's threshold for
/// `empties`, and [`may_cut_by_stability`]): `Some(bound)` when the opponent's stable discs
/// alone keep the score at or below `alpha` (fail-soft: `bound` is an upper bound).
#[inline(always)]
fn stability_cut(on: bool, lay: &Layout, p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    if !on || alpha < stability_threshold(empties, lay.squares) || !may_cut_by_stability(o, alpha, lay.squares) {
        return None;
    }
    let bound = lay.squares - 2 * stable_discs(o, p, lay).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The score of a finished game from the side to move (empty squares to the winner): the
/// rules crate's [`othello_rules::final_score`] on raw bitboards.
#[inline(always)]
fn final_score(p: u64, o: u64, squares: i32) -> i32 {
    othello_rules::final_score(p.count_ones(), o.count_ones(), squares as u32)
}

/// The score with `sq` the only empty square of the board `mask`, `p` to move, fail-soft
/// against `alpha`: when `p` cannot play there, the opponent's flips are only counted if the
/// best `p` could still get (the game ending at once) is above `alpha` (Edax's lazy last
/// count); otherwise that bound is returned (the true score is at most it).
#[inline(always)]
fn last1(p: u64, sq: u32, mask: u64, squares: i32, alpha: i32) -> i32 {
    let pc = p.count_ones() as i32;
    let n = count_last_flip(p, sq) as i32;
    if n > 0 {
        return 2 * (pc + n + 1) - squares;
    }
    // Nobody can play: the game ends with one empty square, which goes to the winner (the
    // disc difference is odd, so there is one). An opponent move only lowers the score.
    let diff = 2 * pc - (squares - 1);
    let ended = if diff > 0 { diff + 1 } else { diff - 1 };
    if ended <= alpha {
        return ended;
    }
    // The opponent's discs are every square but `p` and `sq`: count its flips from `p`'s side
    // (`count_last_flip` never reads the bit of `sq` itself, so it needs no clearing).
    let o = mask & !p;
    let m = count_last_flip(o, sq) as i32;
    if m > 0 {
        return 2 * (pc - m) - squares;
    }
    ended
}

/// One move of a sorted move list.
#[derive(Clone, Copy)]
struct Scored {
    flips: u64,
    sq: u32,
    score: i32,
}

/// `NEIGHBOUR[sq]`: the squares next to `sq`. A move flips nothing without an opponent disc
/// there, so the last few empty squares skip the flip computation then (as Edax does).
static NEIGHBOUR: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = neighbours(1 << sq);
        sq += 1;
    }
    t
};

/// Squares next to `discs` (eight directions), for potential mobility.
use othello_rules::neighbours;

macro_rules! search_impl {
    ($(#[$attr:meta])* $module:ident, $moves:path, $flips:path) => {
        pub(crate) mod $module {
            use super::*;

            /// Fail-soft alpha-beta on `(p, o)` with `empties` empty squares (see the module
            /// docs for the layers).
            $(#[$attr])*
            pub(crate) fn ab<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, mut alpha: i32, mut beta: i32, empties: u32) -> i32 {
                if empties <= SHALLOW_MAX {
                    return shallow(c, p, o, alpha, beta, empties);
                }
                if empties <= CACHE_MAX && beta == alpha + 1 {
                    return nws_mid(c, p, o, alpha, empties);
                }
                if c.should_stop() {
                    return 0;
                }
                c.nodes += 1;
                let lay = c.layout;
                if let Some(bound) = stability_cut(c.tech.stability, lay, p, o, alpha, empties) {
                    return bound;
                }
                let (alpha0, beta0) = (alpha, beta);
                let level = c.probcut.map_or(EXACT_LEVEL, |pc| pc.level);
                let mut tt_sq = 64;
                let use_table = c.tech.table && empties >= c.table_min;
                let in_cache = use_table && empties <= CACHE_MAX;
                if in_cache {
                    if let Some(e) = c.cache.probe(p, o) {
                        let (lower, upper) = (e.lower as i32, e.upper as i32);
                        if lower >= beta || lower == upper {
                            return lower;
                        }
                        if upper <= alpha {
                            return upper;
                        }
                        alpha = alpha.max(lower);
                        beta = beta.min(upper);
                        tt_sq = e.best as u32;
                    }
                } else if use_table {
                    if let Some(e) = c.tt.probe(p, o) {
                        // Every entry is a result to the end of the game: its bounds serve
                        // when it is exact or (in a selective search) at least as confident
                        // as this search; a less confident search's move still orders this one.
                        if usable(e.depth, level) {
                            let s = e.score as i32;
                            match e.bound {
                                Bound::Exact => return s,
                                Bound::Lower => {
                                    if s >= beta {
                                        return s;
                                    }
                                    alpha = alpha.max(s);
                                }
                                Bound::Upper => {
                                    if s <= alpha {
                                        return s;
                                    }
                                    beta = beta.min(s);
                                }
                            }
                        }
                        if let Some(Move::Place(sq)) = e.best_move {
                            tt_sq = sq.index() as u32;
                        }
                    }
                }
                let (alpha1, beta1) = (alpha, beta);
                let moves = $moves(p, o) & lay.mask;
                if moves == 0 {
                    if $moves(o, p) & lay.mask == 0 {
                        return final_score(p, o, lay.squares);
                    }
                    return -ab(c, o, p, -beta, -alpha, empties);
                }
                if empties >= PROBCUT_MIN {
                    if let (Some(pc), Some(ev)) = (c.probcut, c.ordering) {
                        if let Some(v) = probcut(c, ev.eval, pc.t, p, o, alpha, beta, empties) {
                            return v;
                        }
                    }
                }
                let mut list: smallvec::SmallVec<[Scored; 24]> = smallvec::SmallVec::new();
                let etc = use_table && c.tech.etc && empties > ETC_MIN;
                let empty_set = lay.mask & !(p | o);
                let odd = if c.tech.parity { lay.odd_quadrants(empty_set) } else { 0 };
                // The children's buckets in the shared table, asked for all at once before
                // the cut-off probes below read them one after another (a hint: no value or
                // count changes; docs/endgame.md).
                if etc && empties - 1 > CACHE_MAX {
                    c.tt.prefetch_children(p, o, moves, |p, o, sq| $flips(p, o, sq));
                }
                let mut rest = moves;
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let flips = $flips(p, o, sq);
                    if etc {
                        // Enhanced transposition cut-off: a child whose stored upper bound
                        // already refutes the window ends the node before any search.
                        let (np, no) = (o ^ flips, p ^ flips ^ (1 << sq));
                        if empties - 1 <= CACHE_MAX {
                            if let Some(e) = c.cache.probe(np, no) {
                                if -(e.upper as i32) >= beta {
                                    return -(e.upper as i32);
                                }
                            }
                        } else if let Some(e) = c.tt.probe(np, no).filter(|e| usable(e.depth, level)) {
                            if matches!(e.bound, Bound::Upper | Bound::Exact) && -(e.score as i32) >= beta {
                                return -(e.score as i32);
                            }
                        }
                    }
                    let score = if sq == tt_sq { 1 << 30 } else { 0 };
                    list.push(Scored { flips, sq, score });
                }
                // The sort keys of every move but the table's, which is tried first: computed
                // after it, when it did not cut (the same order as computing them here; only
                // the ordering searches' nodes are saved).
                let has_tt = list.iter().any(|m| m.sq == tt_sq);
                let mut keyed = false;
                macro_rules! key_moves {
                    () => {{
                        keyed = true;
                        for m in list.iter_mut().filter(|m| m.sq != tt_sq) {
                            let (sq, flips) = (m.sq, m.flips);
                            m.score = move_key(lay, c.tech, p, o, flips, sq, empty_set, odd);
                        }
                        let n_moves = list.len();
                        if let Some(ev) = c.ordering.filter(|ev| c.tech.fastest_first && empties >= ev.min && n_moves > 1) {
                            let depth = ev.depth + u32::from(empties >= ev.ply) + u32::from(empties >= ev.deeper);
                            for m in list.iter_mut() {
                                if m.sq != tt_sq {
                                    let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                                    let v = -order_ab(lay, ev.eval, np, no, -EVAL_INF, EVAL_INF, depth, &mut c.nodes);
                                    m.score = m.score.saturating_add(v.saturating_mul(ev.weight));
                                }
                            }
                        } else if c.tech.fastest_first && empties >= SORT_MIN && n_moves > 1 {
                            let depth = if empties >= SORT_DEEPEST {
                                SORT_DEPTH + 2
                            } else if empties >= SORT_DEEPER {
                                SORT_DEPTH + 1
                            } else {
                                SORT_DEPTH
                            };
                            // Far from the leaves a subtree is worth a shallow search to order it.
                            for m in list.iter_mut() {
                                if m.sq != tt_sq {
                                    let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                                    let v = -order_ab(lay, &Mobility, np, no, -EVAL_INF, EVAL_INF, depth, &mut c.nodes);
                                    m.score += v << SORT_SHIFT;
                                }
                            }
                        }
                    }};
                }
                if !has_tt {
                    key_moves!();
                }
                let mut best = -INF;
                let mut best_sq = 64;
                // Threads: this node is marked busy while searched, and a move (not the first)
                // whose child another thread is searching is put off to the end (ABDADA; the
                // marks only order the work, see `othello_table::BusySet`).
                let busy = c.busy.filter(|_| empties >= BUSY_MIN);
                let key = busy.map_or(0, |_| BusySet::key(p, o));
                let marked = busy.is_some_and(|b| b.enter(key));
                let check_children = busy.is_some() && empties > BUSY_MIN;
                let mut deferred: smallvec::SmallVec<[Scored; 8]> = smallvec::SmallVec::new();
                let (mut i, mut d) = (0, 0);
                loop {
                    let (Scored { flips, sq, .. }, picked) = if i < list.len() {
                        if !keyed && i == 1 {
                            key_moves!();
                        }
                        // Selection sort, one step per move: most nodes cut before the end.
                        let mut k = i;
                        for j in i + 1..list.len() {
                            if list[j].score > list[k].score {
                                k = j;
                            }
                        }
                        list.swap(i, k);
                        i += 1;
                        (list[i - 1], true)
                    } else if d < deferred.len() {
                        d += 1;
                        (deferred[d - 1], false)
                    } else {
                        break;
                    };
                    let (np, no) = (o ^ flips, p ^ flips ^ (1 << sq));
                    if picked && check_children && best != -INF && busy.is_some_and(|b| b.is_busy(BusySet::key(np, no))) {
                        deferred.push(list[i - 1]);
                        continue;
                    }
                    let v = if best == -INF || beta == alpha + 1 {
                        -ab(c, np, no, -beta, -alpha, empties - 1)
                    } else {
                        let v = -ab(c, np, no, -alpha - 1, -alpha, empties - 1);
                        if v > alpha && v < beta && !c.stopped {
                            -ab(c, np, no, -beta, -v + 1, empties - 1)
                        } else {
                            v
                        }
                    };
                    if c.stopped {
                        break;
                    }
                    if v > best {
                        best = v;
                        best_sq = sq;
                        if v >= beta {
                            break;
                        }
                        if v > alpha {
                            alpha = v;
                        }
                    }
                }
                if marked {
                    busy.expect("marked in it").leave(key);
                }
                if c.stopped {
                    return 0;
                }
                if in_cache {
                    let lower = if best > alpha1 { best } else { -INF };
                    let upper = if best < beta1 { best } else { INF };
                    c.cache.store(p, o, lower, upper, best_sq);
                } else if use_table {
                    let bound = if best <= alpha0 {
                        Bound::Upper
                    } else if best >= beta0 {
                        Bound::Lower
                    } else {
                        Bound::Exact
                    };
                    let mv = othello_rules::Square::from_index(best_sq as u8).map(Move::Place);
                    c.tt.store(p, o, table_depth(empties, level), best as i16, bound, mv);
                }
                best
            }

            /// The sort key of the move `sq` (flipping `flips`) of `ab` and `nws_mid`, the
            /// larger the sooner: fastest first (the opponent's mobility with corners counted
            /// twice <<16, our corner-anchored stable discs <<12, the opponent's potential
            /// mobility <<6), then the square's class and the parity of its quadrant (`odd`);
            /// a move that wipes the opponent out comes before any other.
            #[allow(clippy::too_many_arguments, reason = "the node's state is passed unpacked")]
            $(#[$attr])*
            #[inline]
            fn move_key(lay: &Layout, tech: Techniques, p: u64, o: u64, flips: u64, sq: u32, empty_set: u64, odd: u64) -> i32 {
                let class = lay.square_value[sq as usize] + if odd >> sq & 1 != 0 { 16 } else { 0 };
                if !tech.fastest_first {
                    return class;
                }
                let (np, no) = (o ^ flips, p ^ flips ^ (1 << sq));
                if np == 0 {
                    // A wipe-out: the best possible move.
                    return 1 << 29;
                }
                let om = $moves(np, no) & lay.mask;
                let mobility = (om.count_ones() + (om & lay.corners).count_ones()) as i32;
                let potential = (neighbours(no) & empty_set & !(1u64 << sq)).count_ones() as i32;
                let mine = no & lay.corners;
                let corner_stable = ((mine | neighbours(mine) & lay.edges) & no).count_ones() as i32;
                -(mobility << 16) + (corner_stable << 12) - (potential << 6) + class
            }

            /// The null-window search `(alpha, alpha + 1)` of the middle layer (from
            /// `SHALLOW_MAX + 1` to [`CACHE_MAX`] empty squares): the same tree as [`ab`] there
            /// (stability cut-off, the thread's cache, fastest-first order, the same node
            /// count) without what only wider windows or bigger subtrees need: no PVS
            /// re-search, no stop check (a subtree this small ends in microseconds; the caller
            /// checks), no shared table, ETC, busy marks or ordering search.
            $(#[$attr])*
            fn nws_mid<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, empties: u32) -> i32 {
                let beta = alpha + 1;
                c.nodes += 1;
                let lay = c.layout;
                if let Some(bound) = stability_cut(c.tech.stability, lay, p, o, alpha, empties) {
                    return bound;
                }
                let use_cache = c.tech.table && empties >= c.table_min;
                let mut tt_sq = 64;
                if use_cache {
                    if let Some(e) = c.cache.probe(p, o) {
                        // With a null window a bound either decides the node or is no news.
                        let (lower, upper) = (e.lower as i32, e.upper as i32);
                        if lower > alpha {
                            return lower;
                        }
                        if upper <= alpha {
                            return upper;
                        }
                        tt_sq = e.best as u32;
                    }
                }
                let moves = $moves(p, o) & lay.mask;
                if moves == 0 {
                    if $moves(o, p) & lay.mask == 0 {
                        return final_score(p, o, lay.squares);
                    }
                    return -ab(c, o, p, -beta, -alpha, empties);
                }
                let mut best = -INF;
                let mut best_sq = 64;
                let mut rest = moves;
                if tt_sq < 64 && moves >> tt_sq & 1 != 0 {
                    // The cache's move first, before the others are sorted: it often cuts
                    // alone (the same order as a key above every other, so the same tree).
                    let flips = $flips(p, o, tt_sq);
                    let (np, no) = (o ^ flips, p ^ flips ^ (1 << tt_sq));
                    best = if empties - 1 > SHALLOW_MAX {
                        -nws_mid(c, np, no, -beta, empties - 1)
                    } else {
                        -shallow(c, np, no, -beta, -alpha, empties - 1)
                    };
                    best_sq = tt_sq;
                    if best > alpha {
                        rest = 0;
                    }
                }
                // The list of every move as `ab` builds it (the cache's move included, first
                // after the first selection step and not searched again), so that ties are
                // broken as there.
                let tt_done = best != -INF;
                // At most CACHE_MAX < 16 moves (one per empty square).
                let mut keys = [0i32; 16];
                let mut all_flips = [0u64; 16];
                let mut squares = [0u8; 16];
                let mut n = 0;
                let empty_set = lay.mask & !(p | o);
                let odd = if c.tech.parity { lay.odd_quadrants(empty_set) } else { 0 };
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let flips = $flips(p, o, sq);
                    let score = if sq == tt_sq {
                        1 << 30
                    } else {
                        move_key(lay, c.tech, p, o, flips, sq, empty_set, odd)
                    };
                    keys[n & 15] = score;
                    all_flips[n & 15] = flips;
                    squares[n & 15] = sq as u8;
                    n += 1;
                }
                let n = n.min(16);
                for i in 0..n {
                    // Selection sort, one step per move: most nodes cut before the end.
                    let mut k = i;
                    for j in i + 1..n {
                        if keys[j] > keys[k] {
                            k = j;
                        }
                    }
                    keys.swap(i, k);
                    all_flips.swap(i, k);
                    squares.swap(i, k);
                    if i == 0 && tt_done {
                        continue;
                    }
                    let (flips, sq) = (all_flips[i], squares[i] as u32);
                    let (np, no) = (o ^ flips, p ^ flips ^ (1 << sq));
                    let v = if empties - 1 > SHALLOW_MAX {
                        -nws_mid(c, np, no, -beta, empties - 1)
                    } else {
                        -shallow(c, np, no, -beta, -alpha, empties - 1)
                    };
                    if v > best {
                        best = v;
                        best_sq = sq;
                        if v > alpha {
                            break;
                        }
                    }
                }
                if use_cache && !c.stopped {
                    let (lower, upper) = if best > alpha { (best, INF) } else { (-INF, best) };
                    c.cache.store(p, o, lower, upper, best_sq);
                }
                best
            }

            /// A probable cut-off of a selective search (see [`Probcut`]): `beta` when a
            /// shallow search by `eval` puts the node at least `t` (hundredths) standard
            /// deviations of its error above `beta`, `alpha` when as far below `alpha`, else
            /// `None`. The static evaluation decides first which side is worth a try (Edax's
            /// test, with the error averaged between the two depths).
            #[allow(clippy::too_many_arguments, reason = "the node's state is passed unpacked")]
            $(#[$attr])*
            fn probcut<T: Table>(c: &mut Ctx<'_, T>, eval: &OrderingEval, t: i32, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> Option<i32> {
                let lay = c.layout;
                let d = probcut_depth(empties);
                let t = t.unsigned_abs();
                // The shallow search's model, and the static evaluation's (the error averaged
                // between depth 0 and `d`, as Edax does) for the test of which side to try.
                let deep = exact_model(PROBCUT_SIGMA[d]);
                let stat = exact_model((PROBCUT_SIGMA[0] + PROBCUT_SIGMA[d]) / 2);
                let top = i64::from(lay.squares) * 100;
                let guess = order_ab(lay, eval, p, o, -EVAL_INF, EVAL_INF, 0, &mut c.nodes);
                let shallow = |c: &mut Ctx<'_, T>, a: i32| {
                    if d == 0 { guess } else { order_ab(lay, eval, p, o, a, a + 1, d as u32, &mut c.nodes) }
                };
                let high = deep.fail_high_bound(beta * 100, t);
                if high < top
                    && i64::from(guess) >= stat.fail_low_bound(beta * 100, t)
                    && i64::from(shallow(c, high as i32 - 1)) >= high
                {
                    return Some(beta);
                }
                let low = deep.fail_low_bound(alpha * 100, t);
                if low > -top
                    && i64::from(guess) <= stat.fail_high_bound(alpha * 100, t)
                    && i64::from(shallow(c, low as i32)) <= low
                {
                    return Some(alpha);
                }
                None
            }

            /// A shallow fail-soft alpha-beta with an ordering evaluation at the leaves
            /// ([`Mobility`] or the caller's [`OrderingEval`]). Its nodes count in `nodes`
            /// like every other node of the solve.
            #[allow(clippy::too_many_arguments, reason = "the search state is passed unpacked")]
            $(#[$attr])*
            pub(crate) fn order_ab<L: OrderLeaf>(
                lay: &Layout,
                leaf: &L,
                p: u64,
                o: u64,
                mut alpha: i32,
                beta: i32,
                depth: u32,
                nodes: &mut u64,
            ) -> i32 {
                *nodes += 1;
                let pm = $moves(p, o) & lay.mask;
                if pm == 0 {
                    let om = $moves(o, p) & lay.mask;
                    if om == 0 {
                        return final_score(p, o, lay.squares) * L::DISC;
                    }
                    if depth > 0 {
                        return -order_ab(lay, leaf, o, p, -beta, -alpha, depth, nodes);
                    }
                    return leaf.leaf(lay, p, o, pm, om);
                }
                if depth == 0 {
                    let om = if L::OPPONENT_MOVES { $moves(o, p) & lay.mask } else { 0 };
                    return leaf.leaf(lay, p, o, pm, om);
                }
                let mut best = -EVAL_INF;
                let mut m = pm;
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    let f = $flips(p, o, sq);
                    let v = -order_ab(lay, leaf, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, depth - 1, nodes);
                    if v > best {
                        best = v;
                        if v >= beta {
                            break;
                        }
                        if v > alpha {
                            alpha = v;
                        }
                    }
                }
                best
            }

            /// The layer near the leaves: no table, parity then static order. Takes the empty
            /// squares once as rank bits ([`Layout::rank`]); [`shallow_ranks`] passes them down.
            $(#[$attr])*
            fn shallow<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
                let lay = c.layout;
                let e = lay.mask & !(p | o);
                debug_assert_eq!(e.count_ones(), empties);
                let (ranks, parity) = lay.ranks_and_parity(e);
                shallow_ranks(c, p, o, alpha, beta, empties, ranks, parity)
            }

            /// [`shallow`] with the `empties` empty squares as rank bits `ranks` (lowest first
            /// is the static order) and `parity` the quadrants with an odd number of them
            /// ([`Layout::parity`]): moves in odd quadrants first, then the others, each group
            /// in static order. No move generation: each empty square is tried directly (as
            /// Edax's `search_shallow`), the opponent's moves only when there was none.
            #[allow(clippy::too_many_arguments, reason = "the search state is passed unpacked")]
            $(#[$attr])*
            fn shallow_ranks<T: Table>(
                c: &mut Ctx<'_, T>,
                p: u64,
                o: u64,
                mut alpha: i32,
                beta: i32,
                empties: u32,
                ranks: u64,
                parity: u32,
            ) -> i32 {
                let lay = c.layout;
                let odd = if c.tech.parity { parity } else { 0xf };
                if empties <= 4 && c.tech.last_four {
                    return match empties {
                        4 => solve4(c, p, o, alpha, beta, parity_order::<4>(lay, ranks, odd)),
                        3 => solve3(c, p, o, alpha, beta, parity_order::<3>(lay, ranks, odd), true),
                        2 => {
                            let e = lay.mask & !(p | o);
                            let x1 = e.trailing_zeros();
                            solve2(c, p, o, alpha, beta, x1, (e & (e - 1)).trailing_zeros())
                        }
                        1 => {
                            c.nodes += 1;
                            last1(p, (lay.mask & !(p | o)).trailing_zeros(), lay.mask, lay.squares, alpha)
                        }
                        _ => {
                            c.nodes += 1;
                            final_score(p, o, lay.squares)
                        }
                    };
                }
                c.nodes += 1;
                if let Some(bound) = stability_cut(c.tech.stability, lay, p, o, alpha, empties) {
                    return bound;
                }
                let mut best = -INF;
                let odd_ranks = lay.odd_ranks[odd as usize];
                for group in [ranks & odd_ranks, ranks & !odd_ranks] {
                    let mut m = group;
                    while m != 0 {
                        let r = m.trailing_zeros();
                        m &= m - 1;
                        let sq = lay.square_at[r as usize] as u32;
                        // No opponent disc next to the square: nothing to flip.
                        if NEIGHBOUR[sq as usize] & o == 0 {
                            continue;
                        }
                        let f = $flips(p, o, sq);
                        if f == 0 {
                            continue;
                        }
                        let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
                        let (child_ranks, child_parity) = (ranks ^ (1 << r), parity ^ lay.quadrant_bit[sq as usize] as u32);
                        let v = if empties == 5 && c.tech.last_four {
                            // Straight to the last four (no call through the dispatch above).
                            let odd = if c.tech.parity { child_parity } else { 0xf };
                            -solve4(c, np, no, -beta, -alpha, parity_order::<4>(lay, child_ranks, odd))
                        } else {
                            -shallow_ranks(c, np, no, -beta, -alpha, empties - 1, child_ranks, child_parity)
                        };
                        if v > best {
                            best = v;
                            if v >= beta {
                                return v;
                            }
                            if v > alpha {
                                alpha = v;
                            }
                        }
                    }
                }
                if best == -INF {
                    if $moves(o, p) & lay.mask == 0 {
                        return final_score(p, o, lay.squares);
                    }
                    return -shallow_ranks(c, o, p, -beta, -alpha, empties, ranks, parity);
                }
                best
            }

            /// Four empty squares, `x` in parity order (odd quadrants first), with the stability
            /// cut-off.
            $(#[$attr])*
            #[inline]
            fn solve4<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, beta: i32, x: [u32; 4]) -> i32 {
                solve4_with(c, p, o, alpha, beta, x, true)
            }

            /// [`solve4`]; after a pass (`can_pass` false) without the stability cut-off.
            $(#[$attr])*
            fn solve4_with<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, mut alpha: i32, beta: i32, x: [u32; 4], can_pass: bool) -> i32 {
                c.nodes += 1;
                if can_pass {
                    if let Some(bound) = stability_cut(c.tech.stability, c.layout, p, o, alpha, 4) {
                        return bound;
                    }
                }
                let mut best = -INF;
                for i in 0..4 {
                    let sq = x[i];
                    // No opponent disc next to the square: nothing to flip.
                    let f = if NEIGHBOUR[sq as usize] & o != 0 { $flips(p, o, sq) } else { 0 };
                    if f != 0 {
                        let rest = match i {
                            0 => [x[1], x[2], x[3]],
                            1 => [x[0], x[2], x[3]],
                            2 => [x[0], x[1], x[3]],
                            _ => [x[0], x[1], x[2]],
                        };
                        let v = -solve3(c, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, rest, true);
                        if v > best {
                            best = v;
                            if v >= beta {
                                return v;
                            }
                            if v > alpha {
                                alpha = v;
                            }
                        }
                    }
                }
                if best == -INF {
                    return if can_pass {
                        -solve4_with(c, o, p, -beta, -alpha, x, false)
                    } else {
                        final_score(p, o, c.layout.squares)
                    };
                }
                best
            }

            $(#[$attr])*
            fn solve3<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, mut alpha: i32, beta: i32, x: [u32; 3], can_pass: bool) -> i32 {
                c.nodes += 1;
                let mut best = -INF;
                for i in 0..3 {
                    let sq = x[i];
                    let f = if NEIGHBOUR[sq as usize] & o != 0 { $flips(p, o, sq) } else { 0 };
                    if f != 0 {
                        let (a, b) = match i {
                            0 => (x[1], x[2]),
                            1 => (x[0], x[2]),
                            _ => (x[0], x[1]),
                        };
                        let v = -solve2(c, o ^ f, p ^ f ^ (1 << sq), -beta, -alpha, a, b);
                        if v > best {
                            best = v;
                            if v >= beta {
                                return v;
                            }
                            if v > alpha {
                                alpha = v;
                            }
                        }
                    }
                }
                if best == -INF {
                    return if can_pass {
                        -solve3(c, o, p, -beta, -alpha, x, false)
                    } else {
                        final_score(p, o, c.layout.squares)
                    };
                }
                best
            }

            /// The last two empty squares `x1`, `x2` (in this order). Without a move for `p`
            /// the opponent's moves are tried here, as in Edax's `solve_2` (no second call);
            /// the node counts are those of a recursive call for the pass. (Expanding this
            /// body inside `solve3`'s loop measured 0.4% more instructions.)
            #[allow(clippy::too_many_arguments, reason = "the two squares are passed unpacked")]
            $(#[$attr])*
            fn solve2<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
                let (mask, squares) = (c.layout.mask, c.layout.squares);
                let mut nodes = 1;
                let value = 'solve2: {
                    let mut best = -INF;
                    if NEIGHBOUR[x1 as usize] & o != 0 {
                        let f = $flips(p, o, x1);
                        if f != 0 {
                            nodes += 1;
                            best = -last1(o ^ f, x2, mask, squares, -beta);
                            if best >= beta {
                                break 'solve2 best;
                            }
                        }
                    }
                    if NEIGHBOUR[x2 as usize] & o != 0 {
                        let f = $flips(p, o, x2);
                        if f != 0 {
                            nodes += 1;
                            best = best.max(-last1(o ^ f, x1, mask, squares, -beta));
                        }
                    }
                    if best != -INF {
                        break 'solve2 best;
                    }
                    // `p` passes (one more node): the opponent's best is the lowest score for `p`.
                    nodes += 1;
                    let mut worst = INF;
                    if NEIGHBOUR[x1 as usize] & p != 0 {
                        let f = $flips(o, p, x1);
                        if f != 0 {
                            nodes += 1;
                            worst = last1(p ^ f, x2, mask, squares, alpha);
                            if worst <= alpha {
                                break 'solve2 worst;
                            }
                        }
                    }
                    if NEIGHBOUR[x2 as usize] & p != 0 {
                        let f = $flips(o, p, x2);
                        if f != 0 {
                            nodes += 1;
                            worst = worst.min(last1(p ^ f, x1, mask, squares, alpha));
                        }
                    }
                    if worst == INF {
                        -final_score(o, p, squares)
                    } else {
                        worst
                    }
                };
                c.nodes += nodes;
                value
            }
        }
    };
}

/// The `N` squares of `ranks` ([`Layout::rank`] bits), those in the quadrants of `odd`
/// ([`Layout::parity`] bits) first, each group in static order.
#[inline(always)]
fn parity_order<const N: usize>(lay: &Layout, ranks: u64, odd: u32) -> [u32; N] {
    debug_assert_eq!(ranks.count_ones() as usize, N);
    let mut out = [0u32; N];
    let mut n = 0;
    let odd_ranks = lay.odd_ranks[odd as usize & 15];
    for group in [ranks & odd_ranks, ranks & !odd_ranks] {
        let mut m = group;
        while m != 0 && n < N {
            out[n] = lay.square_at[m.trailing_zeros() as usize] as u32;
            m &= m - 1;
            n += 1;
        }
    }
    out
}

search_impl!(portable, movegen::portable::legal_moves, movegen::portable::flips);

#[cfg(target_arch = "x86_64")]
search_impl!(
    #[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
    fast,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_avx2
);

#[cfg(target_arch = "x86_64")]
search_impl!(
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    bmi2,
    movegen::x86::legal_moves_avx2,
    movegen::x86::flips_pext
);

#[cfg(target_arch = "x86_64")]
search_impl!(
    #[target_feature(enable = "avx512f,avx512vl,avx512cd,avx2,bmi1,bmi2,lzcnt,popcnt")]
    avx512,
    movegen::x86::legal_moves_avx512,
    movegen::x86::flips_avx512
);

/// The instantiation of the back end the rules crate chose (its CPU check, decided once).
#[inline]
pub(crate) fn search<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    search_with(movegen::backend(), c, p, o, alpha, beta)
}

/// The instantiation of `backend`, which must be supported by the CPU.
#[inline]
pub(crate) fn search_with<T: Table>(
    backend: Backend,
    c: &mut Ctx<'_, T>,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    assert!(backend.supported(), "back end {backend:?} not supported by this CPU");
    let empties = (c.layout.mask & !(p | o)).count_ones();
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `backend.supported()` (the rules crate's CPU check) confirmed the target features
    // of the instantiation called: each is compiled with exactly its back end's features.
    unsafe {
        match backend {
            Backend::Avx2 => return fast::ab(c, p, o, alpha, beta, empties),
            Backend::Bmi2 => return bmi2::ab(c, p, o, alpha, beta, empties),
            Backend::Avx512 => return avx512::ab(c, p, o, alpha, beta, empties),
            Backend::Portable => {}
        }
    }
    portable::ab(c, p, o, alpha, beta, empties)
}

/// [`search`] on the portable instantiation whatever the CPU (tests compare both).
#[cfg(test)]
pub(crate) fn search_portable<T: Table>(c: &mut Ctx<'_, T>, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    let empties = (c.layout.mask & !(p | o)).count_ones();
    portable::ab(c, p, o, alpha, beta, empties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::play_random_until;
    use othello_rules::{BoardSize, Position};
    use othello_table::TranspositionTable;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn negamax(pos: &Position) -> i32 {
        let moves = pos.moves();
        if moves.is_empty() {
            return pos.final_score();
        }
        moves.iter().map(|&m| -negamax(&pos.play(m).unwrap())).max().unwrap()
    }

    #[test]
    fn last1_matches_playing_it_out() {
        let mut rng = SmallRng::seed_from_u64(21);
        for i in 0..3000 {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let lay = Layout::of(size);
            let sq = loop {
                let sq = rng.random_range(0..64u32);
                if lay.mask >> sq & 1 != 0 {
                    break sq;
                }
            };
            let p = rng.random::<u64>() & lay.mask & !(1 << sq);
            let o = lay.mask & !p & !(1 << sq);
            let pos = Position::from_raw_unchecked(p, o, othello_rules::Color::Black, size);
            let want = negamax(&pos);
            assert_eq!(last1(p, sq, lay.mask, lay.squares, -INF), want, "{pos}");
            // Fail-soft against any alpha: exact above it, an upper bound at or below it.
            let alpha = rng.random_range(-lay.squares..=lay.squares);
            let v = last1(p, sq, lay.mask, lay.squares, alpha);
            if want > alpha {
                assert_eq!(v, want, "{pos} alpha {alpha}");
            } else {
                assert!(want <= v && v <= alpha, "{pos} alpha {alpha}: {v} for {want}");
            }
        }
    }

    #[test]
    fn the_stability_prefilter_refuses_only_where_no_cut_is_possible() {
        let mut rng = SmallRng::seed_from_u64(24);
        for i in 0..3000 {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let lay = Layout::of(size);
            let filled = rng.random::<u64>() | rng.random::<u64>();
            let p = filled & rng.random::<u64>() & lay.mask;
            let o = filled & !p & lay.mask;
            let alpha = rng.random_range(-lay.squares..=lay.squares);
            let may = may_cut_by_stability(o, alpha, lay.squares);
            // Exactly when even every opponent disc stable would reach alpha.
            assert_eq!(may, lay.squares - 2 * o.count_ones() as i32 <= alpha, "{o:#x} {alpha}");
            // Sound: a cut the full test would make is never refused.
            let bound = lay.squares - 2 * stable_discs(o, p, lay).count_ones() as i32;
            assert!(may || bound > alpha, "{p:#x} {o:#x} {alpha}");
        }
        // Ten opponent discs on 8x8: no cut below 44.
        assert!(!may_cut_by_stability(0x3ff, 43, 64));
        assert!(may_cut_by_stability(0x3ff, 44, 64));
        assert!(!may_cut_by_stability(0x3ff, 3, 64));
    }

    #[test]
    fn parity_order_puts_odd_quadrants_first_in_static_order() {
        let mut rng = SmallRng::seed_from_u64(23);
        for i in 0..3000 {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let lay = Layout::of(size);
            let mut empties = 0u64;
            while empties.count_ones() < 4 {
                empties |= 1 << rng.random_range(0..64) & lay.mask;
            }
            // The static order: class, then square index.
            let mut order = Vec::new();
            for class in lay.classes() {
                order.extend((0..64).filter(|&sq| (empties & class) >> sq & 1 != 0));
            }
            let ranks = lay.ranks_and_parity(empties).0;
            let odd = lay.odd_quadrants(empties);
            let want: Vec<u32> = order
                .iter()
                .filter(|&&sq| odd >> sq & 1 != 0)
                .chain(order.iter().filter(|&&sq| odd >> sq & 1 == 0))
                .copied()
                .collect();
            assert_eq!(
                parity_order::<4>(lay, ranks, lay.parity(empties)).to_vec(),
                want,
                "{size} {empties:#x}"
            );
            // Three squares: the first three in static order.
            let e3 = empties & !(1u64 << order[3]);
            let odd3 = lay.odd_quadrants(e3);
            let want3: Vec<u32> = order[..3]
                .iter()
                .filter(|&&sq| odd3 >> sq & 1 != 0)
                .chain(order[..3].iter().filter(|&&sq| odd3 >> sq & 1 == 0))
                .copied()
                .collect();
            assert_eq!(
                parity_order::<3>(lay, lay.ranks_and_parity(e3).0, lay.parity(e3)).to_vec(),
                want3,
                "{size} {e3:#x}"
            );
            // Parity off: the static order; no odd quadrant: the same.
            assert_eq!(parity_order::<4>(lay, ranks, 0xf).to_vec(), order, "{size}");
            assert_eq!(parity_order::<4>(lay, ranks, 0).to_vec(), order, "{size}");
        }
    }

    /// The table's depth byte keeps the empty squares first (so exact and deep entries are
    /// kept by the replacement) and the level below them; a level's bounds serve that level
    /// and the less confident ones only.
    #[test]
    fn table_levels() {
        assert!(table_depth(20, EXACT_LEVEL) > table_depth(20, 0));
        assert!(table_depth(21, 0) > table_depth(20, EXACT_LEVEL));
        assert_eq!(table_depth(60, EXACT_LEVEL), 243);
        for level in 0..=EXACT_LEVEL {
            for stored in 0..=EXACT_LEVEL {
                let d = table_depth(33, stored);
                assert_eq!(usable(d, level), stored >= level, "stored {stored} read at {level}");
            }
        }
        for d in 1..PROBCUT_SIGMA.len() {
            assert!(PROBCUT_SIGMA[d] < PROBCUT_SIGMA[d - 1], "a deeper search errs less");
        }
        assert!((0..=60).all(|e| probcut_depth(e) < PROBCUT_SIGMA.len()));
    }

    #[test]
    fn portable_and_fast_instantiations_agree() {
        let tt = TranspositionTable::new(4);
        let never = AtomicBool::new(false);
        let mut rng = SmallRng::seed_from_u64(22);
        for i in 0..400 {
            let size = [BoardSize::Eight, BoardSize::Six][i % 2];
            let target = rng.random_range(0..=14);
            let pos = play_random_until(&Position::start_of(size), &mut rng, |p| p.empty_count() <= target);
            let (p, o) = (pos.player().0, pos.opponent().0);
            let alpha = rng.random_range(-20..20);
            let beta = alpha + rng.random_range(1..30);
            let mut ctx = Ctx {
                layout: Layout::of(size),
                tt: tt.for_size(size),
                tech: Techniques::default(),
                nodes: 0,
                stop: &never,
                halt: &never,
                stopped: false,
                table_min: TABLE_MIN,
                cache: Cache::new(),
                ordering: None,
                busy: None,
                probcut: None,
            };
            tt.clear();
            let a = search_portable(&mut ctx, p, o, alpha, beta);
            let nodes = ctx.nodes;
            for backend in Backend::ALL.into_iter().filter(|b| b.supported()) {
                ctx.nodes = 0;
                ctx.cache = Cache::new();
                tt.clear();
                let b = search_with(backend, &mut ctx, p, o, alpha, beta);
                // Same code, same order: the same value and the same tree.
                assert_eq!((a, nodes), (b, ctx.nodes), "{pos} ({alpha}, {beta}) {backend:?}");
            }
        }
    }
}
