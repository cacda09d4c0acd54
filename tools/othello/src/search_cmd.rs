//! `othello search`.

use crate::error::{CliResult, input};
use crate::input::{check_hash, check_threads};
use crate::output::{Output, nps};
use crate::perft::round_ms;
use othello_engine::Player;
use othello_rules::Move;
use othello_spec::{Engine, Spec};
use serde_json::json;

/// Options of `othello search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// The position, "BOARD X"; the 8x8 start if omitted. Or an OBF file (`-` for standard
    /// input): every position searched afresh, and the moves chosen scored against the file's
    /// listed scores (docs/cli.md, "Move quality").
    position: Option<String>,
    #[command(flatten)]
    setup: crate::input::Setup,
    /// The engine spec, e.g. `pvs:depth=10,eval=mobility*10+corners*80,tt=64`.
    #[arg(long, short, default_value = "pvs")]
    engine: String,
    /// Depth in discs placed (overrides the spec's `depth`); beyond the empties it solves.
    #[arg(long, short, allow_negative_numbers = true)]
    depth: Option<i64>,
    /// Time limit in milliseconds (overrides the spec's `time`).
    #[arg(long, allow_negative_numbers = true)]
    time: Option<i64>,
    /// Node limit (overrides the spec's `nodes`).
    #[arg(long, allow_negative_numbers = true)]
    nodes: Option<i64>,
    /// Threads (overrides the spec's `threads`).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (overrides the spec's `tt`, which means the same).
    #[arg(long)]
    hash: Option<usize>,
    /// Write the board as an SVG picture to this file, with the principal variation numbered.
    #[arg(long)]
    svg: Option<String>,
    /// An opening book file (the spec's `book` key): a position in the book is answered by
    /// a book move, marked `book`.
    #[arg(long)]
    book: Option<String>,
    /// JSON Lines output.
    #[arg(long)]
    json: bool,
}

