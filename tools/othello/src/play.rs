//! `othello play`: engine-vs-engine matches (in-process specs or external NBoard engines) with
//! paired openings, clocks, concurrency, game records, Elo and the pentanomial SPRT.

use crate::arena::clock::TimeControl;
use crate::arena::external::read_engines;
use crate::arena::openings::{self, Opening};
use crate::arena::record::GameRecord;
use crate::arena::{PlayerSource, Settings};
use crate::error::{CliResult, input};
use crate::output::{Output, progress};
use crate::stats::{EloModel, Pentanomial, Sprt, Tally, Verdict};
use othello_rules::BoardSize;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Options of `othello play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Engine A (results are A's), e.g. `pvs:depth=6`, or `ext:name=NAME` from --engines, or
    /// `human` (a person at the terminal; either side).
    engine_a: String,
    /// Engine B, e.g. `mcts:playouts=5000,seed=7`.
    engine_b: String,
    /// Number of games (default 10; even: each opening is played twice, A black then B black).
    /// With a human: default 1, any number, from the standard start (or --openings).
    #[arg(long, short, allow_negative_numbers = true)]
    games: Option<i64>,
    /// Games played at once (threads; each external engine runs one process per game slot).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    concurrency: i64,
    /// A file of openings, one per line: move sequences, GGF games or OBF positions
    /// (default: the built-in set).
    #[arg(long)]
    openings: Option<String>,
    /// Play the openings in a random order drawn from this seed (default: file order).
    #[arg(long)]
    seed: Option<u64>,
    /// Board size: 4, 6 or 8.
    #[arg(long)]
    size: Option<u8>,
    /// Clock per side: BASE[+INC] in seconds, e.g. `10+0.1`.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "st")]
    tc: Option<String>,
    /// Fixed time per move in seconds, e.g. `0.2`.
    #[arg(long, allow_hyphen_values = true)]
    st: Option<String>,
    /// With `--st` or `--tc`: A's time follows B's, for a match at equal time against an
    /// engine on its own limits (a fixed depth, say). `--st` is B's time per move and A's
    /// first, `--tc` B's clock and A's first; after each game A's time per move (or its
    /// clock's base time) aims at B's mean time per move (or per game) plus what A is owed,
    /// over the share of its time A used, all over the games so far (changing by at most a
    /// factor 1.25 a game), so that the totals stay equal. The records give A's time per move
    /// (`a_move_time`) or base time (`a_base_time`) in each game; the summary gives both
    /// sides' means and A's last time.
    #[arg(long)]
    follow: bool,
    /// Milliseconds a move may exceed its time before it loses on time.
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Milliseconds of its clock an in-process engine keeps in hand for the runner and a busy
    /// machine's scheduler ("move overhead"; at most half of what is left).
    #[arg(long, default_value_t = 100)]
    overhead: u64,
    /// Seconds to wait for an external engine's move when the game has no clock, and for its
    /// `pong` before each game.
    #[arg(long, default_value_t = 60.0)]
    hang_timeout: f64,
    /// The engines file (JSON) for `ext:name=NAME` specs.
    #[arg(long)]
    engines: Option<String>,
    /// Let the exact solver decide the game at this many empty squares.
    #[arg(long)]
    adjudicate: Option<u32>,
    /// With a `human` side: the colour the human plays, black (default) or white.
    #[arg(long, visible_alias = "color")]
    colour: Option<String>,
    /// With a `human` side: the engine spec that answers `hint` (default: the opponent's spec
    /// when it is an engine of this program, else `pvs`).
    #[arg(long)]
    hint: Option<String>,
    /// Append every game to this GGF file (one record per line).
    #[arg(long)]
    ggf: Option<String>,
    /// Append every game to this JSON Lines file (moves, times, evaluations).
    #[arg(long)]
    jsonl: Option<String>,
    /// Keep an SVG plot of the Elo (95% interval) and the LLR (SPRT bounds) over the games in
    /// this file, rewritten (atomically) after each game pair.
    #[arg(long)]
    plot: Option<String>,
    /// The SPRT (stop when it decides).
    #[command(flatten)]
    test: SprtArgs,
    /// Play only the pairs START..END (0-based, END excluded) of the opening order (after
    /// --seed), instead of --games: pair `p` plays opening `p mod openings` twice, as in a full
    /// run, so disjoint ranges played apart merge into the full run's pentanomial counts (for
    /// engines whose play does not depend on the games they played before).
    #[arg(long, conflicts_with = "games")]
    pairs: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Each player's time use over the games of a match, for the summary (see
/// [`TimeUse`](crate::arena::clock::TimeUse)).
#[derive(Default)]
struct TimeTotals {
    /// Every game's [`TimeUse`](crate::arena::clock::TimeUse) of A and B, when both have one.
    games: Vec<[crate::arena::clock::TimeUse; 2]>,
}

impl TimeTotals {
    fn add(&mut self, rec: &GameRecord) {
        if let (Some(a), Some(b)) = (rec.time_use(true), rec.time_use(false)) {
            self.games.push([a, b]);
        }
    }

    /// The mean of `f` over the games where it is known, per side; `None` when a side has none.
    fn mean(&self, f: impl Fn(&crate::arena::clock::TimeUse) -> Option<f64>) -> Option<[f64; 2]> {
        let side = |i: usize| {
            let v: Vec<f64> = self.games.iter().filter_map(|g| f(&g[i])).collect();
            (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
        };
        Some([side(0)?, side(1)?])
    }

    /// The least time left after a move over all games, per side, in seconds.
    fn least_left(&self) -> Option<[f64; 2]> {
        let side = |i: usize| {
            self.games
                .iter()
                .filter_map(|g| g[i].least_left)
                .min()
                .map(|d| d.as_secs_f64())
        };
        Some([side(0)?, side(1)?])
    }
}

/// A's time under `--follow`: the totals of both sides over the games so far, and the value
/// the next games read.
struct Follow {
    /// A's time per move, or under a clock its base time, in microseconds (shared with the
    /// runner: `Settings::follow`).
    shared: Arc<AtomicU64>,
    /// Under a clock, A's increment (A's base time follows, a game at a time); `None` under a
    /// fixed time per move (A's time per move follows).
    increment: Option<Duration>,
    /// Time used by A and B on their own moves (forced passes are the runner's).
    used: [Duration; 2],
    /// Moves of A and B.
    moves: [u32; 2],
    /// Games added.
    games: u32,
    /// The time A was given, summed over its moves (a fixed time per move) or its games (a
    /// clock: the base time and the increments of A's moves).
    given: Duration,
}

/// The most A's time per move changes after one game under `--follow` (either way).
const FOLLOW_MAX_STEP: f64 = 1.25;

impl Follow {
    /// `--follow` under `time`, if it is a fixed time per move or a clock.
    fn new(time: TimeControl) -> Option<Follow> {
        let (first, increment) = match time {
            TimeControl::PerMove(t) => (t, None),
            TimeControl::Clock { base, increment } => (base, Some(increment)),
            TimeControl::None => return None,
        };
        Some(Follow {
            shared: Arc::new(AtomicU64::new(first.as_micros().max(1) as u64)),
            increment,
            used: [Duration::ZERO; 2],
            moves: [0; 2],
            games: 0,
            given: Duration::ZERO,
        })
    }

    /// Side 0 (A) or 1 (B)'s mean time per game so far, in seconds.
    fn mean_game_s(&self, side: usize) -> f64 {
        self.used[side].as_secs_f64() / f64::from(self.games.max(1))
    }

    /// Side 0 (A) or 1 (B)'s mean time per move so far, in milliseconds.
    fn mean_ms(&self, side: usize) -> f64 {
        1000.0 * self.used[side].as_secs_f64() / f64::from(self.moves[side].max(1))
    }

    /// A's current time per move, or under a clock its base time.
    fn current(&self) -> Duration {
        Duration::from_micros(self.shared.load(Ordering::SeqCst))
    }

    /// Adds a finished game (A's time in it is the record's `a_move_time` or `a_base_time`:
    /// with several games at once, a game may have started before the last change) and sets
    /// A's time for the next ones (see [`follow_step`]).
    fn add(&mut self, rec: &GameRecord) {
        let a_time = match (self.increment, rec.a_move_time, rec.a_base_time) {
            (None, Some(t), _) | (Some(_), _, Some(t)) => t,
            _ => return,
        };
        let a_color = rec.a_color;
        let mut a_moves = 0;
        for m in rec.moves.iter().filter(|m| m.mv != othello_rules::Move::Pass) {
            let side = usize::from(m.color != a_color);
            self.used[side] += m.time;
            self.moves[side] += 1;
            if side == 0 {
                a_moves += 1;
            }
        }
        self.games += 1;
        let next = match self.increment {
            None => {
                self.given += a_time * a_moves;
                follow_step(self.current(), self.used, self.moves, self.given, FOLLOW_REPAY_MOVES)
            }
            Some(inc) => {
                // The same rule a game at a time: the aim is B's mean time per game, and the
                // step applies to A's whole time per game (its base and the increments of its
                // mean number of moves), of which the base is what follows.
                self.given += a_time + inc * a_moves;
                let incs = inc.mul_f64(f64::from(self.moves[0]) / f64::from(self.games));
                let games = [self.games; 2];
                let total = follow_step(self.current() + incs, self.used, games, self.given, FOLLOW_REPAY_GAMES);
                total.saturating_sub(incs).max(Duration::from_millis(1))
            }
        };
        self.shared.store(next.as_micros().max(1) as u64, Ordering::SeqCst);
    }
}

/// How many of A's moves `--follow` takes to even out the difference between the two sides'
/// totals (about nine games of an 8-ply opening): each game repays about a ninth of it.
const FOLLOW_REPAY_MOVES: f64 = 240.0;

/// How many games `--follow` under a clock takes to even out the difference between the two
/// sides' totals (the nine games of [`FOLLOW_REPAY_MOVES`]).
const FOLLOW_REPAY_GAMES: f64 = 9.0;

/// A's next time per move under `--follow`, from its `current` one and the totals so far
/// (`used` and `moves` of A then B, `given`: the time per move A was given summed over its
/// moves). The aim for A's next moves is B's mean time per move plus what A is owed, spread
/// over `repay` moves ([`FOLLOW_REPAY_MOVES`]): `owed` is B's mean times A's moves minus the
/// time A used (negative when A is ahead). Under a clock the same rule runs with games for
/// moves (`moves` the games of each side, `given` A's whole time per game summed, `repay`
/// [`FOLLOW_REPAY_GAMES`]). The first games, whose time per move had not settled yet,
/// and any error in the share are made up for, so A's mean meets B's over the match and not
/// only in the games to come (a factor B's mean over A's left A 2-3% over after 400 games).
/// The time per move that gives that aim is the aim divided by the share of its given time A
/// used (`used[0] / given`); within a factor [`FOLLOW_MAX_STEP`] of `current`, at least 1 ms;
/// `current` while a side has no move or A used no time.
fn follow_step(current: Duration, used: [Duration; 2], moves: [u32; 2], given: Duration, repay: f64) -> Duration {
    if moves[0] == 0 || moves[1] == 0 || used[0].is_zero() || given.is_zero() {
        return current;
    }
    let b_mean = used[1].as_secs_f64() / f64::from(moves[1]);
    let owed = b_mean * f64::from(moves[0]) - used[0].as_secs_f64();
    let aim = b_mean + owed / repay;
    let share = used[0].as_secs_f64() / given.as_secs_f64();
    let now = current.as_secs_f64();
    let next = (aim / share).clamp(now / FOLLOW_MAX_STEP, now * FOLLOW_MAX_STEP);
    Duration::from_secs_f64(next.max(0.001))
}

/// The SPRT options shared by `othello play` and `othello stats`.
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    /// Stop when the SPRT for ELO0 < ELO1 decides, e.g. `0,10`.
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// The Elo model of the SPRT bounds: `logistic` (default) or `normalized`.
    #[arg(long, default_value = "logistic")]
    sprt_model: String,
    /// The SPRT's false positive rate.
    #[arg(long, default_value_t = 0.05)]
    sprt_alpha: f64,
    /// The SPRT's false negative rate.
    #[arg(long, default_value_t = 0.05)]
    sprt_beta: f64,
}

impl SprtArgs {
    /// The test the options ask for, if any.
    fn test(&self) -> CliResult<Option<Sprt>> {
        match self.sprt.as_deref().map(parse_sprt).transpose()? {
            None => Ok(None),
            Some((elo0, elo1)) => Ok(Some(sprt_test(self, elo0, elo1)?)),
        }
    }
}

/// Options of `othello stats`.
#[derive(clap::Args, Debug)]
#[group(id = "counts", required = true, multiple = false, args = ["penta", "records"])]
pub struct StatsArgs {
    /// Pentanomial counts of game pairs, `N0,N1,N2,N3,N4` (pairs scoring 0 to 2 points for A,
    /// in half-point steps), e.g. merged from several `othello play --pairs` runs.
    #[arg(long, allow_hyphen_values = true)]
    penta: Option<String>,
    /// The JSON Lines records of `othello play --jsonl` (several files: merged `--pairs` runs),
    /// paired by game number.
    #[arg(long, num_args = 1..)]
    records: Vec<String>,
    /// Write an SVG plot of the Elo and the LLR over the games of --records to this file.
    #[arg(long)]
    plot: Option<String>,
    /// Compare --records with the records of another run of the same openings, game pair by
    /// game pair (matched by game number): A's score in each, and the difference a game with
    /// its 95% interval from the pairs' spread.
    #[arg(long, num_args = 1.., value_name = "RECORDS")]
    against: Vec<String>,
    /// Where the games of --records were decided: solve each game's position when this many
    /// squares are first empty (win, draw or loss, exactly; at most 30) and count A's results
    /// with perfect play from there against its results as played.
    #[arg(long, value_name = "EMPTIES")]
    exact_at: Option<u32>,
    /// Which moves lost the games of --records: solve every position from the first with at
    /// most this many empty squares (at most 30) to the end, and count each side's moves, the
    /// moves that lost discs, and the game points and discs they lost, per number of empties.
    #[arg(long, value_name = "EMPTIES")]
    mistakes: Option<u32>,
    /// Where each side of --records spent its time: moves, milliseconds a move, share of the
    /// side's time and mean depth, per band of this many empty squares (counted down from 60).
    #[arg(long, value_name = "BAND", value_parser = clap::value_parser!(u32).range(1..=61))]
    time_by_empties: Option<u32>,
    /// Threads for the solves of --exact-at and --mistakes (games in parallel).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// The SPRT to evaluate on these counts.
    #[command(flatten)]
    test: SprtArgs,
    /// JSON output.
    #[arg(long)]
    json: bool,
}

fn parse_pairs(text: &str) -> CliResult<(u64, u64)> {
    let bad = || {
        input(format!(
            "bad --pairs '{text}': expected START..END with START < END, e.g. 0..50"
        ))
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a >= b || b > u64::MAX / 4 {
        return Err(bad());
    }
    Ok((a, b))
}

fn parse_penta(text: &str) -> CliResult<Pentanomial> {
    let bad = || {
        input(format!(
            "bad --penta '{text}': expected five counts N0,N1,N2,N3,N4, e.g. 3,10,40,12,2"
        ))
    };
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 5 {
        return Err(bad());
    }
    let mut penta = Pentanomial::default();
    for (slot, part) in penta.counts.iter_mut().zip(parts) {
        *slot = part.trim().parse().map_err(|_| bad())?;
    }
    if penta
        .counts
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .is_none()
    {
        return Err(bad());
    }
    Ok(penta)
}

/// The statistics of pentanomial counts: the fields `othello play --json` and `othello stats
/// --json` share.
fn summary(penta: &Pentanomial, sprt: Option<Sprt>) -> (serde_json::Value, Verdict, f64) {
    let est = penta.elo();
    let llr = sprt.map_or(0.0, |t| t.llr(penta));
    let verdict = sprt.map_or(Verdict::Continue, |t| t.verdict(llr));
    let value = json!({"score": est.score, "elo": est.elo, "elo_error": est.error, "elo_low": est.low,
        "elo_high": est.high, "nelo": est.nelo, "los": est.los, "pentanomial": penta.counts,
        "pairs": penta.pairs(), "model": "pentanomial",
        "sprt": sprt.map(|_| verdict.as_str()), "llr": sprt.map(|_| llr),
        "llr_bounds": sprt.map(|t| [t.bounds().0, t.bounds().1]),
        "sprt_elo": sprt.map(|t| [t.elo0, t.elo1]), "sprt_model": sprt.map(|t| t.model.as_str())});
    (value, verdict, llr)
}

