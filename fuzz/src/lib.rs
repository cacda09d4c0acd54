//! The bodies of the fuzz targets, shared by the libFuzzer binaries (`fuzz_targets/`) and by the
//! corpus smoke test (`tests/corpus.rs`), which runs them over the committed corpus as ordinary
//! tests on stable Rust. Each body panics on a broken property; returning is a pass.

use othello_cli::nboard::{SessionConfig, engine_from_spec, serve};
use othello_engine::Selectivity;
use othello_spec::Spec;
use othello_eval::WeightedEval;
use othello_rules::text::{format_moves, parse_moves, play_sequence};
use othello_rules::{BoardSize, ObfLine, Position};

/// Checks what every parsed position must satisfy: disjoint discs on the board, its text
/// form parses back to it and prints the same, and its legal moves are legal.
fn check_position(p: &Position) {
    let text = p.to_string();
    let again: Position = text.parse().expect("a printed position parses");
    assert_eq!(&again, p, "{text}");
    assert_eq!(again.to_string(), text);
    let (black, white) = p.disc_counts();
    assert!(black + white + p.empty_count() == p.size().squares() as u32, "{text}");
    for m in p.moves() {
        assert!(p.is_legal(m));
        p.play(m).expect("a listed move plays");
    }
}

/// Board strings: parse; on success, the round trip and the invariants hold.
pub fn board(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = text.parse::<Position>() {
        check_position(&p);
    }
}

/// OBF lines: parse, print, parse gives the same line.
pub fn obf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(line) = text.parse::<ObfLine>() {
        check_position(&line.position);
        let printed = line.to_string();
        let again: ObfLine = printed.parse().unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(again, line, "{printed}");
        assert_eq!(again.to_string(), printed);
    }
}

/// Move sequences: the first byte picks the board size, the rest is the text. Parsing round
/// trips through [`format_moves`]; replaying from the start either fails cleanly or gives a
/// valid position.
pub fn moves(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let size = [BoardSize::Four, BoardSize::Six, BoardSize::Eight][first as usize % 3];
    let text = String::from_utf8_lossy(rest);
    if let Ok(parsed) = parse_moves(&text) {
        let moves: Vec<_> = parsed.iter().map(|&(_, m)| m).collect();
        let printed = format_moves(&moves);
        let again: Vec<_> = parse_moves(&printed)
            .unwrap_or_else(|e| panic!("{printed}: {e}"))
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        assert_eq!(again, moves, "{printed}");
    }
    if let Ok(p) = play_sequence(&Position::start_of(size), &text) {
        check_position(&p);
    }
}

/// Engine spec strings: parse, then build the engine (name, keys and values checked). A table
/// is only allocated at the first search, so no spec allocates here.
pub fn spec(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    selectivity(&text);
    if let Ok(spec) = text.parse::<Spec>() {
        assert!(!spec.name.is_empty());
        if let Some(value) = spec.clone().raw("selectivity") {
            selectivity(&value);
        }
        let _ = othello_spec::Engine::from_spec(spec);
    }
}

/// The selectivity text form (the spec key's value, `--selectivity`): parse, print, parse
/// gives the same value, and the printed form is canonical and fits in a spec value.
fn selectivity(text: &str) {
    if let Ok(s) = text.parse::<Selectivity>() {
        let printed = s.to_string();
        assert_eq!(printed.parse::<Selectivity>().as_ref(), Ok(&s), "{text:?} printed {printed}");
        assert_eq!(printed.parse::<Selectivity>().unwrap().to_string(), printed);
        assert!(!printed.contains(',') && !printed.contains('='), "{printed}");
    }
}

/// The evaluation text form: parse, print, parse gives the same combination, and the printed
/// form is canonical (printing again gives the same text).
pub fn eval(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(e) = text.parse::<WeightedEval>() {
        let printed = e.to_string();
        let again: WeightedEval = printed.parse().unwrap_or_else(|err| panic!("{printed}: {err}"));
        assert_eq!(again, e, "{printed}");
        assert_eq!(again.to_string(), printed);
        assert!(!printed.contains(',') && !printed.contains('='), "{printed}");
    }
}

