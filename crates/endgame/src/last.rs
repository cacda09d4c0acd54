//! The last empty square: how many discs a move there flips when every other square is full.
//!
//! With one empty square left there is no need to generate moves or compute flipped discs: the
//! final score only needs the number of flips. As in Edax's `count_last_flip`, each of the four
//! lines through the square is folded into one byte (the player's discs; everything else counts
//! as an opponent disc because the board is full) and a 2 KiB table gives the flips in that
//! line. Squares off a smaller board read as opponent discs too; that is harmless, because they
//! sit at the ends of every line, so a run of them is never closed by a player disc.

/// `COUNT_FLIP[pos][line]`: discs flipped in an 8-square line by a player disc placed at `pos`
/// when `line` holds the player's discs and every other square is an opponent disc.
static COUNT_FLIP: [[u8; 256]; 8] = count_flip_table();

const fn count_flip_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards lower positions.
            let mut k = pos as i32 - 1;
            while k >= 0 && line & (1 << k) == 0 {
                k -= 1;
            }
            if k >= 0 {
                n += pos as i32 - 1 - k;
            }
            // Towards higher positions.
            let mut k = pos + 1;
            while k < 8 && line & (1 << k) == 0 {
                k += 1;
            }
            if k < 8 {
                n += (k - pos - 1) as i32;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
}

/// The two diagonals through each square: `[sq][0]` runs a1-h8 wise (step 9), `[sq][1]` h1-a8
/// wise (step 7); both include the square.
static DIAGONALS: [[u64; 2]; 64] = diagonals();

const fn diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other: i32 = 0;
        while other < 64 {
            let (c2, r2) = (other % 8, other / 8);
            if c2 - r2 == c - r {
                out[sq][0] |= 1u64 << other;
            }
            if c2 + r2 == c + r {
                out[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    out
}

/// The number of discs flipped by `player` playing on `sq` when every other square of the 8x8
/// grid not in `player` is an opponent disc (the position with `sq` as the only empty square).
#[inline(always)]
pub(crate) fn count_last_flip(player: u64, sq: u32) -> u32 {
    let (c, r) = ((sq & 7) as usize, (sq >> 3) as usize);
    let row = (player >> (sq & 56)) as u8 as usize;
    // Gathers column c into one byte, row k at bit k.
    let col = (((player >> c) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    // Each diagonal square has its own column, so summing the bytes packs them without carries.
    let d = &DIAGONALS[sq as usize];
    let d9 = ((player & d[0]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    let d7 = ((player & d[1]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    (COUNT_FLIP[c][row] + COUNT_FLIP[r][col] + COUNT_FLIP[c][d9] + COUNT_FLIP[c][d7]) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::movegen::portable;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn agrees_with_flips_on_full_boards() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let sq = rng.random_range(0..64u32);
            let player = rng.random::<u64>() & !(1 << sq);
            let opponent = !player & !(1 << sq);
            let expected = portable::flips(player, opponent, sq).count_ones();
            assert_eq!(count_last_flip(player, sq), expected, "player {player:#x} sq {sq}");
            // The bit of `sq` itself is never read (the solver's `last1` relies on it).
            assert_eq!(
                count_last_flip(player | 1 << sq, sq),
                expected,
                "player {player:#x} sq {sq}"
            );
        }
    }
}
