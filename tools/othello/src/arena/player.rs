//! The match's view of a player: start a game, think on a position under a time budget, answer
//! a move (with an optional score, depth and nodes). In-process players wrap the CLI's
//! [`Engine`]; external ones are NBoard processes ([`super::external`]).

use super::clock::MoveBudget;
use crate::engine::Engine;
use crate::error::CliResult;
use crate::spec::Spec;
use othello_rules::{Move, Position};
use othello_search::TimeLimit;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The game so far, as a player is asked to move in it.
pub struct GameView<'a> {
    /// Where the record starts.
    pub root: Position,
    /// Every move from `root` (the opening's and the game's), with the time each took
    /// (`None` for opening moves).
    pub moves: &'a [(Move, Option<Duration>)],
    /// The position to move in.
    pub position: Position,
    /// The time control text for GGF `TI[]`, if any.
    pub time_control: Option<&'a str>,
}

/// A player's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reply {
    /// The move (checked for legality by the runner).
    pub mv: Move,
    /// The player's evaluation in discs from its side, if it gave one.
    pub eval: Option<f64>,
    /// Search depth, if known.
    pub depth: Option<u32>,
    /// Nodes searched, if known.
    pub nodes: Option<u64>,
}

/// Why a player gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its output.
    Crashed(String),
    /// No answer before the deadline.
    Hung(Duration),
    /// An answer the runner could not read.
    Garbage(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(why) => write!(f, "engine crashed: {why}"),
            Failure::Hung(t) => write!(f, "no answer within {:.3} s", t.as_secs_f64()),
            Failure::Garbage(line) => write!(f, "unreadable answer '{line}'"),
        }
    }
}

/// A player in a match.
pub trait MatchPlayer: Send {
    /// The name in records.
    fn name(&self) -> &str;
    /// Prepares for a new game (forgets the last one).
    ///
    /// # Errors
    /// The player could not be made ready.
    fn new_game(&mut self) -> Result<(), Failure>;
    /// Chooses a move in `game.position` under `budget`; `deadline` is how long the runner
    /// waits for an answer before giving up on the player.
    ///
    /// # Errors
    /// No usable answer.
    fn think(&mut self, game: &GameView<'_>, budget: &MoveBudget, deadline: Duration) -> Result<Reply, Failure>;
    /// Tells the player a move was played by either side (for tree reuse).
    fn observe(&mut self, _mv: Move) {}
    /// Brings the player back after a failure (restarts a process).
    ///
    /// # Errors
    /// It could not be restarted.
    fn restart(&mut self) -> Result<(), Failure> {
        Ok(())
    }
}

/// A player of this program: the engine of a spec, run in the runner's thread.
pub struct BuiltinPlayer {
    name: String,
    engine: Engine,
    /// Whether the spec fixed its own depth (else a clock lifts the default depth).
    own_depth: bool,
}

impl BuiltinPlayer {
    /// Builds the player of a spec.
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn new(text: &str) -> CliResult<BuiltinPlayer> {
        let mut probe: Spec = text.parse()?;
        let own_depth = probe.raw("depth").is_some() || probe.raw("nodes").is_some() || probe.raw("time").is_some();
        Ok(BuiltinPlayer {
            name: text.to_string(),
            engine: Engine::from_spec(text.parse()?)?,
            own_depth,
        })
    }
}

impl MatchPlayer for BuiltinPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        self.engine.new_game();
        Ok(())
    }

    fn think(&mut self, game: &GameView<'_>, budget: &MoveBudget, _deadline: Duration) -> Result<Reply, Failure> {
        let pos = &game.position;
        let clock = budget.time_limits();
        let reply = match &mut self.engine {
            Engine::Search { searcher, limits } => {
                let mut l = limits.clone();
                if let Some((soft, hard)) = clock {
                    l.time = Some(match l.time {
                        Some(t) => TimeLimit {
                            soft: t.soft.min(soft),
                            hard: t.hard.min(hard),
                        },
                        None => TimeLimit { soft, hard },
                    });
                    if !self.own_depth {
                        l.depth = None;
                    }
                }
                let r = searcher.search(pos, &l, |_| {});
                Reply {
                    mv: r.best_move,
                    eval: Some(r.score as f64 / 100.0),
                    depth: Some(r.depth),
                    nodes: Some(r.nodes),
                }
            }
            Engine::Mcts(m) => {
                // A timer raises the stop flag at the fair share (MCTS stops at once, unlike an
                // iterative search which overruns its soft limit).
                let stop = Arc::new(AtomicBool::new(false));
                m.set_stop(stop.clone());
                let timer = clock.map(|(soft, hard)| {
                    let at = (soft * 2).min(hard);
                    let stop = stop.clone();
                    let (tx, rx) = std::sync::mpsc::channel::<()>();
                    let handle = std::thread::spawn(move || {
                        if rx.recv_timeout(at).is_err() {
                            stop.store(true, Ordering::SeqCst);
                        }
                    });
                    (tx, handle)
                });
                let r = m.search(pos);
                if let Some((tx, handle)) = timer {
                    let _ = tx.send(());
                    let _ = handle.join();
                }
                Reply {
                    mv: r.best_move,
                    eval: None,
                    depth: None,
                    nodes: Some(r.iterations),
                }
            }
            Engine::Random(_) => Reply {
                mv: self.engine.choose(pos),
                eval: None,
                depth: None,
                nodes: None,
            },
        };
        Ok(reply)
    }

    fn observe(&mut self, mv: Move) {
        self.engine.observe(mv);
    }
}
