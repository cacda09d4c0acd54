//! `othello book`: build an opening book from the engine's own searches, show a position's
//! book moves, merge books, print a book's figures, and the three steps of a build run apart
//! (`plan`, `search`, `add`) for a distributed build.

use crate::error::{CliResult, input};
use crate::input::read_source;
use crate::output::Output;
use crate::search_cmd::discs;
use othello_book::{Book, BuildConfig, BuildEvent, plan, searched_values};
use othello_engine::Player;
use othello_rules::{BoardSize, Move, Position};
use othello_spec::Engine;
use serde_json::json;
use std::time::Instant;

/// Options of `othello book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The subcommands of `othello book`.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book (or extend one) from searched leaves, propagating values by negamax.
    #[command(allow_negative_numbers = true)]
    Build(BuildArgs),
    /// Print a position's book moves with their values.
    #[command(allow_negative_numbers = true)]
    Show(ShowArgs),
    /// Merge two books into a third.
    Merge(MergeArgs),
    /// Print a book's figures: entries, moves, the value of the start.
    Stats(StatsArgs),
    /// Print the positions a build would search next (one per line), for a distributed build.
    #[command(allow_negative_numbers = true)]
    Plan(PlanArgs),
    /// Search positions (one per line) and print every move's value, as JSON Lines for `book add`.
    Search(SearchArgs),
    /// Add searched positions (the JSON Lines of `book search`) to a book and propagate.
    Add(AddArgs),
    /// Search again, with a deeper engine, the leaves that the lines near the best reach.
    #[command(allow_negative_numbers = true)]
    Deepen(DeepenArgs),
}

/// The walk's settings, shared by `build` and `plan`.
#[derive(clap::Args, Debug)]
pub struct WalkArgs {
    /// The root, "BOARD X"; the start if omitted.
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// The most moves from the root to a position of the book.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// The most entries the book may hold.
    #[arg(long, default_value_t = 10_000)]
    max_positions: usize,
    /// Moves within this many discs of a position's best are followed.
    #[arg(long, default_value_t = 2.0)]
    deviation: f64,
    /// Breaks ties between candidates (which are searched first when the book fills up).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

impl WalkArgs {
    fn root_and_config(&self) -> CliResult<(Position, BuildConfig)> {
        let root = self.setup.position(self.position.as_deref())?;
        if root.size() != BoardSize::Eight {
            return Err(input(format!("a book holds 8x8 positions, not {}", root.size())));
        }
        if !(0.0..=128.0).contains(&self.deviation) {
            return Err(input(format!(
                "bad --deviation {}: expected 0 to 128 discs",
                self.deviation
            )));
        }
        if self.depth > 60 {
            return Err(input(format!("bad --depth {}: expected 0 to 60", self.depth)));
        }
        let config = BuildConfig {
            depth: self.depth,
            max_positions: self.max_positions,
            deviation: (self.deviation * 100.0).round() as i32,
            seed: self.seed,
            ..BuildConfig::default()
        };
        Ok((root, config))
    }
}

/// Options of `othello book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    walk: WalkArgs,
    /// An existing book to extend (written back to it without `--output`).
    #[arg(long)]
    book: Option<String>,
    /// The book file to write (saved after every batch, so an interrupted build resumes
    /// with `--book`).
    #[arg(long, short)]
    output: Option<String>,
    /// The engine that searches the leaves (a search engine: every move is scored).
    #[arg(long, short, default_value = "pvs:depth=10")]
    engine: String,
    #[command(flatten)]
    run: RunArgs,
}

/// How `book build` and `book deepen` run and report.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Searches between two saves.
    #[arg(long, default_value_t = 64)]
    batch: usize,
    /// Threads searching leaves, one engine each (1 to 256); the book is the same for any
    /// number with a fixed-depth engine.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Options of `othello book show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The book file.
    book: String,
    /// The position, "BOARD X"; the start if omitted.
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Options of `othello book merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The first book (its entries win where both have one).
    a: String,
    /// The second book.
    b: String,
    /// The merged book.
    #[arg(long, short)]
    output: String,
}

/// Options of `othello book stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// The book file.
    book: String,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Options of `othello book plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    #[command(flatten)]
    walk: WalkArgs,
    /// The book so far (none: an empty book).
    #[arg(long)]
    book: Option<String>,
    /// JSON Lines output (the position, its distance from the root, its loss).
    #[arg(long)]
    json: bool,
}

/// Options of `othello book search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// A file of positions, one "BOARD X" per line (`-`: standard input).
    positions: String,
    /// The engine that searches them (a search engine: every move is scored).
    #[arg(long, short, default_value = "pvs:depth=10")]
    engine: String,
}

