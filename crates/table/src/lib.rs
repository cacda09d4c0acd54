//! A transposition table for Othello searches, shared by many threads and exact about bounds.
//!
//! Searches and the endgame solver remember what they found about a position — a score, whether
//! it is exact or only a bound, the depth it was searched to and the best move — and look it up
//! when the position comes back by another move order. A wrong hit silently corrupts every score
//! above it, so correctness comes first:
//!
//! - **No false hits.** An entry stores the whole position (the board size and both
//!   side-relative bitboards), and a probe returns an entry only when all three are equal, so
//!   6x6 and 8x8 positions with the same bitboards never meet. The hash only chooses the bucket.
//! - **One interface.** Both tables implement [`Table`], so a search is generic over them;
//!   [`Table::for_size`] gives a [`BoardTable`] that fixes the size once for a whole search.
//! - **No torn entries.** Each bucket belongs to one of up to 1024 stripes chosen by the hash.
//!   A store holds its stripe's `parking_lot` mutex and makes the stripe's version word odd
//!   while it writes. A probe takes no lock: it reads the version, the bucket, and the version
//!   again, and uses what it read only if the version was even and did not change (a seqlock);
//!   otherwise it retries a few times, then reports a miss. So an entry is always read and
//!   written whole, and probes never wait. The locks and versions are private.
//! - **Bounds as stored.** [`Bound::Exact`], [`Bound::Lower`] (true score >= stored) and
//!   [`Bound::Upper`] (true score <= stored) come back exactly as stored; deciding what a bound
//!   allows is the caller's business.
//!
//! Replacement, in a bucket of four entries: a store for a position already present overwrites
//! it (keeping its best move if the new store has none); otherwise it takes an empty slot, else
//! the entry of an older generation, else the shallowest entry (lowest slot on ties). So within a
//! search deep entries survive shallow ones, and [`TranspositionTable::new_search`] makes the
//! previous search's entries the first to go without the cost of clearing the table.
//!
//! The slot layout (24 bytes) is documented field by field in the `entry` module source and
//! checked at compile time. [`LocalTable`] is the same table without locks for a single thread.
//!
//! ```
//! use othello_rules::{BoardSize, Move, Position};
//! use othello_table::{Bound, TranspositionTable};
//!
//! let tt = TranspositionTable::new(16); // 16 MiB
//! let pos = Position::start();
//! let (size, p, o) = (pos.size(), pos.player().0, pos.opponent().0);
//! assert!(tt.probe(size, p, o).is_none());
//!
//! tt.store(size, p, o, 8, 0, Bound::Exact, Some("f5".parse::<Move>().unwrap()));
//! let e = tt.probe(size, p, o).unwrap();
//! assert_eq!((e.depth, e.score, e.bound), (8, 0, Bound::Exact));
//! assert_eq!(e.best_move.unwrap().to_string(), "f5");
//! // The same discs with the other side to move, or on a 6x6 board, are other positions.
//! assert!(tt.probe(size, o, p).is_none());
//! assert!(tt.probe(BoardSize::Six, p, o).is_none());
//!
//! tt.new_search(); // entries stay, but are now the first candidates for replacement
//! assert_eq!(tt.probe(size, p, o).unwrap().generation, 0);
//! let s = tt.stats();
//! assert_eq!((s.probes, s.hits, s.stores), (5, 2, 1));
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bucket;
mod busy;
mod entry;
mod local;
mod stats;
mod sync;
mod table;
mod traits;

pub use busy::BusySet;
pub use entry::{Bound, Entry};
pub use local::LocalTable;
pub use stats::TableStats;
pub use table::TranspositionTable;
pub use traits::{BoardTable, Table};

#[cfg(all(test, loom))]
mod loom_model;
