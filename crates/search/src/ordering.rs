//! Move ordering: a staged move picker.
//!
//! Alpha-beta cuts the most when the best move comes first. [`MovePicker`] hands out the legal
//! squares of a node in this order:
//!
//! 1. the table move (the best move stored for this position by an earlier search, any draft),
//!    if it is legal here;
//! 2. the two killer moves of the ply, if legal and not already given;
//! 3. the rest, best key first, where the key is, with [`OrderingHints::mobility`], minus the
//!    opponent's number of replies (fewest replies first, the "fastest first" rule of Edax),
//!    then the history counter of the square; equal keys go by square index, lowest first.
//!    Without a key (no mobility, no history) the rest go by the square's class
//!    ([`BoardSize::square_classes`], the static square order the endgame solver uses too:
//!    corners first, X-squares last), then by square index: a free guess that puts the usual
//!    good moves first.
//!
//! Stages 1 and 2 cost nothing until they are consumed, and stage 3 is sorted lazily (a
//! selection step per move taken), so a cutoff on the first move pays for no sorting. Every
//! choice is deterministic. The picker never yields a square twice nor an illegal square: the
//! "move picker perft" test runs perft through it and compares with the rules crate's perft.

use crate::kernel::{Dispatch, MoveGen};
use othello_rules::BoardSize;

/// The most square classes of a board size.
pub(crate) const MAX_CLASSES: usize = BoardSize::MAX_SQUARE_CLASSES;

/// The square classes of each board size, by mask, with an empty tail (see [`classes_of`]).
const CLASSES: [(u64, [u64; MAX_CLASSES]); 3] = {
    let mut out = [(0, [0; MAX_CLASSES]); 3];
    let mut i = 0;
    while i < 3 {
        let size = BoardSize::ALL[i];
        let c = size.square_classes();
        out[i].0 = size.mask().0;
        let mut j = 0;
        while j < c.len() {
            out[i].1[j] = c[j].0;
            j += 1;
        }
        i += 1;
    }
    out
};

/// The square classes ([`BoardSize::square_classes`]) of the board whose squares are `mask`,
/// with an empty tail; for a mask of no board size, one class.
#[inline]
pub(crate) fn classes_of(mask: u64) -> [u64; MAX_CLASSES] {
    let mut one = [0; MAX_CLASSES];
    one[0] = mask;
    CLASSES.iter().find(|&&(m, _)| m == mask).map_or(one, |&(_, c)| c)
}

/// The first square of `squares` (not empty) in class order, then square order.
#[inline(always)]
pub(crate) fn first_by_class(squares: u64, classes: &[u64; MAX_CLASSES]) -> u32 {
    let class = classes
        .iter()
        .map(|&c| squares & c)
        .find(|&c| c != 0)
        .unwrap_or(squares);
    class.trailing_zeros()
}

/// What the picker knows about a node besides its legal moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderingHints<'a> {
    /// The table's best move for this position (square index 0..64), if any. Ignored when not
    /// a legal square.
    pub table_move: Option<u8>,
    /// The ply's killer squares, most recent first (ignored when not legal).
    pub killers: [Option<u8>; 2],
    /// History counters by square, if the history heuristic is on.
    pub history: Option<&'a [u32; 64]>,
    /// Order the remaining moves by the opponent's reply count, fewest first.
    pub mobility: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Table,
    Killer(usize),
    Build,
    Rest,
}

/// Yields the legal squares of a node, best guess first (see the module docs).
pub struct MovePicker<'a> {
    player: u64,
    opponent: u64,
    mask: u64,
    /// Squares not yet given.
    remaining: u64,
    ordering: OrderingHints<'a>,
    stage: Stage,
    /// Whether stage 3 has keys (otherwise it goes by square index).
    keyed: bool,
    /// Stage-3 keys by square (only squares in `remaining` are meaningful).
    keys: [i32; 64],
}