/// The statistics of a summary line, shared by `play` and `stats`: Elo with its 95% interval,
/// LOS, the pentanomial counts, and the SPRT with its LLR and bounds when one runs.
fn stats_text(penta: &Pentanomial, sprt: Option<Sprt>, verdict: Verdict, llr: f64) -> String {
    let est = penta.elo();
    let mut s = format!(
        "Elo {} +/- {} (95%), LOS {:.1}%, pentanomial {:?}",
        fmt_elo(est.elo, est.score),
        est.error.map_or("inf".to_string(), |e| format!("{e:.1}")),
        est.los * 100.0,
        penta.counts,
    );
    if let Some(t) = sprt {
        let (lo, hi) = t.bounds();
        s += &format!(
            ", SPRT [{}, {}] {} Elo: {} LLR {llr:.2} ({lo:.2}, {hi:.2})",
            t.elo0,
            t.elo1,
            t.model.as_str(),
            verdict.as_str(),
        );
    }
    s
}

/// Runs `othello stats`: Elo, LOS and the SPRT of given pentanomial counts.
pub fn run_stats(args: &StatsArgs) -> CliResult {
    let sprt = args.test.test()?;
    let (penta, read) = match &args.penta {
        Some(_) if args.plot.is_some() => {
            return Err(input("--plot draws the games of --records, not --penta counts"));
        }
        Some(_) if args.exact_at.is_some() => {
            return Err(input("--exact-at solves the games of --records, not --penta counts"));
        }
        Some(_) if args.mistakes.is_some() => {
            return Err(input("--mistakes solves the games of --records, not --penta counts"));
        }
        Some(_) if args.time_by_empties.is_some() => {
            return Err(input(
                "--time-by-empties reads the games of --records, not --penta counts",
            ));
        }
        Some(_) if !args.against.is_empty() => {
            return Err(input("--against compares the games of --records, not --penta counts"));
        }
        Some(text) => (parse_penta(text)?, None),
        None => {
            let (penta, read) = records_stats(args, sprt)?;
            (penta, Some(read))
        }
    };
    let (mut value, verdict, llr) = summary(&penta, sprt);
    if let Some(read) = &read {
        value["games"] = json!(read.games);
        value["unpaired_games"] = json!(read.unpaired);
        value["distinct_games"] = json!(read.distinct);
        if let Some(exact) = &read.exact {
            value["exact_at"] = exact.json();
        }
        if let Some(mistakes) = &read.mistakes {
            value["mistakes"] = mistakes.json();
        }
        if let Some(time) = &read.time_use {
            value["time_by_empties"] = time.json();
        }
        if let Some(against) = &read.against {
            value["against"] = against.json();
        }
    }
    let est = penta.elo();
    Output::new(args.json).line(
        || {
            let mut s = format!(
                "{} pairs, score {:.3}, {}",
                penta.pairs(),
                est.score,
                stats_text(&penta, sprt, verdict, llr)
            );
            if let Some(read) = &read {
                if let Some(distinct) = read.distinct
                    && distinct < read.games
                {
                    s += &repeats_text(distinct);
                }
                if let Some(exact) = &read.exact {
                    s += "\n";
                    s += &exact.text();
                }
                if let Some(mistakes) = &read.mistakes {
                    s += "\n";
                    s += &mistakes.text((&read.names.0, &read.names.1));
                }
                if let Some(time) = &read.time_use {
                    s += "\n";
                    s += &time.text((&read.names.0, &read.names.1));
                }
                if let Some(against) = &read.against {
                    s += "\n";
                    s += &against.text();
                }
            }
            s
        },
        || value.clone(),
    );
    Ok(())
}

