//! A small thread-private table for the nodes a few squares above the shallow layer.
//!
//! Most table traffic comes from the nodes with 8 to [`CACHE_MAX`] empty squares, whose
//! transpositions happen close together in the tree. The shared table costs an atomic counter
//! and two cache lines per probe there; this direct-mapped array of exact `(player, opponent)`
//! keys with a lower and an upper bound stays mostly in the processor caches and needs no
//! synchronisation. Entries are facts about positions (full-depth bounds). Each search context
//! (one per thread and per solve) has its own cache, allocated (768 KiB) at its first store, so
//! the helper threads of a solve do not share these shallow results.

/// Most empty squares of a position kept here (more go to the shared table). 10 measured
/// fewer nodes than 12 for the same time (docs/BENCHMARKS.md, 2026-11-30).
pub(crate) const CACHE_MAX: u32 = 10;

/// log2 of the number of entries (24 bytes each): 768 KiB, well inside this Xeon's 2 MiB L2
/// (2^16 measured ~3% slower on FFO #41/#42/#44 and the 20-empty random lines, 2026-11-30).
const BITS: u32 = 15;

/// One position's bounds and best move (`64` when none).
#[derive(Clone, Copy, Default)]
pub(crate) struct Slot {
    p: u64,
    o: u64,
    pub lower: i8,
    pub upper: i8,
    pub best: u8,
}

/// The direct-mapped array.
pub(crate) struct Cache {
    slots: Box<[Slot]>,
    shift: u32,
}

impl Cache {
    /// An empty cache (the memory is allocated by the first store).
    pub(crate) fn new() -> Cache {
        Cache {
            slots: Box::default(),
            shift: 64 - BITS,
        }
    }

    #[inline(always)]
    fn index(&self, p: u64, o: u64) -> usize {
        let h = (p ^ o.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h >> self.shift) as usize
    }

    /// The entry of `(p, o)`, if kept.
    #[inline(always)]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let s = self.slots[self.index(p, o)];
        (s.p == p && s.o == o).then_some(s)
    }

    /// Records `lower <= score <= upper` for `(p, o)` (intersected with what is already known
    /// about the same position; another position in the slot is replaced).
    #[inline(always)]
    pub(crate) fn store(&mut self, p: u64, o: u64, lower: i32, upper: i32, best: u32) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); 1 << BITS].into_boxed_slice();
        }
        let s = &mut self.slots[self.index(p, o)];
        if s.p == p && s.o == o {
            s.lower = s.lower.max(lower as i8);
            s.upper = s.upper.min(upper as i8);
            if best < 64 {
                s.best = best as u8;
            }
        } else {
            *s = Slot {
                p,
                o,
                lower: lower as i8,
                upper: upper as i8,
                best: best as u8,
            };
        }
    }
}
