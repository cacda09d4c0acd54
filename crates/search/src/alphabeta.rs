//! Fail-soft negamax alpha-beta and PVS (NegaScout), with the transposition table.
//!
//! One function serves both: with PVS every move after the first is searched with a null window
//! `(alpha, alpha + 1)` and re-searched with the full window only when it fails high inside it.
//!
//! Depth counts discs placed: a pass keeps the depth (and is a ply), a game that is over scores
//! exactly, and a node at depth 0 is a horizon leaf (the evaluation, or quiescence).
//!
//! # The table and exact values
//! A depth-limited value depends on the draft, so an entry settles a node only when its draft
//! equals the node's draft. The draft is `min(depth, empties)`: at `depth >= empties` the
//! search reaches every end of the game and the value is exact, the same for any such depth.
//! In Othello a position's disc count fixes how many discs were placed since the root, so within
//! one iteration every path reaches a position with the same draft: requiring equal drafts
//! loses no transposition, and it makes the table path-independent — a search with the table
//! returns exactly the minimax value of the same depth. Entries of any draft still supply their
//! best move for ordering. Bounds: an exact entry returns its score (at a PV node only when the
//! score lies outside the window, so that PVs are never cut short), a lower bound at or above
//! beta and an upper bound at or below alpha cut; otherwise, at a non-PV node, a lower bound
//! raises alpha and an upper bound lowers beta. Scores are stored relative to the node's
//! original window, so every stored bound is true.
//!
//! # Selective search
//! With a selectivity level and a cut table (`Worker::cuts`), a non-PV node with
//! `depth < empties` first tries the table's shallow searches for its depth (`probcut`): a
//! null-window search at the shallow bound that predicts the deep value at or above beta with
//! the level's confidence cuts with beta, one at the bound for alpha cuts with alpha. Such a
//! node's entries are stored with the selective mark of the depth byte (`table_depth`) and a
//! full-width search never takes them as bounds (`entry_serves`).

use crate::heuristics::NO_SQUARE;
use crate::kernel::Kernel;
use crate::ordering::{MovePicker, OrderingHints, first_by_class};
use crate::score::{EVAL_LIMIT, INFINITY};
use crate::worker::{Cuts, Worker};
use othello_eval::Evaluator;
use othello_rules::{Move, Square};
use othello_table::Table;
use othello_table::{Bound, BusySet};

/// Mobility ordering costs a move generation per move: below this depth (children that are
/// leaves, ordered by square class instead) it is not worth it (measured, see
/// `docs/search.md`, "Move order near the leaves").
pub(crate) const MOBILITY_MIN_DEPTH: u32 = 2;

/// Late-move reductions, part of selective search (`SearchConfig::reductions`): at a
/// non-PV node of at least this depth where a cut may be tried (a selective search, the node
/// not reaching the end of the game, past the full-width plies), every move after the first
/// [`LMR_MIN_MOVES`] is searched first [`LMR_REDUCTION`] discs shallower with the null
/// window, and again at the full depth only when it beats alpha there. Measured against the
/// search without them at equal time (docs/search.md, "Late-move reductions").
pub(crate) const LMR_MIN_DEPTH: u32 = 3;
/// Moves searched at full depth before a node's later moves are reduced.
pub(crate) const LMR_MIN_MOVES: u32 = 3;
/// How many discs shallower a late move is searched first.
pub(crate) const LMR_REDUCTION: u32 = 1;

/// Nodes shallower than this neither probe nor store the table: a probe (a lock and a likely
/// cache miss) costs more than searching a depth-1 node again (measured, see
/// `docs/BENCHMARKS.md`). Values are unaffected: the table only saves work.
pub(crate) const TABLE_MIN_DEPTH: u32 = 3;

/// With several threads, nodes from this depth on are marked busy while searched (see
/// `threads.rs`).
/// Measured on the bench positions (2 threads, depth 12): 3, 4 and 6 alike; 4 kept.
pub(crate) const BUSY_MIN_DEPTH: u32 = 4;

/// History ordering costs a selection step per move; below this depth the moves go by square
/// class (`BoardSize::square_classes`) after the table move and the killers (measured).
pub(crate) const HISTORY_MIN_DEPTH: u32 = 2;

