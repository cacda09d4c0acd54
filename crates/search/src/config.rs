//! [`Algorithm`] and [`SearchConfig`].

use crate::Selectivity;

/// The default [`SearchConfig::selectivity`].
/// Level 0 with 6 full-width plies (`0@6`: cuts at 1.1 sigma, none whose shallow search ends
/// before ply 6) since 2026-12-06. Its tree grows about 2x per two plies where level 2's grows
/// 3-4x, so at a fixed time per move it searches 3-5 plies deeper in the midgame. Against Zebra
/// at equal time it scored better than level 2, and at least as well as Zebra's own rule
/// (`0@8`) and the one-sided guard `0@6/2:5r` (the default for the evening of 2026-12-06: four
/// runs at Zebra's depth 16 put it 0.015 a game under `0@6`, though it costs less at equal
/// depth); at very short move times it is as strong as level 2, where `0@8` is weaker
/// (docs/search.md, "Selectivity"; docs/BENCHMARKS.md, "Strength against Zebra"). Searches to
/// depth 7 or less are full-width under it (the embedded cut table's pairs shallow by 2 plies
/// or more). Level 2 (2.0 sigma everywhere) was the default from 2026-12-02.
pub(crate) const DEFAULT_SELECTIVITY: Selectivity = Selectivity::LevelFrom(0, 6);

/// The tree-search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax on absolute (black-minus-white) scores: black maximises, white minimises.
    /// The slow reference: no pruning, no table, no ordering.
    Minimax,
    /// Plain negamax on side-to-move scores. The slow reference in negamax form.
    Negamax,
    /// Fail-soft negamax alpha-beta with the table and move ordering.
    AlphaBeta,
    /// Principal variation search (NegaScout): alpha-beta where every move after the first is
    /// searched with a null window and re-searched on a fail high.
    Pvs,
}

impl Algorithm {
    /// Whether this is one of the pruning searches (which use the table, ordering and windows).
    pub const fn prunes(self) -> bool {
        matches!(self, Algorithm::AlphaBeta | Algorithm::Pvs)
    }
}

/// How a [`Searcher`](crate::Searcher) searches. See the field docs; [`SearchConfig::default`]
/// is the measured best setting.
///
/// The struct is `#[non_exhaustive]`: build it from [`SearchConfig::default`] and the `with_`
/// setters (or assign the public fields of a value you have), so new fields do not break you.
///
/// ```
/// use othello_search::{Algorithm, SearchConfig};
/// let config = SearchConfig::default().with_algorithm(Algorithm::AlphaBeta).with_tt_mib(4);
/// assert_eq!((config.algorithm, config.tt_mib), (Algorithm::AlphaBeta, 4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Transposition table size in MiB; 0 = no table. Ignored by the reference algorithms.
    pub tt_mib: usize,
    /// Search threads (Lazy SMP, sharing the table). 0 counts as 1; without a table the search
    /// runs on one thread.
    pub threads: usize,
    /// Extend corner moves below the horizon (see [`quiescence`](crate::quiescence)).
    pub quiescence: bool,
    /// Killer moves (two per ply) in the move ordering.
    pub killers: bool,
    /// History heuristic in the move ordering.
    pub history: bool,
    /// Order the remaining moves by the opponent's reply count (fewest first) before history.
    pub mobility_ordering: bool,
    /// Aspiration windows around the previous iteration's score at the root.
    pub aspiration: bool,
    /// Solve exactly with the endgame solver at the root when the empties are at most this
    /// (and no depth limit below the empties was asked); 0 = never. Under a time limit the
    /// solve follows an iterative deepening, whose answer stands if the solve is
    /// interrupted; under a time limit the solver is also tried with more empties than this,
    /// when its estimated cost fits the time left (see the crate's `endgame` module and
    /// docs/search.md, "Timed hand-off beyond the threshold").
    pub endgame_empties: u32,
    /// The evaluation that orders the endgame solver's moves when the search hands it an 8x8
    /// root ([`othello_endgame::SolverConfig::with_ordering`]): it changes the solver's node
    /// count, never a score. `None` (the default) keeps the solver's built-in ordering; the
    /// engine specs set the pattern evaluation's, as `othello solve --eval auto` does. Other
    /// board sizes always use the built-in ordering.
    pub solver_ordering: Option<othello_endgame::OrderingEval>,
    /// Score every root move exactly at the searched depth
    /// ([`SearchResult::root_moves`](crate::SearchResult::root_moves)).
    pub multi_pv: bool,
    /// Selective search (multi-ProbCut) with the evaluation's cut table, or off (full width);
    /// see [`Selectivity`]. Ignored by the reference algorithms and by evaluations without a
    /// cut table.
    pub selectivity: Selectivity,
    /// Late-move reductions, part of selective search: at a non-PV node of depth 3 or more
    /// where a cut may be tried, the moves after the first three are searched first one disc
    /// shallower with a null window, and at the full depth only when they beat alpha there.
    /// Like the selectivity level, part of the question a search answers; nothing changes
    /// where the search is full-width (selectivity off, an evaluation without a cut table,
    /// the reference algorithms, a node that reaches the end of the game). Off by default:
    /// +31 Elo in self-play at equal time, but no measured gain against Zebra
    /// (docs/search.md, "Late-move reductions").
    pub reductions: bool,
    /// Under a game clock, stop deepening at half the soft bound once the best move stayed the
    /// same for several iterations, giving the time back to the clock (see the deepening's
    /// `soft_bound`, docs/engine.md "Time"); off keeps the plain soft bound. A fixed time per
    /// move and depth or node limits are not affected.
    pub stable_stop: bool,
    /// Under a time limit whose soft bound is below its hard one (a clock), let the deepening
    /// start iterations up to twice the soft bound (at most the hard one) when the last
    /// iteration changed the best move: a root whose best move is still changing earns more
    /// time (see the deepening's `soft_bound`, docs/engine.md "Time"); off keeps the plain
    /// soft bound. A fixed time per move (soft equal to hard) is not affected.
    pub unstable_time: bool,
    /// Let the iterative deepening skip a depth (from depth 6) when the iteration after it is
    /// the one the search will end on: without a time limit, every second depth towards the
    /// last one (to 16: 6, 8, ..., 16; to 15: 6, 7, 9, ..., 15); under a time limit, when the
    /// iteration two deeper is predicted to end within the soft bound. An iteration orders
    /// the next-but-one about as well as the one between them does, so skipping it saves its
    /// time: a third less time to depth (docs/search.md, "Iterations that skip a depth").
    /// Full-width values at a given depth are the same either way (node counts and the
    /// reported iterations differ); selective values may differ a little, as a probable cut
    /// depends on the window its node is searched with. Off runs every depth.
    pub skip_depths: bool,
}

