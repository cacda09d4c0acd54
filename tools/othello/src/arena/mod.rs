//! The match runner behind `othello play`: players built from specs or engines files, openings
//! played in pairs (each side once), clocks, concurrency, adjudication and game records.
//!
//! Each worker thread owns one instance of each player (a searcher, or an external process) and
//! plays whole pairs: pair `p` is games `2p + 1` (A black) and `2p + 2` (A white) from opening
//! `p mod openings`. Results go to the caller's thread in the order games finish.
//!
//! A match with a human ([`PlayerSource::Human`], [`Schedule::Human`]) plays its games one
//! after the other in the caller's thread, the human keeping its colour, game `k` from opening
//! `(k - 1) mod openings`.

pub mod clock;
pub mod external;
pub mod human;
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
use player::{Failure, Seat, Turn, TurnInfo};
use record::{Ending, GameRecord, Played};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, channel, sync_channel};
use std::time::{Duration, Instant};

/// Where a player comes from.
#[derive(Clone, Debug)]
pub enum PlayerSource {
    /// A spec of this program (`pvs:depth=6`).
    Builtin(String),
    /// An engine of the engines file and the depth its spec sets (see [`ExternalPlayer::new`]).
    External(EngineDef, Option<u32>),
    /// A person at the terminal (spec `human[:name=NAME]`), see [`human`].
    Human {
        /// The name in records (`human` unless the spec names one).
        name: String,
        /// The colour the human plays.
        colour: Color,
        /// The spec of the engine that answers `hint`.
        hint: String,
    },
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
        if spec.name == "human" {
            return Err(input(format!("'{text}': a human plays only in `othello play`")));
        }
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

    /// Reads the spec of a human (`human` or `human:name=NAME`) playing `colour`, with the
    /// spec of the engine that answers `hint` (checked by building it: an engine of this
    /// program that plays on `size`). `None` when `text` is not a human's spec.
    ///
    /// # Errors
    /// Bad input naming the problem.
    pub fn parse_human(text: &str, colour: Color, hint: &str, size: BoardSize) -> CliResult<Option<PlayerSource>> {
        let mut spec: Spec = text.parse()?;
        if spec.name != "human" {
            return Ok(None);
        }
        let name = spec.raw("name").unwrap_or_else(|| "human".to_string());
        spec.finish(&["name"])?;
        let hint_name = hint.parse::<Spec>()?.name;
        if hint_name == "human" || hint_name == "ext" {
            return Err(input(format!(
                "bad --hint '{hint}': expected an engine spec of this program, e.g. pvs:depth=10"
            )));
        }
        hint.parse::<othello_spec::Engine>()
            .and_then(|e| e.check_size(size))
            .map_err(|e| input(format!("bad --hint '{hint}': {e}")))?;
        Ok(Some(PlayerSource::Human {
            name,
            colour,
            hint: hint.to_string(),
        }))
    }

    /// Whether this is a human.
    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSource::Human { .. })
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
            PlayerSource::Human { name, colour, hint } => Seat::Human(Box::new(human::Human::new(
                name.clone(),
                *colour,
                (hint.parse()?, hint.clone()),
                Box::new(std::io::BufReader::new(std::io::stdin())),
                Box::new(std::io::stderr()),
            ))),
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
    /// abandoned at their next move (an in-process search is stopped too, and a wait for an
    /// external engine's move or a human's line ends) and not reported, and the workers end,
    /// which ends their external engines' processes.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// A's own time in microseconds, read when each of its games starts (`othello play
    /// --follow` sets it between games): under a fixed time per move A's time per move, under
    /// a clock A's base time for the game (with `time`'s increment); B keeps `time`. Without
    /// it, or without a clock, both sides play `time`.
    pub follow: Option<Arc<AtomicU64>>,
}

impl Settings {
    /// Player A's own time control for a game starting now, with [`Settings::follow`] under a
    /// fixed time per move (its own time per move) or a clock (its own base time, `time`'s
    /// increment); `None` otherwise (A plays `time`, as B always does). The shared value is
    /// read once: a game's record and its clock take A's time from one call, so that a change
    /// between games (several under way at once) cannot set them apart.
    pub fn a_own_time(&self) -> Option<TimeControl> {
        let own = Duration::from_micros(self.follow.as_ref()?.load(Ordering::SeqCst));
        match self.time {
            TimeControl::PerMove(_) => Some(TimeControl::PerMove(own)),
            TimeControl::Clock { increment, .. } => Some(TimeControl::Clock { base: own, increment }),
            TimeControl::None => None,
        }
    }