/// Options of `othello book add`.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// JSON Lines files of `othello book search` (`-`: standard input).
    #[arg(required = true)]
    leaves: Vec<String>,
    /// The book to add to (none: an empty book); written back to it without `--output`.
    #[arg(long)]
    book: Option<String>,
    /// The book file to write.
    #[arg(long, short)]
    output: Option<String>,
}

/// Options of `othello book deepen`.
#[derive(clap::Args, Debug)]
pub struct DeepenArgs {
    /// The root, "BOARD X", when no `--roots` file is given; the start if omitted.
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// The book to deepen (written back to it without `--output`).
    #[arg(long)]
    book: String,
    /// The book file to write (saved after every batch).
    #[arg(long, short)]
    output: Option<String>,
    /// A file of roots, one per line: moves from the start (as `f5f4c3c4`) or a position
    /// ("BOARD X"); blank lines and lines starting with `#` are skipped.
    #[arg(long)]
    roots: Option<String>,
    /// The most moves from a root to a position whose leaves are deepened.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Moves within this many discs of a position's best are followed or deepened.
    #[arg(long, default_value_t = 1.0)]
    window: f64,
    /// The engine that searches the leaves again, with a depth `D` as the build's leaves: a
    /// leaf of a position with an odd number of empty squares is searched as if from that
    /// position to `D - 1`.
    #[arg(long, short, default_value = "pvs:depth=10")]
    engine: String,
    #[command(flatten)]
    run: RunArgs,
}

/// Runs `othello book`.
pub fn run(args: &BookArgs) -> CliResult {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
        BookCommand::Merge(a) => merge(a),
        BookCommand::Stats(a) => stats(a),
        BookCommand::Plan(a) => plan_cmd(a),
        BookCommand::Search(a) => search(a),
        BookCommand::Add(a) => add(a),
        BookCommand::Deepen(a) => deepen(a),
    }
}

/// Loads a book file; its typed error is bad input naming the file.
pub fn load(path: &str) -> CliResult<Book> {
    Book::from_path(path).map_err(|e| input(format!("book {path}: {e}")))
}

fn save(book: &Book, path: &str) -> CliResult {
    book.write(path).map_err(|e| input(e.to_string()))
}

/// The leaf searcher of a spec: a search engine scoring every root move, its tables cleared
/// before each position (so that a position's values do not depend on the ones searched
/// before it, and a distributed build gives the same book). With a depth `D`, a position with
/// an odd number of empty squares is searched to `D - 1`: every leaf then lies at the same
/// parity of empties, so negamax compares values of like depth (the evaluation swings by
/// several discs between odd and even depths).
fn leaf_searcher(spec: &str) -> CliResult<impl FnMut(&Position) -> Vec<(Move, i32)>> {
    let mut engine: Engine = spec.parse()?;
    if !matches!(engine, Engine::Search { .. }) {
        return Err(input(format!(
            "bad --engine {spec}: the leaves need a search engine without a book (pvs, alphabeta, negamax, minimax)"
        )));
    }
    engine.set_multi_pv(true);
    let limits = engine.limits();
    Ok(move |pos: &Position| {
        engine.new_game();
        let mut limits = limits.clone();
        limits.depth = limits.depth.map(|d| leaf_depth(d, pos.empty_count()));
        engine.think(pos, &limits).root_moves
    })
}

/// The single-value searcher of `othello book deepen`: the value of a position for its side to
/// move, its tables cleared before each position, searched to the depth of a leaf of a book
/// position with `empties` empty squares (one less than [`leaf_depth`], since the position is
/// a move below it).
fn value_searcher(spec: &str) -> CliResult<impl FnMut(&Position, u32) -> i32 + Send> {
    let mut engine: Engine = spec.parse()?;
    if !matches!(engine, Engine::Search { .. }) {
        return Err(input(format!(
            "bad --engine {spec}: the leaves need a search engine without a book (pvs, alphabeta, negamax, minimax)"
        )));
    }
    let limits = engine.limits();
    let Some(depth) = limits.depth else {
        return Err(input(format!(
            "bad --engine {spec}: book deepen needs a fixed depth (depth=D), as the book's leaves have"
        )));
    };
    Ok(move |pos: &Position, empties: u32| {
        engine.new_game();
        let mut limits = limits.clone();
        limits.depth = Some(leaf_depth(depth, empties).saturating_sub(1).max(1));
        // A search to a fixed depth always scores; a value out of range is refused by the
        // book (`EntryError::ValueRange`) rather than taken.
        engine.think(pos, &limits).score.unwrap_or(i32::MAX)
    })
}

