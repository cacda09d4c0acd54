//! `othello stats --records FILE --mistakes E`: which moves lost the games, and where. Every
//! position of every game from the first with at most `E` empty squares to its end is solved
//! exactly, and each move played from there is scored by what it cost its player: its exact
//! value before the move minus its exact value after it, in discs and in game points (a move
//! that turns a win into a draw costs half a point, into a loss one point). Counted per side
//! (player A and player B of the records) and per number of empty squares before the move.
//! Forced passes cost nothing and are not counted.

use crate::error::CliResult;
use crate::exact_at::{check_empties, half_points, per_item};
use crate::records::{Records, Replayed};
use othello_endgame::SolveMode;
use serde_json::{Value, json};

/// One side's moves at one number of empties (or over all of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Moves played (forced passes left out).
    pub moves: u64,
    /// Moves that lost discs (a move with an exact value below the position's).
    pub mistakes: u64,
    /// Game points lost, in half points.
    pub half_points: u64,
    /// Discs lost.
    pub discs: u64,
}

impl Cost {
    /// Counts one move of exact value `played` from a position of exact value `best` (both
    /// for the side that moved, in discs).
    pub fn charge(&mut self, best: i32, played: i32) {
        debug_assert!(played <= best, "a move cannot beat the exact value");
        self.moves += 1;
        let discs = (best - played).max(0) as u64;
        self.discs += discs;
        self.mistakes += u64::from(discs > 0);
        self.half_points += u64::from(half_points(best).saturating_sub(half_points(played)));
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Cost) {
        self.moves += other.moves;
        self.mistakes += other.mistakes;
        self.half_points += other.half_points;
        self.discs += other.discs;
    }

    /// The JSON object: `moves`, `mistakes`, `points_lost` (game points) and `discs_lost`.
    pub fn json(&self) -> Value {
        json!({"moves": self.moves, "mistakes": self.mistakes,
            "points_lost": self.half_points as f64 / 2.0, "discs_lost": self.discs})
    }
}

/// The cost of every move of the games at `max_empties` empties or fewer, for A and B.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    /// The most empties of a scored move's position.
    pub max_empties: u32,
    /// Games scored (a game over with more empties counts, with no move scored).
    pub games: u64,
    /// Games left out: stopped with more empties (time, forfeit, adjudication), not over.
    pub left_out: u64,
    /// `by_empties[e]`: the cost of A's (`[0]`) and B's (`[1]`) moves from positions with `e`
    /// empty squares, `e` from 0 to `max_empties`.
    pub by_empties: Vec<[Cost; 2]>,
}

/// The exact value of every position of `line` from index `first` on, for its side to move,
/// solved from the last position back (the table of each solve helps the one before: a
/// position that must pass finds its successor there).
fn values(solvers: &mut crate::exact_at::Solvers, line: &[othello_rules::Position], first: usize) -> Vec<i32> {
    let mut values: Vec<i32> = line[first..]
        .iter()
        .rev()
        .map(|pos| solvers.solve(pos, SolveMode::Exact))
        .collect();
    values.reverse();
    values
}

impl Mistakes {
    /// The numbers of empties with a scored move and their costs, most empties first.
    fn rows(&self) -> impl Iterator<Item = (usize, &[Cost; 2])> {
        self.by_empties
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, row)| row[0].moves + row[1].moves > 0)
    }

    /// The total over every number of empties, for A (`[0]`) and B (`[1]`).
    pub fn total(&self) -> [Cost; 2] {
        let mut total = [Cost::default(); 2];
        for row in &self.by_empties {
            total[0].add(&row[0]);
            total[1].add(&row[1]);
        }
        total
    }

    /// The summary's table: one line per number of empties where a move was scored, most
    /// empties first, and the totals; for each side its moves, the moves that lost discs
    /// (`wrong`), the game points and the discs they lost.
    pub fn text(&self, names: (&str, &str)) -> String {
        let mut s = format!(
            "mistakes at {} empties or fewer (exact solves), {} games{}: A {} on the left, B {} on the right\nempties  moves wrong points  discs    moves wrong points  discs",
            self.max_empties,
            self.games,
            if self.left_out > 0 {
                format!(" ({} stopped earlier left out)", self.left_out)
            } else {
                String::new()
            },
            names.0,
            names.1
        );
        let cell = |c: &Cost| {
            format!(
                "{:>5} {:>5} {:>6.1} {:>6}",
                c.moves,
                c.mistakes,
                c.half_points as f64 / 2.0,
                c.discs
            )
        };
        for (e, row) in self.rows() {
            s += &format!("\n{e:>7}  {}    {}", cell(&row[0]), cell(&row[1]));
        }
        let total = self.total();
        s += &format!("\n  total  {}    {}", cell(&total[0]), cell(&total[1]));
        s
    }

    /// The JSON object (`mistakes` of `othello stats --json`): `max_empties`, `games`,
    /// `left_out`, `a` and `b` (the totals) and `by_empties` (one object per number of empties
    /// with a scored move, most first), each side's cost as `moves`, `mistakes`, `points_lost`
    /// and `discs_lost`.
    pub fn json(&self) -> Value {
        let total = self.total();
        let rows: Vec<Value> = self
            .rows()
            .map(|(e, row)| json!({"empties": e, "a": row[0].json(), "b": row[1].json()}))
            .collect();
        json!({"max_empties": self.max_empties, "games": self.games, "left_out": self.left_out,
            "a": total[0].json(), "b": total[1].json(), "by_empties": rows})
    }
}

