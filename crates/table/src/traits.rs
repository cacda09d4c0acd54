//! [`Table`], the interface both tables implement, and [`BoardTable`], a table seen for one
//! board size.

use crate::{Bound, Entry, LocalTable, TableStats, TranspositionTable};
use othello_rules::{BoardSize, Move};

/// What a search needs from a transposition table. Implemented by [`TranspositionTable`]
/// (shared by threads) and [`LocalTable`] (one thread, no locks), so an engine can be generic
/// over the table: `othello_search::Searcher<E, T: Table>`.
///
/// The key of an entry is the whole position: the board size and the side-relative bitboards
/// (`player`, `opponent`). A probe returns an entry only if all three are equal, so 6x6 and 8x8
/// positions with the same bitboards never see each other's entries, and one table can serve
/// every board size without being cleared.
///
/// ```
/// use othello_rules::{BoardSize, Position};
/// use othello_table::{Bound, LocalTable, Table, TranspositionTable};
///
/// /// Works with any table.
/// fn remember<T: Table>(table: &T, pos: &Position, score: i16) -> Option<i16> {
///     let (p, o) = (pos.player().0, pos.opponent().0);
///     table.store(pos.size(), p, o, 1, score, Bound::Exact, None);
///     table.probe(pos.size(), p, o).map(|e| e.score)
/// }
///
/// let pos = Position::start();
/// assert_eq!(remember(&TranspositionTable::new(1), &pos, 7), Some(7));
/// assert_eq!(remember(&LocalTable::new(1), &pos, 7), Some(7));
/// // The same discs on 6x6 are another position.
/// let t = LocalTable::new(1);
/// remember(&t, &pos, 7);
/// assert!(t.probe(BoardSize::Six, pos.player().0, pos.opponent().0).is_none());
/// ```
pub trait Table {
    /// A table of at most `mib` MiB, empty, generation 0.
    ///
    /// # Panics
    /// Panics (or aborts) if the memory cannot be allocated.
    fn with_mib(mib: usize) -> Self
    where
        Self: Sized;

    /// A copy of the entry of this position, if stored.
    fn probe(&self, size: BoardSize, player: u64, opponent: u64) -> Option<Entry>;

    /// Stores a result for this position (see the crate docs for the replacement policy).
    #[expect(
        clippy::too_many_arguments,
        reason = "the key (size, player, opponent) and the entry's fields"
    )]
    fn store(
        &self,
        size: BoardSize,
        player: u64,
        opponent: u64,
        depth: u8,
        score: i16,
        bound: Bound,
        best_move: Option<Move>,
    );

    /// Asks the CPU to start loading where this position's entry would be (a hint: no
    /// effect on any result). The default does nothing.
    #[inline]
    fn prefetch(&self, player: u64, opponent: u64) {
        let _ = (player, opponent);
    }

    /// Starts a new search: entries written so far become the first to be replaced.
    fn new_search(&self);

    /// The current generation.
    fn generation(&self) -> u8;

    /// Empties every entry (statistics and generation kept).
    fn clear(&self);

    /// The probe and store counters.
    fn stats(&self) -> TableStats;

    /// Sets the counters to zero.
    fn reset_stats(&self);

    /// The number of entries the table holds.
    fn capacity(&self) -> usize;

    /// The size asked for, in MiB.
    fn mib(&self) -> usize;

    /// The table as a [`TranspositionTable`] when it is one: the form several threads can
    /// share. A search runs helper threads (Lazy SMP) only on a table that returns `Some`; the
    /// default is `None` (one thread).
    fn as_shared(&self) -> Option<&TranspositionTable> {
        None
    }

    /// The table seen for positions of one board size: probes and stores without the size.
    fn for_size(&self, size: BoardSize) -> BoardTable<'_, Self>
    where
        Self: Sized,
    {
        BoardTable { table: self, size }
    }
}

/// A [`Table`] seen for one board size (from [`Table::for_size`]): the same entries, keyed by
/// the size given once. Copy it freely; it is a reference and a size.
#[derive(Debug)]
pub struct BoardTable<'a, T> {
    table: &'a T,
    size: BoardSize,
}

impl<T> Clone for BoardTable<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for BoardTable<'_, T> {}

impl<'a, T: Table> BoardTable<'a, T> {
    /// The table.
    pub fn table(&self) -> &'a T {
        self.table
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// [`Table::prefetch`].
    #[inline]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        self.table.prefetch(player, opponent);
    }

    /// [`Table::prefetch`] of every child of `(player, opponent)`: for each square of `moves`,
    /// the position after it, `flips(player, opponent, square)` giving the discs it turns. A
    /// node calls it before searching its first child, so that the children's buckets load
    /// together instead of one miss after another at each child's probe.
    #[inline(always)]
    pub fn prefetch_children(&self, player: u64, opponent: u64, moves: u64, flips: impl Fn(u64, u64, u32) -> u64) {
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips(player, opponent, sq);
            self.prefetch(opponent ^ f, player ^ f ^ (1u64 << sq));
        }
    }

    /// [`Table::probe`] for this board size.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        self.table.probe(self.size, player, opponent)
    }

    /// [`Table::store`] for this board size.
    #[inline]
    pub fn store(&self, player: u64, opponent: u64, depth: u8, score: i16, bound: Bound, best_move: Option<Move>) {
        self.table
            .store(self.size, player, opponent, depth, score, bound, best_move);
    }
}

macro_rules! forward {
    ($t:ty $(, $shared:ident)?) => {
        impl Table for $t {
            fn with_mib(mib: usize) -> Self {
                <$t>::new(mib)
            }
            #[inline]
            fn probe(&self, size: BoardSize, player: u64, opponent: u64) -> Option<Entry> {
                <$t>::probe(self, size, player, opponent)
            }
            #[inline]
            fn prefetch(&self, player: u64, opponent: u64) {
                <$t>::prefetch(self, player, opponent)
            }
            #[inline]
            fn store(
                &self,
                size: BoardSize,
                player: u64,
                opponent: u64,
                depth: u8,
                score: i16,
                bound: Bound,
                best_move: Option<Move>,
            ) {
                <$t>::store(self, size, player, opponent, depth, score, bound, best_move)
            }
            fn new_search(&self) {
                <$t>::new_search(self)
            }
            fn generation(&self) -> u8 {
                <$t>::generation(self)
            }
            fn clear(&self) {
                <$t>::clear(self)
            }
            fn stats(&self) -> TableStats {
                <$t>::stats(self)
            }
            fn reset_stats(&self) {
                <$t>::reset_stats(self)
            }
            fn capacity(&self) -> usize {
                <$t>::capacity(self)
            }
            fn mib(&self) -> usize {
                <$t>::mib(self)
            }
            $(
                fn as_shared(&self) -> Option<&TranspositionTable> {
                    let $shared = self;
                    Some($shared)
                }
            )?
        }
    };
}

forward!(TranspositionTable, shared);
forward!(LocalTable);
