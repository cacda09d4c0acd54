//! The players the CLI can build from a spec: the closed set of concrete types, chosen once.
//!
//! `pvs`, `alphabeta`, `negamax`, `minimax` (the search crate, generic over the evaluation,
//! compiled here for [`CliEval`]: hand features or patterns), `mcts` (the MCTS crate) and `random` (a seeded uniform
//! random player, the baseline).

use crate::error::{CliResult, input};
use crate::evalspec::CliEval;
use crate::spec::Spec;
use othello_engine::RandomPlayer;
use othello_mcts::{Mcts, MctsConfig, PlayoutPolicy};
use othello_rules::{Move, Position};
use othello_search::{Algorithm, Limits, SearchConfig, SearchResult, Searcher, Selectivity, TimeLimit};
use std::time::Duration;

/// Keys of the search engines.
pub const SEARCH_KEYS: &[&str] = &[
    "depth",
    "time",
    "nodes",
    "eval",
    "weights",
    "tt",
    "threads",
    "quiescence",
    "killers",
    "history",
    "mobility",
    "aspiration",
    "endgame",
    "selectivity",
];
/// Keys of the MCTS engine.
pub const MCTS_KEYS: &[&str] = &[
    "playouts", "time", "c", "seed", "threads", "nodes", "tree", "policy", "epsilon", "reuse",
];
/// Keys of the random player.
pub const RANDOM_KEYS: &[&str] = &["seed"];
/// The engine names.
pub const NAMES: &[&str] = &["pvs", "alphabeta", "negamax", "minimax", "mcts", "random"];

/// Default depth of a search engine given no depth, time or node limit.
pub const DEFAULT_DEPTH: u32 = 8;

/// Whether the pruning searches (`pvs`, `alphabeta`) extend corner moves at the horizon unless
/// the spec says `quiescence=off`. Measured with `othello play`: +156 +/- 75 Elo at equal time
/// (20 ms a move) and +173 +/- 78 at equal depth 6 (docs/BENCHMARKS.md). The library default
/// stays off, so a library search returns plain minimax values unless asked otherwise.
pub const DEFAULT_QUIESCENCE: bool = true;

/// A player built from a spec.
pub enum Engine {
    /// A tree search with its limits.
    Search {
        /// The searcher.
        searcher: Box<Searcher<CliEval>>,
        /// Its limits per move.
        limits: Limits,
    },
    /// Monte Carlo tree search with its limits.
    Mcts {
        /// The player.
        mcts: Box<Mcts>,
        /// Its limits per move.
        limits: Limits,
    },
    /// Uniformly random legal moves.
    Random(RandomPlayer),
}

/// Parses a time in milliseconds.
fn millis(spec: &mut Spec) -> CliResult<Option<Duration>> {
    let ms: Option<u64> = spec.get("time", "milliseconds")?;
    match ms {
        Some(0) => Err(input(format!(
            "bad value '0' for key 'time' of engine '{}': expected at least 1 ms",
            spec.name
        ))),
        other => Ok(other.map(Duration::from_millis)),
    }
}

/// The search limits of a spec (keys `depth`, `time`, `nodes`).
pub fn search_limits(spec: &mut Spec) -> CliResult<Limits> {
    let depth: Option<i64> = spec.get("depth", "a depth of at least 1")?;
    let depth = match depth {
        Some(d) if !(1..=64).contains(&d) => {
            return Err(input(format!(
                "bad value '{d}' for key 'depth' of engine '{}': expected 1 to 64",
                spec.name
            )));
        }
        d => d.map(|d| d as u32),
    };
    let time = millis(spec)?;
    let nodes: Option<u64> = spec.get("nodes", "a node count")?;
    if nodes == Some(0) {
        return Err(input(format!(
            "bad value '0' for key 'nodes' of engine '{}': expected at least 1",
            spec.name
        )));
    }
    let mut limits = Limits::default();
    limits.depth = depth;
    limits.nodes = nodes;
    if let Some(t) = time {
        // The soft bound stops starting new iterations; the hard one aborts.
        limits.time = Some(TimeLimit::new(t / 2, t));
    }
    if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        limits.depth = Some(DEFAULT_DEPTH);
    }
    Ok(limits)
}

