//! [`Engine`]: the players a spec can build, the closed set of concrete types, chosen once.
//!
//! `pvs`, `alphabeta` (alias `ab`), `negamax`, `minimax` (the search crate, generic over the
//! evaluation, compiled here for [`SpecEval`]: hand features or patterns), `mcts` (the MCTS
//! crate) and `random` (a seeded uniform random player, the baseline).

use crate::booked::{Booked, book_settings};
use crate::resources::{hash_ok, threads_ok};
use crate::{Spec, SpecError, SpecEval};
use othello_engine::{Limits, Player, Progress, RandomPlayer, Reply, TimeLimit};
use othello_mcts::{Mcts, MctsConfig, PlayoutPolicy};
use othello_rules::{BoardSize, Move, Position};
use othello_search::{Algorithm, SearchConfig, Searcher, Selectivity};
use std::str::FromStr;
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
    "reductions",
    "stablestop",
    "unstabletime",
    "skipdepths",
];
/// Keys of the MCTS engine.
pub const MCTS_KEYS: &[&str] = &[
    "playouts", "time", "c", "seed", "threads", "nodes", "tree", "policy", "epsilon", "reuse",
];
/// Keys of the random player.
pub const RANDOM_KEYS: &[&str] = &["seed"];
/// The engine names (`ab` is also accepted for `alphabeta`).
pub const NAMES: &[&str] = &["pvs", "alphabeta", "negamax", "minimax", "mcts", "random"];

/// Default depth of a search engine given no depth, time or node limit.
pub const DEFAULT_DEPTH: u32 = 8;

/// Whether the pruning searches (`pvs`, `alphabeta`) extend corner moves at the horizon unless
/// the spec says `quiescence=off`. Measured with `othello play`: +156 +/- 75 Elo at equal time
/// (20 ms a move) and +173 +/- 78 at equal depth 6 (docs/BENCHMARKS.md). The library default
/// stays off, so a library search returns plain minimax values unless asked otherwise.
pub const DEFAULT_QUIESCENCE: bool = true;

/// The search algorithm a name stands for (`pvs`, `alphabeta` or `ab`, `negamax`, `minimax`);
/// `None` for other names.
pub fn search_algorithm(name: &str) -> Option<Algorithm> {
    match name {
        "pvs" => Some(Algorithm::Pvs),
        "alphabeta" | "ab" => Some(Algorithm::AlphaBeta),
        "negamax" => Some(Algorithm::Negamax),
        "minimax" => Some(Algorithm::Minimax),
        _ => None,
    }
}