/// The summary's note when some games repeat (deterministic players from the same opening).
fn repeats_text(distinct: u64) -> String {
    format!(", only {distinct} distinct (repeated games are not independent: the interval is too narrow)")
}

/// What `othello stats --records` reads beside the pentanomial counts.
struct RecordsRead {
    /// Games read.
    games: u64,
    /// Games without their pair's other game.
    unpaired: u64,
    /// Distinct games, when every game has its moves.
    distinct: Option<u64>,
    /// The `--exact-at` tally.
    exact: Option<crate::exact_at::ExactAt>,
    /// The `--mistakes` table.
    mistakes: Option<crate::mistakes::Mistakes>,
    /// The `--time-by-empties` table.
    time_use: Option<crate::time_use::TimeUse>,
    /// The `--against` comparison.
    against: Option<crate::paired::Paired>,
    /// Player A's and B's names.
    names: (String, String),
}

/// The pentanomial counts of `stats --records` and what else it reads, with its plot
/// (`--plot`) written.
fn records_stats(args: &StatsArgs, sprt: Option<Sprt>) -> CliResult<(Pentanomial, RecordsRead)> {
    if let Some(e) = args.exact_at {
        crate::exact_at::check_empties("--exact-at", e)?;
    }
    if let Some(e) = args.mistakes {
        crate::exact_at::check_empties("--mistakes", e)?;
    }
    let records = crate::records::Records::read(&args.records)?;
    let mut plot = args
        .plot
        .as_deref()
        .map(|p| crate::picture::PlotFile::new(p, "--plot", records.title(), sprt))
        .transpose()?;
    let (steps, unpaired) = records.steps();
    if unpaired > 0 {
        eprintln!(
            "note: {} without the other game of its pair, not counted",
            crate::output::count(unpaired as usize, "game", "games")
        );
    }
    let penta = steps.last().map_or_else(Pentanomial::default, |s| s.1);
    if let Some(plot) = plot.as_mut() {
        for (games, p) in &steps {
            plot.push(*games, p);
        }
        plot.write().map_err(input)?;
    }
    let threads = args.threads as usize;
    let exact = args
        .exact_at
        .map(|e| crate::exact_at::exact_at(&records, e, threads))
        .transpose()?;
    let mistakes = args
        .mistakes
        .map(|e| crate::mistakes::mistakes(&records, e, threads))
        .transpose()?;
    let time_use = args
        .time_by_empties
        .map(|band| crate::time_use::time_use(&records, band))
        .transpose()?;
    let against = if args.against.is_empty() {
        None
    } else {
        let other = crate::records::Records::read(&args.against)?;
        Some(crate::paired::paired(&records, &other)?)
    };
    Ok((
        penta,
        RecordsRead {
            games: records.games(),
            unpaired,
            distinct: records.distinct(),
            exact,
            mistakes,
            time_use,
            against,
            names: records.names(),
        },
    ))
}

