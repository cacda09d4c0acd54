//! `othello stats --records FILE --exact-at E`: where a match's games were decided. Each game's
//! position when `E` squares are first empty is solved (win, draw or loss, exactly), and the
//! game's result had both sides played perfectly from there is set beside its result as played:
//! the difference between the two scores is what player A gained (or lost) in the last `E`
//! moves, and the exact score is what the moves before them left it.

use crate::error::{CliResult, input};
use crate::records::Records;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_rules::{BoardSize, Position};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most empties `--exact-at` solves (a solve from 30 empties takes minutes; beyond, hours).
pub const MAX_EMPTIES: u32 = 30;

/// The games tallied by their exact result at `empties` and their result as played, for A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExactAt {
    /// Empty squares at the solved positions.
    pub empties: u32,
    /// `counts[exact][played]`: games by A's exact result at `empties` and A's result as
    /// played, each 0 win, 1 draw, 2 loss.
    pub counts: [[u64; 3]; 3],
    /// Games left out: stopped with more empties (time, forfeit, adjudication) and not over.
    pub left_out: u64,
}

/// A result in half points from a score's sign: 2 a win, 1 a draw, 0 a loss (as the records'
/// `half_points`).
pub fn half_points(score: i32) -> u8 {
    (score.signum() + 1) as u8
}

/// Index 0, 1, 2 of a win, draw or loss, from a result in half points.
fn outcome(half_points: u8) -> usize {
    usize::from(2 - half_points)
}

impl ExactAt {
    /// Games tallied.
    pub fn games(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// A's mean score with perfect play by both sides from the solved positions.
    pub fn exact_score(&self) -> f64 {
        Self::score(self.counts.map(|row| row.iter().sum()))
    }

    /// A's mean score as played, over the same games.
    pub fn played_score(&self) -> f64 {
        Self::score([0, 1, 2].map(|p| self.counts.iter().map(|row| row[p]).sum()))
    }

    /// The mean score of counts of wins, draws and losses (0.5 without a game).
    fn score(wdl: [u64; 3]) -> f64 {
        let n = wdl.iter().sum::<u64>();
        if n == 0 {
            return 0.5;
        }
        (wdl[0] as f64 + 0.5 * wdl[1] as f64) / n as f64
    }

    /// The summary's line.
    pub fn text(&self) -> String {
        let row = |e: usize, name: &str| {
            let [w, d, l] = self.counts[e];
            format!("from {name} {w} won, {d} drawn, {l} lost")
        };
        let mut s = format!(
            "exact at {} empties, A: {:.3} with perfect play from there, {:.3} as played ({:+.3} after it) over {} games; {}; {}; {}",
            self.empties,
            self.exact_score(),
            self.played_score(),
            self.played_score() - self.exact_score(),
            self.games(),
            row(0, "won"),
            row(1, "drawn"),
            row(2, "lost"),
        );
        if self.left_out > 0 {
            s += &format!(", {} stopped earlier left out", self.left_out);
        }
        s
    }

    /// The JSON object (`exact_at` of `othello stats --json`).
    pub fn json(&self) -> Value {
        let row = |e: usize| json!({"won": self.counts[e][0], "drawn": self.counts[e][1], "lost": self.counts[e][2]});
        json!({"empties": self.empties, "games": self.games(), "exact_score": self.exact_score(),
            "played_score": self.played_score(), "from_won": row(0), "from_drawn": row(1),
            "from_lost": row(2), "left_out": self.left_out})
    }
}

/// Checks an `--exact-at` (or `--mistakes`, named by `flag`) value: 0 to [`MAX_EMPTIES`].
///
/// # Errors
/// Bad input naming the flag and the value.
pub fn check_empties(flag: &str, empties: u32) -> CliResult<u32> {
    if empties > MAX_EMPTIES {
        return Err(input(format!(
            "bad {flag} {empties}: at most {MAX_EMPTIES} empties (a solve from more takes hours)"
        )));
    }
    Ok(empties)
}

/// Exact solvers for the positions of game records: the pattern evaluation orders the moves on
/// 8x8, the built-in ordering on the smaller boards, as `othello solve` does. Each is made
/// when first needed and keeps its table from one position to the next.
pub struct Solvers {
    ordering: Option<othello_endgame::OrderingEval>,
    ordered: Option<Solver>,
    plain: Option<Solver>,
}

impl Solvers {
    /// Solvers with the embedded pattern evaluation for 8x8 ordering.
    ///
    /// # Errors
    /// Should the embedded weights not load (a broken build).
    pub fn new() -> CliResult<Solvers> {
        Ok(Solvers {
            ordering: othello_spec::SpecEval::parse(Some("pattern"), None, "stats")?.solver_ordering(),
            ordered: None,
            plain: None,
        })
    }