/// Scores every move of the games of `records` from positions with at most `max_empties`
/// empty squares, solving on `threads` threads.
///
/// # Errors
/// Bad input from [`Records::replayed`] or [`check_empties`].
pub fn mistakes(records: &Records, max_empties: u32, threads: usize) -> CliResult<Mistakes> {
    let max_empties = check_empties("--mistakes", max_empties)?;
    let games = records.replayed()?;
    let mut out = Mistakes {
        max_empties,
        by_empties: vec![[Cost::default(); 2]; max_empties as usize + 1],
        ..Mistakes::default()
    };
    let firsts: Vec<(usize, &Replayed)> = games
        .iter()
        .filter_map(|g| g.first_index_at(max_empties).map(|i| (i, g)))
        .collect();
    out.games = firsts.len() as u64;
    out.left_out = (games.len() - firsts.len()) as u64;
    let solved = per_item(&firsts, threads, |solvers, &(first, g)| values(solvers, &g.line, first))?;
    for ((first, game), values) in firsts.iter().zip(&solved) {
        for i in *first..game.line.len() - 1 {
            let (before, after) = (&game.line[i], &game.line[i + 1]);
            if after.empty_count() == before.empty_count() {
                continue; // a forced pass
            }
            let side = usize::from(before.side_to_move() != game.a_color);
            out.by_empties[before.empty_count() as usize][side].charge(values[i - first], -values[i + 1 - first]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_at::tests::{file, negamax, random_game};
    use othello_rules::{BoardSize, Color, Move, Position};

    /// Random games written as records, scored by `mistakes` and by the slow reference (plain
    /// negamax of every position before and after each move) on the positions the generator saw.
    fn check(root: Position, games: u64, opening_plies: usize, max_empties: u32, threads: usize) -> Mistakes {
        let mut text = String::new();
        let mut want = Mistakes {
            max_empties,
            by_empties: vec![[Cost::default(); 2]; max_empties as usize + 1],
            ..Mistakes::default()
        };
        for n in 1..=games {
            let (moves, line) = random_game(root, n);
            let a = if n % 2 == 1 { Color::Black } else { Color::White };
            let opening: String = moves[..opening_plies].iter().map(Move::to_string).collect();
            let rest: Vec<String> = moves[opening_plies..]
                .iter()
                .filter(|m| n % 3 != 0 || **m != Move::Pass)
                .map(Move::to_string)
                .collect();
            let v = json!({"game": n, "a_color": if a == Color::Black { "black" } else { "white" },
                "black": "a", "white": "b", "result": "draw", "opening": opening, "moves": rest});
            text += &format!("{v}\n");
            // Random games end over: a game over before `max_empties` counts, with no move.
            want.games += 1;
            for pair in line[opening_plies..].windows(2) {
                let (before, after) = (&pair[0], &pair[1]);
                let e = before.empty_count();
                if e > max_empties || before.must_pass() {
                    continue;
                }
                let (vb, va) = (negamax(before), -negamax(after));
                assert!(va <= vb);
                let hp = |v: i32| (v.signum() + 1) as u64;
                let c = &mut want.by_empties[e as usize][usize::from(before.side_to_move() != a)];
                c.moves += 1;
                c.discs += (vb - va) as u64;
                c.mistakes += u64::from(vb > va);
                c.half_points += hp(vb) - hp(va);
            }
        }
        let records = Records::read(&[file(
            &format!("mistakes-{}-{max_empties}.jsonl", root.size().side()),
            &text,
        )])
        .unwrap();
        let got = mistakes(&records, max_empties, threads).unwrap();
        assert_eq!(got, want);
        got
    }

    #[test]
    fn scores_every_move_of_random_games_as_the_reference_does() {
        // 6x6 (built-in ordering) and 8x8 (pattern ordering), on one and on three threads.
        let six = check(Position::start_of(BoardSize::Six), 30, 4, 9, 1);
        let eight = check(Position::start_of(BoardSize::Eight), 24, 6, 8, 3);
        for m in [&six, &eight] {
            let total = m.total();
            // Random play: every side blunders, and some blunders change the result.
            for side in total {
                assert!(
                    side.moves > 50 && side.mistakes > 5 && side.discs > side.mistakes,
                    "{m:?}"
                );
            }
            assert!(total[0].half_points + total[1].half_points > 0, "{m:?}");
        }
        // Games are scored from their first position with at most 9 empties (a game that
        // passes or ends there has no move at 9).
        assert!(six.by_empties[9][0].moves + six.by_empties[9][1].moves > 20, "{six:?}");
        assert_eq!(six.by_empties[0], [Cost::default(); 2]);
    }

    #[test]
    fn every_move_of_4x4_games_from_the_start() {
        // 4x4 from the start: the first moves of a line, then every move to the end.
        let root = Position::start_of(BoardSize::Four);
        let m = check(root, 12, 0, 12, 2);
        assert_eq!(m.games, 12);
        // Each game has a move at every count from 12 empties down until it ends.
        let at12 = m.by_empties[12][0].moves + m.by_empties[12][1].moves;
        assert_eq!(at12, 12);
        // With a three-move opening, its moves are not the players': not scored.
        let m = check(root, 12, 3, 12, 1);
        let (at12, at9) = (
            m.by_empties[12][0].moves + m.by_empties[12][1].moves,
            m.by_empties[9][0].moves + m.by_empties[9][1].moves,
        );
        assert_eq!(at12, 0);
        assert!(at9 >= 10, "{m:?}");
    }

    #[test]
    fn text_and_json() {
        let mut m = Mistakes {
            max_empties: 3,
            games: 2,
            left_out: 1,
            by_empties: vec![[Cost::default(); 2]; 4],
        };
        m.by_empties[3] = [
            Cost {
                moves: 2,
                mistakes: 1,
                half_points: 1,
                discs: 4,
            },
            Cost::default(),
        ];
        m.by_empties[2] = [
            Cost::default(),
            Cost {
                moves: 2,
                mistakes: 2,
                half_points: 3,
                discs: 10,
            },
        ];
        let text = m.text(("pvs", "zebra"));
        assert!(
            text.starts_with("mistakes at 3 empties or fewer (exact solves), 2 games (1 stopped earlier left out)"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[0].ends_with("A pvs on the left, B zebra on the right"), "{text}");
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            [
                "empties", "moves", "wrong", "points", "discs", "moves", "wrong", "points", "discs"
            ]
        );
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["3", "2", "1", "0.5", "4", "0", "0", "0.0", "0"]
        );
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["2", "0", "0", "0.0", "0", "2", "2", "1.5", "10"]
        );
        assert_eq!(
            lines[4].split_whitespace().collect::<Vec<_>>(),
            ["total", "2", "1", "0.5", "4", "2", "2", "1.5", "10"]
        );
        let v = m.json();
        assert_eq!(v["b"]["points_lost"], 1.5);
        assert_eq!(v["a"]["discs_lost"], 4);
        assert_eq!(v["by_empties"].as_array().unwrap().len(), 2);
        assert_eq!(v["by_empties"][0]["empties"], 3);
        assert_eq!(v["by_empties"][1]["b"]["mistakes"], 2);
        assert_eq!(v["left_out"], 1);
        let none = Mistakes { left_out: 0, ..m };
        assert!(
            none.text(("a", "b"))
                .lines()
                .next()
                .unwrap()
                .ends_with("2 games: A a on the left, B b on the right")
        );
    }

    #[test]
    fn games_stopped_earlier_are_left_out_and_bad_values_are_bad_input() {
        let cut = json!({"game": 1, "a_color": "black", "result": "loss", "opening": "f5", "moves": ["d6", "c3"]});
        let cut_records = Records::read(&[file("mistakes-cut.jsonl", &format!("{cut}\n"))]).unwrap();
        let m = mistakes(&cut_records, 10, 1).unwrap();
        assert_eq!((m.games, m.left_out, m.total()[0].moves), (0, 1, 0));
        // A 4x4 game of three opening moves and none of its own, not over, with 9 empty
        // squares: counted (nothing to score) at 9 or more, left out below.
        let opening_only = json!({"game": 1, "a_color": "black", "result": "draw", "opening": "b1a1a2", "moves": []});
        let records = Records::read(&[file("mistakes-opening.jsonl", &format!("{opening_only}\n"))]).unwrap();
        for (empties, counted) in [(9, (1, 0)), (12, (1, 0)), (8, (0, 1))] {
            let m = mistakes(&records, empties, 1).unwrap();
            assert_eq!((m.games, m.left_out), counted, "{empties}");
            assert_eq!(m.total(), [Cost::default(); 2]);
        }
        let e = mistakes(&cut_records, 31, 1).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("bad --mistakes 31"), "{e}");
        let bad = json!({"game": 1, "a_color": "black", "result": "win", "opening": "f5", "moves": ["a1"]});
        let records = Records::read(&[file("mistakes-bad.jsonl", &format!("{bad}\n"))]).unwrap();
        assert!(
            mistakes(&records, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("do not replay")
        );
    }
}