/// The depth a position with `empties` empty squares is searched to for a book of leaf depth
/// `depth`: `depth` with an even number of empties, one less (at least 1) with an odd number.
pub fn leaf_depth(depth: u32, empties: u32) -> u32 {
    if empties.is_multiple_of(2) {
        depth
    } else {
        depth.saturating_sub(1).max(1)
    }
}

/// The progress of `book build` and `book deepen`: a line on stderr per search unless quiet,
/// and the book saved after each batch, the first failure to save kept for the end.
struct Progress<'a> {
    output: &'a str,
    quiet: bool,
    /// Deepening (a searched position is a leaf), not building.
    deepening: bool,
    started: Instant,
    save_error: Option<String>,
}

impl<'a> Progress<'a> {
    fn new(output: &'a str, quiet: bool, deepening: bool) -> Progress<'a> {
        Progress {
            output,
            quiet,
            deepening,
            started: Instant::now(),
            save_error: None,
        }
    }

    fn event(&mut self, event: BuildEvent<'_>) {
        match event {
            BuildEvent::Searched {
                position,
                searched,
                planned,
                round,
            } => {
                if !self.quiet {
                    let what = if self.deepening { "leaf" } else { "position" };
                    eprintln!(
                        "book: round {round} {what} {searched} ({planned} planned) {position} {:.1} s",
                        self.started.elapsed().as_secs_f64()
                    );
                }
            }
            BuildEvent::Added { book, searched } => {
                if let Err(e) = book.write(self.output) {
                    self.save_error.get_or_insert(e.to_string());
                }
                if self.quiet {
                } else if self.deepening {
                    eprintln!("book: {searched} leaves searched, saved to {}", self.output);
                } else {
                    eprintln!(
                        "book: {} entries after {searched} searches, saved to {}",
                        book.len(),
                        self.output
                    );
                }
            }
        }
    }

    /// The first failure to save, as bad input.
    fn finish(self) -> CliResult {
        self.save_error.map_or(Ok(()), |e| Err(input(e)))
    }
}

fn build(args: &BuildArgs) -> CliResult {
    let (root, mut config) = args.walk.root_and_config()?;
    config.batch = args.run.batch.max(1);
    let output = args
        .output
        .clone()
        .or_else(|| args.book.clone())
        .ok_or_else(|| input("book build needs --output FILE (or --book FILE to extend it in place)"))?;
    let mut book = match &args.book {
        Some(path) => load(path)?,
        None => Book::new(),
    };
    let before = book.len();
    let mut searchers = (0..crate::input::check_threads(args.run.threads, "--threads")?)
        .map(|_| leaf_searcher(&args.engine))
        .collect::<CliResult<Vec<_>>>()?;
    let started = Instant::now();
    let mut progress = Progress::new(&output, args.run.quiet, false);
    let mut on_event = |event: BuildEvent<'_>| progress.event(event);
    let report = if let [search] = searchers.as_mut_slice() {
        othello_book::build(&mut book, &root, &config, search, &mut on_event)
    } else {
        othello_book::build_parallel(&mut book, &root, &config, &mut searchers, &mut on_event)
    }
    .map_err(|e| input(format!("the engine's values do not fit a position: {e}")))?;
    progress.finish()?;
    save(&book, &output)?;
    let secs = started.elapsed().as_secs_f64();
    let value = book.lookup(&root).map(|e| e.value);
    Output::new(args.run.json).line(
        || {
            format!(
                "book {output}: {} entries ({} new), {} searched in {} rounds, {:.1} s, root value {}",
                book.len(),
                book.len() - before,
                report.searched,
                report.rounds,
                secs,
                value.map_or("-".to_string(), |v| format!("{:+.2}", discs(v)))
            )
        },
        || {
            json!({"book": output, "entries": book.len(), "new": book.len() - before, "searched": report.searched,
                "rounds": report.rounds, "time_s": (secs * 1000.0).round() / 1000.0, "root_value": value.map(discs)})
        },
    );
    Ok(())
}

/// The roots of `othello book deepen`: each line of the `--roots` file, or the one position.
fn deepen_roots(args: &DeepenArgs) -> CliResult<Vec<Position>> {
    let Some(path) = &args.roots else {
        return Ok(vec![args.setup.position(args.position.as_deref())?]);
    };
    if args.position.is_some() || args.setup.moves_text().is_some() {
        return Err(input("book deepen takes --roots FILE or a position, not both"));
    }
    let (name, text) = read_source(path, "roots file")?;
    let mut roots = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = if line.contains(' ') {
            crate::input::position(Some(line), None, None)
        } else {
            crate::input::position(None, None, Some(line))
        }
        .map_err(|e| input(format!("{name} line {}: {e}", i + 1)))?;
        roots.push(pos);
    }
    if roots.is_empty() {
        return Err(input(format!("{name}: no roots")));
    }
    Ok(roots)
}

