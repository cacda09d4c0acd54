//! A person at the terminal as a player of `othello play` (`othello play human pvs:depth=8`).
//!
//! The conversation goes to standard error, so that standard output carries only what any match
//! prints (the game line and the summary, or JSON Lines); the moves come from standard input, a
//! line each:
//! - a square (`d3`, any case): the move, if legal; else a short message and the prompt again;
//! - `pass`: refused (the runner plays a forced pass itself, announced, so the human is asked
//!   only when a move exists);
//! - `undo`: takes back the human's last move and everything played after it (the engine's
//!   reply); the record keeps the line finally played;
//! - `hint`: the best move and its value from a separate engine (`--hint SPEC`), so the
//!   opponent's state and play are untouched; its time counts on the human's clock;
//! - `board`: the board again; `help`: the commands;
//! - `quit`, or the end of the input: the game is left unfinished and not recorded.
//!
//! The board after each move is `othello show`'s ([`Position::pretty`]: legal moves marked
//! `+`). With a clock (`--tc`, `--st`) the prompt shows both clocks; the human's runs while the
//! runner waits for the line, and the wait ends (a loss on time) when it runs out.

use super::PlayerSource;
use super::clock::Clock;
use super::external::EngineDef;
use super::player::{Turn, TurnInfo};
use crate::error::{CliResult, input};
use othello_engine::{Limits, Player, Reply};
use othello_rules::{BoardSize, Color, Move, Position};
use othello_spec::{Engine, Spec};
use std::io::{BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How often a wait for the human's line looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// The longest input line kept (the rest of a longer line is read as the next one).
const MAX_LINE: u64 = 4096;

/// The commands, for `help` and for input that is neither a move nor a command.
const COMMANDS: &str = "a square such as d3, or hint, undo, board, quit";

/// Where the human's lines come from: read by a thread of their own, so that a wait can end on
/// an interrupt or when the clock runs out.
enum Input {
    /// Not started yet: the reader, taken at the first turn.
    Idle(Box<dyn BufRead + Send>),
    /// The lines read; `None` at the end of the input (or a read error).
    Reading(Receiver<Option<String>>),
}

/// Why a wait for a line ended without one.
enum NoLine {
    End,
    Interrupted,
    TimeUp,
}

/// A person playing through standard input and error (or any reader and writer, for tests).
pub struct Human {
    name: String,
    colour: Color,
    opponent: String,
    hint: Engine,
    hint_spec: String,
    input: Input,
    out: Box<dyn Write + Send>,
    pos: Position,
    interrupt: Option<Arc<AtomicBool>>,
}

impl Human {
    /// A human named `name` (in records) playing `colour`, reading lines from `input` and
    /// talking to `out`; `hint` (built from `hint_spec`) answers `hint`.
    pub fn new(
        name: String,
        colour: Color,
        (hint, hint_spec): (Engine, String),
        input: Box<dyn BufRead + Send>,
        out: Box<dyn Write + Send>,
    ) -> Human {
        Human {
            name,
            colour,
            opponent: "the engine".to_string(),
            hint,
            hint_spec,
            input: Input::Idle(input),
            out,
            pos: Position::start(),
            interrupt: None,
        }
    }

    /// The name in records.
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// Reads the lines from `input` instead (before the first turn).
    pub fn set_input(&mut self, input: Box<dyn BufRead + Send>) {
        self.input = Input::Idle(input);
    }

    /// The opponent's name, for the messages.
    pub fn set_opponent(&mut self, name: String) {
        self.opponent = name;
    }

    /// Ends every wait for a line (and a hint's search) once `flag` is raised.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.interrupt = Some(flag);
    }

    /// Writes to the human; a closed output is not an error of the game.
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn show_board(&mut self) {
        let board = format!("{}", self.pos.pretty());
        self.say(board.trim_end());
    }

    fn who(&self, colour: Color) -> String {
        if colour == self.colour {
            format!("{colour} (you)")
        } else {
            format!("{colour} ({})", self.opponent)
        }
    }

    /// A new game from `root` after the opening `moves`: the greeting and the board.
    pub fn new_game(&mut self, root: Position, moves: &[Move]) {
        self.pos = moves.iter().fold(root, |p, &m| p.play_unchecked(m));
        self.hint.new_game();
        let greeting = format!(
            "You play {} against {}. Type {COMMANDS} (help lists them).",
            self.colour, self.opponent
        );
        self.say(&greeting);
        self.show_board();
    }

    /// A move was played (by either side): the move and the board, and the result at the end.
    pub fn observe(&mut self, mv: Move, time: Duration) {
        let colour = self.pos.side_to_move();
        let line = if mv == Move::Pass {
            format!("{} has no move and passes", self.who(colour))
        } else if colour == self.colour {
            format!("{} plays {mv}", self.who(colour))
        } else {
            format!("{} plays {mv} ({:.2} s)", self.who(colour), time.as_secs_f64())
        };
        self.say(&line);
        let Ok(next) = self.pos.play(mv) else {
            return;
        };
        self.pos = next;
        if mv != Move::Pass {
            self.show_board();
        }
        if self.pos.is_game_over() {
            let (black, white) = self.pos.disc_counts();
            let margin = self.pos.final_score_black();
            let mine = if self.colour == Color::Black { margin } else { -margin };
            let verdict = match mine.signum() {
                1 => "you win",
                0 => "a draw",
                _ => "you lose",
            };
            self.say(&format!("game over: black {black}, white {white}: {verdict}"));
        }
    }

    /// Moves were taken back: the position is `pos` again.
    pub fn taken_back(&mut self, moves: &[Move], pos: Position) {
        let list: Vec<String> = moves.iter().map(Move::to_string).collect();
        self.pos = pos;
        self.say(&format!("taken back: {}", list.join(" ")));
        self.show_board();
    }

    /// The next line, waiting until `deadline` at most.
    fn next_line(&mut self, deadline: Option<Instant>) -> Result<String, NoLine> {
        if let Input::Idle(_) = self.input {
            let (tx, rx) = channel();
            let Input::Idle(mut reader) = std::mem::replace(&mut self.input, Input::Reading(rx)) else {
                return Err(NoLine::End);
            };
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(None);
                            return;
                        }
                        Ok(_) => {}
                    }
                    if tx.send(Some(String::from_utf8_lossy(&buf).into_owned())).is_err() {
                        return;
                    }
                }
            });
        }
        let Input::Reading(rx) = &self.input else {
            return Err(NoLine::End);
        };
        loop {
            if self.interrupt.as_ref().is_some_and(|f| f.load(Ordering::SeqCst)) {
                return Err(NoLine::Interrupted);
            }
            let mut wait = POLL;
            if let Some(d) = deadline {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(NoLine::TimeUp);
                }
                wait = wait.min(left);
            }
            match rx.recv_timeout(wait) {
                Ok(Some(line)) => return Ok(line),
                Ok(None) | Err(RecvTimeoutError::Disconnected) => return Err(NoLine::End),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// The prompt: whose move, the legal moves, the clocks when timed (the human's less
    /// `elapsed`, the time of this turn so far).
    fn prompt(&mut self, pos: &Position, turn: &TurnInfo<'_>, elapsed: Duration) {
        let moves: Vec<String> = pos.moves().iter().map(Move::to_string).collect();
        let mut line = format!("{} to move [{}]", self.who(pos.side_to_move()), moves.join(" "));
        let mut mine: Clock = *turn.clock;
        mine.spend(elapsed, Duration::MAX);
        if let (Some(me), Some(them)) = (mine.show(), turn.opponent_clock.show()) {
            line += &format!(", clock: you {me}, {} {them}", self.opponent);
        }
        let _ = write!(self.out, "{line}\n> ");
        let _ = self.out.flush();
    }

    fn hint(&mut self, pos: &Position) {
        let mut limits: Limits = self.hint.limits();
        if let Some(flag) = &self.interrupt {
            limits.stop = Some(Arc::clone(flag));
        }
        let reply: Reply = self.hint.think(pos, &limits);
        let value = match reply.score {
            Some(s) if reply.exact => format!(", exactly {:+.2} discs", s as f64 / 100.0),
            Some(s) => format!(", {:+.2} discs at depth {}", s as f64 / 100.0, reply.depth),
            None => String::new(),
        };
        let text = format!("hint: {}{value} ({})", reply.best_move, self.hint_spec);
        self.say(&text);
    }

    /// The human's answer in `pos`: lines are read until one is a legal move, `undo` (when
    /// there is a move to take back) or `quit`; the others get a short message and the prompt
    /// again.
    pub fn turn(&mut self, pos: &Position, turn: &TurnInfo<'_>) -> Turn {
        let start = Instant::now();
        // Past the time allowed plus the margin the move would lose on time anyway.
        let deadline = turn
            .clock
            .allowed()
            .map(|a| start + a + turn.margin + Duration::from_millis(1));
        self.pos = *pos;
        self.prompt(pos, turn, Duration::ZERO);
        loop {
            let line = match self.next_line(deadline) {
                Ok(line) => line,
                Err(NoLine::End) => {
                    self.say("\nend of input: the game is left unfinished (not recorded)");
                    return Turn::Quit("end of input".to_string());
                }
                Err(NoLine::Interrupted) => {
                    self.say("\ninterrupted");
                    return Turn::Quit("interrupted".to_string());
                }
                Err(NoLine::TimeUp) => {
                    self.say("\nyour time is up");
                    return Turn::TimeUp;
                }
            };
            let word = line.trim().to_ascii_lowercase();
            match word.as_str() {
                "" => {}
                "quit" | "exit" => {
                    self.say("quit: the game is left unfinished (not recorded)");
                    return Turn::Quit("quit".to_string());
                }
                "undo" if turn.can_undo => return Turn::Undo,
                "undo" => self.say("nothing to take back: you have not moved in this game yet"),
                "hint" => self.hint(pos),
                "board" => self.show_board(),
                "help" | "?" => {
                    let help = format!(
                        "type {COMMANDS}: a square plays it; hint asks {} for the best move; \
                         undo takes back your last move and the reply; quit leaves the game \
                         unrecorded (so does the end of the input)",
                        self.hint_spec
                    );
                    self.say(&help);
                }
                _ => match word.parse::<Move>() {
                    Ok(Move::Pass) => self.say("you have a move: pass only when you have none"),
                    Ok(mv) if pos.is_legal(mv) => {
                        return Turn::Move(Reply::new(mv).with_time(start.elapsed()), None);
                    }
                    Ok(mv) => self.say(&format!("{mv} is not legal here")),
                    Err(_) => {
                        let shown: String = line.trim().chars().take(20).collect();
                        self.say(&format!("'{shown}' is not a move: type {COMMANDS}"));
                    }
                },
            }
            self.prompt(pos, turn, start.elapsed());
        }
    }
}

