//! `othello book` end to end, and the book as a spec key: building, showing, merging, the
//! distributed steps (plan, search, add) giving the same book as a build, book moves marked in
//! `search` and `play` records, and bad book files refused with exit code 2.

mod common;

use common::{args, array, json_lines, othello, othello_ok as ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

const START: &str = "---------------------------OX------XO--------------------------- X";

fn last_json(text: &str) -> Value {
    serde_json::from_str(text.lines().last().expect("a line")).expect("JSON")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("othello-book-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small book: 3 moves deep, depth-4 leaves.
fn small_book(d: &Path) -> PathBuf {
    let path = d.join("small.bin");
    let flags = "book build --depth 3 --engine pvs:depth=4 --json -q -o";
    let out = ok(&args(flags, &[s(&path)]));
    let v = last_json(&out);
    assert!(v["entries"].as_u64().unwrap() >= 5, "{v}");
    assert_eq!(v["entries"], v["new"]);
    path
}

#[test]
fn build_show_stats_merge_and_the_distributed_steps_agree() {
    let d = dir("build");
    let book = small_book(&d);
    let stats = last_json(&ok(&["book", "stats", s(&book), "--json"]));
    let entries = stats["entries"].as_u64().unwrap();
    assert_eq!(
        stats["bytes"].as_u64().unwrap(),
        std::fs::metadata(&book).unwrap().len()
    );
    let show = last_json(&ok(&["book", "show", s(&book), "--moves", "f5", "--json"]));
    assert_eq!(show["in_book"], true);
    let moves = show["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{show}");
    let values: Vec<f64> = moves.iter().map(|m| m["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first: {values:?}");
    assert_eq!(show["value"].as_f64().unwrap(), values[0]);
    // A twin of f5 (d3) shows the same values.
    let twin = last_json(&ok(&["book", "show", s(&book), "--moves", "d3", "--json"]));
    assert_eq!(twin["value"], show["value"]);
    let out = last_json(&ok(&["book", "show", s(&book), "--moves", "f5d6c3d3c4", "--json"]));
    assert_eq!(
        (out["in_book"].clone(), out["moves"].as_array().unwrap().len()),
        (Value::Bool(false), 0)
    );
    assert!(ok(&["book", "show", s(&book), "--moves", "f5"]).contains(" book"));

    // Extending: a deeper build from the small book searches only new positions and equals
    // a deeper build from scratch; merging the two gives the deeper one.
    let deep = d.join("deep.bin");
    ok(&[
        "book",
        "build",
        "--depth",
        "4",
        "--engine",
        "pvs:depth=4",
        "-o",
        s(&deep),
        "-q",
    ]);
    let ext = d.join("ext.bin");
    let v = last_json(&ok(&[
        "book",
        "build",
        "--book",
        s(&book),
        "--depth",
        "4",
        "--engine",
        "pvs:depth=4",
        "-o",
        s(&ext),
        "-q",
        "--json",
    ]));
    assert_eq!(v["new"].as_u64().unwrap(), v["entries"].as_u64().unwrap() - entries);
    assert_eq!(std::fs::read(&ext).unwrap(), std::fs::read(&deep).unwrap());
    let merged = d.join("merged.bin");
    ok(&["book", "merge", s(&book), s(&deep), "-o", s(&merged)]);
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&deep).unwrap());

    // The distributed steps: plan, search the plan, add, until the plan is empty.
    let dist = d.join("dist.bin");
    let mut rounds = 0;
    loop {
        let mut plan_args = vec!["book", "plan", "--depth", "4"];
        if dist.exists() {
            plan_args.extend(["--book", s(&dist)]);
        }
        let plan = ok(&plan_args);
        if plan.trim().is_empty() {
            break;
        }
        let positions = d.join("plan.txt");
        std::fs::write(&positions, &plan).unwrap();
        let leaves = d.join("leaves.jsonl");
        std::fs::write(
            &leaves,
            ok(&["book", "search", s(&positions), "--engine", "pvs:depth=4"]),
        )
        .unwrap();
        let mut add = vec!["book", "add", s(&leaves), "-o", s(&dist)];
        if dist.exists() {
            add.extend(["--book", s(&dist)]);
        }
        ok(&add);
        rounds += 1;
        assert!(rounds < 20);
    }
    assert_eq!(std::fs::read(&dist).unwrap(), std::fs::read(&deep).unwrap());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn book_moves_are_marked_in_search_and_play() {
    let d = dir("play");
    let book = small_book(&d);
    let spec = format!("pvs:depth=3,book={}", s(&book));
    let r = last_json(&ok(&["search", "--engine", &spec, "--json"]));
    assert_eq!((r["book"].clone(), r["nodes"].clone()), (Value::Bool(true), 0.into()));
    let r = last_json(&ok(&[
        "search",
        "--engine",
        "pvs:depth=3",
        "--book",
        s(&book),
        "--json",
    ]));
    assert_eq!(r["book"], true);
    assert!(ok(&["search", "--engine", "pvs:depth=3", "--book", s(&book)]).contains(" book "));
    let r = last_json(&ok(&["search", "--engine", "pvs:depth=3", "--json"]));
    assert_eq!(r["book"], false, "no book unless asked");
    let r = last_json(&ok(&[
        "search",
        "--book",
        s(&book),
        "--moves",
        "f5d6c3d3c4",
        "--depth",
        "3",
        "--json",
    ]));
    assert_eq!(r["book"], false, "out of book it searches");
    // Move quality from an OBF file: the start in the book, a later position out of it.
    let obf = d.join("quality.obf");
    let later_pos = last_json(&ok(&["show", START, "--moves", "f5d6c3d3c4f4", "--json"]));
    std::fs::write(&obf, format!("{START}\n{}\n", later_pos["position"].as_str().unwrap())).unwrap();
    let lines = json_lines(&ok(&["search", s(&obf), "--book", s(&book), "--depth", "3", "--json"]));
    assert_eq!(
        (lines[0]["book"].as_bool(), lines[1]["book"].as_bool()),
        (Some(true), Some(false))
    );
    assert!(ok(&["search", s(&obf), "--book", s(&book), "--depth", "3"]).contains(" book "));

    let openings = d.join("start.txt");
    std::fs::write(&openings, format!("{START}\n")).unwrap();
    let play = |flags: &str| {
        let fixed = ["play", spec.as_str(), "pvs:depth=3", "--openings", s(&openings)];
        ok(&[&fixed[..], &args(flags, &[])].concat())
    };
    let games: Vec<Value> = json_lines(&play("--games 2 --json --quiet"))
        .into_iter()
        .filter(|v| v.get("game").is_some())
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        let a = g["a_color"].as_str().unwrap();
        let book = array(g, "book", Value::as_bool);
        let colors = array(g, "colors", Value::as_str);
        assert_eq!(book.len(), colors.len());
        let a_book = book.iter().zip(&colors).filter(|(b, c)| **b && **c == a).count();
        let b_book = book.iter().zip(&colors).filter(|(b, c)| **b && **c != a).count();
        assert!(a_book >= 1, "{g}");
        assert_eq!(b_book, 0, "only A has the book: {g}");
    }
    let text = play("--games 2 --quiet");
    assert!(text.contains(" book A "), "{text}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_book_files_exit_2_naming_the_file_and_the_error() {
    let d = dir("bad");
    let book = small_book(&d);
    let mut bytes = std::fs::read(&book).unwrap();
    bytes[40] ^= 1;
    let damaged = d.join("damaged.bin");
    std::fs::write(&damaged, &bytes).unwrap();
    let missing = d.join("missing.bin");
    let spec = |p: &Path| format!("pvs:depth=2,book={}", s(p));
    for (args, want) in [
        (
            vec![
                "play".to_string(),
                spec(&damaged),
                "pvs:depth=2".into(),
                "--games".into(),
                "2".into(),
            ],
            "checksum mismatch",
        ),
        (
            vec![
                "play".into(),
                "pvs".into(),
                spec(&missing),
                "--games".into(),
                "2".into(),
            ],
            "cannot read book file",
        ),
        (
            vec!["search".into(), "--book".into(), s(&damaged).into()],
            "checksum mismatch",
        ),
        (
            vec!["nboard".into(), "--engine".into(), spec(&damaged)],
            "checksum mismatch",
        ),
        (
            vec!["book".into(), "show".into(), s(&damaged).into()],
            "checksum mismatch",
        ),
        (
            vec!["book".into(), "stats".into(), s(&missing).into()],
            "cannot read book file",
        ),
        (
            vec!["book".into(), "build".into(), "--book".into(), s(&damaged).into()],
            "checksum mismatch",
        ),
        (
            vec!["search".into(), "--engine".into(), "pvs:book_margin=1".into()],
            "needs book=FILE",
        ),
        (
            vec![
                "book".into(),
                "build".into(),
                "--engine".into(),
                "mcts".into(),
                "-o".into(),
                s(&missing).into(),
            ],
            "search engine",
        ),
        (vec!["book".into(), "build".into()], "--output"),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = othello(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        if want == "checksum mismatch" {
            assert!(err.contains("damaged.bin"), "{err}");
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn build_on_threads_writes_the_same_book_and_refuses_a_bad_count() {
    let d = dir("threads");
    let mut files = Vec::new();
    for threads in ["1", "2", "3"] {
        let path = d.join(format!("t{threads}.bin"));
        let v = last_json(&ok(&[
            "book",
            "build",
            "--depth",
            "8",
            "--max-positions",
            "60",
            "--batch",
            "7",
            "--engine",
            "pvs:depth=5",
            "--threads",
            threads,
            "-o",
            s(&path),
            "-q",
            "--json",
        ]));
        assert_eq!(v["entries"].as_u64().unwrap(), 60, "{v}");
        files.push(std::fs::read(&path).unwrap());
    }
    assert_eq!(files[1], files[0], "2 threads");
    assert_eq!(files[2], files[0], "3 threads");
    for bad in ["0", "257", "x"] {
        let out = othello(&["book", "build", "--threads", bad, "-o", s(&d.join("bad.bin"))]);
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("threads"), "{err}");
        assert!(!d.join("bad.bin").exists());
    }
}

#[test]
fn plan_takes_its_deviation_and_seed() {
    let d = dir("plan-flags");
    let book = small_book(&d);
    let plan = |extra: &[&str]| {
        let mut a = vec!["book", "plan", "--book", s(&book), "--depth", "4"];
        a.extend(extra.iter().copied());
        ok(&a)
    };
    let wide = plan(&[]);
    let narrow = plan(&["--deviation", "0"]);
    assert!(narrow.lines().count() < wide.lines().count(), "{narrow}\n--\n{wide}");
    let mut seeds: Vec<String> = (0..4).map(|seed| plan(&["--seed", &seed.to_string()])).collect();
    assert_eq!(seeds[0], wide);
    let sorted = |t: &str| {
        let mut l: Vec<&str> = t.lines().collect();
        l.sort_unstable();
        l.join("\n")
    };
    assert!(seeds.iter().all(|p| sorted(p) == sorted(&wide)), "the same positions");
    seeds.dedup();
    assert!(seeds.len() > 1, "another order for another seed");
    // Depth 60 is the most a walk takes.
    let deepest = ok(&["book", "plan", "--book", s(&book), "--depth", "60"]);
    assert!(deepest.lines().count() >= wide.lines().count());
    let too_deep = othello(&["book", "plan", "--book", s(&book), "--depth", "61"]);
    assert_eq!(too_deep.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&too_deep.stderr).contains("--depth 61"));
}

#[test]
fn deepen_searches_the_window_s_leaves_again_and_refuses_bad_input() {
    let d = dir("deepen");
    let book = small_book(&d);
    // The book's best line to its frontier (3 moves): every move there is a searched leaf.
    let mut line = String::new();
    for _ in 0..2 {
        let show = last_json(&ok(&[
            "book",
            "show",
            s(&book),
            "--moves",
            &format!("f5{line}"),
            "--json",
        ]));
        assert_eq!(show["in_book"], true, "{show}");
        line.push_str(show["moves"][0]["move"].as_str().unwrap());
    }
    let root = format!("f5{line}");
    let deep = d.join("deep.bin");
    let v = last_json(&ok(&[
        "book",
        "deepen",
        "--book",
        s(&book),
        "--moves",
        &root,
        "--depth",
        "0",
        "--window",
        "128",
        "--engine",
        "pvs:depth=7",
        "-q",
        "--json",
        "-o",
        s(&deep),
    ]));
    let shown = last_json(&ok(&["book", "show", s(&deep), "--moves", &root, "--json"]));
    let moves = shown["moves"].as_array().unwrap();
    assert_eq!(v["leaves"].as_u64().unwrap() as usize, moves.len(), "{v} {shown}");
    assert_eq!(v["searched"], v["leaves"]);
    assert_eq!(v["rounds"], 1);
    // Each value is the negated score of a fresh search of the position after the move, one
    // ply shallower than the position's own leaf depth (7 plies, 6 with an odd number of
    // empty squares: the position after three moves has 57).
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        let after = format!("{root}{mv}");
        let out = last_json(&ok(&["search", "--moves", &after, "--engine", "pvs:depth=5", "--json"]));
        let want = -out["score"].as_f64().unwrap();
        assert_eq!(m["value"].as_f64().unwrap(), want, "{mv}: {shown}");
        assert_eq!(m["propagated"], false);
    }
    assert_ne!(std::fs::read(&deep).unwrap(), std::fs::read(&book).unwrap());
    // From a roots file on two threads, in place: the same book as one thread.
    let roots = d.join("roots.txt");
    std::fs::write(&roots, format!("# roots\n{root}\n\nf5d6\n")).unwrap();
    let mut files = Vec::new();
    for threads in ["1", "2"] {
        let copy = d.join(format!("in-place-{threads}.bin"));
        std::fs::copy(&book, &copy).unwrap();
        ok(&[
            "book",
            "deepen",
            "--book",
            s(&copy),
            "--roots",
            s(&roots),
            "--depth",
            "2",
            "--engine",
            "pvs:depth=5",
            "--threads",
            threads,
            "-q",
        ]);
        files.push(std::fs::read(&copy).unwrap());
    }
    assert_eq!(files[0], files[1]);
    assert_ne!(files[0], std::fs::read(&book).unwrap());

    // Progress lines on stderr unless quiet; the largest depth is taken.
    let run = |name: &str, quiet: bool| {
        let out_path = d.join(name);
        let mut a = vec!["book", "deepen", "--book", s(&book), "--moves", &root, "--depth", "60"];
        a.extend(["--engine", "pvs:depth=4", "-o", s(&out_path)]);
        if quiet {
            a.push("-q");
        }
        let out = othello(&a);
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8_lossy(&out.stderr).into_owned(),
            std::fs::read(&out_path).unwrap(),
        )
    };
    let (err, loud) = run("loud.bin", false);
    assert!(err.contains("book: round 1 leaf 1 ("), "{err}");
    assert!(err.contains("leaves searched, saved to"), "{err}");
    let (err, quiet) = run("quiet.bin", true);
    assert!(err.is_empty(), "{err}");
    assert_eq!(loud, quiet);

    let bad_roots = d.join("bad-roots.txt");
    std::fs::write(&bad_roots, "f5d6\nf5z9\n").unwrap();
    let empty_roots = d.join("empty-roots.txt");
    std::fs::write(&empty_roots, "# nothing\n").unwrap();
    let out_file = d.join("never.bin");
    let missing_roots = d.join("missing.txt");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--engine", "pvs:time=50"], "fixed depth"),
        (vec!["--engine", "pvs:nodes=1000"], "fixed depth"),
        (vec!["--engine", "random"], "search engine"),
        (vec!["--window", "-1"], "--window"),
        (vec!["--window", "200"], "--window"),
        (vec!["--depth", "61"], "--depth"),
        (vec!["--roots", s(&bad_roots)], "line 2"),
        (vec!["--roots", s(&empty_roots)], "no roots"),
        (vec!["--roots", s(&missing_roots)], "missing.txt"),
        (vec!["--roots", s(&roots), "--moves", "f5"], "not both"),
        (vec!["--threads", "0"], "threads"),
        (vec!["--size", "6"], "8x8"),
    ];
    for (extra, want) in cases {
        let mut a = vec!["book", "deepen", "--book", s(&book), "-o", s(&out_file), "-q"];
        if !extra.contains(&"--engine") {
            a.extend(["--engine", "pvs:depth=2"]);
        }
        a.extend(extra.iter().copied());
        let out = othello(&a);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!out_file.exists(), "{extra:?}");
    }
    let missing = othello(&[
        "book",
        "deepen",
        "--book",
        s(&d.join("nope.bin")),
        "--engine",
        "pvs:depth=2",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nope.bin"));
}