    /// The exact score (or win, draw or loss as 1, 0, -1 in [`SolveMode::WinLossDraw`]) of
    /// `pos` for its side to move.
    pub fn solve(&mut self, pos: &Position, mode: SolveMode) -> i32 {
        let solver = if pos.size() == BoardSize::Eight {
            let ordering = &self.ordering;
            self.ordered
                .get_or_insert_with(|| Solver::new(SolverConfig::default().with_ordering_eval(ordering.clone())))
        } else {
            self.plain.get_or_insert_with(|| Solver::new(SolverConfig::default()))
        };
        solver.solve(pos, mode).score
    }
}

/// `f` applied to every item on `threads` threads (at least one), each thread with its own
/// [`Solvers`]; the results in the items' order, the same whatever the thread count (exact
/// scores do not depend on a solver's table). A progress bar counts the items done on stderr
/// when it is a terminal.
///
/// # Errors
/// As [`Solvers::new`].
pub fn per_item<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&mut Solvers, &T) -> R + Sync,
) -> CliResult<Vec<R>> {
    let threads = threads.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let mut solvers = (0..threads).map(|_| Solvers::new()).collect::<CliResult<Vec<_>>>()?;
    let bar = crate::output::progress(items.len() as u64, "games solved", false);
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = solvers
            .iter_mut()
            .map(|solvers| {
                let (next, f, bar) = (&next, &f, &bar);
                s.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break out };
                        out.push((i, f(solvers, item)));
                        bar.inc(1);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a solving thread panicked"))
            .collect()
    });
    bar.finish_and_clear();
    done.sort_unstable_by_key(|&(i, _)| i);
    Ok(done.into_iter().map(|(_, r)| r).collect())
}