/// Centi-discs to discs.
pub fn discs(centi: i32) -> f64 {
    centi as f64 / 100.0
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// The engine spec of `--engine` with the flags that override its keys.
fn spec(args: &SearchArgs) -> CliResult<Spec> {
    let mut spec: Spec = args.engine.parse()?;
    if let Some(d) = args.depth {
        if d < 1 {
            return Err(input(format!("bad --depth {d}: expected at least 1")));
        }
        spec.set("depth", d);
    }
    if let Some(t) = args.time {
        if t < 1 {
            return Err(input(format!("bad --time {t}: expected at least 1 ms")));
        }
        spec.set("time", t);
    }
    if let Some(n) = args.nodes {
        if n < 1 {
            return Err(input(format!("bad --nodes {n}: expected at least 1")));
        }
        spec.set("nodes", n);
    }
    if let Some(t) = args.threads {
        spec.set("threads", check_threads(t, "--threads")?);
    }
    if let Some(mib) = args.hash {
        spec.set("tt", check_hash(mib, "--hash")?);
    }
    if let Some(b) = &args.book {
        spec.set("book", b);
    }
    Ok(spec)
}

/// Runs `othello search`: the spec's player, through the `Player` layer (the same for every
/// engine), with a line per completed iteration ([`Player::think_with`]) and then the answer.
/// The answer's `score`, `score_black` and `depth` are null for a player without a score (MCTS,
/// random); MCTS adds its `playouts`, the chosen move's `visit_share` and its `mean_result`.
pub fn run(args: &SearchArgs) -> CliResult {
    if let Some((name, lines)) = args
        .position
        .as_deref()
        .map(crate::input::read_obf)
        .transpose()?
        .flatten()
    {
        if args.setup.moves_text().is_some() || args.setup.size().is_some() {
            return Err(input("--moves and --size apply to a position argument, not to a file"));
        }
        if args.svg.is_some() {
            return Err(input("--svg applies to a position argument, not to a file"));
        }
        let mut engine = Engine::from_spec(spec(args)?)?;
        let limits = engine.limits();
        return crate::quality::run(&mut engine, &limits, &name, &lines, args.json);
    }
    let pos = args
        .setup
        .position(args.position.as_deref())
        .map_err(|e| match &args.position {
            Some(arg) => crate::input::not_a_file_or_position(arg, e),
            None => e,
        })?;
    let mut engine = Engine::from_spec(spec(args)?)?;
    engine.check_size(pos.size())?;
    if let Some(path) = &args.svg {
        crate::picture::check_writable(std::path::Path::new(path), "--svg")?;
    }
    let out = Output::new(args.json);
    let limits = engine.limits();
    let reply = engine.think_with(&pos, &limits, &mut |it| {
        let secs = it.time.as_secs_f64();
        let nps = nps(it.nodes, secs);
        out.line(
            || {
                format!(
                    "depth {:>2}{} sel {:<3} score {:+7.2} nodes {:>12} time {:>9.1} ms nps {:>7.2} M pv {}",
                    it.depth,
                    if it.exact { "*" } else { " " },
                    it.selectivity.to_string(),
                    discs(it.score),
                    it.nodes,
                    secs * 1e3,
                    nps as f64 / 1e6,
                    pv_text(&it.pv)
                )
            },
            || {
                json!({"depth": it.depth, "score": discs(it.score), "exact": it.exact, "selectivity": it.selectivity.to_string(), "nodes": it.nodes,
                    "time_ms": round_ms(secs * 1e3), "nps": nps, "pv": it.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()})
            },
        );
    });
    let r = &reply;
    if let Some(path) = &args.svg {
        let title = match r.score {
            Some(score) => format!("{}: {} {:+.2}", args.engine, r.best_move, discs(score)),
            None => format!("{}: {}", args.engine, r.best_move),
        };
        let picture = othello_svg::BoardPicture::new(&pos)
            .last_move(crate::picture::last_move(args.setup.moves_text()))
            .pv(&r.pv)
            .title(title);
        crate::picture::write_board(std::path::Path::new(path), &picture, "--svg")?;
    }
    let ms = r.time.as_secs_f64() * 1e3;
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    match r.score {
        Some(score) => {
            let score_black = score * pos.side_to_move().sign();
            out.line(
                || {
                    if r.book {
                        return format!(
                            "bestmove {} score {:+.2} ({:+.2} for black) book time {:.1} ms",
                            r.best_move,
                            discs(score),
                            discs(score_black),
                            ms
                        );
                    }
                    format!(
                        "bestmove {} score {:+.2} ({:+.2} for black) depth {}{} selectivity {} nodes {} time {:.1} ms",
                        r.best_move,
                        discs(score),
                        discs(score_black),
                        r.depth,
                        if r.exact { " exact" } else { "" },
                        r.selectivity,
                        r.nodes,
                        ms
                    )
                },
                || {
                    json!({"best_move": r.best_move.to_string(), "score": discs(score), "score_black": discs(score_black),
                        "depth": r.depth, "exact": r.exact, "selectivity": r.selectivity.to_string(), "nodes": r.nodes, "time_ms": round_ms(ms), "pv": pv,
                        "book": r.book})
                },
            );
        }
        None => {
            let mut line = json!({"best_move": r.best_move.to_string(), "score": null, "score_black": null,
                "depth": null, "exact": r.exact, "nodes": r.nodes, "time_ms": round_ms(ms), "pv": pv, "book": false});
            let mut text = format!("bestmove {}", r.best_move);
            if let Some(m) = r.mcts {
                let share = m.visit_share();
                line["playouts"] = m.playouts.into();
                line["visits"] = m.visits.into();
                line["visit_share"] = share.into();
                line["mean_result"] = m.mean_result.into();
                let share = share.map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
                text += &format!(
                    " mean {:.3} visits {} ({share}) playouts {}",
                    m.mean_result, m.visits, m.playouts
                );
            }
            text += &format!(" nodes {} time {ms:.1} ms", r.nodes);
            out.line(|| text, || line);
        }
    }
    Ok(())
}
