//! Reading the JSON Lines records of `othello play --jsonl` (or its `--json` output) back, for
//! `othello stats --records`: the games of one or more files (merged `--pairs` runs), paired
//! by their numbers into pentanomial counts, in the order of the game numbers; and each game's
//! positions replayed from its opening and moves (`othello stats --exact-at`).

use crate::error::{CliResult, input};
use crate::stats::Pentanomial;
use othello_rules::text::parse_moves;
use othello_rules::{BoardSize, Color, Move, Position};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// A game's opening, A's colour and moves, as the record writes them.
type GameLine = (String, String, Vec<String>);

/// Each move's colour, time in seconds and depth, as the record writes them.
type Timing = Vec<(String, Option<f64>, Option<u32>)>;

/// One game of a record: player A's result in half points, and its line when the record has
/// one.
#[derive(Clone, Debug, PartialEq)]
struct Game {
    half_points: u8,
    /// The game's opening, when the record names one.
    opening: Option<String>,
    line: Option<GameLine>,
    /// Each move's colour, time in seconds and depth, when the record has them.
    timing: Option<Timing>,
}

/// One move of a game with the time its player took (`othello stats --time-by-empties`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimedMove {
    /// The game's number.
    pub game: u64,
    /// Whether player A made the move.
    pub by_a: bool,
    /// Empty squares before the move.
    pub empties: u32,
    /// The time taken in seconds (`None` when the record has none for this move).
    pub seconds: Option<f64>,
    /// The depth the player reported (`None` when it reported none).
    pub depth: Option<u32>,
    /// Whether the move is a pass.
    pub pass: bool,
}

/// A game's position when a given number of squares is first empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameAt {
    /// The game's number.
    pub game: u64,
    /// The position: the first the players reached with at most that many empties, or the
    /// game's last when it ended with more.
    pub position: Position,
    /// Whether player A is to move there.
    pub a_to_move: bool,
    /// A's result in the game as played, in half points (0 loss, 1 draw, 2 win).
    pub half_points: u8,
}

/// The games of the record files, by game number.
#[derive(Clone, Debug, Default)]
pub struct Records {
    games: BTreeMap<u64, Game>,
    /// Player A's and B's names, from the first game.
    names: Option<(String, String)>,
    /// Each game's opening, A's colour and moves (`None` once a game lacks one of them).
    lines: Option<HashSet<GameLine>>,
}

/// Each complete game pair by its index `p` (games `2p + 1` and `2p + 2`): A's half points over
/// its two games (0 to 4) and its opening (`Records::pairs`).
pub type Pairs = BTreeMap<u64, (u8, Option<String>)>;

/// The counts after a game pair completed: the games read so far (in number order) and the
/// pentanomial counts.
pub type Step = (u64, Pentanomial);