/// The side (0 for A, 1 for B) and colour of the human among the specs `specs` of
/// `othello play`, from `--colour` (`colour`: `black`, the default, or `white`); `None` without
/// a human. Refuses two humans, `--colour` or `--hint` (`hint_given`) without a human, and with
/// one `--concurrency` above 1 or `--pairs` (`pairs_given`).
///
/// # Errors
/// Bad input naming the problem.
pub fn side(
    specs: [&str; 2],
    colour: Option<&str>,
    hint_given: bool,
    concurrency: i64,
    pairs_given: bool,
) -> CliResult<Option<(usize, Color)>> {
    let mut humans = Vec::new();
    for (k, text) in specs.iter().enumerate() {
        if text.parse::<Spec>()?.name == "human" {
            humans.push(k);
        }
    }
    let colour_given = colour.is_some();
    let colour = match colour.map(str::to_ascii_lowercase).as_deref() {
        None | Some("black") => Color::Black,
        Some("white") => Color::White,
        Some(_) => {
            return Err(input(format!(
                "bad --colour '{}': expected black or white",
                colour.unwrap_or_default()
            )));
        }
    };
    match humans.as_slice() {
        [] if colour_given || hint_given => {
            let flag = if hint_given { "--hint" } else { "--colour" };
            Err(input(format!(
                "{flag} needs a human side, e.g. `othello play human pvs`"
            )))
        }
        [] => Ok(None),
        [_, _] => Err(input("two human sides: a human plays against an engine")),
        [k, ..] => {
            if pairs_given {
                return Err(input("--pairs with a human side: a human plays whole games"));
            }
            if concurrency != 1 {
                return Err(input(format!(
                    "bad --concurrency {concurrency} with a human side: expected 1"
                )));
            }
            Ok(Some((*k, colour)))
        }
    }
}

