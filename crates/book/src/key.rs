//! Canonical keys: a position's side-relative discs mapped to the smallest of their eight
//! symmetric images, with the symmetry that does it, and squares carried between the frames.

use othello_rules::{BoardSize, Color, Move, Position, Square, Symmetry, canonical};

/// A canonical key: the side-relative discs `(player, opponent)` of the smallest symmetric
/// image ([`othello_rules::canonical`]). Symmetric twins share it.
pub type Key = (u64, u64);

/// The canonical key of an 8x8 position and a symmetry that maps the position onto it.
pub fn canonical_key(pos: &Position) -> (Key, Symmetry) {
    let (p, o) = (pos.player().0, pos.opponent().0);
    let key = canonical(p, o, BoardSize::Eight);
    let sym = Symmetry::ALL
        .into_iter()
        .find(|s| (s.apply8(p), s.apply8(o)) == key)
        .expect("the canonical key is one of the eight images");
    (key, sym)
}

/// The position a key stands for (black to move: book values are side-relative, so the
/// colour does not matter).
pub fn key_position(key: Key) -> Position {
    Position::from_raw_unchecked(key.0, key.1, Color::Black, BoardSize::Eight)
}

/// The symmetry that undoes `s`.
pub fn inverse(s: Symmetry) -> Symmetry {
    match s {
        Symmetry::Rotate90 => Symmetry::Rotate270,
        Symmetry::Rotate270 => Symmetry::Rotate90,
        other => other,
    }
}

/// A move carried by the symmetry `s` (a pass stays a pass).
pub fn map_move(s: Symmetry, mv: Move) -> Move {
    match mv {
        Move::Pass => Move::Pass,
        Move::Place(sq) => {
            let bit = s.apply8(sq.bit());
            Move::Place(Square::from_index(bit.trailing_zeros() as u8).expect("one bit on the board"))
        }
    }
}

/// A move's code in the file: the square index 0..64, or [`PASS_CODE`].
pub fn move_code(mv: Move) -> u8 {
    match mv {
        Move::Pass => PASS_CODE,
        Move::Place(sq) => sq.index() as u8,
    }
}

/// The code of a pass.
pub const PASS_CODE: u8 = 64;

/// The move of a code, `None` above [`PASS_CODE`].
pub fn code_move(code: u8) -> Option<Move> {
    match code {
        PASS_CODE => Some(Move::Pass),
        c => Square::from_index(c).map(Move::Place),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_each_symmetry_and_moves_follow_the_discs() {
        let pos = Position::start()
            .play("f5".parse().unwrap())
            .unwrap()
            .play("f6".parse().unwrap())
            .unwrap();
        for s in Symmetry::ALL {
            let x = 0x0000_0000_0000_0703_u64;
            assert_eq!(inverse(s).apply8(s.apply8(x)), x, "{s:?}");
            let image = s.apply_position(&pos);
            for mv in pos.moves() {
                let m = map_move(s, mv);
                assert!(image.is_legal(m), "{s:?} {mv}");
                assert_eq!(s.apply_position(&pos.play(mv).unwrap()), image.play(m).unwrap());
                assert_eq!(map_move(inverse(s), m), mv);
            }
            let (k1, _) = canonical_key(&pos);
            let (k2, s2) = canonical_key(&image);
            assert_eq!(k1, k2);
            assert_eq!((s2.apply8(image.player().0), s2.apply8(image.opponent().0)), k2);
        }
        assert_eq!(map_move(Symmetry::Rotate90, Move::Pass), Move::Pass);
        for c in 0..=PASS_CODE {
            assert_eq!(move_code(code_move(c).unwrap()), c);
        }
        assert_eq!(code_move(65), None);
    }
}
