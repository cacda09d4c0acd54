//! Flips by parallel bit extract/deposit (BMI2 `pext`/`pdep`), one line at a time.
//!
//! Each of the four lines through the played square (row, column and the two diagonals) is
//! gathered into a byte with `pext` (the row with a shift). Two small tables then give the
//! flipped discs of that byte: [`OUTFLANK`] the squares just past the run of opponent discs on
//! each side of the played square (which flip when they hold a player disc), [`FLIPPED`] the
//! squares between the played square and those outflanking discs; `pdep` puts them back on the
//! board. Fast where `pext`/`pdep` are single micro-ops (Intel since Haswell, AMD since Zen 3);
//! microcoded and slow on AMD Zen 1/2, where [`super::Backend::Bmi2`] is not chosen by default.

// Used only by the x86-64 back ends: other architectures compile it unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

/// One line through a square, gathered by `pext`: its mask and the table of the square's index
/// inside the gathered byte (`&PAIRS[index]`), so that the flip needs no address arithmetic.
#[derive(Clone, Copy)]
struct Line {
    mask: u64,
    table: &'static [[u8; 2]; 256],
}

/// The lines of one square: the column, the a1-h8 diagonal (step 9) and the h1-a8 diagonal
/// (step 7), each including the square, then the row (whose byte a shift gathers: only its
/// table is used). 64 bytes, one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Lines {
    lines: [Line; 3],
    row: Line,
}

/// `LINES[sq]`: the lines of `sq`.
static LINES: [Lines; 64] = lines(&PAIRS);

const fn lines(pairs: &'static [[[u8; 2]; 256]; 8]) -> [Lines; 64] {
    let empty = Line {
        mask: 0,
        table: &pairs[0],
    };
    let mut out = [Lines {
        lines: [empty; 3],
        row: empty,
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut masks = [0u64; 3];
        let mut other = 0;
        while other < 64 {
            let (c2, r2) = (other % 8, other / 8);
            if c2 == c {
                masks[0] |= 1 << other;
            }
            if c2 - r2 == c - r {
                masks[1] |= 1 << other;
            }
            if c2 + r2 == c + r {
                masks[2] |= 1 << other;
            }
            other += 1;
        }
        let mut k = 0;
        while k < 3 {
            // The index of `sq` once the line is gathered: the line's squares below it.
            let below = (masks[k] & ((1u64 << sq) - 1)).count_ones() as usize;
            out[sq].lines[k] = Line {
                mask: masks[k],
                table: &pairs[below],
            };
            k += 1;
        }
        out[sq].row = Line {
            mask: 0xff << (sq & 56),
            table: &pairs[sq % 8],
        };
        sq += 1;
    }
    out
}

/// `PAIRS[pos][byte]`: `[OUTFLANK[pos][inner], FLIPPED[pos][byte]]` where `inner` is the
/// opponent line `byte` without its end squares, side by side so one table address serves
/// both look-ups of a line.
static PAIRS: [[[u8; 2]; 256]; 8] = pairs();

const fn pairs() -> [[[u8; 2]; 256]; 8] {
    let mut t = [[[0u8; 2]; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut b = 0;
        while b < 256 {
            t[pos][b] = [OUTFLANK[pos][(b >> 1) & 63], FLIPPED[pos][b]];
            b += 1;
        }
        pos += 1;
    }
    t
}

/// `OUTFLANK[pos][inner]`: in an 8-square line whose opponent discs are `inner << 1` (the two
/// end squares can never be flipped, so they are left out), the squares just past the run of
/// opponent discs next to `pos` on each side, for runs of at least one disc.
const OUTFLANK: [[u8; 64]; 8] = outflank();

const fn outflank() -> [[u8; 64]; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut inner = 0;
        while inner < 64 {
            let o = (inner << 1) as u32;
            let mut out = 0u32;
            let mut k = pos + 1;
            while k < 8 && o >> k & 1 != 0 {
                k += 1;
            }
            if k > pos + 1 && k < 8 {
                out |= 1 << k;
            }
            let mut k = pos as i32 - 1;
            while k >= 0 && o >> k & 1 != 0 {
                k -= 1;
            }
            if k < pos as i32 - 1 && k >= 0 {
                out |= 1 << k;
            }
            t[pos][inner] = out as u8;
            inner += 1;
        }
        pos += 1;
    }
    t
}

/// `FLIPPED[pos][outflank]`: the squares strictly between `pos` and each set bit of
/// `outflank`.
const FLIPPED: [[u8; 256]; 8] = flipped();

const fn flipped() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut of = 0;
        while of < 256 {
            let mut f = 0u32;
            let mut k = 0;
            while k < 8 {
                if of >> k & 1 != 0 {
                    let (lo, hi) = if k < pos { (k, pos) } else { (pos, k) };
                    let mut j = lo + 1;
                    while j < hi {
                        f |= 1 << j;
                        j += 1;
                    }
                }
                k += 1;
            }
            t[pos][of] = f as u8;
            of += 1;
        }
        pos += 1;
    }
    t
}

/// [`super::flips`] with `pext`/`pdep`.
///
/// # Safety
/// Outside a function with the same target features, call it only when the CPU supports BMI2
/// (see [`super::Backend::Bmi2`] and [`super::Backend::supported`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[inline]
pub fn flips_pext(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    let l = &LINES[sq as usize & 63];
    // The row: a shift gathers it.
    let row = sq & 56;
    let of = l.row.table[(o >> row) as u8 as usize][0] & (p >> row) as u8;
    let mut f = (l.row.table[of as usize][1] as u64) << row;
    for line in &l.lines {
        let of = line.table[_pext_u64(o, line.mask) as u8 as usize][0] & _pext_u64(p, line.mask) as u8;
        f |= _pdep_u64(line.table[of as usize][1] as u64, line.mask);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_on_a_hand_case() {
        // Line: player at 0, opponents at 1..=3, played at 4: outflank bit 0, flips 1..=3.
        assert_eq!(OUTFLANK[4][0b0111], 0b1); // opponents at 1, 2, 3 (inner bits 0..=2)
        assert_eq!(FLIPPED[4][0b1], 0b1110);
        // Opponents on both sides of 3: at 2 and at 4, 5.
        assert_eq!(OUTFLANK[3][0b11010], 1 << 1 | 1 << 6);
        assert_eq!(FLIPPED[3][1 << 1 | 1 << 6], 1 << 2 | 1 << 4 | 1 << 5);
        // No opponent next to the square: nothing.
        assert_eq!(OUTFLANK[3][0], 0);
        // Each square's lines include it, with the table of its counted index; the pairs are
        // the two tables side by side.
        for (sq, l) in LINES.iter().enumerate() {
            for line in l.lines.iter().chain([&l.row]) {
                assert_ne!(line.mask >> sq & 1, 0);
                let pos = (line.mask & ((1u64 << sq) - 1)).count_ones() as usize;
                assert!(std::ptr::eq(line.table, &PAIRS[pos]), "{sq}");
            }
            assert_eq!(l.row.mask, 0xff << (sq & 56));
        }
        for pos in 0..8 {
            for b in 0..256 {
                assert_eq!(PAIRS[pos][b], [OUTFLANK[pos][(b >> 1) & 63], FLIPPED[pos][b]]);
            }
        }
    }
}