/// GGF game records (the rules crate's `GgfGame`, which NBoard's `set game` reads): the final
/// position is valid, either side's clock is read or refused with a typed error (never a
/// negative time), each move reads back from its own text (NBoard's `move F5/eval/time`), and
/// parse, print, parse gives the same game, and prints the same text.
pub fn ggf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = text.parse::<othello_rules::GgfGame>() {
        check_position(&game.final_position());
        if let Ok(Some(clock)) = game.clock() {
            assert!(clock.remaining >= 0.0 && clock.remaining.is_finite(), "{clock:?}");
            assert!(clock.increment >= 0.0 && clock.increment.is_finite(), "{clock:?}");
            assert_eq!(clock.side, game.final_position().side_to_move());
        }
        // Either side's clock, the side to move's as `clock` gives it.
        for side in [othello_rules::Color::Black, othello_rules::Color::White] {
            if let Ok(Some(c)) = game.clock_of(side) {
                assert!(c.remaining >= 0.0 && c.remaining.is_finite(), "{c:?}");
                assert_eq!(c.side, side);
            }
        }
        assert_eq!(game.clock_of(game.final_position().side_to_move()), game.clock());
        // Each move reads back from its text as NBoard's `move` sends it.
        for m in &game.moves {
            assert_eq!(othello_rules::GgfMove::parse(&m.to_string(), m.color).as_ref(), Ok(m));
        }
        let printed = game.to_string();
        let again: othello_rules::GgfGame = printed.parse().expect("a printed GGF game parses");
        assert_eq!(again.to_string(), printed);
        assert_eq!(format!("{again:?}"), format!("{game:?}"), "{printed}");
    }
}

/// A whole NBoard session read from the input, as bytes. `set depth` is capped at 3 so that
/// no input searches for long; the session must end (it always does at the end of the input).
pub fn nboard(data: &[u8]) {
    let (engine, _) = engine_from_spec("pvs:tt=1").expect("a valid spec");
    let config = SessionConfig {
        depth: 1,
        max_depth: 3,
        diagnostics: false,
        drain_input: true,
        ..SessionConfig::default()
    };
    serve(engine, config, std::io::Cursor::new(data.to_vec()), std::io::sink());
}