/// Solves every game of `records` at `empties` (win, draw or loss) on `threads` threads and
/// tallies the results.
///
/// # Errors
/// Bad input from [`Records::positions_at`] or [`check_empties`].
pub fn exact_at(records: &Records, empties: u32, threads: usize) -> CliResult<ExactAt> {
    let empties = check_empties("--exact-at", empties)?;
    let (games, left_out) = records.positions_at(empties)?;
    let mut tally = ExactAt {
        empties,
        left_out,
        ..ExactAt::default()
    };
    let scores = per_item(&games, threads, |solvers, g| {
        solvers.solve(&g.position, SolveMode::WinLossDraw)
    })?;
    for (g, score) in games.iter().zip(scores) {
        let exact = outcome(half_points(if g.a_to_move { score } else { -score }));
        tally.counts[exact][outcome(g.half_points)] += 1;
    }
    Ok(tally)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use othello_rules::Move;
    use othello_rules::reference::final_score;

    /// Exact value for the side to move by plain negamax over every line (the slow reference).
    pub(crate) fn negamax(pos: &Position) -> i32 {
        let moves = pos.moves();
        if moves.is_empty() {
            return final_score(pos);
        }
        moves.iter().map(|&m| -negamax(&pos.play_unchecked(m))).max().unwrap()
    }

    /// A random game from `root` (a small generator seeded by `seed`): its moves, with forced
    /// passes written, and every position from the root on.
    pub(crate) fn random_game(root: Position, seed: u64) -> (Vec<Move>, Vec<Position>) {
        let mut state = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let (mut moves, mut line, mut pos) = (Vec::new(), vec![root], root);
        loop {
            let legal = pos.moves();
            if legal.is_empty() {
                return (moves, line);
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = legal[(state >> 33) as usize % legal.len()];
            pos = pos.play_unchecked(m);
            moves.push(m);
            line.push(pos);
        }
    }

    pub(crate) fn file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("othello-exact-at-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// Random games written as records (some with their passes left out, some with a board as
    /// the opening), tallied by `exact_at` and by the reference on the positions the generator
    /// saw.
    fn check(root: Position, games: u64, opening_plies: usize, empties: u32) -> ExactAt {
        let mut text = String::new();
        let mut want = ExactAt {
            empties,
            ..ExactAt::default()
        };
        for n in 1..=games {
            let (moves, line) = random_game(root, n);
            let a_black = n % 2 == 1;
            let last = line.last().unwrap();
            let black_score = if last.side_to_move() == Color::Black {
                final_score(last)
            } else {
                -final_score(last)
            };
            let a_final = if a_black { black_score } else { -black_score };
            let result = ["loss", "draw", "win"][(a_final.signum() + 1) as usize];
            // Every third game opens with the board after its opening plies, the others with
            // the moves; even games leave their passes out.
            let (opening, rest) = if n % 3 == 0 {
                (line[opening_plies].to_string(), &moves[opening_plies..])
            } else {
                (
                    moves[..opening_plies].iter().map(Move::to_string).collect::<String>(),
                    &moves[opening_plies..],
                )
            };
            let rest: Vec<String> = rest
                .iter()
                .filter(|m| n % 2 == 1 || **m != Move::Pass)
                .map(Move::to_string)
                .collect();
            let v = json!({"game": n, "a_color": if a_black { "black" } else { "white" },
                "black": "a", "white": "b", "result": result, "opening": opening, "moves": rest});
            text += &format!("{v}\n");
            let at = line.iter().find(|p| p.empty_count() == empties).unwrap_or(last);
            let exact = if (at.side_to_move() == Color::Black) == a_black {
                negamax(at)
            } else {
                -negamax(at)
            };
            want.counts[outcome(half_points(exact))][outcome(half_points(a_final))] += 1;
        }
        let records = Records::read(&[file(&format!("games-{}.jsonl", root.size().side()), &text)]).unwrap();
        let got = exact_at(&records, empties, 1).unwrap();
        assert_eq!(exact_at(&records, empties, 3).unwrap(), got);
        assert_eq!(got, want);
        got
    }

    use othello_rules::Color;

    #[test]
    fn tallies_the_exact_results_of_random_games_as_the_reference_does() {
        // 6x6 (the built-in ordering) and 8x8 (the pattern ordering), 7 empties.
        let six = check(Position::start_of(BoardSize::Six), 40, 4, 7);
        assert_eq!(six.games(), 40);
        let eight = check(Position::start_of(BoardSize::Eight), 30, 6, 7);
        assert_eq!(eight.games(), 30);
        // Random play decides many games late: some results change after the solved point.
        let changed = |t: &ExactAt| {
            (0..3)
                .map(|e| t.counts[e].iter().sum::<u64>() - t.counts[e][e])
                .sum::<u64>()
        };
        assert!(changed(&six) + changed(&eight) > 0);
    }

    #[test]
    fn scores_and_text() {
        let t = ExactAt {
            empties: 20,
            counts: [[10, 1, 1], [2, 3, 0], [1, 0, 6]],
            left_out: 2,
        };
        assert_eq!(t.games(), 24);
        // Exact: 12 won, 5 drawn, 7 lost; played: 13 won, 4 drawn, 7 lost.
        assert!((t.exact_score() - 14.5 / 24.0).abs() < 1e-12);
        assert!((t.played_score() - 15.0 / 24.0).abs() < 1e-12);
        let text = t.text();
        assert!(text.starts_with("exact at 20 empties, A: 0.604 with perfect play from there, 0.625 as played (+0.021 after it) over 24 games; from won 10 won, 1 drawn, 1 lost; from drawn 2 won, 3 drawn, 0 lost; from lost 1 won, 0 drawn, 6 lost, 2 stopped earlier left out"), "{text}");
        let v = t.json();
        assert_eq!(v["from_drawn"]["won"], 2);
        assert_eq!(v["from_lost"]["lost"], 6);
        assert_eq!(v["left_out"], 2);
        assert_eq!(ExactAt::default().exact_score(), 0.5);
        // Nothing left out: the text does not say so.
        let all_in = ExactAt { left_out: 0, ..t };
        assert!(
            all_in.text().ends_with("from lost 1 won, 0 drawn, 6 lost"),
            "{}",
            all_in.text()
        );
        assert!(check_empties("--exact-at", 30).is_ok());
        let e = check_empties("--mistakes", 31).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("bad --mistakes 31"), "{e}");
    }

    #[test]
    fn games_that_do_not_replay_are_bad_input() {
        let bad = json!({"game": 1, "a_color": "black", "result": "win", "opening": "f5", "moves": ["a1"]});
        let records = Records::read(&[file("bad.jsonl", &format!("{bad}\n"))]).unwrap();
        let e = exact_at(&records, 10, 1).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("game 1: its moves do not replay"), "{e}");
        let none = json!({"game": 1, "a_color": "black", "result": "win"});
        let records = Records::read(&[file("none.jsonl", &format!("{none}\n"))]).unwrap();
        assert!(
            exact_at(&records, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("no opening")
        );
        let colour = json!({"game": 1, "a_color": "red", "result": "win", "opening": "f5", "moves": []});
        let records = Records::read(&[file("colour.jsonl", &format!("{colour}\n"))]).unwrap();
        assert!(
            exact_at(&records, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("bad a_color 'red'")
        );
        // A game stopped with more empties, not over (a forfeit, a flag): left out.
        let cut = json!({"game": 1, "a_color": "black", "result": "loss", "opening": "f5", "moves": ["d6", "c3"]});
        let records = Records::read(&[file("cut.jsonl", &format!("{cut}\n"))]).unwrap();
        let t = exact_at(&records, 10, 1).unwrap();
        assert_eq!((t.games(), t.left_out), (0, 1));
        // A game that starts from a board with fewer empties (4x4, 12), not over: its root.
        let board = Position::start_of(BoardSize::Four).to_string();
        let small = json!({"game": 1, "a_color": "black", "result": "win", "opening": board, "moves": []});
        let records = Records::read(&[file("small.jsonl", &format!("{small}\n"))]).unwrap();
        let t = exact_at(&records, 20, 1).unwrap();
        // 4x4 from the start: white wins 11-3 with best play, so black (A) loses.
        assert_eq!((t.games(), t.left_out, t.counts[2][0]), (1, 0, 1));
    }
}
