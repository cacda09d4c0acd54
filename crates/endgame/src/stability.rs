//! Stable discs: a fast lower bound on the discs that can never be flipped, for Edax-style
//! stability cut-offs.
//!
//! A disc is stable when, along each of the four line directions, it cannot be outflanked:
//! the line through it is full, or it has a neighbour on that line that is off the board or is
//! itself a stable disc of the same colour. Starting from no stable disc and adding discs that
//! meet the rule until nothing changes gives a set that is stable for sure (the smallest fixed
//! point; it finds the corners, the edges anchored to them, full lines, and what leans on them).
//! Edax's edge table finds a few more edge discs; this version needs no table and works for
//! every board size, because the squares off a smaller board count as full and as walls.

use crate::layout::Layout;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Squares of full rows, columns and both diagonal directions of `filled` (an 8x8 set).
#[inline(always)]
fn full_lines(filled: u64) -> [u64; 4] {
    // Rows: the AND of the eight bits of each byte lands in its lowest bit.
    let mut h = filled & (filled >> 4);
    h &= h >> 2;
    h &= h >> 1;
    let h = (h & 0x0101_0101_0101_0101).wrapping_mul(0xff);
    // Columns: the AND of the eight rows.
    let mut v = filled & (filled >> 32);
    v &= v >> 16;
    v &= v >> 8;
    let v = (v & 0xff).wrapping_mul(0x0101_0101_0101_0101);
    [h, v, full_direction(filled, 9), full_direction(filled, 7)]
}

/// Squares whose whole line in direction `s` (9: a1-h8 wise, 7: h1-a8 wise) is filled.
///
/// By doubling steps (1, 2, then 4 squares), as Edax's `get_full_lines`: after the step of
/// `k` squares, a square is kept when the `2k` squares from it towards the end of its line (as
/// many as the board has) are filled. A square with fewer than `k` squares beyond it along the
/// line keeps what it has (its whole remaining line was already checked), the others look `k`
/// squares on, which stays on the same line, so no shift wraps around the board.
/// Bit-identical to one square at a time, seven times (tested against it).
#[inline(always)]
fn full_direction(filled: u64, s: u32) -> u64 {
    const COL_A: u64 = 0x0101_0101_0101_0101;
    // Columns >= 8 - k (the last k columns) and rows >= 8 - k, for k = 1, 2, 4.
    const LAST_COLS: [u64; 3] = [COL_A << 7, COL_A * 0xc0, COL_A * 0xf0];
    const LAST_ROWS: [u64; 3] = [0xff << 56, 0xffff << 48, 0xffff_ffff << 32];
    // The first k columns and the first k rows.
    const FIRST_COLS: [u64; 3] = [COL_A, COL_A * 0x03, COL_A * 0x0f];
    const FIRST_ROWS: [u64; 3] = [0xff, 0xffff, 0xffff_ffff];
    // a: filled from here to the end of the line at +s; b: the same towards -s. Along +9 a
    // square has min(7 - column, 7 - row) squares beyond it, along -9 min(column, row); along
    // +7 (one row up, one column left) min(column, 7 - row), along -7 min(7 - column, row).
    let mut a = filled;
    let mut b = filled;
    for (k, step) in [s, 2 * s, 4 * s].into_iter().enumerate() {
        let (short_plus, short_minus) = if s == 9 {
            (LAST_COLS[k] | LAST_ROWS[k], FIRST_COLS[k] | FIRST_ROWS[k])
        } else {
            (FIRST_COLS[k] | LAST_ROWS[k], LAST_COLS[k] | FIRST_ROWS[k])
        };
        a &= (a >> step) | short_plus;
        b &= (b << step) | short_minus;
    }
    a & b
}

/// [`full_direction`] one square at a time (the reference of the tests).
#[cfg(test)]
fn full_direction_by_steps(filled: u64, s: u32) -> u64 {
    const ROW_1: u64 = 0xff;
    const ROW_8: u64 = 0xff << 56;
    // Squares without a neighbour at +s / -s, and the masks that stop shifts from wrapping.
    let (off_plus, off_minus, keep_plus, keep_minus) = if s == 9 {
        (ROW_8 | !NOT_H, ROW_1 | !NOT_A, NOT_H, NOT_A)
    } else {
        (ROW_8 | !NOT_A, ROW_1 | !NOT_H, NOT_A, NOT_H)
    };
    let mut a = filled;
    let mut b = filled;
    for _ in 0..7 {
        a &= ((a >> s) & keep_plus) | off_plus;
        b &= ((b << s) & keep_minus) | off_minus;
    }
    a & b
}

