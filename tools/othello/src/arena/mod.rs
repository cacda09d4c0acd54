//! The match runner behind `othello play`: players built from specs or engines files, openings
//! played in pairs (each side once), clocks, concurrency, adjudication and game records.
//!
//! Each worker thread owns one instance of each player (a searcher, or an external process) and
//! plays whole pairs: pair `p` is games `2p + 1` (A black) and `2p + 2` (A white) from opening
//! `p mod openings`. Results go to the caller's thread in the order games finish.

pub mod clock;
pub mod external;
pub mod openings;
pub mod player;
pub mod record;

use crate::error::{CliResult, input};
use clock::{Clock, ClockCheck, TimeControl};
use external::{EngineDef, ExternalPlayer};
use openings::Opening;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{BoardSize, Color, Move};
use othello_spec::Spec;
use player::{Failure, Seat};
use record::{Ending, GameRecord, Played};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// Where a player comes from.
#[derive(Clone, Debug)]
pub enum PlayerSource {
    /// A spec of this program (`pvs:depth=6`).
    Builtin(String),
    /// An engine of the engines file and the depth its spec sets (see [`ExternalPlayer::new`]).
    External(EngineDef, Option<u32>),
}

impl PlayerSource {
    /// Reads a spec: `ext:name=NAME[,depth=N]` names an engine of `engines`; anything else is a
    /// spec of this program (checked by building it once, and refused if it cannot play on
    /// `size`).
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn parse(text: &str, engines: Option<&[EngineDef]>, size: BoardSize) -> CliResult<PlayerSource> {
        let mut spec: Spec = text.parse()?;
        if spec.name != "ext" {
            othello_spec::Engine::from_spec(text.parse()?)?.check_size(size)?;
            return Ok(PlayerSource::Builtin(text.to_string()));
        }
        let name = spec
            .raw("name")
            .ok_or_else(|| input(format!("bad engine spec '{text}': ext needs name=NAME")))?;
        let depth: Option<u32> = spec.get("depth", "a depth of 1 to 60")?;
        if depth.is_some_and(|d| !(1..=60).contains(&d)) {
            return Err(input(format!(
                "bad value for key 'depth' of engine 'ext' in '{text}': expected 1 to 60"
            )));
        }
        spec.finish(&["name", "depth"])?;
        let engines = engines.ok_or_else(|| input(format!("'{text}' needs --engines FILE")))?;
        let def = engines.iter().find(|d| d.name == name).ok_or_else(|| {
            let known: Vec<&str> = engines.iter().map(|d| d.name.as_str()).collect();
            input(format!(
                "unknown external engine '{name}' (engines file has: {})",
                known.join(", ")
            ))
        })?;
        Ok(PlayerSource::External(def.clone(), depth))
    }

    /// For an external engine that gets neither a depth from its spec nor a clock from `time`
    /// (so it plays to its own default limits), its name.
    pub fn on_own_limits(&self, time: &TimeControl) -> Option<&str> {
        match self {
            PlayerSource::External(def, None) if *time == TimeControl::None => Some(&def.name),
            _ => None,
        }
    }