/// A player built from a spec.
pub enum Engine {
    /// A tree search with its limits.
    Search {
        /// The searcher.
        searcher: Box<Searcher<SpecEval>>,
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
    /// One of the others with an opening book (the spec's `book` key).
    Book(Box<Booked>),
}

/// Parses a time in milliseconds.
fn millis(spec: &mut Spec) -> Result<Option<Duration>, SpecError> {
    let ms: Option<u64> = spec.get("time", "milliseconds")?;
    match ms {
        Some(0) => Err(SpecError::bad_value(&spec.name, "time", 0, "expected at least 1 ms")),
        other => Ok(other.map(Duration::from_millis)),
    }
}

/// The search limits of a spec (keys `depth`, `time`, `nodes`): [`DEFAULT_DEPTH`] without
/// any of them; `time=T` is a soft bound of T/2 (no new iteration starts after it) and a hard
/// bound of T.
///
/// # Errors
/// A bad value.
pub fn search_limits(spec: &mut Spec) -> Result<Limits, SpecError> {
    let depth: Option<i64> = spec.get("depth", "a depth of at least 1")?;
    let depth = match depth {
        Some(d) if !(1..=64).contains(&d) => {
            return Err(SpecError::bad_value(&spec.name, "depth", d, "expected 1 to 64"));
        }
        d => d.map(|d| d as u32),
    };
    let time = millis(spec)?;
    let nodes: Option<u64> = spec.get("nodes", "a node count")?;
    if nodes == Some(0) {
        return Err(SpecError::bad_value(&spec.name, "nodes", 0, "expected at least 1"));
    }
    let mut limits = Limits::default();
    limits.depth = depth;
    limits.nodes = nodes;
    if let Some(t) = time {
        // A fixed time per move (`Limits::move_time`): what is not spent is lost, so both
        // bounds are at it and the deepening starts every iteration it can.
        limits.time = Limits::move_time(t).time;
    }
    if limits.depth.is_none() && limits.time.is_none() && limits.nodes.is_none() {
        limits.depth = Some(DEFAULT_DEPTH);
    }
    Ok(limits)
}

/// The search configuration of a spec (everything but the limits) and its evaluation.
///
/// # Errors
/// A bad value.
pub fn search_config(spec: &mut Spec, algorithm: Algorithm) -> Result<(SearchConfig, SpecEval), SpecError> {
    let quiescence = DEFAULT_QUIESCENCE && algorithm.prunes();
    let mut config = SearchConfig::default()
        .with_algorithm(algorithm)
        .with_quiescence(quiescence);
    let (text, weights) = (spec.raw("eval"), spec.raw("weights"));
    let eval = SpecEval::parse(text.as_deref(), weights.as_deref(), &spec.name)?;
    config.solver_ordering = eval.solver_ordering();
    if let Some(tt) = spec.get::<usize>("tt", "a size in MiB")? {
        config.tt_mib = hash_ok(tt).map_err(|why| SpecError::bad_value(&spec.name, "tt", tt, why))?;
    }
    if let Some(t) = spec.get::<usize>("threads", "a thread count")? {
        config.threads = threads_ok(t).map_err(|why| SpecError::bad_value(&spec.name, "threads", t, why))?;
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
    if let Some(r) = spec.flag("reductions")? {
        config.reductions = r;
    }
    if let Some(s) = spec.flag("stablestop")? {
        config.stable_stop = s;
    }
    if let Some(u) = spec.flag("unstabletime")? {
        config.unstable_time = u;
    }
    if let Some(s) = spec.flag("skipdepths")? {
        config.skip_depths = s;
    }
    if let Some(e) = spec.get::<u32>("endgame", "a number of empty squares")? {
        config.endgame_empties = e;
    }
    if let Some(v) = spec.raw("selectivity") {
        config.selectivity = v
            .parse::<Selectivity>()
            .map_err(|e| SpecError::bad_value(&spec.name, "selectivity", &v, e.to_string()))?;
    }
    Ok((config, eval))
}

/// The MCTS configuration and limits of a spec. `nodes` (alias `playouts`) is the iteration
/// budget, the MCTS node count (see `docs/conventions.md`); `tree` caps the tree's size.
/// Without `nodes` or `time`, [`MctsConfig::DEFAULT_ITERATIONS`].
///
/// # Errors
/// A bad value, or `nodes` and `playouts` that disagree.
pub fn mcts_config(spec: &mut Spec) -> Result<(MctsConfig, Limits), SpecError> {
    let bad = |key: &str, value: &dyn ToString, why: &str| SpecError::bad_value("mcts", key, value.to_string(), why);
    let mut config = MctsConfig::default();
    let playouts: Option<u64> = spec.get("playouts", "a number of playouts")?;
    let nodes: Option<u64> = spec.get("nodes", "a node count")?;
    if let (Some(p), Some(n)) = (playouts, nodes)
        && p != n
    {
        return Err(SpecError::LimitsDisagree { nodes: n, playouts: p });
    }
    let nodes = nodes.or(playouts);
    if nodes == Some(0) {
        return Err(bad("nodes", &0, "expected at least 1"));
    }
    let time = millis(spec)?;
    if let Some(c) = spec.get::<f64>("c", "a non-negative number")? {
        if !(c.is_finite() && c >= 0.0) {
            return Err(bad("c", &c, "expected a non-negative number"));
        }
        config.exploration = c;
    }
    if let Some(s) = spec.get("seed", "an integer")? {
        config.seed = s;
    }
    if let Some(t) = spec.get::<usize>("threads", "a thread count")? {
        config.threads = threads_ok(t).map_err(|why| bad("threads", &t, &why))?;
    }
    if let Some(n) = spec.get::<usize>("tree", "a tree node cap")? {
        if n < 2 {
            return Err(bad("tree", &n, "expected at least 2"));
        }
        config.max_tree_nodes = n;
    }
    let epsilon = spec.get::<f64>("epsilon", "a probability")?;
    if let Some(e) = epsilon
        && !(0.0..=1.0).contains(&e)
    {
        return Err(bad("epsilon", &e, "expected 0 to 1"));
    }
    match spec.raw("policy").as_deref() {
        None | Some("random") => {}
        Some("corners") => {
            config.policy = PlayoutPolicy::CornersFirst {
                epsilon: epsilon.unwrap_or(0.1),
            }
        }
        Some(other) => return Err(bad("policy", &other, "expected random or corners")),
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
    /// Builds a player from a spec, rejecting unknown names, keys and bad values. (A search's
    /// transposition table is allocated at its first search, not here.)
    ///
    /// # Errors
    /// The first problem with the spec.
    pub fn from_spec(mut spec: Spec) -> Result<Engine, SpecError> {
        let book = book_settings(&mut spec)?;
        let engine = Engine::from_spec_without_book(spec)?;
        Ok(match book {
            None => engine,
            Some(settings) => Engine::Book(Box::new(settings.wrap(engine))),
        })
    }

    /// The engine itself, without its book ([`Engine::Book`]'s engine; itself otherwise).
    pub fn without_book(self) -> Engine {
        match self {
            Engine::Book(b) => b.engine,
            other => other,
        }
    }

    fn from_spec_without_book(mut spec: Spec) -> Result<Engine, SpecError> {
        if let Some(algorithm) = search_algorithm(&spec.name) {
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
            other => Err(SpecError::UnknownEngine {
                name: other.to_string(),
            }),
        }
    }

    /// The limits of the spec, defaults included ([`DEFAULT_DEPTH`] for a search, the default
    /// iteration count for MCTS; none for the random player): what to pass to
    /// [`Player::think`].
    pub fn limits(&self) -> Limits {
        match self {
            Engine::Search { limits, .. } | Engine::Mcts { limits, .. } => limits.clone(),
            Engine::Random(_) => Limits::none(),
            Engine::Book(b) => b.engine.limits(),
        }
    }

    /// The player as a trait object with the spec's limits, for a caller that drives every
    /// player alike (a match runner).
    pub fn into_player(self) -> (Box<dyn Player + Send>, Limits) {
        match self {
            Engine::Search { searcher, limits } => (searcher, limits),
            Engine::Mcts { mcts, limits } => (mcts, limits),
            Engine::Random(r) => (Box::new(r), Limits::none()),
            Engine::Book(b) => {
                let limits = b.engine.limits();
                (b, limits)
            }
        }
    }

    /// Asks a search to score every root move ([`Reply::root_moves`]; `multi_pv` of the
    /// search configuration) or not. The other players ignore it.
    pub fn set_multi_pv(&mut self, on: bool) {
        match self {
            Engine::Search { searcher, .. } => searcher.config_mut().multi_pv = on,
            Engine::Book(b) => b.engine.set_multi_pv(on),
            _ => {}
        }
    }

    /// Refuses a board size this player cannot play (the pattern evaluation is 8x8 only).
    ///
    /// # Errors
    /// [`SpecError::UnsupportedSize`].
    pub fn check_size(&self, size: BoardSize) -> Result<(), SpecError> {
        match self {
            Engine::Search { searcher, .. } => searcher.evaluator().check_size(size),
            Engine::Book(b) => b.engine.check_size(size),
            _ => Ok(()),
        }
    }

    fn player(&mut self) -> &mut dyn Player {
        match self {
            Engine::Search { searcher, .. } => &mut **searcher,
            Engine::Mcts { mcts, .. } => &mut **mcts,
            Engine::Random(r) => r,
            Engine::Book(b) => &mut **b,
        }
    }
}

impl FromStr for Engine {
    type Err = SpecError;

    /// Parses a spec and builds its player ([`Engine::from_spec`]).
    fn from_str(s: &str) -> Result<Engine, SpecError> {
        Engine::from_spec(s.parse()?)
    }
}

/// Each method goes to the concrete player.
impl Player for Engine {
    fn name(&self) -> String {
        match self {
            Engine::Search { searcher, .. } => searcher.name(),
            Engine::Mcts { mcts, .. } => mcts.name(),
            Engine::Random(r) => r.name(),
            Engine::Book(b) => b.name(),
        }
    }

    fn new_game(&mut self) {
        self.player().new_game();
    }

    fn think(&mut self, pos: &Position, limits: &Limits) -> Reply {
        self.player().think(pos, limits)
    }

    fn think_with(&mut self, pos: &Position, limits: &Limits, on_progress: &mut dyn FnMut(&Progress)) -> Reply {
        self.player().think_with(pos, limits, on_progress)
    }

    fn observe(&mut self, mv: Move) {
        self.player().observe(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(text: &str) -> Result<Engine, SpecError> {
        text.parse()
    }

    fn error(text: &str) -> String {
        match engine(text) {
            Ok(_) => panic!("{text} was accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_name_builds_its_player_with_the_default_limits() {
        for (text, name) in [
            ("pvs", "pvs"),
            ("alphabeta", "alphabeta"),
            ("ab", "alphabeta"),
            ("negamax", "negamax"),
            ("minimax", "minimax"),
            ("mcts", "mcts"),
            ("random", "random"),
        ] {
            let e = engine(text).unwrap();
            assert_eq!(e.name(), name, "{text}");
            let limits = e.limits();
            match &e {
                Engine::Search { searcher, .. } => {
                    assert_eq!(
                        (limits.depth, limits.nodes, limits.time),
                        (Some(DEFAULT_DEPTH), None, None)
                    );
                    let c = searcher.config();
                    assert_eq!(c.quiescence, DEFAULT_QUIESCENCE && c.algorithm.prunes(), "{text}");
                }
                Engine::Mcts { .. } => {
                    assert_eq!(
                        (limits.depth, limits.nodes),
                        (None, Some(MctsConfig::DEFAULT_ITERATIONS))
                    );
                }
                Engine::Random(_) => assert_eq!(limits.nodes, None),
                Engine::Book(_) => panic!("no book asked"),
            }
        }
        assert_eq!(search_algorithm("ab"), Some(Algorithm::AlphaBeta));
        assert_eq!(search_algorithm("mcts"), None);
    }

    #[test]
    fn keys_reach_the_configuration_and_the_limits() {
        let Engine::Search { searcher, limits } =
            engine("pvs:time=100,nodes=5000,tt=2,threads=2,quiescence=off,killers=off,history=off,mobility=off,aspiration=off,endgame=12,stablestop=off,unstabletime=off,skipdepths=off,eval=mobility*10").unwrap()
        else {
            panic!("a search")
        };
        let c = searcher.config();
        assert_eq!((c.tt_mib, c.threads, c.endgame_empties), (2, 2, 12));
        assert!(
            !(c.quiescence
                || c.killers
                || c.history
                || c.mobility_ordering
                || c.aspiration
                || c.stable_stop
                || c.unstable_time)
        );
        assert!(SearchConfig::default().unstable_time);
        assert!(!c.skip_depths && SearchConfig::default().skip_depths);
        let Engine::Search { searcher: skip, .. } = engine("pvs:skipdepths=on").unwrap() else {
            panic!("a search")
        };
        assert!(skip.config().skip_depths);
        assert!(!c.reductions && !SearchConfig::default().reductions);
        let Engine::Search { searcher: on, .. } = engine("pvs:reductions=on").unwrap() else {
            panic!("a search")
        };
        assert!(on.config().reductions);
        assert!(matches!(searcher.evaluator(), SpecEval::Weighted(_)));
        // The solver orders by the pattern evaluation wherever the search evaluates with it.
        assert!(c.solver_ordering.is_none());
        for (text, ordered) in [
            ("pvs", true),
            ("pvs:eval=pattern+parity*20", true),
            ("alphabeta:eval=discs", false),
        ] {
            let Engine::Search { searcher, .. } = engine(text).unwrap() else {
                panic!("a search")
            };
            let ordering = searcher.config().solver_ordering.clone();
            assert_eq!(ordering.is_some(), ordered, "{text}");
            if let Some(o) = ordering {
                let mut pos = Position::start();
                for m in ["f5", "d6", "c3", "d3", "c4"] {
                    pos = pos.play(m.parse().unwrap()).unwrap();
                }
                let value = othello_eval::Evaluator::evaluate(searcher.evaluator(), &pos);
                assert_ne!(value, 0);
                assert_eq!(o.evaluate(&pos), value, "{text}");
            }
        }
        let t = limits.time.unwrap();
        // A fixed time per move: both bounds at it.
        assert_eq!(
            (t.soft, t.hard),
            (Duration::from_millis(100), Duration::from_millis(100))
        );
        assert_eq!((limits.depth, limits.nodes), (None, Some(5000)));
        let Engine::Mcts { mcts, limits } = engine(
            "mcts:playouts=300,nodes=300,c=0.5,seed=7,threads=2,tree=99,policy=corners,epsilon=0.3,reuse=on,time=40",
        )
        .unwrap() else {
            panic!("mcts")
        };
        let c = mcts.config();
        assert_eq!(
            (c.exploration, c.seed, c.threads, c.max_tree_nodes, c.reuse_tree),
            (0.5, 7, 2, 99, true)
        );
        assert_eq!(c.policy, PlayoutPolicy::CornersFirst { epsilon: 0.3 });
        assert_eq!(
            (limits.nodes, limits.time.unwrap().hard),
            (Some(300), Duration::from_millis(40))
        );
        let Engine::Mcts { mcts, .. } = engine("mcts:tree=2").unwrap() else {
            panic!("mcts")
        };
        assert_eq!(mcts.config().max_tree_nodes, 2, "the smallest tree");
        let Engine::Random(r) = engine("random:seed=9").unwrap() else {
            panic!("random")
        };
        assert_eq!(r.seed(), 9);
    }

    #[test]
    fn bad_specs_are_refused_with_their_messages() {
        for (text, message) in [
            (
                "nosuch",
                "unknown engine 'nosuch' (known: pvs, alphabeta, negamax, minimax, mcts, random)",
            ),
            (
                "pvs:depth=0",
                "bad value '0' for key 'depth' of engine 'pvs': expected 1 to 64",
            ),
            (
                "pvs:depth=65",
                "bad value '65' for key 'depth' of engine 'pvs': expected 1 to 64",
            ),
            (
                "ab:depth=x",
                "bad value 'x' for key 'depth' of engine 'ab': expected a depth of at least 1",
            ),
            (
                "pvs:time=0",
                "bad value '0' for key 'time' of engine 'pvs': expected at least 1 ms",
            ),
            (
                "pvs:nodes=0",
                "bad value '0' for key 'nodes' of engine 'pvs': expected at least 1",
            ),
            (
                "pvs:threads=0",
                "bad value '0' for key 'threads' of engine 'pvs': expected 1 to 256",
            ),
            (
                "pvs:playouts=3",
                "unknown key 'playouts' for engine 'pvs' (known: depth, time, nodes, eval, weights, tt, threads, quiescence, killers, history, mobility, aspiration, endgame, selectivity, reductions, stablestop, unstabletime, skipdepths)",
            ),
            (
                "mcts:nodes=3,playouts=4",
                "keys 'nodes' (3) and 'playouts' (4) of engine 'mcts' disagree: they are one limit",
            ),
            (
                "mcts:playouts=0",
                "bad value '0' for key 'nodes' of engine 'mcts': expected at least 1",
            ),
            (
                "mcts:c=-1",
                "bad value '-1' for key 'c' of engine 'mcts': expected a non-negative number",
            ),
            (
                "mcts:tree=1",
                "bad value '1' for key 'tree' of engine 'mcts': expected at least 2",
            ),
            (
                "mcts:epsilon=2",
                "bad value '2' for key 'epsilon' of engine 'mcts': expected 0 to 1",
            ),
            (
                "mcts:policy=greedy",
                "bad value 'greedy' for key 'policy' of engine 'mcts': expected random or corners",
            ),
            (
                "mcts:threads=300",
                "bad value '300' for key 'threads' of engine 'mcts': expected 1 to 256",
            ),
            (
                "mcts:depth=3",
                "unknown key 'depth' for engine 'mcts' (known: playouts, time, c, seed, threads, nodes, tree, policy, epsilon, reuse)",
            ),
            (
                "random:depth=3",
                "unknown key 'depth' for engine 'random' (known: seed)",
            ),
        ] {
            assert_eq!(error(text), message, "{text}");
        }
        assert!(
            error(&format!("pvs:tt={}", usize::MAX)).starts_with(&format!("bad value '{}' for key 'tt'", usize::MAX))
        );
    }

    #[test]
    fn engines_and_errors_cross_threads() {
        fn send<T: Send>() {}
        fn sync<T: Send + Sync + std::error::Error + 'static>() {}
        send::<Engine>();
        sync::<SpecError>();
    }

    #[test]
    fn the_engine_is_a_player_and_multi_pv_reaches_the_reply() {
        let pos = Position::start().play("f5".parse().unwrap()).unwrap();
        let mut e = engine("pvs:depth=3,eval=mobility").unwrap();
        let mut depths = Vec::new();
        let plain = e.think_with(&pos, &e.limits(), &mut |p| depths.push(p.depth));
        assert_eq!((depths, plain.depth, plain.root_moves.len()), (vec![1, 2, 3], 3, 0));
        e.set_multi_pv(true);
        let all = e.think(&pos, &e.limits());
        assert_eq!(all.root_moves.len(), pos.moves().len());
        assert_eq!(all.root_moves[0], (plain.best_move, plain.score.unwrap()));
        e.new_game();
        e.observe(all.best_move);
        let mut m = engine("mcts:playouts=200,seed=3,reuse=on").unwrap();
        m.set_multi_pv(true);
        let r = m.think(&pos, &m.limits());
        assert_eq!((r.nodes, r.root_moves.len()), (200, 0));
        assert!(r.mcts.unwrap().visit_share().is_some());
        // The tree is kept between moves, and `new_game` reaches MCTS and drops it.
        assert_eq!(m.think(&pos, &m.limits()).mcts.unwrap().root_visits, 400);
        m.new_game();
        assert_eq!(m.think(&pos, &m.limits()).mcts.unwrap().root_visits, 200);
        let (mut boxed, limits) = engine("random:seed=4").unwrap().into_player();
        assert!(pos.is_legal(boxed.think(&pos, &limits).best_move));
        assert!(engine("pvs:eval=pattern").unwrap().check_size(BoardSize::Six).is_err());
        assert!(engine("pvs").unwrap().check_size(BoardSize::Six).is_ok());
        assert!(engine("mcts").unwrap().check_size(BoardSize::Four).is_ok());
    }
}