impl Default for SearchConfig {
    /// PVS, 16 MiB, one thread, no quiescence, killers + history + mobility ordering,
    /// aspiration windows, endgame solver from 14 empties, no multi-PV, selectivity `0@6`
    /// (selective only with an evaluation that has a cut table) without late-move reductions,
    /// stable stop and more time for an unstable root on, depths skipped. The ordering choice
    /// is measured in `docs/BENCHMARKS.md`, the selectivity and the reductions in
    /// `docs/search.md`, the stable stop and the unstable root's time in `docs/engine.md`
    /// ("Time") and `docs/BENCHMARKS.md`.
    fn default() -> SearchConfig {
        SearchConfig {
            algorithm: Algorithm::Pvs,
            tt_mib: 16,
            threads: 1,
            quiescence: false,
            killers: true,
            history: true,
            mobility_ordering: true,
            aspiration: true,
            endgame_empties: 14,
            solver_ordering: None,
            multi_pv: false,
            selectivity: DEFAULT_SELECTIVITY,
            reductions: false,
            stable_stop: true,
            unstable_time: true,
            skip_depths: true,
        }
    }
}

impl SearchConfig {
    /// Sets [`SearchConfig::algorithm`].
    #[must_use]
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> SearchConfig {
        self.algorithm = algorithm;
        self
    }

    /// Sets [`SearchConfig::tt_mib`].
    #[must_use]
    pub fn with_tt_mib(mut self, tt_mib: usize) -> SearchConfig {
        self.tt_mib = tt_mib;
        self
    }

    /// Sets [`SearchConfig::threads`].
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> SearchConfig {
        self.threads = threads;
        self
    }

    /// Sets [`SearchConfig::quiescence`].
    #[must_use]
    pub fn with_quiescence(mut self, quiescence: bool) -> SearchConfig {
        self.quiescence = quiescence;
        self
    }

    /// Sets [`SearchConfig::killers`].
    #[must_use]
    pub fn with_killers(mut self, killers: bool) -> SearchConfig {
        self.killers = killers;
        self
    }

    /// Sets [`SearchConfig::history`].
    #[must_use]
    pub fn with_history(mut self, history: bool) -> SearchConfig {
        self.history = history;
        self
    }

    /// Sets [`SearchConfig::mobility_ordering`].
    #[must_use]
    pub fn with_mobility_ordering(mut self, mobility_ordering: bool) -> SearchConfig {
        self.mobility_ordering = mobility_ordering;
        self
    }

    /// Sets [`SearchConfig::aspiration`].
    #[must_use]
    pub fn with_aspiration(mut self, aspiration: bool) -> SearchConfig {
        self.aspiration = aspiration;
        self
    }

    /// Sets [`SearchConfig::endgame_empties`].
    #[must_use]
    pub fn with_endgame_empties(mut self, endgame_empties: u32) -> SearchConfig {
        self.endgame_empties = endgame_empties;
        self
    }

    /// Sets [`SearchConfig::selectivity`].
    #[must_use]
    pub fn with_selectivity(mut self, selectivity: Selectivity) -> SearchConfig {
        self.selectivity = selectivity;
        self
    }

    /// Sets [`SearchConfig::reductions`].
    #[must_use]
    pub fn with_reductions(mut self, reductions: bool) -> SearchConfig {
        self.reductions = reductions;
        self
    }

    /// Sets [`SearchConfig::multi_pv`].
    #[must_use]
    pub fn with_multi_pv(mut self, multi_pv: bool) -> SearchConfig {
        self.multi_pv = multi_pv;
        self
    }

    /// Sets [`SearchConfig::solver_ordering`].
    #[must_use]
    pub fn with_solver_ordering(mut self, ordering: Option<othello_endgame::OrderingEval>) -> SearchConfig {
        self.solver_ordering = ordering;
        self
    }

    /// Sets [`SearchConfig::stable_stop`].
    #[must_use]
    pub fn with_stable_stop(mut self, stable_stop: bool) -> SearchConfig {
        self.stable_stop = stable_stop;
        self
    }

    /// Sets [`SearchConfig::unstable_time`].
    #[must_use]
    pub fn with_unstable_time(mut self, unstable_time: bool) -> SearchConfig {
        self.unstable_time = unstable_time;
        self
    }

    /// Sets [`SearchConfig::skip_depths`].
    #[must_use]
    pub fn with_skip_depths(mut self, skip_depths: bool) -> SearchConfig {
        self.skip_depths = skip_depths;
        self
    }
}
