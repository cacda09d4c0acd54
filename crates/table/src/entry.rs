//! What the table hands out ([`Entry`], [`Bound`]) and how an entry is packed into a slot.
//!
//! # Slot layout (24 bytes, three 64-bit words)
//!
//! | bytes  | field        | meaning                                                          |
//! |--------|--------------|------------------------------------------------------------------|
//! | 0..8   | `player`     | discs of the side to move (the key, first half)                  |
//! | 8..16  | `opponent`   | discs of the other side (the key, second half)                   |
//! | 16..18 | `score`      | `i16`, little end first in the data word (bits 0..16)            |
//! | 18     | `depth`      | draft the score was searched to (bits 16..24), as the caller codes it |
//! | 19     | `best_move`  | [`Move::to_u8`] (0..64 square, 64 pass), 255 = none (bits 24..32) |
//! | 20     | `generation` | the table's generation when stored (bits 32..40)                 |
//! | 21     | `bound`      | 0 = empty slot, 1 = exact, 2 = lower, 3 = upper (bits 40..48)    |
//! | 22     | `side`       | the board's side length, 4, 6 or 8 (bits 48..56): part of the key |
//! | 23     | unused       | zero                                                             |
//!
//! The depth byte is the caller's: the table only orders entries by it for replacement (the
//! lowest goes first). The midgame search stores `draft << 1 | 1` for a full-width value and
//! `draft << 1` for a selective one; the endgame solver `empties << 2 | level`.
//!
//! Bytes 16..24 form one `u64` (the data word), so a slot is three machine words. The key is the
//! whole side-relative position, so two different positions never share an entry: a hit is only
//! reported when both bitboards and the board size are equal (a 6x6 position and an 8x8 one can
//! have the same bitboards, since smaller boards live in the corner of the 8x8 grid). An empty slot is marked by its bound byte, not by its
//! key, so even the (impossible in play) position with no discs can be stored.

use othello_rules::Move;

/// What a stored score says about the true score of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The stored score is the true score (at the stored depth).
    Exact,
    /// The true score is at least the stored score (the search failed high).
    Lower,
    /// The true score is at most the stored score (the search failed low).
    Upper,
}

impl Bound {
    #[inline]
    const fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    #[inline]
    const fn from_code(code: u64) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// A copy of one table entry, as returned by a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The depth (draft) the score was searched to.
    pub depth: u8,
    /// The score, from the side to move, in the units of whoever stored it.
    pub score: i16,
    /// How [`Entry::score`] relates to the true score.
    pub bound: Bound,
    /// The best (or refuting) move found, if any.
    pub best_move: Option<Move>,
    /// The table generation (see `new_search`) in which the entry was last written.
    pub generation: u8,
}

/// Code of "no best move" in the move byte.
const NO_MOVE: u64 = 255;

/// The data word of an empty slot.
pub(crate) const EMPTY: u64 = 0;

/// Packs the non-key fields into the data word (see the module docs for the layout).
#[inline]
pub(crate) const fn pack(
    side: u8,
    depth: u8,
    score: i16,
    bound: Bound,
    best_move: Option<Move>,
    generation: u8,
) -> u64 {
    let mv = match best_move {
        Some(m) => m.to_u8() as u64,
        None => NO_MOVE,
    };
    (score as u16 as u64)
        | (depth as u64) << 16
        | mv << 24
        | (generation as u64) << 32
        | bound.code() << 40
        | (side as u64) << 48
}

/// The board side byte of a data word.
#[inline]
pub(crate) const fn side_of(data: u64) -> u8 {
    (data >> 48) as u8
}

/// Unpacks a data word; `None` for an empty slot.
#[inline]
pub(crate) const fn unpack(data: u64) -> Option<Entry> {
    let bound = match Bound::from_code((data >> 40) & 0xff) {
        Some(b) => b,
        None => return None,
    };
    Some(Entry {
        depth: (data >> 16) as u8,
        score: data as u16 as i16,
        bound,
        // 255 (none) and any other code above 64 decode to `None`.
        best_move: Move::from_u8((data >> 24) as u8),
        generation: (data >> 32) as u8,
    })
}

/// The data word with its move byte replaced by the one of `old` (used when a store brings no move).
#[inline]
pub(crate) const fn with_move_of(data: u64, old: u64) -> u64 {
    (data & !(0xff << 24)) | (old & (0xff << 24))
}

/// Whether the data word carries a best move.
#[inline]
pub(crate) const fn has_move(data: u64) -> bool {
    (data >> 24) & 0xff != NO_MOVE
}

/// Whether the data word is an occupied slot.
#[inline]
pub(crate) const fn is_occupied(data: u64) -> bool {
    (data >> 40) & 0xff != 0
}

/// The generation byte of a data word.
#[inline]
pub(crate) const fn generation_of(data: u64) -> u8 {
    (data >> 32) as u8
}

/// The depth byte of a data word.
#[inline]
pub(crate) const fn depth_of(data: u64) -> u8 {
    (data >> 16) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_every_field() {
        let moves = (0..=64).map(Move::from_u8).chain([None]);
        for mv in moves {
            for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                for (depth, score, generation) in [(0, 0, 0), (255, i16::MIN, 255), (17, i16::MAX, 3), (1, -1, 128)] {
                    let data = pack(8, depth, score, bound, mv, generation);
                    assert!(is_occupied(data));
                    assert_eq!(side_of(data), 8);
                    assert_eq!(side_of(pack(6, depth, score, bound, mv, generation)), 6);
                    assert_eq!(has_move(data), mv.is_some());
                    assert_eq!(depth_of(data), depth);
                    assert_eq!(generation_of(data), generation);
                    assert_eq!(data >> 56, 0, "byte 23 stays zero");
                    let e = unpack(data).unwrap();
                    assert_eq!(
                        e,
                        Entry {
                            depth,
                            score,
                            bound,
                            best_move: mv,
                            generation
                        }
                    );
                }
            }
        }
        assert_eq!(unpack(EMPTY), None);
        assert!(!is_occupied(EMPTY));
    }

    #[test]
    fn keeping_the_old_move_changes_only_the_move() {
        let old = pack(8, 3, 5, Bound::Lower, "c4".parse().ok(), 1);
        let new = pack(8, 9, -7, Bound::Exact, None, 2);
        let merged = unpack(with_move_of(new, old)).unwrap();
        assert_eq!(
            merged,
            Entry {
                best_move: "c4".parse().ok(),
                ..unpack(new).unwrap()
            }
        );
    }
}