/// The search configuration of a spec (everything but the limits).
pub fn search_config(spec: &mut Spec, algorithm: Algorithm) -> CliResult<(SearchConfig, CliEval)> {
    let quiescence = DEFAULT_QUIESCENCE && algorithm.prunes();
    let mut config = SearchConfig::default()
        .with_algorithm(algorithm)
        .with_quiescence(quiescence);
    let (text, weights) = (spec.raw("eval"), spec.raw("weights"));
    let eval = CliEval::parse(text.as_deref(), weights.as_deref(), &spec.name)?;
    if let Some(tt) = spec.get::<usize>("tt", "a size in MiB")? {
        config.tt_mib = crate::input::hash_ok(tt).map_err(|why| {
            input(format!(
                "bad value '{tt}' for key 'tt' of engine '{}': {why}",
                spec.name
            ))
        })?;
    }
    if let Some(t) = spec.get::<usize>("threads", "a thread count")? {
        config.threads = crate::input::threads_ok(t).map_err(|why| {
            input(format!(
                "bad value '{t}' for key 'threads' of engine '{}': {why}",
                spec.name
            ))
        })?;
    }
    if let Some(q) = spec.flag("quiescence")? {
        config.quiescence = q;
    }
    if let Some(k) = spec.flag("killers")? {
        config.killers = k;
    }
    if let Some(h) = spec.flag("history")? {
        config.history = h;
    }
    if let Some(m) = spec.flag("mobility")? {
        config.mobility_ordering = m;
    }
    if let Some(a) = spec.flag("aspiration")? {
        config.aspiration = a;
    }
    if let Some(e) = spec.get::<u32>("endgame", "a number of empty squares")? {
        config.endgame_empties = e;
    }
    if let Some(v) = spec.raw("selectivity") {
        config.selectivity = v.parse::<Selectivity>().map_err(|e| {
            input(format!(
                "bad value '{v}' for key 'selectivity' of engine '{}': {e}",
                spec.name
            ))
        })?;
    }
    Ok((config, eval))
}

/// The MCTS configuration and limits of a spec. `nodes` (alias `playouts`) is the iteration
/// budget, the MCTS node count (see `docs/conventions.md`); `tree` caps the tree's size.
pub fn mcts_config(spec: &mut Spec) -> CliResult<(MctsConfig, Limits)> {
    let mut config = MctsConfig::default();
    let playouts: Option<u64> = spec.get("playouts", "a number of playouts")?;
    let nodes: Option<u64> = spec.get("nodes", "a node count")?;
    if let (Some(p), Some(n)) = (playouts, nodes)
        && p != n
    {
        return Err(input(format!(
            "keys 'nodes' ({n}) and 'playouts' ({p}) of engine 'mcts' disagree: they are one limit"
        )));
    }
    let nodes = nodes.or(playouts);
    if nodes == Some(0) {
        return Err(input(
            "bad value '0' for key 'nodes' of engine 'mcts': expected at least 1",
        ));
    }
    let time = millis(spec)?;
    if let Some(c) = spec.get::<f64>("c", "a non-negative number")? {
        if !(c.is_finite() && c >= 0.0) {
            return Err(input(format!(
                "bad value '{c}' for key 'c' of engine 'mcts': expected a non-negative number"
            )));
        }
        config.exploration = c;
    }
    if let Some(s) = spec.get("seed", "an integer")? {
        config.seed = s;
    }
    if let Some(t) = spec.get::<usize>("threads", "a thread count")? {
        config.threads = crate::input::threads_ok(t)
            .map_err(|why| input(format!("bad value '{t}' for key 'threads' of engine 'mcts': {why}")))?;
    }
    if let Some(n) = spec.get::<usize>("tree", "a tree node cap")? {
        if n < 2 {
            return Err(input(format!(
                "bad value '{n}' for key 'tree' of engine 'mcts': expected at least 2"
            )));
        }
        config.max_tree_nodes = n;
    }
    let epsilon = spec.get::<f64>("epsilon", "a probability")?;
    if let Some(e) = epsilon
        && !(0.0..=1.0).contains(&e)
    {
        return Err(input(format!(
            "bad value '{e}' for key 'epsilon' of engine 'mcts': expected 0 to 1"
        )));
    }
    match spec.raw("policy").as_deref() {
        None | Some("random") => {}
        Some("corners") => {
            config.policy = PlayoutPolicy::CornersFirst {
                epsilon: epsilon.unwrap_or(0.1),
            }
        }
        Some(other) => {
            return Err(input(format!(
                "bad value '{other}' for key 'policy' of engine 'mcts': expected random or corners"
            )));
        }
    }
    if let Some(r) = spec.flag("reuse")? {
        config.reuse_tree = r;
    }
    let mut limits = Limits::none();
    limits.nodes = nodes;
    if let Some(t) = time {
        limits.time = Some(TimeLimit::new(t, t));
    }
    if limits.nodes.is_none() && limits.time.is_none() {
        limits.nodes = Some(MctsConfig::DEFAULT_ITERATIONS);
    }
    Ok((config, limits))
}