/// The key weight of one opponent reply: above any history counter, so mobility decides first.
const MOBILITY_WEIGHT: i32 = 1 << 21;

impl<'a> MovePicker<'a> {
    /// A picker over `moves` (the legal squares of `player` against `opponent`, already masked
    /// to the board by `mask`).
    #[inline]
    pub fn new(player: u64, opponent: u64, mask: u64, moves: u64, ordering: OrderingHints<'a>) -> MovePicker<'a> {
        MovePicker {
            player,
            opponent,
            mask,
            remaining: moves,
            ordering,
            stage: Stage::Table,
            keyed: false,
            keys: [0; 64],
        }
    }

    #[inline]
    fn take(&mut self, sq: Option<u8>) -> Option<u8> {
        let sq = sq.filter(|&s| s < 64 && self.remaining >> s & 1 != 0)?;
        self.remaining &= !(1u64 << sq);
        Some(sq)
    }

    #[inline(always)]
    fn build<G: MoveGen>(&mut self, history: Option<&[u32; 64]>) {
        self.keyed = self.ordering.mobility || history.is_some();
        if !self.keyed {
            return;
        }
        let mut rest = self.remaining;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let mut key = 0i32;
            if self.ordering.mobility {
                let f = G::flips(self.player, self.opponent, sq);
                let (np, no) = (self.opponent ^ f, self.player ^ f ^ (1u64 << sq));
                let replies = (G::legal_moves(np, no) & self.mask).count_ones() as i32;
                key -= replies * MOBILITY_WEIGHT;
            }
            if let Some(h) = history {
                key += h[sq as usize].min(MOBILITY_WEIGHT as u32 - 1) as i32;
            }
            self.keys[sq as usize] = key;
        }
    }

    /// The next square, reading the history counters from `history` instead of
    /// [`OrderingHints::history`] (the search passes its live counters at each call, so the picker
    /// does not borrow them between calls). The counters are read once, when the picker first
    /// reaches the third stage.
    #[inline]
    pub fn next_with(&mut self, history: Option<&[u32; 64]>) -> Option<u8> {
        self.next_with_gen::<Dispatch>(history)
    }

    /// [`MovePicker::next_with`] with the move generation of `G` (the search's copy for its
    /// back end, `kernel.rs`).
    #[inline(always)]
    pub(crate) fn next_with_gen<G: MoveGen>(&mut self, history: Option<&[u32; 64]>) -> Option<u8> {
        loop {
            match self.stage {
                Stage::Table => {
                    self.stage = Stage::Killer(0);
                    if let Some(s) = self.take(self.ordering.table_move) {
                        return Some(s);
                    }
                }
                Stage::Killer(i) => {
                    self.stage = if i == 0 { Stage::Killer(1) } else { Stage::Build };
                    if let Some(s) = self.take(self.ordering.killers[i]) {
                        return Some(s);
                    }
                }
                Stage::Build => {
                    self.build::<G>(history);
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.remaining == 0 {
                        return None;
                    }
                    let best = if self.keyed {
                        // Selection step: the highest key; scanning squares upwards and
                        // replacing only on a strictly higher key keeps the lowest index
                        // among equals.
                        let mut best = self.remaining.trailing_zeros();
                        let mut rest = self.remaining & (self.remaining - 1);
                        while rest != 0 {
                            let sq = rest.trailing_zeros();
                            rest &= rest - 1;
                            if self.keys[sq as usize] > self.keys[best as usize] {
                                best = sq;
                            }
                        }
                        best
                    } else {
                        first_by_class(self.remaining, &classes_of(self.mask))
                    };
                    self.remaining &= !(1u64 << best);
                    return Some(best as u8);
                }
            }
        }
    }
}

/// Yields square indices (0..64), each legal square exactly once.
impl Iterator for MovePicker<'_> {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        let history = self.ordering.history;
        self.next_with(history)
    }
}
