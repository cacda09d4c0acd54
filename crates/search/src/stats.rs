//! [`SearchStats`]: what a search did.

use std::time::Duration;

/// Counters of one search (summed over all threads).
///
/// A node is one call of the search on a position: interior nodes, passes, leaves and
/// quiescence nodes all count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited (every call of the search, leaves and quiescence nodes included).
    pub nodes: u64,
    /// Evaluations of positions at the horizon (and below it, in quiescence).
    pub leaf_evals: u64,
    /// The part of `leaf_evals` answered by the thread's evaluation cache (the same values,
    /// without calling the evaluation).
    pub cached_evals: u64,
    /// Nodes that failed high (a move reached beta).
    pub beta_cutoffs: u64,
    /// Beta cutoffs caused by the first move searched: `first_move_cutoffs / beta_cutoffs` is
    /// the usual measure of move-ordering quality.
    pub first_move_cutoffs: u64,
    /// Table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found the position (whatever its draft).
    pub tt_hits: u64,
    /// Look-ups whose entry settled the node without searching it.
    pub tt_cutoffs: u64,
    /// Nodes searched below the horizon by quiescence.
    pub quiescence_nodes: u64,
    /// Shallow searches of selective search (ProbCut) tried.
    pub probcut_tries: u64,
    /// Nodes cut by selective search (a shallow search put them beyond the window).
    pub probcuts: u64,
    /// Late moves searched first at a reduced depth (late-move reductions of selective
    /// search).
    pub reductions: u64,
    /// Reduced moves that beat alpha and were searched again at the full depth.
    pub reduction_researches: u64,
    /// Wall-clock time of the search.
    pub time: Duration,
}

impl SearchStats {
    /// The fraction of beta cutoffs made by the first move searched (0 when there was none).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }

    /// Nodes per second over [`SearchStats::time`] (0 when no time was measured).
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }
}

impl std::ops::AddAssign<&SearchStats> for SearchStats {
    fn add_assign(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.leaf_evals += other.leaf_evals;
        self.cached_evals += other.cached_evals;
        self.beta_cutoffs += other.beta_cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.quiescence_nodes += other.quiescence_nodes;
        self.probcut_tries += other.probcut_tries;
        self.probcuts += other.probcuts;
        self.reductions += other.reductions;
        self.reduction_researches += other.reduction_researches;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adding sums every counter (the threads' counters are summed this way); the time is the
    /// caller's to set.
    #[test]
    fn adding_sums_every_counter() {
        let one = SearchStats {
            nodes: 1,
            leaf_evals: 2,
            cached_evals: 14,
            beta_cutoffs: 3,
            first_move_cutoffs: 4,
            tt_probes: 5,
            tt_hits: 6,
            tt_cutoffs: 7,
            quiescence_nodes: 8,
            probcut_tries: 9,
            probcuts: 10,
            reductions: 11,
            reduction_researches: 12,
            time: Duration::from_millis(13),
        };
        let mut sum = one.clone();
        sum += &one;
        sum += &one;
        let counters = |s: &SearchStats| {
            [
                s.nodes,
                s.leaf_evals,
                s.cached_evals,
                s.beta_cutoffs,
                s.first_move_cutoffs,
                s.tt_probes,
                s.tt_hits,
                s.tt_cutoffs,
                s.quiescence_nodes,
                s.probcut_tries,
                s.probcuts,
                s.reductions,
                s.reduction_researches,
            ]
        };
        assert_eq!(counters(&sum), counters(&one).map(|c| 3 * c));
        assert_eq!(sum.time, one.time);
    }
}