/// The largest SPRT bound in Elo: an expected score of 0.3% or 99.7% (logistic). Beyond it the
/// test's probabilities round to 0 or 1 and its LLR is not a number.
const MAX_SPRT_ELO: f64 = 1000.0;

fn parse_sprt(text: &str) -> CliResult<(f64, f64)> {
    let bad = || {
        input(format!(
            "bad --sprt '{text}': expected ELO0,ELO1 with -{MAX_SPRT_ELO} <= ELO0 < ELO1 <= {MAX_SPRT_ELO}, e.g. 0,10"
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    let range = -MAX_SPRT_ELO..=MAX_SPRT_ELO;
    if !(range.contains(&a) && range.contains(&b) && a < b) {
        return Err(bad());
    }
    Ok((a, b))
}

fn sprt_test(args: &SprtArgs, elo0: f64, elo1: f64) -> CliResult<Sprt> {
    let model = match args.sprt_model.as_str() {
        "logistic" => EloModel::Logistic,
        "normalized" => EloModel::Normalized,
        other => {
            return Err(input(format!(
                "bad --sprt-model '{other}': expected logistic or normalized"
            )));
        }
    };
    for (name, p) in [("--sprt-alpha", args.sprt_alpha), ("--sprt-beta", args.sprt_beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(input(format!(
                "bad {name} {p}: expected a probability between 0 and 0.5"
            )));
        }
    }
    Ok(Sprt {
        alpha: args.sprt_alpha,
        beta: args.sprt_beta,
        model,
        ..Sprt::new(elo0, elo1)
    })
}

fn open_append(path: &str) -> CliResult<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| input(format!("cannot open {path}: {e}")))
}

fn fmt_elo(x: Option<f64>, score: f64) -> String {
    match x {
        Some(v) => format!("{v:+.1}"),
        None if score >= 0.5 => "+inf".to_string(),
        None => "-inf".to_string(),
    }
}

/// The memory one side's in-process engine takes in each game slot (external engines take none
/// of this process's memory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SideMemory {
    /// The tables one instance allocates, in MiB each: the search's (`tt`) and the endgame
    /// solver's (the search hands it the root at `endgame` empties; same size, at least 1).
    tables: Vec<usize>,
    /// Weights loaded by each instance (a `weights=FILE`), in MiB; 0 when none.
    own_weights_mib: usize,
    /// Whether it evaluates with the embedded weights (one copy, shared by every instance).
    shared_weights: bool,
}

/// The memory the side of `text` takes (none for an external engine or a spec without tables;
/// a human's is its hint engine's).
fn side_memory(source: &PlayerSource) -> CliResult<SideMemory> {
    let (PlayerSource::Builtin(text) | PlayerSource::Human { hint: text, .. }) = source else {
        return Ok(SideMemory::default());
    };
    let weights_file = text.parse::<othello_spec::Spec>()?.raw("weights");
    let othello_spec::Engine::Search { searcher, .. } = othello_spec::Engine::from_spec(text.parse()?)?.without_book()
    else {
        return Ok(SideMemory::default());
    };
    let config = searcher.config();
    let mut tables = Vec::new();
    if config.algorithm.prunes() {
        if config.tt_mib > 0 {
            tables.push(config.tt_mib);
        }
        if config.endgame_empties > 0 {
            tables.push(config.tt_mib.max(1));
        }
    }
    let pattern = matches!(
        searcher.evaluator(),
        othello_spec::SpecEval::Pattern(..) | othello_spec::SpecEval::Auto(..)
    );
    let own_weights_mib = match (&weights_file, pattern) {
        (Some(path), true) => othello_pattern::Weights::from_path(path)
            .map(|w| weights_mib(w.values().len()))
            .map_err(|e| input(format!("cannot read the weights {path}: {e}")))?,
        _ => 0,
    };
    Ok(SideMemory {
        tables,
        own_weights_mib,
        shared_weights: pattern && weights_file.is_none(),
    })
}

/// MiB (rounded up) of `values` weights held as 16-bit integers.
fn weights_mib(values: usize) -> usize {
    (values * 2).div_ceil(1 << 20)
}

/// The table of the solver each worker adjudicates with (`--adjudicate`), in MiB.
const ADJUDICATION_TT_MIB: usize = 16;

/// The memory the whole process takes for its engines' tables and weights with `concurrency`
/// game slots: every table of every slot, the weights each slot loads, the shared embedded
/// weights once (`shared_weights_mib`) and each slot's adjudication table (`adjudicate`).
/// Returns the total in MiB and what it is made of (`2 x 2 x 4096 MiB (A's tables) + ...`).
fn memory_total(
    sides: &[SideMemory; 2],
    concurrency: usize,
    adjudicate: bool,
    shared_weights_mib: usize,
) -> (usize, String) {
    let mut total = 0usize;
    let mut parts = Vec::new();
    for (side, name) in sides.iter().zip(["A", "B"]) {
        let per: usize = side.tables.iter().fold(0, |a, &t| a.saturating_add(t));
        if per > 0 {
            total = total.saturating_add(per.saturating_mul(concurrency));
            let sizes = match side.tables.as_slice() {
                [one] => format!("{one} MiB"),
                [first, rest @ ..] if rest.iter().all(|t| t == first) => {
                    format!("{} x {first} MiB", side.tables.len())
                }
                all => format!(
                    "({}) MiB",
                    all.iter().map(usize::to_string).collect::<Vec<_>>().join(" + ")
                ),
            };
            parts.push(format!("{concurrency} x {sizes} ({name}'s tables)"));
        }
        if side.own_weights_mib > 0 {
            total = total.saturating_add(side.own_weights_mib.saturating_mul(concurrency));
            parts.push(format!(
                "{concurrency} x {} MiB ({name}'s weights)",
                side.own_weights_mib
            ));
        }
    }
    if sides.iter().any(|s| s.shared_weights) && shared_weights_mib > 0 {
        total = total.saturating_add(shared_weights_mib);
        parts.push(format!("{shared_weights_mib} MiB (the embedded weights, shared)"));
    }
    if adjudicate {
        total = total.saturating_add(ADJUDICATION_TT_MIB * concurrency);
        parts.push(format!(
            "{concurrency} x {ADJUDICATION_TT_MIB} MiB (adjudication tables)"
        ));
    }
    let made_of = if parts.is_empty() {
        "0 MiB".to_string()
    } else {
        parts.join(" + ")
    };
    (total, made_of)
}

/// Refuses a match whose engines' tables and weights, over all its game slots, do not fit in
/// `available` MiB (`None`: unknown, then not checked). `concurrency` is the `--concurrency`
/// asked for and the slots the runner fills (fewer when there are fewer pairs).
fn check_memory(
    sides: &[SideMemory; 2],
    (asked, slots): (usize, usize),
    adjudicate: bool,
    shared_weights_mib: usize,
    available: Option<usize>,
) -> CliResult {
    let (total, made_of) = memory_total(sides, slots, adjudicate, shared_weights_mib);
    match available {
        Some(avail) if total > avail => Err(input(format!(
            "bad --concurrency {asked}: the engines need {made_of} = {total} MiB, more than the memory available ({avail} MiB)"
        ))),
        _ => Ok(()),
    }
}

