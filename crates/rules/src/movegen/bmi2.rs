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

/// `LINES[sq]`: the column, the a1-h8 diagonal (step 9) and the h1-a8 diagonal (step 7)
/// through `sq`, each including `sq`, with the index of `sq` inside the line once gathered.
static LINES: [[(u64, u8); 3]; 64] = lines();

const fn lines() -> [[(u64, u8); 3]; 64] {
    let mut out = [[(0u64, 0u8); 3]; 64];
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
            let below = (masks[k] & ((1u64 << sq) - 1)).count_ones() as u8;
            out[sq][k] = (masks[k], below);
            k += 1;
        }
        sq += 1;
    }
    out
}

/// `OUTFLANK[pos][inner]`: in an 8-square line whose opponent discs are `inner << 1` (the two
/// end squares can never be flipped, so they are left out), the squares just past the run of
/// opponent discs next to `pos` on each side, for runs of at least one disc.
static OUTFLANK: [[u8; 64]; 8] = outflank();

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
static FLIPPED: [[u8; 256]; 8] = flipped();

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
    let sq = sq & 63;
    let (col, row) = (sq & 7, sq & 56);
    // The row: a shift gathers it.
    let inner = ((o >> row) >> 1) as usize & 63;
    let of = OUTFLANK[col as usize][inner] & (p >> row) as u8;
    let mut f = (FLIPPED[col as usize][of as usize] as u64) << row;
    for &(mask, pos) in &LINES[sq as usize] {
        let inner = (_pext_u64(o, mask) >> 1) as usize & 63;
        let of = OUTFLANK[pos as usize][inner] & _pext_u64(p, mask) as u8;
        f |= _pdep_u64(FLIPPED[pos as usize][of as usize] as u64, mask);
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
        // Each square's three lines include it, at the counted index.
        for (sq, lines) in LINES.iter().enumerate() {
            for &(m, pos) in lines {
                assert_ne!(m >> sq & 1, 0);
                assert_eq!((m & ((1u64 << sq) - 1)).count_ones(), pos as u32);
            }
        }
    }
}