/// The pattern evaluation's weights file (`othello_pattern::Weights::from_bytes`). The input's
/// checksum field is first set to what its version asks for (when the input has a whole header
/// of a known version), so that mutations reach the header fields, the weights, the ties and
/// the sections instead of stopping at the checksum (the checksum itself is tested in the
/// pattern crate). Then any bytes are refused with a typed error or accepted; an accepted file
/// is tied, its sections are listed and found by tag; a file of the current version and
/// pattern set prints back to the same bytes; an older one (version 1, or set 1) is written in
/// the current format with the same weights and score, and that file round-trips; a section
/// added or replaced survives a write and a read; the evaluator scores a position.
pub fn weights(data: &[u8]) {
    use othello_pattern::weights::{CHECKSUM_FIELD, FORMAT_VERSION, expected_checksum};
    use othello_pattern::{PATTERN_SET_ID, PatternEval, Weights};
    let mut data = data.to_vec();
    if let Some(sum) = expected_checksum(&data) {
        data[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
    }
    let Ok(w) = Weights::from_bytes(&data) else {
        return;
    };
    w.check_ties().expect("an accepted file is tied");
    let tags: Vec<[u8; 4]> = w.sections().map(|(t, _)| t).collect();
    for (i, (tag, bytes)) in w.sections().enumerate() {
        assert_eq!(w.section(tag), Some(bytes));
        assert!(!tags[..i].contains(&tag), "distinct tags");
    }
    let bytes = w.to_bytes();
    let score = othello_eval::Evaluator::evaluate(&PatternEval::new(&w), &Position::start());
    let current = data[8..12] == FORMAT_VERSION.to_le_bytes() && data[12..16] == PATTERN_SET_ID.to_le_bytes();
    if current {
        assert_eq!(bytes, data, "an accepted weights file round-trips bit for bit");
    } else {
        let again = Weights::from_bytes(&bytes).expect("a converted file is accepted");
        assert_eq!(again, w, "a converted file holds the same weights");
        assert_eq!(
            again.to_bytes(),
            bytes,
            "a converted weights file round-trips bit for bit"
        );
        let converted = othello_eval::Evaluator::evaluate(&PatternEval::new(&again), &Position::start());
        assert_eq!(converted, score, "a converted weights file scores the same");
    }
    // A section added (or replaced) survives, the others stay as they were.
    let extra = data[..data.len().min(16)].to_vec();
    let with = Weights::from_bytes(&w.clone().with_section(*b"FUZZ", extra.clone()).to_bytes())
        .expect("weights with a section are accepted");
    assert_eq!(with.section(*b"FUZZ"), Some(&extra[..]));
    assert_eq!(with.values(), w.values());
    for (tag, b) in w.sections().filter(|(t, _)| t != b"FUZZ") {
        assert_eq!(with.section(tag), Some(b));
    }
}

/// The training pipeline's JSON Lines readers (`othello_train`): every line as a label and as a
/// game, and the whole input through the file reader. A parsed label or game prints and
/// parses back to itself; a label's score is within the board; the reader returns the lines'
/// records in order, or (stopping at the first bad line) an error naming that line's number.
pub fn jsonl(data: &[u8]) {
    use othello_train::data::{Game, Label};
    use othello_train::jsonl::{OnBad, read_from};
    let mut expected = Vec::new();
    let mut first_bad = None;
    for (i, line) in data.split(|&b| b == b'\n').enumerate() {
        let Ok(text) = std::str::from_utf8(line) else {
            first_bad.get_or_insert(i + 1);
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        match Label::from_line(text) {
            Ok(Some(l)) => {
                assert!(l.centi.abs() <= 6400, "{text}");
                let printed = l.to_line();
                let again = Label::from_line(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
                assert_eq!(again.as_ref(), Some(&l), "{printed}");
                assert_eq!(again.map(|a| a.to_line()), Some(printed));
                expected.push(l);
            }
            Ok(None) => {}
            Err(_) => {
                first_bad.get_or_insert(i + 1);
            }
        }
        if let Ok(g) = Game::from_line(text) {
            assert_eq!(g.positions().len(), g.moves.len());
            assert!(g.final_position().is_game_over());
            let printed = g.to_line("fuzz");
            assert_eq!(Game::from_line(&printed).as_ref(), Ok(&g), "{printed}");
        }
    }
    match read_from(data, "input", OnBad::Fatal, Label::from_line) {
        Ok((labels, _)) => {
            assert_eq!(first_bad, None);
            assert_eq!(labels, expected);
        }
        Err(othello_train::TrainError::Line { line, .. }) => assert_eq!(Some(line), first_bad),
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// Opening book files (`othello_book::Book::from_bytes`): the body first writes the checksum
/// into the checksum field (when the input has a whole header), so mutations reach the entries
/// rather than stopping at the checksum. An accepted book writes back to the same bytes, its
/// lookups from any twin agree, and its choice is a listed move.
pub fn book(data: &[u8]) {
    use othello_book::{Book, CHECKSUM_FIELD, expected_checksum, map_move};
    use othello_rules::Symmetry;
    let mut data = data.to_vec();
    if let Some(sum) = expected_checksum(&data) {
        data[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
    }
    let Ok(book) = Book::from_bytes(&data) else {
        return;
    };
    assert_eq!(book.to_bytes(), data, "an accepted book round-trips bit for bit");
    let mut again = book.clone();
    again.propagate();
    assert_eq!(again, book, "an accepted book's values are already propagated");
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(data.len() as u64);
    for (pos, entry) in book.entries().take(16) {
        let direct = book.lookup(&pos).expect("an entry is found");
        assert_eq!(direct.value, entry.value);
        for s in Symmetry::ALL {
            let twin = s.apply_position(&pos);
            let e = book.lookup(&twin).expect("a twin is found");
            assert_eq!(e.value, direct.value);
            let mut got: Vec<_> = e.moves.iter().map(|m| (m.value, map_move(othello_book::inverse(s), m.mv).to_string())).collect();
            let mut want: Vec<_> = direct.moves.iter().map(|m| (m.value, m.mv.to_string())).collect();
            // A position that is its own image under a symmetry other than the identity has
            // several frames that map it to its canonical key; moves equivalent under that
            // symmetry may then come back exchanged (their leaf values, searched separately,
            // may differ), so only the values are compared there.
            if Symmetry::ALL[1..].iter().any(|t| t.apply_position(&pos) == pos) {
                got.iter_mut().for_each(|m| m.1.clear());
                want.iter_mut().for_each(|m| m.1.clear());
            }
            got.sort();
            want.sort();
            assert_eq!(got, want);
        }
        let (mv, v) = book.choose(&pos, 100, &mut rng).expect("in book");
        assert!(pos.is_legal(mv) || (mv == othello_rules::Move::Pass && pos.must_pass()));
        assert!(v >= entry.value - 100 && v <= entry.value);
    }
}

/// Cut tables of selective search (`othello_eval::CutTable::from_bytes`, the `CUTS` section of
/// a weights file): no panic; an accepted table writes back to the same bytes and answers its
/// model lookups.
pub fn cuts(data: &[u8]) {
    use othello_eval::CutTable;
    let Ok(table) = CutTable::from_bytes(data) else {
        return;
    };
    assert_eq!(table.to_bytes(), data, "an accepted cut table round-trips bit for bit");
    assert_eq!(CutTable::from_bytes(&table.to_bytes()).as_ref(), Ok(&table));
    for (deep, shallow, models) in table.pairs() {
        assert_eq!(models.len(), usize::from(table.phases()));
        for empties in [0, 10, 30, 60] {
            let m = table.model(deep, shallow, empties).expect("a listed pair has a model");
            let _ = (m.predict(0), m.fail_high_bound(100, 2), m.fail_low_bound(-100, 2));
        }
    }
}