/// The interrupt of a run: `flag` is set by SIGINT and SIGTERM, `code` holds the exit code
/// of the last of them, 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell
/// reports a process the signal ended.
struct Interrupt {
    flag: Arc<AtomicBool>,
    code: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Watches SIGINT and SIGTERM (on Unix; elsewhere never set). A second signal ends the
    /// process at once, with the same code.
    fn watch() -> CliResult<Interrupt> {
        let it = Interrupt {
            flag: Arc::new(AtomicBool::new(false)),
            code: Arc::new(AtomicUsize::new(0)),
        };
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            use signal_hook::flag;
            for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
                // In this order: the shutdown sees the flag of an earlier signal only.
                flag::register_conditional_shutdown(signal, code, Arc::clone(&it.flag))
                    .and_then(|_| flag::register_usize(signal, Arc::clone(&it.code), code as usize))
                    .and_then(|_| flag::register(signal, Arc::clone(&it.flag)))
                    .map_err(|e| input(format!("cannot watch signal {signal}: {e}")))?;
            }
        }
        Ok(it)
    }

    /// The exit code and the signal's name, once a signal came.
    fn received(&self) -> Option<(i32, &'static str)> {
        if !self.flag.load(Ordering::SeqCst) {
            return None;
        }
        Some(match self.code.load(Ordering::SeqCst) {
            143 => (143, "SIGTERM"),
            _ => (130, "SIGINT"),
        })
    }
}