/// The table's depth byte: the draft and whether the value is selective, `draft << 1 | 1`
/// for a full-width value and `draft << 1` for a selective one (a cut may have been taken in
/// its subtree), so the replacement's order by depth byte is the drafts' order, full-width
/// first among equal drafts, and a full-width search keeps exactly the bytes' former order.
#[inline]
pub(crate) fn table_depth(draft: u32, selective: bool) -> u8 {
    (draft << 1 | u32::from(!selective)) as u8
}

/// Whether a table entry with depth byte `byte` settles (as a bound) a node of `draft` in a
/// selective (`selective`) or full-width search: the same draft, and full-width unless the
/// search is selective. A selective entry never serves a full-width search. (The level of a
/// selective entry is the searcher's: it clears the table when the selectivity changes.)
#[inline]
pub(crate) fn entry_serves(byte: u8, draft: u32, selective: bool) -> bool {
    if selective {
        u32::from(byte >> 1) == draft
    } else {
        u32::from(byte) == draft << 1 | 1
    }
}

impl<E: Evaluator, T: Table> Worker<'_, E, T> {
    /// The fail-soft value of `(p, o)` searched `depth` discs deep in the window
    /// `(alpha, beta)`, `ply` plies below the root. Returns 0 (to be ignored) when aborted.
    /// Runs the copy of the recursion compiled for the move-generation back end in use
    /// (`kernel.rs`).
    #[inline]
    pub(crate) fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        crate::kernel::search_with(self.backend, self, p, o, depth, alpha, beta, ply)
    }

    /// [`Worker::search`] with the move generation of `G`; its recursion goes through
    /// `G::search`, so it stays in `G`'s copy.
    #[inline(always)]
    pub(crate) fn search_body<G: Kernel>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv.clear(ply);
        if self.enter() {
            return 0;
        }
        let moves = G::legal_moves(p, o) & self.mask;
        if moves == 0 {
            if G::legal_moves(o, p) & self.mask == 0 {
                return self.final_value(p, o);
            }
            if depth == 0 {
                return self.horizon::<G>(p, o, 0, ply, alpha, beta);
            }
            let s = -G::search(self, o, p, depth, -beta, -alpha, ply + 1);
            self.pv.update_pass(ply);
            return s;
        }
        if depth == 0 {
            return self.horizon::<G>(p, o, moves, ply, alpha, beta);
        }
        if depth == 1 && self.depth_one {
            return self.search_one::<G>(p, o, moves, alpha, beta, ply);
        }

        let pv_node = beta - alpha > 1;
        let (orig_alpha, orig_beta) = (alpha, beta);
        let empties = (self.mask & !(p | o)).count_ones();
        let draft = depth.min(empties);
        // A selective value: a cut may be tried in this node's subtree (`depth - empties` is
        // the same all along a line, so only when it is negative here).
        let selective_node = self.cuts.is_some() && depth < empties;
        let mut table_move = None;
        let table = self.table.filter(|_| depth >= TABLE_MIN_DEPTH);
        if let Some(table) = table {
            self.stats.tt_probes += 1;
            if let Some(e) = table.probe(p, o) {
                self.stats.tt_hits += 1;
                table_move = e.best_move.and_then(Move::square).map(|s| s.index() as u8);
                if entry_serves(e.depth, draft, self.cuts.is_some()) {
                    let s = i32::from(e.score);
                    let cut = match e.bound {
                        Bound::Exact => !pv_node || s <= alpha || s >= beta,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        self.stats.tt_cutoffs += 1;
                        return s;
                    }
                    if !pv_node {
                        match e.bound {
                            Bound::Lower => alpha = alpha.max(s),
                            Bound::Upper => beta = beta.min(s),
                            Bound::Exact => {}
                        }
                    }
                }
            }
        }

        if let Some(cuts) = self.cuts.filter(|_| selective_node && !pv_node)
            && let Some(v) = self.probcut::<G>(cuts, p, o, depth, empties, alpha, beta, ply)
        {
            return v;
        }

        let color = self.color_at(ply) as usize;
        let killers = if self.killers {
            self.heuristics.killers(ply).map(|k| (k != NO_SQUARE).then_some(k))
        } else {
            [None; 2]
        };
        let ordering = OrderingHints {
            table_move,
            killers,
            history: None,
            mobility: self.mobility && depth >= MOBILITY_MIN_DEPTH,
        };
        // The children probe the table (depth - 1 >= TABLE_MIN_DEPTH): their buckets are
        // asked for now, all at once, rather than each missing the cache at its own probe
        // (docs/search.md, "Table prefetch"; a hint: no value or count changes).
        if depth > TABLE_MIN_DEPTH
            && let Some(t) = self.table
        {
            t.prefetch_children(p, o, moves, G::flips);
        }
        let mut picker = MovePicker::new(p, o, self.mask, moves, ordering);
        let mut best = -INFINITY;
        let mut best_sq = NO_SQUARE;
        let mut searched = 0u32;
        // Threads (see `threads.rs`): this node is marked busy while searched, and a move
        // (other than the first) whose child another thread is searching waits until the
        // other moves are done.
        let busy = self.clock.busy().filter(|_| depth >= BUSY_MIN_DEPTH);
        let key = busy.map_or(0, |_| BusySet::key(p, o));
        let marked = busy.is_some_and(|b| b.enter(key));
        let check_children = busy.is_some() && depth > BUSY_MIN_DEPTH;
        // The moves put off because another thread was searching them.
        let mut deferred = 0u64;
        // Late-move reductions (see `LMR_MIN_DEPTH`): a selective non-PV node deep enough,
        // past the full-width plies of the selectivity's `@N`.
        let reduce = self.reductions
            && selective_node
            && !pv_node
            && depth >= LMR_MIN_DEPTH
            && self.cuts.is_some_and(|c| ply as u32 + 1 >= c.from);
        loop {
            let history = (self.history && depth >= HISTORY_MIN_DEPTH).then(|| self.heuristics.history(color));
            let (sq, picked) = match picker.next_with_gen::<G>(history) {
                Some(sq) => (sq, true),
                None if deferred != 0 => {
                    let sq = deferred.trailing_zeros() as u8;
                    deferred &= deferred - 1;
                    (sq, false)
                }
                None => break,
            };
            let f = G::flips(p, o, u32::from(sq));
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            if picked && check_children && searched > 0 && busy.is_some_and(|b| b.is_busy(BusySet::key(np, no))) {
                deferred |= 1 << sq;
                continue;
            }
            let s = if depth == 1 && !self.quiescence {
                // A horizon child's value does not depend on the window: no null window, no
                // re-search, no call.
                -self.leaf::<G>(np, no, ply + 1, -beta, -alpha)
            } else if depth == 1 {
                // A horizon child with quiescence: the same windows as below, without the call
                // (a leaf is most of the nodes, and the recursion's frame costs more than it).
                if searched == 0 || !self.pvs {
                    -self.leaf::<G>(np, no, ply + 1, -beta, -alpha)
                } else {
                    let s = -self.leaf::<G>(np, no, ply + 1, -alpha - 1, -alpha);
                    if s > alpha && s < beta && !self.aborted {
                        -self.leaf::<G>(np, no, ply + 1, -beta, -alpha)
                    } else {
                        s
                    }
                }
            } else if searched == 0 || !self.pvs {
                -G::search(self, np, no, depth - 1, -beta, -alpha, ply + 1)
            } else if reduce && searched >= LMR_MIN_MOVES {
                // A late move of a selective non-PV node: first searched `LMR_REDUCTION`
                // discs shallower; only a move that beats alpha there is searched again at
                // the node's depth, and its value is that search's.
                self.stats.reductions += 1;
                let s = -G::search(self, np, no, depth - 1 - LMR_REDUCTION, -alpha - 1, -alpha, ply + 1);
                if s > alpha && !self.aborted {
                    self.stats.reduction_researches += 1;
                    -G::search(self, np, no, depth - 1, -alpha - 1, -alpha, ply + 1)
                } else {
                    s
                }
            } else {
                let s = -G::search(self, np, no, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.aborted {
                    -G::search(self, np, no, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            searched += 1;
            if s > best {
                best = s;
                best_sq = sq;
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        self.pv.update(ply, sq);
                    }
                    if s >= beta {
                        self.record_cutoff(ply, sq, searched, depth);
                        break;
                    }
                }
            }
        }
        if marked {
            busy.expect("marked in it").leave(key);
        }
        if self.aborted {
            return 0;
        }

        if let Some(table) = table {
            let (bound, mv) = if best <= orig_alpha {
                // A fail low knows no best move; the table keeps the one it had.
                (Bound::Upper, None)
            } else if best >= orig_beta {
                (Bound::Lower, Square::from_index(best_sq).map(Move::Place))
            } else {
                (Bound::Exact, Square::from_index(best_sq).map(Move::Place))
            };
            // Scores are within +-EVAL_LIMIT (30000) and drafts within 64: both fit.
            table.store(p, o, table_depth(draft, selective_node), best as i16, bound, mv);
        }
        best
    }

    /// A beta cut-off by `sq`, the `searched`-th move tried at `ply` in a node of `depth`:
    /// the counters, the killer and the history, as every node records them.
    #[inline(always)]
    fn record_cutoff(&mut self, ply: usize, sq: u8, searched: u32, depth: u32) {
        self.stats.beta_cutoffs += 1;
        if searched == 1 {
            self.stats.first_move_cutoffs += 1;
        }
        if self.killers {
            self.heuristics.add_killer(ply, sq);
        }
        if self.history {
            let color = self.color_at(ply) as usize;
            self.heuristics.add_history(color, sq, depth);
        }
    }

    /// The rest of a node at depth 1 with legal `moves` (after [`Worker::search_body`]'s
    /// common start): the general node's loop with only what can happen at depth 1, so the
    /// same tree, values and counters. No table (below `TABLE_MIN_DEPTH`), no busy marks
    /// (below `BUSY_MIN_DEPTH`); the moves go in the general picker's order, which at this
    /// depth is the two killers (when legal), then square-class order (no history, no
    /// mobility keys below `HISTORY_MIN_DEPTH` and `MOBILITY_MIN_DEPTH`); each child is a
    /// horizon leaf evaluated inline ([`Worker::leaf`]). Multi-ProbCut is tried as in the
    /// general node (the fitted tables have no pair of deep depth 1, but a table may pair it
    /// with the static value, shallow depth 0).
    #[inline(always)]
    fn search_one<G: Kernel>(&mut self, p: u64, o: u64, moves: u64, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        const {
            assert!(TABLE_MIN_DEPTH > 1 && BUSY_MIN_DEPTH > 1);
            assert!(HISTORY_MIN_DEPTH > 1 && MOBILITY_MIN_DEPTH > 1);
        }
        let pv_node = beta - alpha > 1;
        if let Some(cuts) = self.cuts.filter(|_| !pv_node) {
            let empties = (self.mask & !(p | o)).count_ones();
            if empties > 1
                && let Some(v) = self.probcut::<G>(cuts, p, o, 1, empties, alpha, beta, ply)
            {
                return v;
            }
        }
        let mut remaining = moves;
        let mut killers = [NO_SQUARE; 2];
        if self.killers {
            for (slot, k) in killers.iter_mut().zip(self.heuristics.killers(ply)) {
                if k < 64 && remaining >> k & 1 != 0 {
                    remaining &= !(1u64 << k);
                    *slot = k;
                }
            }
        }
        let mut best = -INFINITY;
        let mut searched = 0u32;
        let mut next = 0usize;
        loop {
            let sq = if next < 2 {
                let k = killers[next];
                next += 1;
                if k == NO_SQUARE {
                    continue;
                }
                k
            } else if remaining != 0 {
                let sq = first_by_class(remaining, &self.classes) as u8;
                remaining &= !(1u64 << sq);
                sq
            } else {
                break;
            };
            let f = G::flips(p, o, u32::from(sq));
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            let s = if !self.quiescence || searched == 0 || !self.pvs {
                // Without quiescence a leaf's value does not depend on the window: no null
                // window, no re-search.
                -self.leaf::<G>(np, no, ply + 1, -beta, -alpha)
            } else {
                let s = -self.leaf::<G>(np, no, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && !self.aborted {
                    -self.leaf::<G>(np, no, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            searched += 1;
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        self.pv.update(ply, sq);
                    }
                    if s >= beta {
                        self.record_cutoff(ply, sq, searched, 1);
                        break;
                    }
                }
            }
        }
        best
    }

    /// A probable cut-off (multi-ProbCut): for each shallow depth of the cut table's pairs
    /// for `depth` (increasing), a null-window shallow search at the bound that predicts the
    /// deep value at or above `beta` with confidence `t` (then `Some(beta)`), then at the bound
    /// that predicts it at or below `alpha` (then `Some(alpha)`). A bound beyond every score
    /// the shallow search can return is not searched, nor a pair whose shallow search ends
    /// before the full-width plies (`ply + shallow < plies`; the selectivity's `@N`). The
    /// confidences are the guard's within its plies (`/G:K`; for a one-sided guard, `/G:Kr`,
    /// only the fail-high test's at odd plies and the fail-low test's at even plies), the
    /// base's elsewhere. `None`: search the node.
    #[allow(clippy::too_many_arguments, reason = "the node's state is passed unpacked")]
    #[inline(always)]
    fn probcut<G: Kernel>(
        &mut self,
        cut: Cuts<'_>,
        p: u64,
        o: u64,
        depth: u32,
        empties: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let (cuts, (t_high, t_low), plies) = (cut.table, cut.confidences_at(ply), cut.from);
        debug_assert_eq!(Some((t_high, t_low)), self.selectivity.confidences_at(ply as u32));
        let phase = cuts.phase(empties);
        let reachable = |b: i64| b > -i64::from(EVAL_LIMIT) && b <= i64::from(EVAL_LIMIT);
        for (shallow, models) in cuts.pairs_for(depth) {
            if ply as u32 + shallow < plies {
                continue;
            }
            let model = models[phase];
            let high = model.fail_high_bound(beta, t_high);
            if reachable(high) {
                let high = high as i32;
                self.stats.probcut_tries += 1;
                let v = G::search(self, p, o, shallow, high - 1, high, ply);
                if self.aborted {
                    return Some(0);
                }
                if v >= high {
                    self.stats.probcuts += 1;
                    return Some(beta);
                }
            }
            let low = model.fail_low_bound(alpha, t_low);
            if reachable(low + 1) {
                let low = low as i32;
                self.stats.probcut_tries += 1;
                let v = G::search(self, p, o, shallow, low, low + 1, ply);
                if self.aborted {
                    return Some(0);
                }
                if v <= low {
                    self.stats.probcuts += 1;
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// A node at depth 0 in the window `(alpha, beta)`: what [`Worker::search`] computes for
    /// it (the same node, counted the same way), inline. A side without a move stands at the
    /// horizon as it would after its pass: `horizon` with no legal move is the evaluation.
    #[inline(always)]
    fn leaf<G: Kernel>(&mut self, p: u64, o: u64, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv.clear(ply);
        if self.enter() {
            return 0;
        }
        let moves = G::legal_moves(p, o) & self.mask;
        if moves == 0 && G::legal_moves(o, p) & self.mask == 0 {
            return self.final_value(p, o);
        }
        self.horizon::<G>(p, o, moves, ply, alpha, beta)
    }

    /// The value at the horizon: the evaluation, or quiescence when it is on.
    #[inline(always)]
    pub(crate) fn horizon<G: Kernel>(&mut self, p: u64, o: u64, moves: u64, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.quiescence {
            self.quiesce_moves::<G>(p, o, moves, crate::quiescence::QUIESCENCE_PLIES, ply, alpha, beta)
        } else {
            self.evaluate_moves(p, o, moves, ply)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristics::Heuristics;
    use crate::limits::Clock;
    use crate::{Algorithm, Limits, SearchConfig, Selectivity, probcut};
    use othello_eval::{CutModel, CutTable, Evaluator, WeightedEval};
    use othello_rules::Position;
    use othello_table::TranspositionTable;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The hand features with a cut table (multi-ProbCut's pairs up to depth 8, and depths 1
    /// and 2 paired with depth 0), so that selective searches try cuts at every depth.
    struct WithCuts(WeightedEval, CutTable);

    impl Evaluator for WithCuts {
        fn evaluate(&self, pos: &Position) -> i32 {
            self.0.evaluate(pos)
        }
        fn cut_table(&self) -> Option<&CutTable> {
            Some(&self.1)
        }
    }

    fn with_cuts() -> WithCuts {
        let model = CutModel {
            a: 1050,
            b: 10,
            sigma: 120,
            samples: 0,
        };
        let pairs = probcut::default_pairs(8, true)
            .into_iter()
            .chain([(1, 0), (2, 0)])
            .map(|(d, s)| (d as u8, s as u8, vec![model]))
            .collect();
        WithCuts(WeightedEval::default(), CutTable::new(1, pairs).unwrap())
    }

    /// Everything a search leaves behind: value, counters, PV, killers, history.
    type Trace = (i32, [u64; 9], Vec<othello_rules::Move>, Vec<[u8; 2]>, [[u32; 64]; 2]);

    /// Iterative deepening of `pos` to `depth` in `window` with the specialised depth-1 node
    /// on or off, on one worker (killers and history carry over between iterations).
    fn trace(
        eval: &WithCuts,
        pos: &Position,
        depth: u32,
        window: (i32, i32),
        config: &SearchConfig,
        one: bool,
    ) -> Trace {
        let table = TranspositionTable::new(1);
        let clock = Clock::new(&Limits::none(), pos.empty_count());
        let mut w = Worker::new(eval, Some(&table), &clock, config, pos, Heuristics::default(), u64::MAX);
        w.depth_one = one;
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mut s = 0;
        for d in 1..=depth {
            s = w.search(p, o, d, window.0, window.1, 0);
        }
        let st = &w.stats;
        let counters = [
            st.nodes,
            st.leaf_evals,
            st.beta_cutoffs,
            st.first_move_cutoffs,
            st.tt_probes,
            st.tt_hits,
            st.tt_cutoffs,
            st.quiescence_nodes,
            st.probcut_tries * 1000 + st.probcuts,
        ];
        let killers = (0..12).map(|ply| w.heuristics.killers(ply)).collect();
        let history = [*w.heuristics.history(0), *w.heuristics.history(1)];
        (s, counters, w.pv.line(0), killers, history)
    }

    /// The specialised depth-1 node searches exactly the general node's tree: the same value,
    /// counters, PV, killers and history, with quiescence on and off, PVS and alpha-beta,
    /// killers and history on and off, selective and full-width, in open and null windows,
    /// on positions from random play at every stage of the game (endgames and passes too).
    #[test]
    fn depth_one_node_is_the_general_node() {
        let eval = with_cuts();
        let mut rng = SmallRng::seed_from_u64(0x6465_7074);
        let (mut checked, mut cuts, mut quiescence) = (0, 0, 0);
        for game in 0..48 {
            let plies = if game % 6 == 5 { 56 } else { rng.random_range(2..58) };
            let pos = othello_rules::random::play_random(&Position::start(), plies, &mut rng);
            if pos.is_game_over() {
                continue;
            }
            let config = SearchConfig::default()
                .with_quiescence(game % 2 == 0)
                .with_algorithm(if game % 3 == 2 {
                    Algorithm::AlphaBeta
                } else {
                    Algorithm::Pvs
                })
                .with_killers(game % 5 != 4)
                .with_history(game % 7 != 6)
                .with_selectivity(if game % 4 == 3 {
                    Selectivity::Off
                } else {
                    Selectivity::Level(0)
                });
            let depth = 2 + game as u32 % 5;
            let a = rng.random_range(-600..600);
            for window in [(-INFINITY, INFINITY), (a, a + 1), (a - 150, a + 150)] {
                let want = trace(&eval, &pos, depth, window, &config, false);
                let got = trace(&eval, &pos, depth, window, &config, true);
                assert_eq!(got, want, "{pos} depth {depth} {window:?} {config:?}");
                assert!(want.1[0] > 1);
                cuts += want.1[8] % 1000;
                quiescence += want.1[7];
                checked += 1;
            }
        }
        assert!(
            checked >= 100 && cuts > 0 && quiescence > 0,
            "{checked} {cuts} {quiescence}"
        );
    }

    /// What the reference search below knows besides the node: the evaluation, the
    /// confidence, whether it reduces, the full-width plies of `@N` (0: none), and the guard
    /// (`/G:K`: its confidence and plies, and whether it is one-sided, `/G:Kr`).
    struct Reference<'a> {
        eval: &'a WithCuts,
        t: u32,
        reduce: bool,
        plies: u32,
        guard: Option<(u32, u32, bool)>,
        /// Moves searched reduced, and those searched again (as `SearchStats` counts them).
        reduced: std::cell::Cell<u64>,
        again: std::cell::Cell<u64>,
    }

    /// Plain recursion of a selective PVS node `ply` plies below the root, moves in the
    /// picker's order without keys (no table, killers, history or mobility keys: by square
    /// class, then square index), quiescence off: the cut tries of
    /// `probcut` (none whose shallow search ends before the full-width plies; the guard's
    /// confidence at a node within its plies, the base's below; a one-sided guard's only where
    /// the cut would lower the root move: failing high at an odd ply, low at an even one) and, with
    /// `reduce`, the late-move reductions (none at a node before the plies' last), written out
    /// directly from their definitions (the slow reference of
    /// `reductions_match_the_reference`).
    fn reference(r: &Reference<'_>, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_game_over() {
                return crate::score::final_value(pos);
            }
            if depth == 0 {
                return crate::score::leaf_value(r.eval, pos);
            }
            return -reference(r, &pos.pass_unchecked(), depth, -beta, -alpha, ply + 1);
        }
        if depth == 0 {
            return crate::score::leaf_value(r.eval, pos);
        }
        let null = beta - alpha == 1;
        let selective = depth < pos.empty_count();
        if selective && null {
            let cuts = &r.eval.1;
            let model_of = |models: &[CutModel]| models[cuts.phase(pos.empty_count())];
            let limit = i64::from(EVAL_LIMIT);
            // Written from the rule: the sign of a node's value from the root's view.
            let (t_high, t_low) = match r.guard {
                Some((guard, plies, false)) if ply <= plies => (guard, guard),
                Some((guard, plies, true)) if ply <= plies => {
                    // A fail-high cut raises this node's value; that lowers the root move
                    // when the node's value counts against the root's side (odd plies).
                    let counts_against_root = ply & 1 == 1;
                    if counts_against_root {
                        (guard, r.t)
                    } else {
                        (r.t, guard)
                    }
                }
                _ => (r.t, r.t),
            };
            for (shallow, models) in cuts.pairs_for(depth).filter(|&(shallow, _)| ply + shallow >= r.plies) {
                let high = model_of(models).fail_high_bound(beta, t_high);
                if high > -limit && high <= limit {
                    let high = high as i32;
                    if reference(r, pos, shallow, high - 1, high, ply) >= high {
                        return beta;
                    }
                }
                let low = model_of(models).fail_low_bound(alpha, t_low);
                if low + 1 > -limit && low < limit {
                    let low = low as i32;
                    if reference(r, pos, shallow, low, low + 1, ply) <= low {
                        return alpha;
                    }
                }
            }
        }
        let late = r.reduce && selective && null && depth >= 3 && ply + 1 >= r.plies;
        let mut best = -INFINITY;
        let classes = pos.size().square_classes();
        let mut order: Vec<_> = moves.into_iter().collect();
        order.sort_by_key(|&sq| (classes.iter().position(|c| c.contains(sq)), sq.index()));
        for (i, sq) in order.into_iter().enumerate() {
            let child = pos.play_with_flips(sq, pos.flips(sq));
            let s = if i == 0 {
                -reference(r, &child, depth - 1, -beta, -alpha, ply + 1)
            } else if late && i >= 3 {
                // Searched one disc shallower first; again at full depth if it beats alpha.
                r.reduced.set(r.reduced.get() + 1);
                let s = -reference(r, &child, depth - 2, -alpha - 1, -alpha, ply + 1);
                if s > alpha {
                    r.again.set(r.again.get() + 1);
                    -reference(r, &child, depth - 1, -alpha - 1, -alpha, ply + 1)
                } else {
                    s
                }
            } else {
                let s = -reference(r, &child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -reference(r, &child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Selective PVS with and without late-move reductions equals the plain recursion above
    /// (values, and the counts of reduced and re-searched moves), at levels 0 and 2, with and
    /// without full-width plies, with and without a guard near the root (one that changes a
    /// value or a count somewhere), in open, null and narrow windows, on positions from random
    /// play at every stage (passes and endgames too). The reductions' constants are the
    /// reference's (reduced after the third move, by one disc, from depth 3), and both
    /// branches of the reduced search (kept, searched again) are taken.
    #[test]
    fn reductions_match_the_reference() {
        const { assert!(LMR_MIN_MOVES == 3 && LMR_REDUCTION == 1 && LMR_MIN_DEPTH == 3) };
        let eval = with_cuts();
        let mut rng = SmallRng::seed_from_u64(0x6c6d_7221);
        let (mut checked, mut reduced, mut again, mut guarded, mut one_sided) = (0, 0, 0, 0, 0);
        for game in 0..64 {
            let plies = if game % 8 == 7 { 52 } else { rng.random_range(2..50) };
            let pos = othello_rules::random::play_random(&Position::start(), plies, &mut rng);
            if pos.is_game_over() {
                continue;
            }
            let reduce = game % 5 != 4;
            let level = if game % 2 == 0 { 0 } else { 2 };
            // Every third game with full-width plies (`@2` to `@5`).
            let from = if game % 3 == 1 { 2 + (game / 3) as u8 % 4 } else { 0 };
            // Every fourth game with a guard of the other level over 1 to 3 plies, every
            // other one of them one-sided.
            let selectivity = if game % 4 == 3 {
                Selectivity::Guarded {
                    base: crate::Confidence::Level(level),
                    from,
                    guard: crate::Confidence::Level(2 - level),
                    plies: 1 + (game / 4) as u8 % 3,
                    one_sided: game % 8 == 3,
                }
            } else {
                Selectivity::LevelFrom(level, from)
            };
            let config = SearchConfig::default()
                .with_killers(false)
                .with_history(false)
                .with_mobility_ordering(false)
                .with_selectivity(selectivity)
                .with_reductions(reduce);
            let r = Reference {
                eval: &eval,
                t: selectivity.confidence().unwrap(),
                reduce,
                plies: selectivity.full_width_plies(),
                guard: selectivity
                    .guard()
                    .map(|(t, plies)| (t, plies, selectivity.guard_is_one_sided())),
                reduced: 0.into(),
                again: 0.into(),
            };
            let unguarded = Reference {
                guard: None,
                reduced: 0.into(),
                again: 0.into(),
                ..r
            };
            let two_sided = Reference {
                guard: r.guard.map(|(t, plies, _)| (t, plies, false)),
                reduced: 0.into(),
                again: 0.into(),
                ..r
            };
            let depth = 3 + game as u32 % 4;
            let a = rng.random_range(-600..600);
            for (alpha, beta) in [(-INFINITY, INFINITY), (a, a + 1), (a - 150, a + 150)] {
                let clock = Clock::new(&Limits::none(), pos.empty_count());
                let mut w = Worker::<_, TranspositionTable>::new(
                    &eval,
                    None,
                    &clock,
                    &config,
                    &pos,
                    Heuristics::default(),
                    u64::MAX,
                );
                let got = w.search(pos.player().0, pos.opponent().0, depth, alpha, beta, 0);
                let (reduced_before, again_before) = (r.reduced.get(), r.again.get());
                let want = reference(&r, &pos, depth, alpha, beta, 0);
                if r.guard.is_some() {
                    let plain = reference(&unguarded, &pos, depth, alpha, beta, 0);
                    guarded += u32::from(plain != want || unguarded.reduced.get() != r.reduced.get() - reduced_before);
                    unguarded.reduced.set(0);
                }
                if selectivity.guard_is_one_sided() {
                    // Somewhere a one-sided guard is neither the base nor the two-sided guard.
                    let both = reference(&two_sided, &pos, depth, alpha, beta, 0);
                    one_sided += u32::from(both != want || two_sided.reduced.get() != r.reduced.get() - reduced_before);
                    two_sided.reduced.set(0);
                }
                assert_eq!(got, want, "{pos} depth {depth} ({alpha}, {beta}) reductions {reduce}");
                assert_eq!(
                    (w.stats.reductions, w.stats.reduction_researches),
                    (r.reduced.get() - reduced_before, r.again.get() - again_before),
                    "{pos} depth {depth} ({alpha}, {beta}) {selectivity}"
                );
                reduced += w.stats.reductions;
                again += w.stats.reduction_researches;
                checked += 1;
            }
        }
        assert!(
            checked >= 90 && again > 0 && reduced > 2 * again && guarded > 0 && one_sided > 0,
            "{checked} {reduced} {again} {guarded} {one_sided}"
        );
    }

    /// The depth byte keeps the drafts' order (full-width first among equal drafts), a
    /// full-width search reads only full-width entries of its draft, a selective one both kinds.
    #[test]
    fn table_depth_bytes() {
        for d in 0..=60u32 {
            assert!(table_depth(d, true) < table_depth(d, false));
            if d > 0 {
                assert!(table_depth(d - 1, false) < table_depth(d, true));
            }
            for e in 0..=60u32 {
                for sel in [false, true] {
                    let byte = table_depth(e, sel);
                    assert_eq!(entry_serves(byte, d, false), e == d && !sel, "{e} {sel} read at {d}");
                    assert_eq!(entry_serves(byte, d, true), e == d, "{e} {sel} read selectively at {d}");
                }
            }
        }
        assert_eq!(table_depth(60, false), 121);
    }
}
