//! The positions that the threads of a search are searching right now (ABDADA's "exclusive"
//! marks), so that a thread can leave a subtree another thread is in and come back to it last.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the set: only the nodes on the threads' current paths are marked at once (a few
/// dozen per thread), so collisions are rare, and one only makes a move wait.
const SLOTS: usize = 1 << 12;

/// A small lock-free set of the positions being searched, shared by the threads of a search.
///
/// A thread marks a node with [`BusySet::enter`] when it starts searching it and clears the
/// mark with [`BusySet::leave`] when done; before searching a move other than a node's first,
/// it asks [`BusySet::is_busy`] about the child and, if another thread is in it, searches the
/// node's other moves first. Marks only change the order of the work, never a value.
///
/// ```
/// use othello_table::BusySet;
///
/// let busy = BusySet::new();
/// let key = BusySet::key(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
/// assert!(busy.enter(key));
/// assert!(busy.is_busy(key));
/// assert!(!busy.enter(key)); // already marked
/// busy.leave(key);
/// assert!(!busy.is_busy(key));
/// ```
pub struct BusySet {
    slots: Box<[AtomicU64]>,
}

impl Default for BusySet {
    fn default() -> BusySet {
        BusySet::new()
    }
}

impl std::fmt::Debug for BusySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BusySet").field("slots", &self.slots.len()).finish()
    }
}

impl BusySet {
    /// An empty set (32 KiB).
    pub fn new() -> BusySet {
        BusySet {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The key of a side-relative position (never 0, which marks an empty slot).
    #[inline]
    pub fn key(player: u64, opponent: u64) -> u64 {
        othello_rules::hash::hash_pair(player, opponent) | 1
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 40) as usize & (SLOTS - 1)]
    }

    /// Marks `key` busy; false if its slot is taken (by this position or another), in which
    /// case the caller must not call [`BusySet::leave`].
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        self.slot(key)
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Clears the mark set by a successful [`BusySet::enter`].
    #[inline]
    pub fn leave(&self, key: u64) {
        self.slot(key).store(0, Ordering::Relaxed);
    }

    /// Whether `key` is marked (by some thread) now.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn marks_are_exclusive_and_cleared() {
        let busy = BusySet::new();
        let (a, b) = (BusySet::key(1, 2), BusySet::key(2, 1));
        assert!(a != 0 && b != 0 && a != b);
        assert!(!busy.is_busy(a));
        assert!(busy.enter(a));
        assert!(busy.is_busy(a));
        // A second thread entering the same node does not own the mark.
        assert!(!busy.enter(a));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        // Another position sharing the slot is not reported busy, and cannot take the slot.
        let other = a ^ 2;
        assert!(busy.enter(a));
        assert!(!busy.is_busy(other));
        assert!(!busy.enter(other));
        busy.leave(a);
        assert!(busy.enter(other) && busy.is_busy(other) && !busy.is_busy(a));
        // Positions in other slots are independent.
        assert!(busy.enter(b) && busy.is_busy(b) && busy.is_busy(other));
        assert_eq!(format!("{busy:?}"), "BusySet { slots: 4096 }");
    }
}