/// Runs `othello play`.
pub fn run(args: &PlayArgs) -> CliResult {
    let pair_range = args.pairs.as_deref().map(parse_pairs).transpose()?;
    let human = crate::arena::human::side(
        [&args.engine_a, &args.engine_b],
        args.colour.as_deref(),
        args.hint.is_some(),
        args.concurrency,
        pair_range.is_some(),
    )?;
    let arg_games = args.games.unwrap_or(if human.is_some() { 1 } else { 10 });
    if human.is_some() && arg_games < 1 {
        return Err(input(format!("bad --games {arg_games}: expected at least 1")));
    }
    if human.is_none() && pair_range.is_none() && (arg_games < 2 || arg_games % 2 != 0) {
        return Err(input(format!(
            "bad --games {arg_games}: expected an even number of at least 2"
        )));
    }
    if !(1..=256).contains(&args.concurrency) {
        return Err(input(format!(
            "bad --concurrency {}: expected 1 to 256",
            args.concurrency
        )));
    }
    if !(args.hang_timeout.is_finite() && args.hang_timeout > 0.0 && args.hang_timeout <= 1e6) {
        return Err(input(format!(
            "bad --hang-timeout {}: expected seconds above 0",
            args.hang_timeout
        )));
    }
    let size = match args.size {
        None => BoardSize::Eight,
        Some(s) => BoardSize::from_side(s).ok_or_else(|| input(format!("bad --size {s}: expected 4, 6 or 8")))?,
    };
    if let Some(n) = args.adjudicate
        && n > size.squares()
    {
        return Err(input(format!(
            "bad --adjudicate {n}: at most {} empties",
            size.squares()
        )));
    }
    let sprt = args.test.test()?;
    let time = match (&args.tc, &args.st) {
        (Some(tc), _) => TimeControl::parse_tc(tc)?,
        (None, Some(st)) => TimeControl::parse_st(st)?,
        (None, None) => TimeControl::None,
    };
    let mut follow = match (args.follow, time) {
        (true, TimeControl::None) => return Err(input("--follow needs --st or --tc")),
        (true, time) => Follow::new(time),
        (false, _) => None,
    };
    let engines = args.engines.as_deref().map(read_engines).transpose()?;
    let sources = match human {
        Some(h) => crate::arena::human::sources(
            [&args.engine_a, &args.engine_b],
            h,
            args.hint.as_deref(),
            engines.as_deref(),
            size,
        )?,
        None => [
            PlayerSource::parse(&args.engine_a, engines.as_deref(), size)?,
            PlayerSource::parse(&args.engine_b, engines.as_deref(), size)?,
        ],
    };
    let sides = [side_memory(&sources[0])?, side_memory(&sources[1])?];
    let shared_weights_mib = if sides.iter().any(|s| s.shared_weights) {
        othello_pattern::Weights::from_bytes(othello_pattern::DEFAULT_WEIGHTS)
            .map_or(0, |w| weights_mib(w.values().len()))
    } else {
        0
    };
    let mut openings: Vec<Opening> = match &args.openings {
        Some(path) => openings::read_file(path, size)?,
        // A human starts from the standard start.
        None if human.is_some() => vec![Opening {
            root: othello_rules::Position::start_of(size),
            moves: Vec::new(),
        }],
        None => openings::builtin(size),
    };
    if let Some(seed) = args.seed {
        openings::shuffle(&mut openings, seed);
    }
    let title = format!("{} vs {}", args.engine_a, args.engine_b);
    let mut plot = args
        .plot
        .as_deref()
        .map(|p| crate::picture::PlotFile::new(p, "--plot", title, sprt))
        .transpose()?;
    let mut ggf_file = args.ggf.as_deref().map(open_append).transpose()?;
    let mut jsonl_file = args.jsonl.as_deref().map(open_append).transpose()?;
    let settings = Settings {
        time,
        margin: Duration::from_millis(args.margin),
        overhead: Duration::from_millis(args.overhead),
        hang_timeout: Duration::from_secs_f64(args.hang_timeout),
        adjudicate: args.adjudicate,
        interrupt: None,
        follow: follow.as_ref().map(|f| Arc::clone(&f.shared)),
    };
    let (first_pair, games) = match pair_range {
        Some((a, b)) => (a, 2 * (b - a)),
        None => (0, arg_games as u64),
    };
    // The slots the runner fills: one per pair at most.
    let slots = (args.concurrency as u64).min(games / 2).max(1) as usize;
    check_memory(
        &sides,
        (args.concurrency as usize, slots),
        args.adjudicate.is_some(),
        shared_weights_mib,
        othello_spec::resources::available_mib(),
    )?;
    let interrupt = Interrupt::watch()?;
    let settings = Settings {
        interrupt: Some(Arc::clone(&interrupt.flag)),
        ..settings
    };
    let out = Output::new(args.json);
    // No progress bar under a human's conversation.
    let bar = progress(games, "games", args.quiet || human.is_some());
    // An external engine without a depth or a clock plays to its own limits, which may be long:
    // say so, so that a slow first game does not look like a hang.
    let own: Vec<&str> = sources.iter().filter_map(|s| s.on_own_limits(&time)).collect();
    if !own.is_empty() {
        let waiting: Vec<String> = own.iter().map(|n| format!("ext:{n}")).collect();
        let waiting = format!("waiting for {} (its own default limits)", waiting.join(" and "));
        if !args.quiet {
            eprintln!(
                "note: {waiting}: no depth in its spec and no clock (--tc, --st), so it gets no \
                 `set depth`; a move loses after --hang-timeout {} s",
                args.hang_timeout
            );
        }
        bar.set_message(waiting);
    }
    // The plot before the first game (no pair yet), so that a watcher sees it from the start.
    if let Some(Err(e)) = plot.as_ref().map(crate::picture::PlotFile::write) {
        return Err(input(e));
    }
    let mut tally = Tally::default();
    let mut penta = Pentanomial::default();
    let mut pending: HashMap<u64, u8> = HashMap::new();
    let mut verdict = Verdict::Continue;
    let mut llr = 0.0;
    let mut write_error: Option<String> = None;
    let started = Instant::now();
    let (mut flags, mut forfeits) = (0u64, 0u64);
    let mut time_totals = TimeTotals::default();
    // Games played more than once (the same opening, colours and moves: deterministic players
    // meet again) are not independent, which the pentanomial interval assumes.
    let mut distinct = HashSet::new();
    crate::arena::run(
        &sources,
        &openings,
        match human {
            Some(_) => crate::arena::Schedule::Human { games },
            None => crate::arena::Schedule::Pairs(first_pair..first_pair + games / 2),
        },
        args.concurrency as usize,
        &settings,
        |rec: GameRecord| {
            let half = rec.a_half_points();
            tally.add(half);
            let pair = (rec.number - 1) / 2;
            if let Some(first) = pending.remove(&pair) {
                penta.add_pair(first, half);
                if let Some(test) = sprt {
                    llr = test.llr(&penta);
                    verdict = test.verdict(llr);
                }
                if let Some(p) = plot.as_mut() {
                    p.push(tally.games(), &penta);
                    if let Err(e) = p.write() {
                        write_error.get_or_insert(e);
                    }
                }
            } else {
                pending.insert(pair, half);
            }
            time_totals.add(&rec);
            if let Some(f) = follow.as_mut() {
                f.add(&rec);
            }
            distinct.insert((
                rec.opening.position(),
                rec.a_color,
                rec.moves.iter().map(|p| p.mv).collect::<Vec<_>>(),
            ));
            let (ending, reason) = rec.ending_text();
            match ending {
                "time" => flags += 1,
                "forfeit" => forfeits += 1,
                _ => {}
            }
            let mut line = rec.json();
            if let Some(f) = ggf_file.as_mut()
                && let Err(e) = writeln!(f, "{}", rec.ggf())
            {
                write_error.get_or_insert(format!("cannot write the GGF file: {e}"));
            }
            if let Some(f) = jsonl_file.as_mut()
                && let Err(e) = writeln!(f, "{line}")
            {
                write_error.get_or_insert(format!("cannot write the JSON Lines file: {e}"));
            }
            if sprt.is_some() {
                line["llr"] = json!(llr);
            }
            bar.inc(1);
            bar.set_message(match sprt {
                Some(t) => {
                    let (lo, hi) = t.bounds();
                    format!(
                        "+{} ={} -{} LLR {llr:.2} ({lo:.2}, {hi:.2})",
                        tally.wins, tally.draws, tally.losses
                    )
                }
                None => format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
            });
            bar.suspend(|| {
                out.line(
                    || {
                        let (a, b) = (&line["a_discs"], &line["b_discs"]);
                        let mut s = format!(
                            "game {:>4} opening {:<12} A {:<5} {:<4} {a:>2}-{b:<2}",
                            rec.number,
                            rec.opening.label(),
                            rec.a_color.to_string(),
                            rec.a_result()
                        );
                        if let Some(r) = &reason {
                            s += &format!(" ({r})");
                        }
                        let book = (rec.book_moves(true), rec.book_moves(false));
                        if book != (0, 0) {
                            s += &format!(" book A {} B {}", book.0, book.1);
                        }
                        if let Some(t) = sprt {
                            let (lo, hi) = t.bounds();
                            s += &format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})");
                        }
                        s
                    },
                    || line.clone(),
                )
            });
            verdict != Verdict::Continue
        },
    )?;
    bar.finish_and_clear();
    for (f, what) in [(ggf_file.as_mut(), "GGF"), (jsonl_file.as_mut(), "JSON Lines")] {
        if let Some(f) = f
            && let Err(e) = f.flush()
        {
            write_error.get_or_insert(format!("cannot write the {what} file: {e}"));
        }
    }
    if let Some(e) = write_error {
        return Err(input(e));
    }
    let interrupted = interrupt.received();
    let elapsed = started.elapsed().as_secs_f64();
    let (stats, _, _) = summary(&penta, sprt);
    // The means over the games of each player's share of its time (see `Clock::time_use`).
    let time_used = time_totals.mean(|u| Some(u.share));
    let time_searched = time_totals.mean(|u| u.searched);
    let time_left = time_totals.mean(|u| u.left.map(|d| d.as_secs_f64()));
    let least_left = time_totals.least_left();
    out.line(
        || {
            let mut s = format!(
                "A vs B: +{} ={} -{} of {}, score {:.3}, {}",
                tally.wins,
                tally.draws,
                tally.losses,
                crate::output::count(tally.games() as usize, "game", "games"),
                tally.score(),
                stats_text(&penta, sprt, verdict, llr)
            );
            if flags + forfeits > 0 {
                s += &format!(", {flags} lost on time, {forfeits} forfeited");
            }
            if (distinct.len() as u64) < tally.games() {
                s += &repeats_text(distinct.len() as u64);
            }
            if let Some([a, b]) = time_used {
                s += &format!(", time used A {:.1}% B {:.1}%", a * 100.0, b * 100.0);
            }
            if let Some([a, b]) = time_searched {
                s += &format!(" (searched moves A {:.1}% B {:.1}%)", a * 100.0, b * 100.0);
            }
            if let (Some([a, b]), Some([la, lb])) = (time_left, least_left) {
                s += &format!(
                    ", time left at the end A {a:.2} s B {b:.2} s (least after a move A {la:.2} s B {lb:.2} s)"
                );
            }
            match &follow {
                Some(f) if f.increment.is_none() => {
                    s += &format!(
                        ", A's time per move followed B's: {:.1} ms a move A, {:.1} ms B, A's last --st {:.4} s",
                        f.mean_ms(0),
                        f.mean_ms(1),
                        f.current().as_secs_f64()
                    )
                }
                Some(f) => {
                    s += &format!(
                        ", A's clock followed B's time: {:.3} s a game A, {:.3} s B ({:.1} ms a move A, {:.1} ms B), A's last base time {:.3} s",
                        f.mean_game_s(0),
                        f.mean_game_s(1),
                        f.mean_ms(0),
                        f.mean_ms(1),
                        f.current().as_secs_f64()
                    )
                }
                None => {}
            }
            if let Some((_, signal)) = interrupted {
                s += &format!(", interrupted by {signal}");
            }
            s
        },
        || {
            let per_move = follow.as_ref().filter(|f| f.increment.is_none());
            let per_game = follow.as_ref().filter(|f| f.increment.is_some());
            let mut v = json!({"games": tally.games(), "wins": tally.wins, "draws": tally.draws,
                "losses": tally.losses, "score": tally.score(),
                "time_control": settings.time.describe(), "concurrency": args.concurrency,
                "flags": flags, "forfeits": forfeits, "seconds": elapsed, "distinct_games": distinct.len(),
                "a_time_used": time_used.map(|t| t[0]), "b_time_used": time_used.map(|t| t[1]),
                "a_time_searched": time_searched.map(|t| t[0]),
                "b_time_searched": time_searched.map(|t| t[1]),
                "a_time_left": time_left.map(|t| t[0]), "b_time_left": time_left.map(|t| t[1]),
                "a_least_left": least_left.map(|t| t[0]), "b_least_left": least_left.map(|t| t[1]),
                "games_per_second": tally.games() as f64 / elapsed.max(1e-9),
                "pair_range": pair_range.map(|(a, b)| [a, b]),
                "interrupted": interrupted.map(|(_, signal)| signal),
                "a_last_move_time": per_move.map(|f| f.current().as_secs_f64()),
                "a_last_base_time": per_game.map(|f| f.current().as_secs_f64()),
                "a_s_per_game": per_game.map(|f| f.mean_game_s(0)),
                "b_s_per_game": per_game.map(|f| f.mean_game_s(1)),
                "a_ms_per_move": follow.as_ref().map(|f| f.mean_ms(0)),
                "b_ms_per_move": follow.as_ref().map(|f| f.mean_ms(1))});
            for (k, x) in stats.as_object().into_iter().flatten() {
                if k != "score" {
                    v[k] = x.clone();
                }
            }
            v
        },
    );
    if let Some((code, _)) = interrupted {
        // The summary and the records are out; the shell's code for the signal.
        let _ = std::io::stdout().flush();
        std::process::exit(code);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sprt_takes_its_rates_and_model_from_the_options() {
        let args = SprtArgs {
            sprt: Some("0,10".into()),
            sprt_model: "normalized".into(),
            sprt_alpha: 0.1,
            sprt_beta: 0.2,
        };
        let t = args.test().unwrap().unwrap();
        assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (0.0, 10.0, 0.1, 0.2));
        assert_eq!(t.model, EloModel::Normalized);
        let plain = SprtArgs {
            sprt_model: "logistic".into(),
            sprt_alpha: 0.05,
            sprt_beta: 0.05,
            ..args
        };
        let t = plain.test().unwrap().unwrap();
        assert_eq!((t.alpha, t.beta, t.model), (0.05, 0.05, EloModel::Logistic));
    }

    #[test]
    fn follow_step_meets_b_s_mean_within_its_step() {
        let ms = Duration::from_millis;
        let follow_step = |c, u, m, g| follow_step(c, u, m, g, FOLLOW_REPAY_MOVES);
        // B 40 ms a move; A 45 ms, 90% of 50 ms, over 20 moves: A owes 100 ms, so the aim is
        // 40 - 100 / 240 ms, over the share 0.9.
        let next = follow_step(ms(45), [ms(900), ms(800)], [20, 20], ms(1000));
        assert!(
            (next.as_secs_f64() - (0.04 - 0.1 / 240.0) / 0.9).abs() < 1e-9,
            "{next:?}"
        );
        // Equal means: B's mean over A's share, 40 / 0.8.
        let next = follow_step(ms(45), [ms(800), ms(800)], [20, 20], ms(1000));
        assert!((next.as_secs_f64() - 0.05).abs() < 1e-9, "{next:?}");
        // B's moves counted apart from A's: 10 moves of B at 55 ms, A 50 ms at a share 1 over
        // 20 moves: A is owed 20 * 5 ms, so 55 + 100 / 240 ms.
        let next = follow_step(ms(50), [ms(1000), ms(550)], [20, 10], ms(1000));
        assert!((next.as_secs_f64() - (0.055 + 0.1 / 240.0)).abs() < 1e-9, "{next:?}");
        // A debt larger than one repayment: A at 60 ms, B at 40 ms, over 480 moves, share 1:
        // A owes 9.6 s, the aim is 40 - 40 = 0 ms: held at the step.
        let next = follow_step(ms(60), [ms(28_800), ms(19_200)], [480, 480], ms(28_800));
        assert_eq!(next, ms(48));
        // A little ahead after many moves: 41 against 40 ms over 2 400 moves, share 0.8:
        // owes 2.4 s, aim 40 - 10 = 30 ms, 37.5 ms (within the step of 45).
        let next = follow_step(ms(45), [ms(98_400), ms(96_000)], [2_400, 2_400], ms(123_000));
        assert!((next.as_secs_f64() - 0.0375).abs() < 1e-9, "{next:?}");
        // At most 1.25 times more or less a game, at least 1 ms.
        assert_eq!(
            follow_step(ms(50), [ms(100), ms(4000)], [20, 20], ms(1000)),
            ms(62) + Duration::from_micros(500)
        );
        assert_eq!(follow_step(ms(50), [ms(1000), ms(10)], [20, 20], ms(1000)), ms(40));
        assert_eq!(follow_step(ms(1), [ms(1000), ms(1)], [20, 20], ms(1000)), ms(1));
        // Unchanged without both sides' moves or without A's time.
        assert_eq!(follow_step(ms(50), [ms(900), ms(800)], [0, 20], ms(1000)), ms(50));
        assert_eq!(follow_step(ms(50), [ms(900), ms(800)], [20, 0], ms(1000)), ms(50));
        assert_eq!(
            follow_step(ms(50), [Duration::ZERO, ms(800)], [20, 20], ms(1000)),
            ms(50)
        );
        assert_eq!(
            follow_step(ms(50), [ms(900), ms(800)], [20, 20], Duration::ZERO),
            ms(50)
        );
    }

    /// A move of a test record: `mv` by `color` in `ms` milliseconds.
    fn played(color: othello_rules::Color, mv: &str, ms: u64) -> crate::arena::record::Played {
        crate::arena::record::Played {
            color,
            mv: mv.parse().unwrap(),
            time: Duration::from_millis(ms),
            eval: None,
            depth: None,
            nodes: None,
            limit: None,
            book: false,
        }
    }

    /// A test record from the start: A's colour, the moves, A's own time per move or base time.
    fn record(
        a_color: othello_rules::Color,
        moves: Vec<crate::arena::record::Played>,
        a_move_time: Option<Duration>,
        a_base_time: Option<Duration>,
    ) -> GameRecord {
        GameRecord {
            number: 1,
            opening: crate::arena::openings::Opening {
                root: othello_rules::Position::start(),
                moves: Vec::new(),
            },
            a_color,
            black: "black".into(),
            white: "white".into(),
            moves,
            black_margin: 0,
            ending: crate::arena::record::Ending::Scored,
            time_control: None,
            time_use: [None; 2],
            a_move_time,
            a_base_time,
        }
    }

    #[test]
    fn follow_counts_each_side_s_moves_and_not_the_runner_s_passes() {
        use othello_rules::Color;
        let ms = Duration::from_millis;
        let rec = |a_color: Color, a_move_time: Option<Duration>| {
            let moves = vec![
                played(Color::Black, "f5", 30),
                played(Color::White, "d6", 80),
                played(Color::Black, "pass", 0),
                played(Color::White, "c3", 40),
            ];
            record(a_color, moves, a_move_time, None)
        };
        let mut f = Follow::new(TimeControl::PerMove(ms(50))).unwrap();
        // A (white) played d6 and c3 in 120 ms of 2 x 50; B (black) f5 in 30 ms.
        f.add(&rec(Color::White, Some(ms(50))));
        assert_eq!((f.used, f.moves, f.given), ([ms(120), ms(30)], [2, 1], ms(100)));
        assert_eq!((f.mean_ms(0), f.mean_ms(1)), (60.0, 30.0));
        assert_eq!(f.current(), ms(40)); // 30 / 1.2 * 30 / 60 = 12.5, but at most 1.25 times less
        // A game without A's own time (not under --follow) changes nothing.
        f.add(&rec(Color::Black, None));
        assert_eq!((f.used, f.moves), ([ms(120), ms(30)], [2, 1]));
        // A black, given 40 ms: f5 in 30; B (white) 120 ms in 2 moves.
        f.add(&rec(Color::Black, Some(ms(40))));
        assert_eq!((f.used, f.moves, f.given), ([ms(150), ms(150)], [3, 3], ms(140)));
        // B 50 ms a move, A's share 150 / 140: 46.67 ms, within 1.25 of 40.
        assert!(
            (f.current().as_secs_f64() - 0.05 * 140.0 / 150.0).abs() < 2e-6,
            "{:?}",
            f.current()
        );
        assert!(Follow::new(TimeControl::None).is_none());
    }

    #[test]
    fn follow_under_a_clock_moves_a_s_base_time_a_game_at_a_time() {
        use othello_rules::Color;
        let ms = Duration::from_millis;
        // A (white) d6 and c3 in 900 ms; B (black) f5 and c4 in 1400 ms; a forced pass between.
        let rec = |a_move_time: Option<Duration>, a_base_time: Option<Duration>| {
            let moves = vec![
                played(Color::Black, "f5", 600),
                played(Color::White, "d6", 500),
                played(Color::Black, "pass", 0),
                played(Color::White, "c3", 400),
                played(Color::Black, "c4", 800),
            ];
            record(Color::White, moves, a_move_time, a_base_time)
        };
        let clock = TimeControl::Clock {
            base: ms(1000),
            increment: ms(50),
        };
        let mut f = Follow::new(clock).unwrap();
        assert_eq!((f.current(), f.increment), (ms(1000), Some(ms(50))));
        // A game without A's own base time (a per-move record) changes nothing.
        f.add(&rec(Some(ms(1000)), None));
        assert_eq!((f.games, f.moves, f.current()), (0, [0; 2], ms(1000)));
        f.add(&rec(None, Some(ms(1000))));
        // Given 1000 + 2 x 50 ms, A used 900: share 9/11. B's 1400 ms a game and A's owed
        // 500 / 9: the aim (1400 + 500 / 9) / (9 / 11) = 1778.4 ms a game is past 1.25 times
        // A's 1100, so 1375 ms, of which 100 ms are increments: a base of 1275 ms.
        assert_eq!(
            (f.used, f.moves, f.games, f.given),
            ([ms(900), ms(1400)], [2, 2], 1, ms(1100))
        );
        assert_eq!(f.current(), ms(1275));
        assert_eq!((f.mean_game_s(0), f.mean_game_s(1)), (0.9, 1.4));
        // A second game at 1275 ms where A used 1300 ms (700 + 600): given 2475 in all, used
        // 2200 (share 8/9). B's mean 1400, owed 600 / 9: (1400 + 600 / 9) / (8 / 9) = 1650 ms
        // a game (within 1.25 times 1375), less the 100 ms of increments: 1550 ms.
        let mut second = rec(None, Some(ms(1275)));
        second.moves[1].time = ms(700);
        second.moves[3].time = ms(600);
        f.add(&second);
        assert_eq!((f.mean_game_s(0), f.mean_game_s(1)), (1.1, 1.4));
        let want = 1.55;
        assert!(
            (f.current().as_secs_f64() - want).abs() < 2e-6,
            "{:?} {want}",
            f.current()
        );
        // Without an increment, B's time per game over A's share, within the step.
        let mut f = Follow::new(TimeControl::Clock {
            base: ms(1000),
            increment: Duration::ZERO,
        })
        .unwrap();
        let mut r = rec(None, Some(ms(1000)));
        for m in &mut r.moves {
            m.time = ms(if m.color == Color::White { 450 } else { 480 });
        }
        f.add(&r);
        // B 960 a game, A 900 of 1000: (960 + 60 / 9) / 0.9 ms.
        let want = (0.96 + 0.06 / 9.0) / 0.9;
        assert!(
            (f.current().as_secs_f64() - want).abs() < 2e-6,
            "{:?} {want}",
            f.current()
        );
    }

    fn side(spec: &str) -> SideMemory {
        side_memory(&PlayerSource::Builtin(spec.to_string())).unwrap()
    }

    fn tables(tables: &[usize]) -> SideMemory {
        SideMemory {
            tables: tables.to_vec(),
            ..SideMemory::default()
        }
    }

    #[test]
    fn each_searcher_counts_its_search_and_endgame_tables() {
        let both = side("pvs:depth=2,tt=64");
        assert_eq!(both.tables, vec![64, 64]);
        assert!(both.shared_weights, "the default evaluation is the embedded patterns");
        assert_eq!(both.own_weights_mib, 0);
        assert_eq!(side("ab:tt=8,endgame=0").tables, vec![8]);
        // Without a search table the solver still takes its 1 MiB one.
        assert_eq!(side("pvs:tt=0").tables, vec![1]);
        assert_eq!(side("pvs:tt=0,endgame=0").tables, Vec::<usize>::new());
        // Searches that do not prune use no table.
        assert_eq!(side("minimax:depth=2,tt=64").tables, Vec::<usize>::new());
        assert!(!side("pvs:eval=mobility").shared_weights);
        assert_eq!(side("random"), SideMemory::default());
        assert_eq!(side("mcts:playouts=10"), SideMemory::default());
        // A human's side holds its hint engine.
        let human = PlayerSource::Human {
            name: "human".into(),
            colour: othello_rules::Color::Black,
            hint: "pvs:tt=32".into(),
        };
        assert_eq!(side_memory(&human).unwrap().tables, vec![32, 32]);
    }

    #[test]
    fn the_total_counts_every_table_of_every_slot() {
        let external = SideMemory::default();
        let (total, made_of) = memory_total(&[tables(&[4096, 4096]), external.clone()], 8, false, 5);
        assert_eq!(total, 8 * 2 * 4096);
        assert_eq!(made_of, "8 x 2 x 4096 MiB (A's tables)");
        let a = SideMemory {
            shared_weights: true,
            ..tables(&[64, 64])
        };
        let b = SideMemory {
            own_weights_mib: 3,
            ..tables(&[16])
        };
        let (total, made_of) = memory_total(&[a.clone(), b.clone()], 3, true, 5);
        assert_eq!(total, 3 * 128 + 3 * 16 + 3 * 3 + 5 + 3 * ADJUDICATION_TT_MIB);
        assert_eq!(
            made_of,
            "3 x 2 x 64 MiB (A's tables) + 3 x 16 MiB (B's tables) + 3 x 3 MiB (B's weights) \
             + 5 MiB (the embedded weights, shared) + 3 x 16 MiB (adjudication tables)"
        );
        // The embedded weights count once, whatever the slots; unequal tables are listed.
        assert_eq!(memory_total(&[a.clone(), a.clone()], 1, false, 5).0, 2 * 128 + 5);
        assert_eq!(
            memory_total(&[a, SideMemory::default()], 1, false, 0),
            (128, "1 x 2 x 64 MiB (A's tables)".to_string())
        );
        let (total, made_of) = memory_total(&[tables(&[8, 1]), external.clone()], 2, false, 0);
        assert_eq!((total, made_of.as_str()), (18, "2 x (8 + 1) MiB (A's tables)"));
        assert_eq!(
            memory_total(&[external.clone(), external], 4, false, 5),
            (0, "0 MiB".to_string())
        );
        assert_eq!(memory_total(&[tables(&[usize::MAX, 1]), b], 256, true, 5).0, usize::MAX);
    }

    #[test]
    fn a_total_over_the_memory_available_is_refused() {
        let sides = [tables(&[4096, 4096]), tables(&[100])];
        let total = 2 * 8192 + 2 * 100;
        assert!(check_memory(&sides, (2, 2), false, 0, Some(total)).is_ok());
        assert!(check_memory(&sides, (2, 2), false, 0, None).is_ok());
        let e = check_memory(&sides, (2, 2), false, 0, Some(total - 1)).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert_eq!(
            e.to_string(),
            format!(
                "bad --concurrency 2: the engines need 2 x 2 x 4096 MiB (A's tables) + 2 x 100 MiB \
                 (B's tables) = {total} MiB, more than the memory available ({} MiB)",
                total - 1
            )
        );
        // Fewer pairs than --concurrency: only the slots filled count.
        assert!(check_memory(&sides, (8, 1), false, 0, Some(8292)).is_ok());
        let e = check_memory(&sides, (8, 2), false, 0, Some(8292)).unwrap_err();
        assert!(
            e.to_string().starts_with("bad --concurrency 8: the engines need 2 x "),
            "{e}"
        );
    }
}
