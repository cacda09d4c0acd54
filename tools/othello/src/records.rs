//! Reading the JSON Lines records of `othello play --jsonl` (or its `--json` output) back, for
//! `othello stats --records`: the games of one or more files (merged `--pairs` runs), paired
//! by their numbers into pentanomial counts, in the order of the game numbers.

use crate::error::{CliResult, input};
use crate::stats::Pentanomial;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// One game of a record: its number and player A's result in half points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Game {
    half_points: u8,
}

/// The games of the record files, by game number.
#[derive(Clone, Debug, Default)]
pub struct Records {
    games: BTreeMap<u64, Game>,
    /// Player A's and B's names, from the first game.
    names: Option<(String, String)>,
    /// Each game's opening, A's colour and moves (`None` once a game lacks one of them).
    lines: Option<HashSet<(String, String, Vec<String>)>>,
}

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
                if records.games.insert(number, Game { half_points }).is_some() {
                    return Err(input(format!("{}: game {number} read twice", at())));
                }
                match (game_line(&v), records.lines.as_mut()) {
                    (Some(line), Some(lines)) => {
                        lines.insert(line);
                    }
                    _ => records.lines = None,
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
}

/// A game record's opening, A's colour and moves: what makes two games the same game.
fn game_line(v: &Value) -> Option<(String, String, Vec<String>)> {
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