impl Records {
    /// Reads the game lines of the files (`-` is standard input). Lines without a `game`
    /// field (a summary line of `--json` output) are skipped.
    ///
    /// # Errors
    /// Bad input naming the file and line: not JSON, a game without a valid `result`, a game
    /// number read twice, or no game at all.
    pub fn read(paths: &[String]) -> CliResult<Records> {
        let mut records = Records {
            lines: Some(HashSet::new()),
            ..Records::default()
        };
        for path in paths {
            let (name, text) = crate::input::read_source(path, "records file")?;
            for (i, line) in text.lines().enumerate() {
                let at = || format!("{name} line {}", i + 1);
                if line.trim().is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(line).map_err(|e| input(format!("{}: not JSON: {e}", at())))?;
                let Some(number) = v.get("game") else {
                    continue;
                };
                let number = number
                    .as_u64()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| input(format!("{}: bad game number {number}", at())))?;
                let half_points = match v.get("result").and_then(Value::as_str) {
                    Some("win") => 2,
                    Some("draw") => 1,
                    Some("loss") => 0,
                    _ => {
                        return Err(input(format!(
                            "{}: game {number} has no result win, draw or loss",
                            at()
                        )));
                    }
                };
                let line = game_line(&v);
                match (&line, records.lines.as_mut()) {
                    (Some(line), Some(lines)) => {
                        lines.insert(line.clone());
                    }
                    _ => records.lines = None,
                }
                let timing = game_timing(&v);
                let opening = v.get("opening").and_then(Value::as_str).map(str::to_string);
                if records
                    .games
                    .insert(
                        number,
                        Game {
                            half_points,
                            opening,
                            line,
                            timing,
                        },
                    )
                    .is_some()
                {
                    return Err(input(format!("{}: game {number} read twice", at())));
                }
                if records.names.is_none() {
                    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
                    let (black, white) = (s("black"), s("white"));
                    records.names = Some(if s("a_color") == "white" {
                        (white, black)
                    } else {
                        (black, white)
                    });
                }
            }
        }
        if records.games.is_empty() {
            return Err(input(format!("{}: no game records", paths.join(", "))));
        }
        Ok(records)
    }

    /// The number of games read.
    pub fn games(&self) -> u64 {
        self.games.len() as u64
    }

    /// The number of distinct games (opening, A's colour and moves), when every game has them.
    pub fn distinct(&self) -> Option<u64> {
        self.lines.as_ref().map(|l| l.len() as u64)
    }

    /// Player A's and B's names from the first game (`?` where a record has none; `A` and
    /// `B` without names).
    pub fn names(&self) -> (String, String) {
        self.names.clone().unwrap_or_else(|| ("A".to_string(), "B".to_string()))
    }

    /// `A vs B` from the first game's players.
    pub fn title(&self) -> String {
        match &self.names {
            Some((a, b)) => format!("{a} vs {b}"),
            None => "match".to_string(),
        }
    }

    /// Walks the games in number order and pairs game `2p + 1` with `2p + 2`: the counts
    /// after each completed pair, and the games left without their pair's other game.
    pub fn steps(&self) -> (Vec<Step>, u64) {
        let mut penta = Pentanomial::default();
        let mut steps = Vec::new();
        let mut pending: BTreeMap<u64, u8> = BTreeMap::new();
        for (read, (&number, game)) in self.games.iter().enumerate() {
            let pair = (number - 1) / 2;
            if let Some(first) = pending.remove(&pair) {
                penta.add_pair(first, game.half_points);
                steps.push((read as u64 + 1, penta));
            } else {
                pending.insert(pair, game.half_points);
            }
        }
        (steps, pending.len() as u64)
    }

    /// Each complete game pair (games `2p + 1` and `2p + 2`) by its index `p`: A's half points
    /// over its two games (0 to 4) and its opening (`None` unless both games name the same).
    pub fn pairs(&self) -> Pairs {
        let mut pairs = BTreeMap::new();
        for (&number, game) in &self.games {
            if number % 2 == 0 {
                continue;
            }
            if let Some(other) = self.games.get(&(number + 1)) {
                let opening = game.opening.clone().filter(|o| other.opening.as_ref() == Some(o));
                pairs.insert((number - 1) / 2, (game.half_points + other.half_points, opening));
            }
        }
        pairs
    }

    /// Every game replayed, in game number order: A's colour and result and each position
    /// from the root through every move (a forced pass included).
    ///
    /// # Errors
    /// Bad input when a game has no opening, colour or moves, or when its moves do not replay
    /// from its opening (the root is the opening's board when the opening is a board, else the
    /// start position of the first board size on which the moves are legal).
    pub fn replayed(&self) -> CliResult<Vec<Replayed>> {
        let mut out = Vec::with_capacity(self.games.len());
        for (&number, game) in &self.games {
            let bad = |why: &str| input(format!("records: game {number}: {why}"));
            let (opening, a_color, moves) = game
                .line
                .as_ref()
                .ok_or_else(|| bad("no opening, a_color or moves in its record"))?;
            let a_color = match a_color.as_str() {
                "black" => Color::Black,
                "white" => Color::White,
                _ => return Err(bad(&format!("bad a_color '{a_color}'"))),
            };
            let (line, first_played) = replay(opening, moves).map_err(|why| bad(&why))?;
            out.push(Replayed {
                game: number,
                a_color,
                half_points: game.half_points,
                line,
                first_played,
            });
        }
        Ok(out)
    }

    /// Every move of every game with the empty squares before it, its player and the time
    /// and depth the record gives it, in game number order.
    ///
    /// # Errors
    /// As [`Records::replayed`], and bad input when a game has no `colors`, `times` and
    /// `depths` (one per move), or a colour that is not `black` or `white`.
    pub fn timed_moves(&self) -> CliResult<Vec<TimedMove>> {
        let mut out = Vec::new();
        for game in self.replayed()? {
            let bad = |why: &str| input(format!("records: game {}: {why}", game.game));
            let record = &self.games[&game.game];
            let timing = record
                .timing
                .as_ref()
                .ok_or_else(|| bad("no colors, times and depths for each move in its record"))?;
            let moves = &record.line.as_ref().expect("a replayed game has its line").2;
            if timing.len() != moves.len() {
                return Err(bad("its colors, times and depths are not one per move"));
            }
            let mut empties = game.line[game.first_played].empty_count();
            for ((color, seconds, depth), mv) in timing.iter().zip(moves) {
                let by_a = match color.as_str() {
                    "black" => game.a_color == Color::Black,
                    "white" => game.a_color == Color::White,
                    _ => return Err(bad(&format!("bad colour '{color}'"))),
                };
                let pass = matches!(mv.parse::<Move>(), Ok(Move::Pass));
                out.push(TimedMove {
                    game: game.game,
                    by_a,
                    empties,
                    seconds: *seconds,
                    depth: *depth,
                    pass,
                });
                empties = empties.saturating_sub(u32::from(!pass));
            }
        }
        Ok(out)
    }

    /// Each game's position at [`Replayed::first_index_at`] `empties`, in game number order:
    /// the first the players reached with at most `empties` empty squares (exactly `empties`
    /// when the game had more), or its last when it was over with more. The second value
    /// counts the games left out: stopped (by time, a forfeit or adjudication) with more
    /// empties and not over.
    ///
    /// # Errors
    /// As [`Records::replayed`].
    pub fn positions_at(&self, empties: u32) -> CliResult<(Vec<GameAt>, u64)> {
        let mut out = Vec::new();
        let mut left_out = 0;
        for game in self.replayed()? {
            let Some(i) = game.first_index_at(empties) else {
                left_out += 1;
                continue;
            };
            let position = game.line[i];
            out.push(GameAt {
                game: game.game,
                position,
                a_to_move: position.side_to_move() == game.a_color,
                half_points: game.half_points,
            });
        }
        Ok((out, left_out))
    }
}

