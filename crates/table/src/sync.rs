//! The synchronisation primitives of the table: the standard library's atomics and a
//! `parking_lot` mutex, or loom's models of them when built with `--cfg loom` (the model check
//! of the seqlock protocol, see `docs/table.md`).

#[cfg(loom)]
pub(crate) use loom::hint::spin_loop;
#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU8, AtomicU64, fence};
#[cfg(not(loom))]
pub(crate) use std::hint::spin_loop;
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU8, AtomicU64, fence};

/// The writers' lock of a stripe.
pub(crate) struct Lock {
    #[cfg(not(loom))]
    inner: parking_lot::Mutex<()>,
    #[cfg(loom)]
    inner: loom::sync::Mutex<()>,
}

impl Default for Lock {
    fn default() -> Lock {
        Lock {
            #[cfg(not(loom))]
            inner: parking_lot::Mutex::new(()),
            #[cfg(loom)]
            inner: loom::sync::Mutex::new(()),
        }
    }
}

impl Lock {
    /// Holds the lock until the guard is dropped.
    #[inline]
    #[cfg(not(loom))]
    pub(crate) fn lock(&self) -> impl Drop + '_ {
        self.inner.lock()
    }

    /// Holds the lock until the guard is dropped.
    #[cfg(loom)]
    pub(crate) fn lock(&self) -> impl Drop + '_ {
        self.inner.lock().expect("a loom model thread panicked")
    }
}