impl Engine {
    /// Builds a player from a spec, rejecting unknown names, keys and bad values.
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn from_spec(mut spec: Spec) -> CliResult<Engine> {
        let algorithm = match spec.name.as_str() {
            "pvs" => Some(Algorithm::Pvs),
            "alphabeta" | "ab" => Some(Algorithm::AlphaBeta),
            "negamax" => Some(Algorithm::Negamax),
            "minimax" => Some(Algorithm::Minimax),
            _ => None,
        };
        if let Some(algorithm) = algorithm {
            let limits = search_limits(&mut spec)?;
            let (config, eval) = search_config(&mut spec, algorithm)?;
            spec.finish(SEARCH_KEYS)?;
            return Ok(Engine::Search {
                searcher: Box::new(Searcher::new(eval, config)),
                limits,
            });
        }
        match spec.name.as_str() {
            "mcts" => {
                let (config, limits) = mcts_config(&mut spec)?;
                spec.finish(MCTS_KEYS)?;
                Ok(Engine::Mcts {
                    mcts: Box::new(Mcts::new(config)),
                    limits,
                })
            }
            "random" => {
                let seed = spec.get("seed", "an integer")?.unwrap_or(0);
                spec.finish(RANDOM_KEYS)?;
                Ok(Engine::Random(RandomPlayer::new(seed)))
            }
            other => Err(input(format!("unknown engine '{other}' (known: {})", NAMES.join(", ")))),
        }
    }

    /// The move this player chooses in `pos` (always legal; a pass when there is no square).
    pub fn choose(&mut self, pos: &Position) -> Move {
        match self {
            Engine::Search { searcher, limits } => searcher.search(pos, limits, |_| {}).best_move,
            Engine::Mcts { mcts, limits } => mcts.search(pos, limits).best_move,
            Engine::Random(r) => r.choose(pos),
        }
    }

    /// Refuses a board size this player cannot play (the pattern evaluation is 8x8 only).
    ///
    /// # Errors
    /// The size, as bad input.
    pub fn check_size(&self, size: othello_rules::BoardSize) -> CliResult {
        match self {
            Engine::Search { searcher, .. } => searcher.evaluator().check_size(size),
            _ => Ok(()),
        }
    }

    /// A full search result, for search engines.
    pub fn search(
        &mut self,
        pos: &Position,
        on_iteration: impl FnMut(&othello_search::Iteration),
    ) -> Option<SearchResult> {
        match self {
            Engine::Search { searcher, limits } => Some(searcher.search(pos, limits, on_iteration)),
            _ => None,
        }
    }
}