/// A game of the records replayed from its opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The game's number.
    pub game: u64,
    /// Player A's colour.
    pub a_color: Color,
    /// A's result as played, in half points (0 loss, 1 draw, 2 win).
    pub half_points: u8,
    /// Every position from the root, one per move (a forced pass included).
    pub line: Vec<Position>,
    /// The index in `line` of the position after the opening, where the players' first move
    /// was made (0 when the opening is a board).
    pub first_played: usize,
}

impl Replayed {
    /// The index in [`Replayed::line`] of the first position the players reached (the
    /// opening's positions left out) with at most `empties` empty squares, or of the last
    /// position when the game is over with more; `None` when the game stopped earlier, not
    /// over (by time, a forfeit or adjudication).
    pub fn first_index_at(&self, empties: u32) -> Option<usize> {
        if let Some(i) = (self.first_played..self.line.len()).find(|&i| self.line[i].empty_count() <= empties) {
            return Some(i);
        }
        let last = self.line.len() - 1;
        self.line[last].is_game_over().then_some(last)
    }
}

/// The positions of a game, from its root through every move (a pass included): the root is
/// the opening when it is a board, else the start position of the first board size on which
/// the opening's and the game's moves are all legal (a forced pass may be left out, as
/// `play_sequence` allows). Also the index of the position after the opening's moves.
fn replay(opening: &str, moves: &[String]) -> Result<(Vec<Position>, usize), String> {
    let (roots, opening_moves) = match opening.parse::<Position>() {
        Ok(root) => (vec![root], Vec::new()),
        Err(_) => {
            let moves = parse_moves(opening).map_err(|e| format!("bad opening '{opening}': {e}"))?;
            (
                [BoardSize::Eight, BoardSize::Six, BoardSize::Four]
                    .map(Position::start_of)
                    .to_vec(),
                moves.into_iter().map(|(_, m)| m).collect(),
            )
        }
    };
    let moves = moves
        .iter()
        .map(|m| m.parse::<Move>().map_err(|e| format!("bad move '{m}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    // Appends `mv` to `line`, with the forced pass before it that a record may leave out.
    let extend = |line: &mut Vec<Position>, mv: Move| -> Option<()> {
        let mut pos = *line.last().expect("a line holds its root");
        if matches!(mv, Move::Place(_)) && pos.must_pass() {
            pos = pos.pass_unchecked();
            line.push(pos);
        }
        line.push(pos.play(mv).ok()?);
        Some(())
    };
    roots
        .into_iter()
        .find_map(|root| {
            let mut line = vec![root];
            for &mv in &opening_moves {
                extend(&mut line, mv)?;
            }
            let first_played = line.len() - 1;
            for &mv in &moves {
                extend(&mut line, mv)?;
            }
            Some((line, first_played))
        })
        .ok_or_else(|| format!("its moves do not replay from the opening '{opening}'"))
}

/// A game record's colours, times and depths of its moves, when it has all three for every
/// move (a null time or depth is kept as `None`).
fn game_timing(v: &Value) -> Option<Timing> {
    let list = |k: &str| v.get(k)?.as_array();
    let (colors, times, depths) = (list("colors")?, list("times")?, list("depths")?);
    if times.len() != colors.len() || depths.len() != colors.len() {
        return None;
    }
    colors
        .iter()
        .zip(times)
        .zip(depths)
        .map(|((c, t), d)| {
            let depth = d.as_u64().map(|d| u32::try_from(d).unwrap_or(u32::MAX));
            Some((c.as_str()?.to_string(), t.as_f64(), depth))
        })
        .collect()
}

/// A game record's opening, A's colour and moves: what makes two games the same game.
fn game_line(v: &Value) -> Option<GameLine> {
    let text = |k: &str| v.get(k)?.as_str().map(str::to_string);
    let moves = v
        .get("moves")?
        .as_array()?
        .iter()
        .map(|m| m.as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    Some((text("opening")?, text("a_color")?, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("othello-records-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// Game `n` of A = `pvs` against B = `mcts`, A black in odd games.
    fn game(n: u64, result: &str) -> String {
        let (a_color, black, white) = if n % 2 == 1 {
            ("black", "pvs", "mcts")
        } else {
            ("white", "mcts", "pvs")
        };
        format!(
            "{{\"game\":{n},\"a_color\":\"{a_color}\",\"black\":\"{black}\",\"white\":\"{white}\",\"result\":\"{result}\"}}\n"
        )
    }

    #[test]
    fn distinct_games_need_every_games_moves() {
        let with = |n: u64, moves: &str| {
            let mut g: serde_json::Value = serde_json::from_str(game(n, "win").trim()).unwrap();
            g["opening"] = "f5d6".into();
            g["moves"] = moves.split(' ').collect::<Vec<_>>().into();
            format!("{g}\n")
        };
        // Games 1 and 3 are the same (A black, same moves); 2 and 4 differ; 5 has other moves.
        let text = [
            with(1, "c3 c4"),
            with(2, "c3 c4"),
            with(3, "c3 c4"),
            with(4, "c3 e3"),
            with(5, "c5 c4"),
        ]
        .concat();
        let r = Records::read(&[file("distinct.jsonl", &text)]).unwrap();
        assert_eq!((r.games(), r.distinct()), (5, Some(4)));
        // A game without moves: unknown.
        let r = Records::read(&[file("partly.jsonl", &(text + &game(6, "loss")))]).unwrap();
        assert_eq!(r.distinct(), None);
    }

    #[test]
    fn merged_runs_pair_by_game_number() {
        // Two `--pairs` runs (pairs 0..2 and 2..3) and a summary line, out of order.
        let a = file(
            "a.jsonl",
            &(game(2, "draw") + &game(1, "win") + &game(3, "loss") + &game(4, "loss")),
        );
        let b = file(
            "b.jsonl",
            &(game(6, "win") + "{\"games\":2,\"wins\":1}\n" + &game(5, "win") + &game(7, "draw")),
        );
        let r = Records::read(&[a.clone(), b]).unwrap();
        assert_eq!(r.games(), 7);
        assert_eq!(r.title(), "pvs vs mcts");
        let (steps, unpaired) = r.steps();
        assert_eq!(unpaired, 1);
        let counts: Vec<(u64, [u64; 5])> = steps.iter().map(|(g, p)| (*g, p.counts)).collect();
        assert_eq!(
            counts,
            vec![(2, [0, 0, 0, 1, 0]), (4, [1, 0, 0, 1, 0]), (6, [1, 0, 0, 1, 1])]
        );
        // The same game in two files is refused.
        let e = Records::read(&[a.clone(), a]).unwrap_err();
        assert!(e.to_string().contains("game 2 read twice"), "{e}");
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn timed_moves_count_empties_down_and_skip_passes() {
        // A 4x4 game from the opening c4 (11 empties after it): A white, B black; a forced
        // pass by B (black) counts no square.
        let line = |colors: &str, moves: &str| {
            let mut g: serde_json::Value = serde_json::from_str(game(2, "loss").trim()).unwrap();
            g["opening"] = "c4".into();
            g["moves"] = moves.split(' ').collect::<Vec<_>>().into();
            g["colors"] = colors.split(' ').collect::<Vec<_>>().into();
            let n = g["moves"].as_array().unwrap().len();
            g["times"] = (0..n)
                .map(|i| if i == 1 { None } else { Some(0.5 * i as f64) })
                .collect::<Vec<_>>()
                .into();
            g["depths"] = (0..n)
                .map(|i| if i == 2 { None } else { Some(i as u32) })
                .collect::<Vec<_>>()
                .into();
            format!("{g}\n")
        };
        let text = line("white black white black white", "b4 a2 d4 pass a1");
        let r = Records::read(&[file("timed.jsonl", &text)]).unwrap();
        let m = r.timed_moves().unwrap();
        type Row = (bool, u32, Option<f64>, Option<u32>, bool);
        let got: Vec<Row> = m
            .iter()
            .map(|t| (t.by_a, t.empties, t.seconds, t.depth, t.pass))
            .collect();
        assert_eq!(
            got,
            vec![
                (true, 11, Some(0.0), Some(0), false),
                (false, 10, None, Some(1), false),
                (true, 9, Some(1.0), None, false),
                (false, 8, Some(1.5), Some(3), true),
                (true, 8, Some(2.0), Some(4), false),
            ]
        );
        assert!(m.iter().all(|t| t.game == 2));
        // The error of `timed_moves` on a file of the one record `text`.
        let error = |name: &str, text: &str| {
            let r = Records::read(&[file(name, text)]).unwrap();
            r.timed_moves().unwrap_err().to_string()
        };
        // A bad colour, colours that are not one per move, and no timing at all.
        let e = error(
            "timed-bad.jsonl",
            &line("white red white black white", "b4 a2 d4 pass a1"),
        );
        assert!(e.contains("game 2: bad colour 'red'"), "{e}");
        let mut g: serde_json::Value =
            serde_json::from_str(line("white black white black white", "b4 a2 d4 pass a1").trim()).unwrap();
        g["moves"] = vec!["b4", "a2", "d4", "pass", "a1", "b1"].into();
        let e = error("timed-short.jsonl", &format!("{g}\n"));
        assert!(
            e.contains("game 2: its colors, times and depths are not one per move"),
            "{e}"
        );
        // Times one per move but colours and depths one too many: not one per move either.
        g["moves"] = vec!["b4", "a2", "d4", "pass", "a1"].into();
        g["colors"].as_array_mut().unwrap().push("black".into());
        g["depths"].as_array_mut().unwrap().push(5.into());
        let e = error("timed-long.jsonl", &format!("{g}\n"));
        assert!(e.contains("game 2: no colors, times and depths"), "{e}");
        g["times"] = serde_json::Value::Null;
        let e = error("timed-none.jsonl", &format!("{g}\n"));
        assert!(e.contains("game 2: no colors, times and depths"), "{e}");
    }

    #[test]
    fn bad_lines_name_their_place() {
        let bad = file("bad.jsonl", &(game(1, "win") + "not json\n"));
        let e = Records::read(&[bad]).unwrap_err().to_string();
        assert!(e.contains("bad.jsonl line 2: not JSON"), "{e}");
        let bad = file("bad2.jsonl", "{\"game\":1,\"result\":\"won\"}\n");
        let e = Records::read(&[bad]).unwrap_err().to_string();
        assert!(e.contains("line 1: game 1 has no result"), "{e}");
        let bad = file("bad3.jsonl", "{\"game\":0,\"result\":\"win\"}\n");
        assert!(
            Records::read(&[bad])
                .unwrap_err()
                .to_string()
                .contains("bad game number 0")
        );
        let empty = file("empty.jsonl", "{\"games\":0}\n\n");
        assert!(
            Records::read(&[empty])
                .unwrap_err()
                .to_string()
                .contains("no game records")
        );
    }
}