    /// Player A's own time per move for a game starting now (see [`Settings::a_own_time`]).
    pub fn a_move_time(&self) -> Option<Duration> {
        match self.a_own_time() {
            Some(TimeControl::PerMove(t)) => Some(t),
            _ => None,
        }
    }

    /// Player A's own base time for a game starting now (see [`Settings::a_own_time`]).
    pub fn a_base_time(&self) -> Option<Duration> {
        match self.a_own_time() {
            Some(TimeControl::Clock { base, .. }) => Some(base),
            _ => None,
        }
    }

    /// Player A's time control for a game starting now: its own, or `time`.
    pub fn a_time(&self) -> TimeControl {
        self.a_own_time().unwrap_or(self.time)
    }

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
        a_move_time: None,
        a_base_time: None,
    };
    let squares = opening.root.size().squares() as i32;
    let forfeit_margin = |loser: Color| if loser == Color::Black { -squares } else { squares };
    let mut failed = [false; 2];
    for color in [Color::Black, Color::White] {
        let i = index(color);
        if let Err(f) = players[i].new_game(opening.root, &opening.moves, ti.as_deref()) {
            if f == Failure::Interrupted {
                // Abandoned: the runner does not report this game.
                return rec;
            }
            failed[i] = true;
            rec.black_margin = forfeit_margin(color);
            rec.ending = Ending::Forfeit(color, f.to_string());
            restart_failed(players, failed);
            return rec;
        }
    }
    let a_time = settings.a_own_time();
    (rec.a_move_time, rec.a_base_time) = match a_time {
        Some(TimeControl::PerMove(t)) => (Some(t), None),
        Some(TimeControl::Clock { base, .. }) => (None, Some(base)),
        _ => (None, None),
    };
    let mut clocks = [Clock::new(a_time.unwrap_or(settings.time)), Clock::new(settings.time)];
    // The clocks before each move of `rec.moves`, to set them back when moves are taken back.
    let mut clocks_before: Vec<[Clock; 2]> = Vec::new();
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
            clocks_before.push(clocks);
            rec.moves.push(Played {
                color,
                mv: Move::Pass,
                time: Duration::ZERO,
                eval: None,
                depth: None,
                nodes: None,
                limit: None,
                book: false,
            });
            for p in players.iter_mut() {
                p.observe(Move::Pass, Duration::ZERO);
            }
            pos = pos.pass_unchecked();
            continue;
        }
        let choices = pos.legal_moves().count();
        let own_move = last_own_move(&rec.moves, color);
        let turn = TurnInfo {
            clock: &clocks[i],
            opponent_clock: &clocks[1 - i],
            overhead: settings.overhead,
            margin: settings.margin,
            can_undo: own_move.is_some(),
        };
        let before = clocks;
        let start = Instant::now();
        let answer = players[i].think(&pos, &turn);
        let used = start.elapsed();
        let clock = &mut clocks[i];
        let (reply, given) = match answer {
            Ok(Turn::Move(reply, given)) => (reply, given),
            Ok(Turn::Quit(why)) => {
                rec.ending = Ending::Abandoned(why);
                break;
            }
            Ok(turn @ (Turn::Undo | Turn::TimeUp)) => {
                // The time the human took counts, but as no move (no increment).
                if let ClockCheck::Flag { allowed } = clock.spend(used, settings.margin) {
                    rec.black_margin = forfeit_margin(color);
                    rec.ending = Ending::Time(
                        color,
                        format!("took {:.3} s of {:.3} s", used.as_secs_f64(), allowed.as_secs_f64()),
                    );
                    break;
                }
                if let (Turn::Undo, Some(k)) = (turn, own_move) {
                    match take_back(
                        &mut rec,
                        k,
                        &mut clocks,
                        &clocks_before,
                        color,
                        players,
                        i,
                        opening,
                        ti.as_deref(),
                    ) {
                        Ok(p) => pos = p,
                        Err((_, Failure::Interrupted)) => break,
                        Err((loser, f)) => {
                            failed[index(loser)] = true;
                            rec.black_margin = forfeit_margin(loser);
                            rec.ending = Ending::Forfeit(loser, f.to_string());
                            break;
                        }
                    }
                    clocks_before.truncate(k);
                }
                continue;
            }
            Err(Failure::Interrupted) => break,
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
        // Only this program's engines report depths and node counts.
        let external = !matches!(players[i], Seat::InProcess { .. });
        clocks_before.push(before);
        rec.moves.push(Played {
            color,
            mv,
            time: used,
            eval: reply.score.map(|s| s as f64 / 100.0),
            depth: (!external).then_some(reply.depth),
            nodes: (!external).then_some(reply.nodes),
            limit: given.map(|t| t.hard),
            book: reply.book,
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

/// The index in `moves` of the last move `color` chose (not a forced pass).
fn last_own_move(moves: &[Played], color: Color) -> Option<usize> {
    moves.iter().rposition(|m| m.color == color && m.mv != Move::Pass)
}

/// Takes back the moves of `rec` from index `k` on (the human `color`'s last move and what
/// followed), for the human in seat `human`: the clocks go back to what they were before move
/// `k`, less on the human's every time the human spent since (the moves taken back, the
/// asking); the
/// other seat starts the game afresh and is told the moves kept (so its answers do not depend
/// on the line taken back); the human is shown the position. Returns the position, or the
/// colour of a player that failed to start again and its failure.
#[allow(clippy::too_many_arguments, reason = "the state of the game under way")]
fn take_back(
    rec: &mut GameRecord,
    k: usize,
    clocks: &mut [Clock; 2],
    clocks_before: &[[Clock; 2]],
    color: Color,
    players: &mut [Seat; 2],
    human: usize,
    opening: &Opening,
    ti: Option<&str>,
) -> Result<othello_rules::Position, (Color, Failure)> {
    let undone: Vec<Played> = rec.moves.split_off(k);
    // Every time the human spent since move k (thinking on the moves taken back, asking for
    // it) stays spent, without the increments of the moves taken back.
    let mut restored = clocks_before[k];
    let spent = clocks[human].used().saturating_sub(restored[human].used());
    restored[human].spend(spent, Duration::MAX);
    *clocks = restored;
    let pos = rec.moves.iter().fold(opening.position(), |p, m| p.play_unchecked(m.mv));
    let engine = 1 - human;
    if let Err(f) = players[engine].new_game(opening.root, &opening.moves, ti) {
        return Err((!color, f));
    }
    for m in &rec.moves {
        players[engine].observe(m.mv, m.time);
    }
    if let Seat::Human(h) = &mut players[human] {
        let moves: Vec<Move> = undone.iter().map(|m| m.mv).collect();
        h.taken_back(&moves, pos);
    }
    Ok(pos)
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

/// Which games a run plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The pairs numbered so (each opening twice, A black then A white).
    Pairs(std::ops::Range<u64>),
    /// A match with a human: this many games, one after the other, the human keeping its
    /// colour; it ends at the first game the human leaves unfinished.
    Human {
        /// The number of games.
        games: u64,
    },
}

/// Builds one instance of each player, wired to the run's interrupt.
fn build_set(sources: &[PlayerSource; 2], settings: &Settings) -> CliResult<[Seat; 2]> {
    let mut set = [sources[0].build(settings)?, sources[1].build(settings)?];
    let names = [set[0].name(), set[1].name()];
    for (k, seat) in set.iter_mut().enumerate() {
        // An interrupt also stops an in-process search under way, and ends a wait for an
        // external engine or a human.
        match (seat, &settings.interrupt) {
            (Seat::InProcess { base, .. }, Some(flag)) if base.stop.is_none() => base.stop = Some(Arc::clone(flag)),
            (Seat::External(e), Some(flag)) => e.set_interrupt(Arc::clone(flag)),
            (Seat::Human(h), flag) => {
                h.set_opponent(names[1 - k].clone());
                if let Some(flag) = flag {
                    h.set_interrupt(Arc::clone(flag));
                }
            }
            _ => {}
        }
    }
    Ok(set)
}

/// Plays the games of `schedule`, calling `on_game` in this thread for every finished game;
/// when it returns `true` no new pair (or game) starts (pairs under way finish). Pairs are
/// played by `concurrency` workers; a human's games in this thread. After
/// [`Settings::interrupt`] is set no game starts and the games under way are not reported;
/// neither is a game a human left unfinished.
///
/// # Errors
/// A player that cannot be built.
pub fn run(
    sources: &[PlayerSource; 2],
    openings: &[Opening],
    schedule: Schedule,
    concurrency: usize,
    settings: &Settings,
    mut on_game: impl FnMut(GameRecord) -> bool,
) -> CliResult {
    let pairs = match schedule {
        Schedule::Pairs(_) if sources.iter().any(PlayerSource::is_human) => {
            return Err(input("a human plays its games one by one, not in pairs"));
        }
        Schedule::Pairs(pairs) => pairs,
        Schedule::Human { games } => return run_human(sources, openings, games, settings, on_game),
    };
    let mut sets = Vec::new();
    for _ in 0..(concurrency as u64).min(pairs.end.saturating_sub(pairs.start).max(1)) {
        sets.push(build_set(sources, settings)?);
    }
    let next = AtomicU64::new(pairs.start);
    let end = pairs.end;
    let stop = AtomicBool::new(false);
    // Each record goes with a one-shot acknowledgement: the worker starts its next game only
    // after `on_game` has seen the last one, so what `on_game` sets for the next games (the
    // stop flag, `--follow`'s time per move) applies to them and not one game late. The worker
    // keeps no sender of its own, so if this thread unwinds (dropping the acknowledgement
    // unsent) its wait ends with an error and it returns instead of hanging the scope.
    let (tx, rx) = channel::<(GameRecord, SyncSender<()>)>();
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
                        let (ack_tx, ack_rx) = sync_channel::<()>(1);
                        if settings.interrupted() || tx.send((rec, ack_tx)).is_err() || ack_rx.recv().is_err() {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        for (rec, ack) in rx {
            if on_game(rec) {
                stop.store(true, Ordering::SeqCst);
            }
            // Lets the worker start its next game: it is waiting for this.
            let _ = ack.send(());
        }
    });
    Ok(())
}

/// [`run`] for a match with a human: `games` games in this thread, game `k` (from 1) from
/// opening `(k - 1) mod openings`, A with the colour that gives the human its own.
fn run_human(
    sources: &[PlayerSource; 2],
    openings: &[Opening],
    games: u64,
    settings: &Settings,
    mut on_game: impl FnMut(GameRecord) -> bool,
) -> CliResult {
    let a_color = match sources {
        [PlayerSource::Human { colour, .. }, _] => *colour,
        [_, PlayerSource::Human { colour, .. }] => !*colour,
        _ => return Err(input("a schedule for a human without a human")),
    };
    let mut players = build_set(sources, settings)?;
    let mut solver = settings
        .adjudicate
        .map(|_| Solver::new(SolverConfig::default().with_tt_mib(16).with_threads(1)));
    for k in 0..games {
        if settings.interrupted() {
            break;
        }
        let opening = &openings[(k % openings.len() as u64) as usize];
        let rec = play_game(k + 1, opening, a_color, &mut players, settings, solver.as_mut());
        if settings.interrupted() || matches!(rec.ending, Ending::Abandoned(_)) || on_game(rec) {
            break;
        }
    }
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
            follow: None,
        }
    }

    #[test]
    fn a_follow_time_applies_to_a_only_and_only_per_move() {
        let st = TimeControl::PerMove(Duration::from_millis(50));
        let follow = Arc::new(AtomicU64::new(120_000));
        let s = Settings {
            follow: Some(Arc::clone(&follow)),
            ..settings(st)
        };
        assert_eq!(s.a_move_time(), Some(Duration::from_millis(120)));
        assert_eq!(s.time, st);
        follow.store(7_000, Ordering::SeqCst);
        assert_eq!(s.a_move_time(), Some(Duration::from_millis(7)));
        let tc = TimeControl::parse_tc("10+0.1").unwrap();
        let s = Settings {
            follow: Some(follow),
            ..settings(tc)
        };
        assert_eq!((s.a_move_time(), s.time), (None, tc));
        // Under a clock the follow sets A's base time and keeps the increment.
        assert_eq!(s.a_base_time(), Some(Duration::from_millis(7)));
        assert_eq!(
            s.a_time(),
            TimeControl::Clock {
                base: Duration::from_millis(7),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(settings(st).a_move_time(), None);
        assert_eq!((settings(tc).a_base_time(), settings(tc).a_time()), (None, tc));
        assert_eq!((settings(st).a_base_time(), settings(st).a_time()), (None, st));
        let none = Settings {
            follow: Some(Arc::new(AtomicU64::new(400_000))),
            ..settings(TimeControl::None)
        };
        assert_eq!(
            (none.a_move_time(), none.a_base_time(), none.a_time()),
            (None, None, TimeControl::None)
        );
        assert_eq!(none.a_own_time(), None);
        assert_eq!(settings(st).a_own_time(), None);
        assert_eq!(s.a_own_time(), Some(s.a_time()));
        // A game's clocks: A's moves get A's time.
        let slow = Settings {
            follow: Some(Arc::new(AtomicU64::new(400_000))),
            ..settings(st)
        };
        let mut players = [
            seat("a", Box::new(RandomPlayer::new(1))),
            seat("b", Box::new(RandomPlayer::new(2))),
        ];
        let rec = play_game(1, &start(), Color::White, &mut players, &slow, None);
        assert_eq!(rec.a_move_time, Some(Duration::from_millis(400)));
        assert_eq!(rec.json()["a_move_time"], 0.4);
        let hard = |ms: u64| {
            let t = Duration::from_millis(ms);
            Some(t - clock::per_move_reserve(t, Duration::from_millis(3), othello_engine::MOVE_OVERHEAD))
        };
        let played: Vec<&Played> = rec.moves.iter().filter(|m| m.mv != Move::Pass).collect();
        assert!(played.len() > 20, "{}", played.len());
        for m in played {
            let want = if m.color == Color::White { hard(400) } else { hard(50) };
            assert_eq!(m.limit, want, "{:?}", m.color);
        }
        assert_eq!(rec.a_base_time, None);
        // Under a clock A's clock starts at its base time (with the increment), B's at `time`.
        let clock = Settings {
            follow: Some(Arc::new(AtomicU64::new(400_000))),
            ..settings(TimeControl::parse_tc("30+0.5").unwrap())
        };
        let rec = play_game(1, &start(), Color::Black, &mut players, &clock, None);
        assert_eq!(
            (rec.a_move_time, rec.a_base_time),
            (None, Some(Duration::from_millis(400)))
        );
        assert_eq!(rec.json()["a_base_time"], 0.4);
        let moves = |c: Color| rec.moves.iter().filter(|m| m.color == c && m.mv != Move::Pass).count() as u32;
        let left = |a: bool| rec.time_use(a).unwrap().left.unwrap();
        let (a_inc, b_inc) = (
            Duration::from_millis(500) * moves(Color::Black),
            Duration::from_millis(500) * moves(Color::White),
        );
        assert!(left(true) <= Duration::from_millis(400) + a_inc, "{:?}", left(true));
        assert!(left(true) > Duration::from_millis(300) + a_inc, "{:?}", left(true));
        assert!(left(false) > Duration::from_secs(29) + b_inc, "{:?}", left(false));
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

    /// A human seat reading `script`, and its conversation.
    fn human(script: &str, colour: Color) -> (Seat, human::tests::Shared) {
        let (mut h, out) = human::tests::scripted(script, colour);
        h.set_opponent("pvs:depth=1".into());
        (Seat::Human(Box::new(h)), out)
    }

    fn moves(rec: &GameRecord) -> Vec<String> {
        rec.moves.iter().map(|m| m.mv.to_string()).collect()
    }

    #[test]
    fn undo_takes_back_the_humans_move_and_the_reply_and_the_record_keeps_the_final_line() {
        let engine = || Seat::in_process("pvs:depth=1").unwrap();
        let play = |script: &str| {
            let (h, out) = human(script, Color::Black);
            let mut players = [h, engine()];
            let rec = play_game(
                1,
                &start(),
                Color::Black,
                &mut players,
                &settings(TimeControl::None),
                None,
            );
            (rec, out.text())
        };
        // A line typed straight: c4, then each time the first legal square of a1..h8 read
        // in turn.
        let squares: String = othello_rules::Square::all().map(|sq| format!("{sq}\n")).collect();
        let (straight, _) = play(&format!("c4\n{}quit\n", squares.repeat(3)));
        assert_eq!(straight.ending, Ending::Abandoned("quit".into()));
        assert!(straight.moves.len() >= 8, "{}", moves(&straight).join(" "));
        let mine: Vec<String> = straight
            .moves
            .iter()
            .filter(|m| m.color == Color::Black && m.mv != Move::Pass)
            .map(|m| m.mv.to_string())
            .collect();
        // The same line with moves taken back on the way: d3 for c4, and the second move
        // played, taken back and played again.
        let script = format!(
            "d3\nundo\n{}\n{}\nundo\n{}\n{}\nquit\n",
            mine[0],
            mine[1],
            mine[1],
            mine[2..].join("\n")
        );
        let (undone, text) = play(&script);
        assert_eq!(moves(&undone), moves(&straight), "{text}");
        assert_eq!(undone.ending, Ending::Abandoned("quit".into()));
        assert!(text.contains("taken back: d3 "), "{text}");
        assert!(text.contains(&format!("taken back: {} ", mine[1])), "{text}");
        // After a take-back the engine starts the game afresh and is told the moves kept; at
        // depth 1 its answers are those of the straight game, values and node counts too.
        for (a, b) in undone.moves.iter().zip(&straight.moves) {
            assert_eq!((a.eval, a.depth, a.nodes), (b.eval, b.depth, b.nodes));
        }
    }

    #[test]
    fn a_take_back_refunds_the_engines_time_not_the_humans() {
        let s = |n: u64| Duration::from_secs(n);
        let tc = TimeControl::Clock {
            base: s(100),
            increment: s(1),
        };
        let (h, _) = human("", Color::Black);
        let mut players = [h, Seat::in_process("pvs:depth=1").unwrap()];
        let mut clocks = [Clock::new(tc), Clock::new(tc)];
        let mut clocks_before = vec![clocks];
        let played = |color, mv: &str, time| Played {
            color,
            mv: mv.parse().unwrap(),
            time,
            eval: None,
            depth: None,
            nodes: None,
            limit: None,
            book: false,
        };
        // The human's d3 in 3 s, the engine's reply in 2 s, then 4 s before the undo.
        let mut rec = GameRecord {
            number: 1,
            opening: start(),
            a_color: Color::Black,
            black: "human".into(),
            white: "pvs:depth=1".into(),
            moves: vec![played(Color::Black, "d3", s(3))],
            black_margin: 0,
            ending: Ending::Scored,
            time_control: tc.ggf(),
            time_use: [None; 2],
            a_move_time: None,
            a_base_time: None,
        };
        assert_eq!(clocks[0].charge(s(3), Duration::ZERO, true), ClockCheck::Ok);
        clocks_before.push(clocks);
        rec.moves.push(played(Color::White, "c3", s(2)));
        assert_eq!(clocks[1].charge(s(2), Duration::ZERO, true), ClockCheck::Ok);
        assert_eq!(clocks[0].spend(s(4), Duration::ZERO), ClockCheck::Ok);
        assert_eq!((clocks[0].remaining(), clocks[1].remaining()), (s(94), s(99)));
        let k = last_own_move(&rec.moves, Color::Black).unwrap();
        assert_eq!(k, 0);
        let pos = take_back(
            &mut rec,
            k,
            &mut clocks,
            &clocks_before,
            Color::Black,
            &mut players,
            0,
            &start(),
            None,
        )
        .unwrap();
        assert_eq!(pos, othello_rules::Position::start());
        assert!(rec.moves.is_empty());
        // The engine gets its 2 s back; the human keeps the 7 s spent, without the increment.
        assert_eq!((clocks[0].remaining(), clocks[1].remaining()), (s(93), s(100)));
        // The same with the human white, in the second seat, after the engine's first move.
        let (h, _) = human("", Color::White);
        let mut players = [Seat::in_process("pvs:depth=1").unwrap(), h];
        let mut clocks = [Clock::new(tc), Clock::new(tc)];
        let mut clocks_before = vec![clocks];
        rec.moves = vec![played(Color::Black, "f5", s(2))];
        assert_eq!(clocks[0].charge(s(2), Duration::ZERO, true), ClockCheck::Ok);
        clocks_before.push(clocks);
        rec.moves.push(played(Color::White, "d6", s(5)));
        assert_eq!(clocks[1].charge(s(5), Duration::ZERO, true), ClockCheck::Ok);
        let k = last_own_move(&rec.moves, Color::White).unwrap();
        let pos = take_back(
            &mut rec,
            k,
            &mut clocks,
            &clocks_before,
            Color::White,
            &mut players,
            1,
            &start(),
            None,
        )
        .unwrap();
        assert_eq!(
            pos,
            othello_rules::Position::start().play("f5".parse().unwrap()).unwrap()
        );
        assert_eq!(rec.moves.len(), 1);
        assert_eq!((clocks[0].remaining(), clocks[1].remaining()), (s(99), s(95)));
        assert_eq!(last_own_move(&[played(Color::Black, "pass", s(0))], Color::Black), None);
        assert_eq!(last_own_move(&[played(Color::White, "d3", s(0))], Color::Black), None);
    }

    #[test]
    fn a_human_as_white_plays_after_the_engine_and_a_game_plays_out() {
        // The human always plays its first legal move, read from the prompt by a script
        // written for the engine's deterministic answers: every line a square, tried in
        // order (an illegal one only costs a message).
        let mut script = String::new();
        for _ in 0..40 {
            for sq in othello_rules::Square::all() {
                script += &format!("{sq}\n");
            }
        }
        let (h, out) = human(&script, Color::White);
        let mut players = [Seat::in_process("pvs:depth=1").unwrap(), h];
        let rec = play_game(
            1,
            &start(),
            Color::Black,
            &mut players,
            &settings(TimeControl::None),
            None,
        );
        assert_eq!(rec.ending, Ending::Scored, "{}", out.text());
        assert!(rec.final_position().is_game_over());
        assert_eq!(rec.moves[0].color, Color::Black);
        assert_eq!(rec.black_margin, rec.final_position().final_score_black());
        assert!(out.text().contains("game over: black "));
    }

    #[test]
    fn a_human_out_of_time_loses_on_time() {
        // Input that never comes: the human's wait ends when the time per move is out.
        let (mut h, _) = human::tests::scripted("", Color::Black);
        let (reader, _keep) = std::io::pipe().unwrap();
        h.set_input(Box::new(std::io::BufReader::new(reader)));
        let h = Seat::Human(Box::new(h));
        let mut players = [h, Seat::in_process("pvs:depth=1").unwrap()];
        let st = TimeControl::PerMove(Duration::from_millis(60));
        let rec = play_game(1, &start(), Color::Black, &mut players, &settings(st), None);
        assert!(matches!(rec.ending, Ending::Time(Color::Black, _)), "{:?}", rec.ending);
        assert_eq!(rec.black_margin, -64);
    }

    #[test]
    fn a_humans_schedule_needs_a_human() {
        let sources = [
            PlayerSource::Builtin("pvs:depth=1".into()),
            PlayerSource::Builtin("random".into()),
        ];
        let mut reported = 0;
        // Without a human, a human's schedule is refused.
        assert!(
            run(
                &sources,
                &[start()],
                Schedule::Human { games: 1 },
                1,
                &settings(TimeControl::None),
                |_| {
                    reported += 1;
                    false
                }
            )
            .is_err()
        );
        assert_eq!(reported, 0);
        // A human is never played in pairs.
        let with_human = [
            PlayerSource::Human {
                name: "human".into(),
                colour: Color::Black,
                hint: "pvs".into(),
            },
            PlayerSource::Builtin("random".into()),
        ];
        let refused = run(
            &with_human,
            &[start()],
            Schedule::Pairs(0..1),
            1,
            &settings(TimeControl::None),
            |_| {
                reported += 1;
                false
            },
        );
        assert!(refused.is_err());
        assert_eq!(reported, 0);
    }

    #[test]
    fn what_on_game_sets_applies_to_the_next_game() {
        // `--follow` sets A's time per move in `on_game`; with one worker the next game must
        // start with it, even when `on_game` takes its time (the worker waits for it).
        let follow = Arc::new(AtomicU64::new(50_000));
        let s = Settings {
            follow: Some(Arc::clone(&follow)),
            ..settings(TimeControl::PerMove(Duration::from_millis(50)))
        };
        let sources = [
            PlayerSource::Builtin("random:seed=1".into()),
            PlayerSource::Builtin("random:seed=2".into()),
        ];
        let (mut seen, mut stored) = (Vec::new(), Vec::new());
        run(&sources, &[start()], Schedule::Pairs(0..3), 1, &s, |rec| {
            seen.push(rec.a_move_time.unwrap());
            std::thread::sleep(Duration::from_millis(30));
            let next = 60_000 + 1000 * rec.number;
            follow.store(next, Ordering::SeqCst);
            stored.push(Duration::from_micros(next));
            // After the fourth game no new pair starts; the pair under way finishes.
            rec.number == 4
        })
        .unwrap();
        assert_eq!(seen.len(), 4, "{seen:?}");
        assert_eq!(seen[0], Duration::from_millis(50));
        assert_eq!(seen[1..], stored[..3]);
    }
}