    /// A fresh instance (an external one is started now).
    ///
    /// # Errors
    /// Bad input, or a program that cannot be started.
    pub fn build(&self, settings: &Settings) -> CliResult<Seat> {
        Ok(match self {
            PlayerSource::Builtin(text) => Seat::in_process(text)?,
            PlayerSource::External(def, depth) => Seat::External(Box::new(ExternalPlayer::new(
                def.clone(),
                *depth,
                settings.margin,
                settings.hang_timeout,
            )?)),
        })
    }
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The clock.
    pub time: TimeControl,
    /// Extra time over the limit before a move loses on time.
    pub margin: Duration,
    /// Time an in-process player keeps in hand for the runner and the scheduler.
    pub overhead: Duration,
    /// Without a clock, how long to wait for an external engine's move.
    pub hang_timeout: Duration,
    /// Solve exactly at this many empties.
    pub adjudicate: Option<u32>,
    /// Set on an interrupt (SIGINT, SIGTERM): no game starts after it, the games under way are
    /// abandoned at their next move (an in-process search is stopped too) and not reported, and
    /// the workers end, which ends their external engines' processes.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Settings {
    /// Whether the run was interrupted.
    pub fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// Plays one game. `players[0]` is A, `players[1]` is B.
pub fn play_game(
    number: u64,
    opening: &Opening,
    a_color: Color,
    players: &mut [Seat; 2],
    settings: &Settings,
    solver: Option<&mut Solver>,
) -> GameRecord {
    let index = |c: Color| if c == a_color { 0 } else { 1 };
    let (black, white) = (players[index(Color::Black)].name(), players[index(Color::White)].name());
    let ti = settings.time.ggf();
    let mut rec = GameRecord {
        number,
        opening: opening.clone(),
        a_color,
        black,
        white,
        moves: Vec::new(),
        black_margin: 0,
        ending: Ending::Scored,
        time_control: ti.clone(),
        time_use: [None; 2],
    };
    let squares = opening.root.size().squares() as i32;
    let forfeit_margin = |loser: Color| if loser == Color::Black { -squares } else { squares };
    let mut failed = [false; 2];
    for color in [Color::Black, Color::White] {
        let i = index(color);
        if let Err(f) = players[i].new_game(opening.root, &opening.moves, ti.as_deref()) {
            failed[i] = true;
            rec.black_margin = forfeit_margin(color);
            rec.ending = Ending::Forfeit(color, f.to_string());
            restart_failed(players, failed);
            return rec;
        }
    }
    let mut clocks = [Clock::new(settings.time), Clock::new(settings.time)];
    let mut pos = opening.position();
    let record_shares = |clocks: &[Clock; 2], rec: &mut GameRecord| {
        rec.time_use = [
            clocks[index(Color::Black)].time_use(),
            clocks[index(Color::White)].time_use(),
        ];
    };
    let mut solver = solver;
    loop {
        if settings.interrupted() {
            // Abandoned: the runner does not report this game.
            break;
        }
        if pos.is_game_over() {
            rec.black_margin = pos.final_score_black();
            break;
        }
        if let (Some(n), Some(s)) = (settings.adjudicate, solver.as_deref_mut())
            && pos.empty_count() <= n
        {
            let sol = s.solve(&pos, SolveMode::Exact);
            rec.black_margin = if pos.side_to_move() == Color::Black {
                sol.score
            } else {
                -sol.score
            };
            rec.ending = Ending::Adjudicated(pos.empty_count());
            break;
        }
        let color = pos.side_to_move();
        let i = index(color);
        if pos.must_pass() {
            // The runner plays a forced pass; the player is not asked.
            rec.moves.push(Played {
                color,
                mv: Move::Pass,
                time: Duration::ZERO,
                eval: None,
                depth: None,
                nodes: None,
                limit: None,
            });
            for p in players.iter_mut() {
                p.observe(Move::Pass, Duration::ZERO);
            }
            pos = pos.pass_unchecked();
            continue;
        }
        let clock = &mut clocks[i];
        let choices = pos.legal_moves().count();
        let start = Instant::now();
        let answer = players[i].think(&pos, clock, settings.overhead);
        let used = start.elapsed();
        let (reply, given) = match answer {
            Ok(r) => r,
            Err(f) => {
                failed[i] = true;
                rec.black_margin = forfeit_margin(color);
                rec.ending = match f {
                    Failure::Hung(_) => Ending::Time(color, f.to_string()),
                    _ => Ending::Forfeit(color, f.to_string()),
                };
                break;
            }
        };
        // A searched move: a choice to make and no exact result (a forced move and the
        // solved endgame may answer at once).
        let searched = choices > 1 && !reply.exact;
        if let ClockCheck::Flag { allowed } = clock.charge(used, settings.margin, searched) {
            rec.black_margin = forfeit_margin(color);
            rec.ending = Ending::Time(
                color,
                format!(
                    "took {:.3} s of {:.3} s (margin {:.3} s)",
                    used.as_secs_f64(),
                    allowed.as_secs_f64(),
                    settings.margin.as_secs_f64()
                ),
            );
            break;
        }
        let mv = reply.best_move;
        if !pos.is_legal(mv) {
            failed[i] = true;
            rec.black_margin = forfeit_margin(color);
            let why = if mv == Move::Pass {
                Failure::PassWithMove
            } else {
                Failure::Illegal(mv)
            };
            rec.ending = Ending::Forfeit(color, why.to_string());
            break;
        }
        let external = matches!(players[i], Seat::External(_));
        rec.moves.push(Played {
            color,
            mv,
            time: used,
            eval: reply.score.map(|s| s as f64 / 100.0),
            depth: (!external).then_some(reply.depth),
            nodes: (!external).then_some(reply.nodes),
            limit: given.map(|t| t.hard),
        });
        for p in players.iter_mut() {
            p.observe(mv, used);
        }
        pos = pos.play_unchecked(mv);
    }
    record_shares(&clocks, &mut rec);
    restart_failed(players, failed);
    rec
}

/// Restarts the players that misbehaved, so the next game starts clean. A player that cannot be
/// restarted fails its next game's start and loses it.
fn restart_failed(players: &mut [Seat; 2], failed: [bool; 2]) {
    for (p, f) in players.iter_mut().zip(failed) {
        if f {
            p.restart();
        }
    }
}

/// Plays the pairs numbered `pairs` with `concurrency` workers, calling `on_game` in this thread for every
/// finished game; when it returns `true` no new pair starts (pairs under way finish). After
/// [`Settings::interrupt`] is set no game starts and the games under way are not reported.
///
/// # Errors
/// A player that cannot be built.
pub fn run(
    sources: &[PlayerSource; 2],
    openings: &[Opening],
    pairs: std::ops::Range<u64>,
    concurrency: usize,
    settings: &Settings,
    mut on_game: impl FnMut(GameRecord) -> bool,
) -> CliResult {
    let mut sets = Vec::new();
    for _ in 0..(concurrency as u64).min(pairs.end.saturating_sub(pairs.start).max(1)) {
        let mut set = [sources[0].build(settings)?, sources[1].build(settings)?];
        if let Some(flag) = &settings.interrupt {
            // An interrupt also stops an in-process search under way.
            for seat in &mut set {
                if let Seat::InProcess { base, .. } = seat
                    && base.stop.is_none()
                {
                    base.stop = Some(Arc::clone(flag));
                }
            }
        }
        sets.push(set);
    }
    let next = AtomicU64::new(pairs.start);
    let end = pairs.end;
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<GameRecord>();
    std::thread::scope(|scope| {
        for mut players in sets {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut solver = settings
                    .adjudicate
                    .map(|_| Solver::new(SolverConfig::default().with_tt_mib(16).with_threads(1)));
                while !stop.load(Ordering::SeqCst) && !settings.interrupted() {
                    let p = next.fetch_add(1, Ordering::SeqCst);
                    if p >= end {
                        break;
                    }
                    let opening = &openings[(p % openings.len() as u64) as usize];
                    for (k, a_color) in [Color::Black, Color::White].into_iter().enumerate() {
                        let rec = play_game(
                            2 * p + k as u64 + 1,
                            opening,
                            a_color,
                            &mut players,
                            settings,
                            solver.as_mut(),
                        );
                        if settings.interrupted() || tx.send(rec).is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        for rec in rx {
            if on_game(rec) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_engine::{Limits, Player, RandomPlayer, Reply};
    use othello_rules::Position;

    /// A player that always answers the same move, after sleeping.
    struct Fixed(Move, Duration);

    impl Player for Fixed {
        fn name(&self) -> String {
            "fixed".into()
        }
        fn new_game(&mut self) {}
        fn think(&mut self, _pos: &Position, _limits: &Limits) -> Reply {
            std::thread::sleep(self.1);
            Reply::new(self.0)
        }
    }

    fn seat(name: &str, player: Box<dyn Player + Send>) -> Seat {
        Seat::InProcess {
            name: name.into(),
            player,
            base: Limits::none(),
            own: true,
        }
    }

    fn settings(time: TimeControl) -> Settings {
        Settings {
            time,
            margin: Duration::ZERO,
            overhead: Duration::from_millis(3),
            hang_timeout: Duration::from_secs(1),
            adjudicate: None,
            interrupt: None,
        }
    }

    fn start() -> Opening {
        Opening {
            root: Position::start(),
            moves: Vec::new(),
        }
    }

    #[test]
    fn misbehaving_in_process_players_forfeit() {
        let a1: Move = "a1".parse().unwrap();
        for (bad, why) in [(a1, "illegal move a1"), (Move::Pass, "passed with a legal move")] {
            for a_color in [Color::Black, Color::White] {
                let mut players = [
                    seat("bad", Box::new(Fixed(bad, Duration::ZERO))),
                    seat("random", Box::new(RandomPlayer::new(1))),
                ];
                let rec = play_game(1, &start(), a_color, &mut players, &settings(TimeControl::None), None);
                assert_eq!(rec.ending, Ending::Forfeit(a_color, why.to_string()));
                assert_eq!(rec.a_half_points(), 0);
                let sign = if a_color == Color::Black { -1 } else { 1 };
                assert_eq!(rec.black_margin, 64 * sign);
                // The bad player moves first as black; as white after one random move.
                assert_eq!(rec.moves.len(), usize::from(a_color == Color::White));
            }
        }
    }

    #[test]
    fn a_slow_move_loses_on_time_and_a_margin_saves_it() {
        let f5: Move = "f5".parse().unwrap();
        let slow = || seat("slow", Box::new(Fixed(f5, Duration::from_millis(40))));
        let mut players = [slow(), seat("random", Box::new(RandomPlayer::new(1)))];
        let st = TimeControl::PerMove(Duration::from_millis(10));
        let rec = play_game(1, &start(), Color::Black, &mut players, &settings(st), None);
        assert!(matches!(rec.ending, Ending::Time(Color::Black, _)), "{:?}", rec.ending);
        assert_eq!(rec.black_margin, -64);
        assert!(rec.moves.is_empty());
        // With a margin of 1 s the same move is in time (then it plays f5 again, illegal).
        let mut players = [slow(), seat("random", Box::new(RandomPlayer::new(1)))];
        let lenient = Settings {
            margin: Duration::from_secs(1),
            ..settings(st)
        };
        let rec = play_game(1, &start(), Color::Black, &mut players, &lenient, None);
        assert_eq!(rec.moves.len(), 2);
        assert_eq!(rec.moves[0].mv, f5);
        assert!(rec.moves[0].time >= Duration::from_millis(40));
        assert_eq!(rec.ending, Ending::Forfeit(Color::Black, "illegal move f5".into()));
    }

    #[test]
    fn forced_passes_are_played_by_the_runner() {
        // 4x4, white to move with no square, black then fills the board: W[PA] B[A1].
        let root: Position = format!("-O{} O", "*".repeat(14)).parse().unwrap();
        let opening = Opening {
            root,
            moves: Vec::new(),
        };
        let mut players = [
            seat("a", Box::new(RandomPlayer::new(1))),
            seat("b", Box::new(RandomPlayer::new(2))),
        ];
        let rec = play_game(
            1,
            &opening,
            Color::White,
            &mut players,
            &settings(TimeControl::None),
            None,
        );
        let moves: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
        assert_eq!(moves, vec![Move::Pass, "a1".parse().unwrap()]);
        assert_eq!(rec.moves[0].time, Duration::ZERO);
        assert_eq!(rec.black_margin, 16);
        assert_eq!(rec.ending, Ending::Scored);
        assert_eq!(rec.a_result(), "loss");
        let ggf = rec.ggf();
        assert_eq!(ggf.to_string().parse::<othello_rules::GgfGame>().unwrap(), ggf);
    }

    #[test]
    fn adjudication_gives_the_exact_score() {
        let opening = start();
        let mut players = [
            seat("a", Box::new(RandomPlayer::new(3))),
            seat("b", Box::new(RandomPlayer::new(4))),
        ];
        let s = Settings {
            adjudicate: Some(12),
            ..settings(TimeControl::None)
        };
        let mut solver = Solver::new(SolverConfig::default().with_tt_mib(1));
        let rec = play_game(1, &opening, Color::Black, &mut players, &s, Some(&mut solver));
        assert_eq!(rec.ending, Ending::Adjudicated(12));
        let at = rec.final_position();
        assert_eq!(at.empty_count(), 12);
        let exact = Solver::new(SolverConfig::default().with_tt_mib(1))
            .solve(&at, SolveMode::Exact)
            .score;
        let black = if at.side_to_move() == Color::Black {
            exact
        } else {
            -exact
        };
        assert_eq!(rec.black_margin, black);
    }
}
