//! Probe and store counters.

/// Counters of a table since it was created or since the last `reset_stats`.
///
/// Under concurrent use the counters of a live table are a snapshot: each is exact for the
/// operations that finished before the snapshot, but they are not read at one single instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Number of probes.
    pub probes: u64,
    /// Number of probes that found their position.
    pub hits: u64,
    /// Number of stores.
    pub stores: u64,
    /// Number of stores that evicted an entry of another position.
    pub replacements: u64,
}

impl TableStats {
    /// Hits per probe, 0 when nothing was probed.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

impl std::ops::AddAssign for TableStats {
    fn add_assign(&mut self, o: TableStats) {
        self.probes += o.probes;
        self.hits += o.hits;
        self.stores += o.stores;
        self.replacements += o.replacements;
    }
}