/// A subset of `discs` that can never be flipped (see the module docs). `other` holds the
/// other colour's discs.
#[inline(always)]
pub(crate) fn stable_discs(discs: u64, other: u64, layout: &Layout) -> u64 {
    let filled = discs | other | !layout.mask;
    let [fh, fv, f9, f7] = full_lines(filled);
    let safe_h = fh | layout.wall_h;
    let safe_v = fv | layout.wall_v;
    let safe_9 = f9 | layout.wall_d;
    let safe_7 = f7 | layout.wall_d;
    // Discs safe in every direction from walls and full lines alone.
    let mut stable = discs & safe_h & safe_v & safe_9 & safe_7;
    if stable == 0 {
        return 0;
    }
    loop {
        let h = safe_h | ((stable >> 1) & NOT_H) | ((stable << 1) & NOT_A);
        let v = safe_v | (stable >> 8) | (stable << 8);
        let d9 = safe_9 | ((stable >> 9) & NOT_H) | ((stable << 9) & NOT_A);
        let d7 = safe_7 | ((stable >> 7) & NOT_A) | ((stable << 7) & NOT_H);
        let next = stable | (discs & h & v & d9 & d7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::play_random_until;
    use othello_rules::{BoardSize, Position};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Whether some continuation of the game turns one of `black_stable` / `white_stable`.
    fn some_flip(pos: &Position, black_stable: u64, white_stable: u64) -> bool {
        if pos.black().0 & white_stable != 0 || pos.white().0 & black_stable != 0 {
            return true;
        }
        pos.moves()
            .into_iter()
            .any(|m| some_flip(&pos.play(m).unwrap(), black_stable, white_stable))
    }

    #[test]
    fn stable_discs_never_flip() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut found = 0;
        for i in 0..600 {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let target = rng.random_range(0..=7);
            let pos = play_random_until(&Position::start_of(size), &mut rng, |p| p.empty_count() <= target);
            let lay = Layout::of(size);
            let (b, w) = (pos.black().0, pos.white().0);
            let sb = stable_discs(b, w, lay);
            let sw = stable_discs(w, b, lay);
            assert_eq!(sb & !b, 0);
            assert_eq!(sw & !w, 0);
            found += (sb | sw).count_ones();
            assert!(!some_flip(&pos, sb, sw), "{pos}: stable {sb:#x} {sw:#x}");
        }
        assert!(found > 3000, "the test should see many stable discs ({found})");
    }

    #[test]
    fn full_direction_by_doubling_equals_one_square_at_a_time() {
        let mut rng = SmallRng::seed_from_u64(12);
        for i in 0..200_000 {
            // Dense sets (most lines nearly full) and sparse ones.
            let filled = match i % 3 {
                0 => rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>(),
                1 => !(1u64 << rng.random_range(0..64)) & !(1u64 << rng.random_range(0..64)),
                _ => rng.random::<u64>(),
            };
            for s in [7, 9] {
                assert_eq!(
                    full_direction(filled, s),
                    full_direction_by_steps(filled, s),
                    "{filled:#x} {s}"
                );
            }
        }
        for s in [7, 9] {
            assert_eq!(full_direction(u64::MAX, s), u64::MAX);
            assert_eq!(full_direction(0, s), 0);
        }
    }

    #[test]
    fn full_lines_and_corners() {
        let lay = Layout::of(BoardSize::Eight);
        // A full first row, black: all eight discs are stable (corners, and a full row leaning
        // on them); a lone central disc is not.
        let row = 0xffu64;
        assert_eq!(stable_discs(row, 0, lay), row);
        assert_eq!(stable_discs(1 << 27, 0, lay), 0);
        // A full board: everything is stable.
        assert_eq!(
            stable_discs(0x00ff_00ff_00ff_00ff, 0xff00_ff00_ff00_ff00, lay),
            0x00ff_00ff_00ff_00ff
        );
        assert_eq!(full_direction(u64::MAX, 9), u64::MAX);
        assert_eq!(full_direction(!(1 << 63), 9), !0x8040_2010_0804_0201);
        assert_eq!(full_direction(!(1 << 7), 7), !0x0102_0408_1020_4080);
    }
}