fn deepen(args: &DeepenArgs) -> CliResult {
    let roots = deepen_roots(args)?;
    if let Some(r) = roots.iter().find(|r| r.size() != BoardSize::Eight) {
        return Err(input(format!("a book holds 8x8 positions, not {}", r.size())));
    }
    if !(0.0..=128.0).contains(&args.window) {
        return Err(input(format!("bad --window {}: expected 0 to 128 discs", args.window)));
    }
    if args.depth > 60 {
        return Err(input(format!("bad --depth {}: expected 0 to 60", args.depth)));
    }
    let config = othello_book::DeepenConfig {
        depth: args.depth,
        window: (args.window * 100.0).round() as i32,
        batch: args.run.batch.max(1),
    };
    let output = args.output.clone().unwrap_or_else(|| args.book.clone());
    let mut book = load(&args.book)?;
    let mut searchers = (0..crate::input::check_threads(args.run.threads, "--threads")?)
        .map(|_| value_searcher(&args.engine))
        .collect::<CliResult<Vec<_>>>()?;
    let started = Instant::now();
    let mut progress = Progress::new(&output, args.run.quiet, true);
    let mut on_event = |event: BuildEvent<'_>| progress.event(event);
    let report = othello_book::deepen(&mut book, &roots, &config, &mut searchers, &mut on_event)
        .map_err(|e| input(format!("the engine's values do not fit a position: {e}")))?;
    progress.finish()?;
    save(&book, &output)?;
    let secs = started.elapsed().as_secs_f64();
    Output::new(args.run.json).line(
        || {
            format!(
                "book {output}: {} leaves deepened, {} positions searched in {} rounds, {:.1} s",
                report.leaves, report.searched, report.rounds, secs
            )
        },
        || {
            json!({"book": output, "leaves": report.leaves, "searched": report.searched, "rounds": report.rounds,
                "time_s": (secs * 1000.0).round() / 1000.0})
        },
    );
    Ok(())
}

fn show(args: &ShowArgs) -> CliResult {
    let book = load(&args.book)?;
    let pos = args.setup.position(args.position.as_deref())?;
    let entry = book.lookup(&pos);
    Output::new(args.json).line(
        || match &entry {
            None => format!("{pos}\nnot in book"),
            Some(e) => {
                let mut s = format!("{pos}\nvalue {:+.2}", discs(e.value));
                for m in &e.moves {
                    let kind = if m.propagated {
                        "book"
                    } else if m.exact {
                        "exact"
                    } else {
                        "leaf"
                    };
                    s += &format!("\n{:<4} {:+7.2} {kind}", m.mv.to_string(), discs(m.value));
                }
                s
            }
        },
        || {
            let moves: Vec<_> = entry
                .iter()
                .flat_map(|e| &e.moves)
                .map(|m| json!({"move": m.mv.to_string(), "value": discs(m.value), "propagated": m.propagated, "exact": m.exact}))
                .collect();
            json!({"position": pos.to_string(), "in_book": entry.is_some(), "value": entry.as_ref().map(|e| discs(e.value)), "moves": moves})
        },
    );
    Ok(())
}

fn merge(args: &MergeArgs) -> CliResult {
    let mut a = load(&args.a)?;
    let b = load(&args.b)?;
    let na = a.len();
    a.merge(&b);
    save(&a, &args.output)?;
    println!(
        "book {}: {} entries ({} from {}, {} more from {})",
        args.output,
        a.len(),
        na,
        args.a,
        a.len() - na,
        args.b
    );
    Ok(())
}