/// The players of a match with a human in side `human` playing `colour`: the human (its
/// `hint` engine: `hint`, else the opponent's spec when it is an engine of this program, else
/// `pvs`) and the opponent, read by [`PlayerSource::parse`].
///
/// # Errors
/// Bad input naming the problem.
pub fn sources(
    specs: [&str; 2],
    (human, colour): (usize, Color),
    hint: Option<&str>,
    engines: Option<&[EngineDef]>,
    size: BoardSize,
) -> CliResult<[PlayerSource; 2]> {
    let opponent = PlayerSource::parse(specs[1 - human], engines, size)?;
    let hint = match (hint, &opponent) {
        (Some(h), _) => h.to_string(),
        (None, PlayerSource::Builtin(text)) => text.clone(),
        (None, _) => "pvs".to_string(),
    };
    let me = PlayerSource::parse_human(specs[human], colour, &hint, size)?
        .ok_or_else(|| input(format!("'{}' is not a human", specs[human])))?;
    Ok(if human == 0 { [me, opponent] } else { [opponent, me] })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::clock::TimeControl;
    use std::sync::Mutex;

    /// A writer whose text the test reads afterwards.
    #[derive(Clone, Default)]
    pub struct Shared(pub Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        pub fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// A human reading `script`, writing to the returned buffer.
    pub fn scripted(script: &str, colour: Color) -> (Human, Shared) {
        let out = Shared::default();
        let hint = ("pvs:depth=2".parse().unwrap(), "pvs:depth=2".to_string());
        let input = Box::new(std::io::Cursor::new(script.as_bytes().to_vec()));
        let h = Human::new("human".into(), colour, hint, input, Box::new(out.clone()));
        (h, out)
    }

    fn info<'a>(clock: &'a Clock, can_undo: bool) -> TurnInfo<'a> {
        TurnInfo {
            clock,
            opponent_clock: clock,
            overhead: Duration::ZERO,
            margin: Duration::ZERO,
            can_undo,
        }
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn lines_that_are_no_legal_move_get_a_message_and_the_prompt_again() {
        let (mut h, out) = scripted("\nz9\npass\nd4\nundo\nhint\nboard\nhelp\n  D3  \nf5\n", Color::Black);
        let clock = Clock::new(TimeControl::None);
        let start = Position::start();
        let Turn::Move(reply, None) = h.turn(&start, &info(&clock, false)) else {
            panic!("no move: {}", out.text());
        };
        assert_eq!(reply.best_move, mv("d3"), "a square in any case, spaces around it");
        let text = out.text();
        for said in [
            "'z9' is not a move",
            "you have a move: pass only when you have none",
            "d4 is not legal here",
            "nothing to take back",
            "hint: ",
        ] {
            assert!(text.contains(said), "{said} in {text}");
        }
        assert!(!text.contains("'' is not a move"), "an empty line is only a new prompt");
        // `board` prints the board again; `help` lists the commands.
        let board = format!("{}", Position::start().pretty());
        assert_eq!(text.matches(board.trim_end()).count(), 1, "{text}");
        assert!(text.contains("undo takes back your last move and the reply"), "{text}");
        // The first prompt and one after each of the eight lines before the move.
        assert_eq!(text.matches("black (you) to move [d3 c4 f5 e6]").count(), 9, "{text}");
        // The next line is read at the next turn.
        let Turn::Move(reply, _) = h.turn(&start, &info(&clock, true)) else {
            panic!()
        };
        assert_eq!(reply.best_move, mv("f5"));
    }

    #[test]
    fn undo_quit_and_the_end_of_the_input() {
        let clock = Clock::new(TimeControl::None);
        let start = Position::start();
        let (mut h, _) = scripted("undo\nquit\n", Color::Black);
        assert_eq!(h.turn(&start, &info(&clock, true)), Turn::Undo);
        assert_eq!(h.turn(&start, &info(&clock, true)), Turn::Quit("quit".into()));
        assert_eq!(h.turn(&start, &info(&clock, true)), Turn::Quit("end of input".into()));
        let (mut h, out) = scripted("EXIT\n", Color::Black);
        assert_eq!(h.turn(&start, &info(&clock, true)), Turn::Quit("quit".into()));
        assert!(out.text().contains("not recorded"));
    }

    #[test]
    fn the_hint_is_the_hint_engines_move_and_value() {
        let (mut h, out) = scripted("hint\nquit\n", Color::Black);
        let clock = Clock::new(TimeControl::None);
        let pos = othello_rules::text::play_sequence(&Position::start(), "f5d6c3").unwrap();
        h.turn(&pos, &info(&clock, false));
        let mut engine: Engine = "pvs:depth=2".parse().unwrap();
        let reply = engine.think(&pos, &engine.limits());
        let expected = format!(
            "hint: {}, {:+.2} discs at depth 2 (pvs:depth=2)",
            reply.best_move,
            reply.score.unwrap() as f64 / 100.0
        );
        assert!(out.text().contains(&expected), "{expected} in {}", out.text());
    }

    #[test]
    fn the_verdict_at_the_end_is_the_humans() {
        // Random 4x4 games until one of each result, watched by a human of each colour.
        let mut seen = [false; 3];
        for seed in 0..500 {
            let mut random = othello_engine::RandomPlayer::new(seed);
            let start = Position::start_of(BoardSize::Four);
            let mut pos = start;
            let mut moves = Vec::new();
            while !pos.is_game_over() {
                let mv = random.choose(&pos);
                moves.push(mv);
                pos = pos.play_unchecked(mv);
            }
            let black = pos.final_score_black().signum();
            seen[(black + 1) as usize] = true;
            for (colour, sign) in [(Color::Black, 1), (Color::White, -1)] {
                let (mut h, out) = scripted("", colour);
                h.new_game(start, &[]);
                for &mv in &moves {
                    h.observe(mv, Duration::ZERO);
                }
                let verdict = ["you lose", "a draw", "you win"][(black * sign + 1) as usize];
                let (b, w) = pos.disc_counts();
                let end = format!("game over: black {b}, white {w}: {verdict}\n");
                assert!(out.text().ends_with(&end), "{end} at the end of {}", out.text());
            }
        }
        assert_eq!(seen, [true; 3], "a loss, a draw and a win for black");
    }

    #[test]
    fn a_hint_near_the_end_is_exact() {
        // Random moves to 2 empties, a position where the side to move has a move.
        let mut random = othello_engine::RandomPlayer::new(5);
        let mut pos = Position::start();
        while pos.empty_count() > 2 || !pos.has_legal_move() {
            pos = if pos.must_pass() {
                pos.pass_unchecked()
            } else {
                pos.play_unchecked(random.choose(&pos))
            };
            assert!(!pos.is_game_over());
        }
        let (mut h, out) = scripted("hint\nquit\n", pos.side_to_move());
        h.turn(&pos, &info(&Clock::new(TimeControl::None), false));
        let mut engine: Engine = "pvs:depth=2".parse().unwrap();
        let reply = engine.think(&pos, &engine.limits());
        assert!(reply.exact, "a search deeper than the empties is exact");
        let expected = format!(
            "hint: {}, exactly {:+.2} discs (pvs:depth=2)",
            reply.best_move,
            reply.score.unwrap() as f64 / 100.0
        );
        assert!(out.text().contains(&expected), "{expected} in {}", out.text());
    }

    #[test]
    fn an_interrupt_ends_the_wait_for_a_line() {
        let (mut h, _) = scripted("", Color::White);
        // A reader that never gives a line.
        let (reader, _keep) = std::io::pipe().unwrap();
        h.set_input(Box::new(std::io::BufReader::new(reader)));
        let flag = Arc::new(AtomicBool::new(false));
        h.set_interrupt(Arc::clone(&flag));
        let raise = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                flag.store(true, Ordering::SeqCst);
            })
        };
        let clock = Clock::new(TimeControl::None);
        let pos = othello_rules::text::play_sequence(&Position::start(), "f5").unwrap();
        assert_eq!(h.turn(&pos, &info(&clock, false)), Turn::Quit("interrupted".into()));
        raise.join().unwrap();
    }

    #[test]
    fn the_clock_runs_out_while_waiting_and_is_shown() {
        let (mut h, out) = scripted("", Color::Black);
        let (reader, _keep) = std::io::pipe().unwrap();
        h.set_input(Box::new(std::io::BufReader::new(reader)));
        h.set_opponent("pvs".into());
        let clock = Clock::new(TimeControl::Clock {
            base: Duration::from_millis(80),
            increment: Duration::ZERO,
        });
        let start = Instant::now();
        assert_eq!(h.turn(&Position::start(), &info(&clock, false)), Turn::TimeUp);
        assert!(start.elapsed() >= Duration::from_millis(80));
        // The wait lasts the time left plus the margin.
        let margin = TurnInfo {
            margin: Duration::from_millis(100),
            ..info(&clock, false)
        };
        let start = Instant::now();
        assert_eq!(h.turn(&Position::start(), &margin), Turn::TimeUp);
        assert!(start.elapsed() >= Duration::from_millis(180));
        let text = out.text();
        assert!(text.contains("clock: you 0:00.0, pvs 0:00.0"), "{text}");
        assert!(text.contains("your time is up"), "{text}");
    }

    #[test]
    fn the_human_side_and_its_flags() {
        let ok = |specs: [&str; 2], colour: Option<&str>| side(specs, colour, false, 1, false).unwrap();
        assert_eq!(ok(["pvs", "random"], None), None);
        assert_eq!(ok(["human", "pvs"], None), Some((0, Color::Black)));
        assert_eq!(ok(["pvs", "HUMAN:name=ann"], Some("White")), Some((1, Color::White)));
        for (specs, colour, hint, concurrency, pairs, message) in [
            (
                ["human", "pvs"],
                Some("red"),
                false,
                1,
                false,
                "bad --colour 'red': expected black or white",
            ),
            (
                ["human", "human"],
                None,
                false,
                1,
                false,
                "two human sides: a human plays against an engine",
            ),
            (
                ["pvs", "pvs"],
                Some("black"),
                false,
                1,
                false,
                "--colour needs a human side",
            ),
            (["pvs", "pvs"], None, true, 1, false, "--hint needs a human side"),
            (
                ["pvs", "human"],
                None,
                false,
                2,
                false,
                "bad --concurrency 2 with a human side: expected 1",
            ),
            (["pvs", "human"], None, false, 1, true, "--pairs with a human side"),
        ] {
            let e = side(specs, colour, hint, concurrency, pairs).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().starts_with(message), "{e}");
        }
    }

    #[test]
    fn the_hint_engine_defaults_to_the_opponents_spec() {
        let size = BoardSize::Eight;
        let hint_of = |specs: [&str; 2], hint: Option<&str>| match sources(specs, (0, Color::Black), hint, None, size) {
            Ok([PlayerSource::Human { hint, .. }, _]) => hint,
            _ => panic!("no human"),
        };
        assert_eq!(hint_of(["human", "pvs:depth=3"], None), "pvs:depth=3");
        assert_eq!(hint_of(["human", "random"], Some("ab:depth=2")), "ab:depth=2");
        let [b, a] = sources(["pvs", "human:name=ann"], (1, Color::White), None, None, size).unwrap();
        assert!(matches!(b, PlayerSource::Builtin(ref t) if t == "pvs"));
        assert!(matches!(a, PlayerSource::Human { ref name, colour: Color::White, .. } if name == "ann"));
        for (hint, message) in [
            ("human", "bad --hint 'human': expected an engine spec of this program"),
            (
                "ext:name=x",
                "bad --hint 'ext:name=x': expected an engine spec of this program",
            ),
            ("pvs:depth=0", "bad --hint 'pvs:depth=0': bad value '0'"),
        ] {
            let e = sources(["human", "pvs"], (0, Color::Black), Some(hint), None, size).unwrap_err();
            assert!(e.to_string().starts_with(message), "{e}");
        }
    }
}