fn stats(args: &StatsArgs) -> CliResult {
    let book = load(&args.book)?;
    let bytes = std::fs::metadata(&args.book).map(|m| m.len()).unwrap_or(0);
    let (mut moves, mut propagated, mut exact) = (0, 0, 0);
    let mut by_discs = std::collections::BTreeMap::new();
    for (pos, e) in book.entries() {
        moves += e.moves.len();
        propagated += e.moves.iter().filter(|m| m.propagated).count();
        exact += e.moves.iter().filter(|m| m.exact).count();
        *by_discs.entry(64 - pos.empty_count()).or_insert(0_usize) += 1;
    }
    let start = book.lookup(&Position::start()).map(|e| e.value);
    Output::new(args.json).line(
        || {
            let levels: Vec<String> = by_discs.iter().map(|(d, n)| format!("{d}:{n}")).collect();
            format!(
                "book {}: {} entries, {moves} moves ({propagated} in book, {exact} exact, {} searched leaves), {bytes} bytes, start value {}, entries by discs {}",
                args.book,
                book.len(),
                moves - propagated,
                start.map_or("-".to_string(), |v| format!("{:+.2}", discs(v))),
                levels.join(" ")
            )
        },
        || {
            let levels: serde_json::Map<String, serde_json::Value> =
                by_discs.iter().map(|(d, n)| (d.to_string(), json!(n))).collect();
            json!({"book": args.book, "entries": book.len(), "moves": moves, "propagated": propagated, "exact": exact,
                "leaves": moves - propagated, "bytes": bytes, "start_value": start.map(discs), "entries_by_discs": levels})
        },
    );
    Ok(())
}

fn plan_cmd(args: &PlanArgs) -> CliResult {
    let (root, config) = args.walk.root_and_config()?;
    let book = match &args.book {
        Some(path) => load(path)?,
        None => Book::new(),
    };
    let room = config.max_positions.saturating_sub(book.len());
    let out = Output::new(args.json);
    for c in plan(&book, &root, &config).into_iter().take(room) {
        out.line(
            || c.position.to_string(),
            || json!({"position": c.position.to_string(), "ply": c.ply, "loss": discs(c.loss)}),
        );
    }
    Ok(())
}

fn search(args: &SearchArgs) -> CliResult {
    let (name, text) = read_source(&args.positions, "positions file")?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos: Position = line
            .parse()
            .map_err(|e| input(format!("{name} line {}: bad position: {e}", i + 1)))?;
        if pos.size() != BoardSize::Eight || pos.is_game_over() {
            return Err(input(format!(
                "{name} line {}: a book position is 8x8 with a move to play",
                i + 1
            )));
        }
        positions.push(pos);
    }
    let mut leaves = leaf_searcher(&args.engine)?;
    for pos in positions {
        for (p, values) in searched_values(&pos, &mut leaves) {
            let values: Vec<_> = values.iter().map(|(m, v)| json!([m.to_string(), v])).collect();
            crate::output::emit(&json!({"position": p.to_string(), "values": values}).to_string());
        }
    }
    Ok(())
}

fn add(args: &AddArgs) -> CliResult {
    let output = args
        .output
        .clone()
        .or_else(|| args.book.clone())
        .ok_or_else(|| input("book add needs --output FILE (or --book FILE to add to it in place)"))?;
    let mut book = match &args.book {
        Some(path) => load(path)?,
        None => Book::new(),
    };
    let before = book.len();
    let mut items = Vec::new();
    for path in &args.leaves {
        let (name, text) = read_source(path, "leaves file")?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: String| input(format!("{name} line {}: {why}", i + 1));
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
            let pos: Position = v["position"]
                .as_str()
                .ok_or_else(|| bad("no \"position\"".into()))?
                .parse()
                .map_err(|e| bad(format!("bad position: {e}")))?;
            let mut values = Vec::new();
            for pair in v["values"].as_array().ok_or_else(|| bad("no \"values\" list".into()))? {
                let mv: Move = pair[0]
                    .as_str()
                    .ok_or_else(|| bad("a value is not [move, centi-discs]".into()))?
                    .parse()
                    .map_err(|e| bad(format!("{e}")))?;
                let value = pair[1]
                    .as_i64()
                    .and_then(|x| i32::try_from(x).ok())
                    .ok_or_else(|| bad("a value is not [move, centi-discs]".into()))?;
                values.push((mv, value));
            }
            book.insert_searched(&[(pos, values)])
                .map_err(|e| bad(format!("{pos}: {e}")))?;
            items.push(pos);
        }
    }
    save(&book, &output)?;
    println!(
        "book {output}: {} entries ({} new from {} searched positions)",
        book.len(),
        book.len() - before,
        items.len()
    );
    Ok(())
}
