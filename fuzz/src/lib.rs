//! The bodies of the fuzz targets, shared by the libFuzzer binaries (`fuzz_targets/`) and by the
//! corpus smoke test (`tests/corpus.rs`), which runs them over the committed corpus as ordinary
//! tests on stable Rust. Each body panics on a broken property; returning is a pass.

use othello_cli::nboard::{SessionConfig, searcher_from_spec, serve};
use othello_cli::spec::Spec;
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
    if let Ok(spec) = text.parse::<Spec>() {
        assert!(!spec.name.is_empty());
        let _ = othello_cli::engine::Engine::from_spec(spec);
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

/// GGF game records: the NBoard `set game` parser (on success the position is valid) and the
/// rules crate's `GgfGame` (parse, print, parse gives the same game, and prints the same text).
pub fn ggf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = othello_cli::nboard::parse_ggf(&text) {
        check_position(&p);
    }
    if let Ok(game) = text.parse::<othello_rules::GgfGame>() {
        let printed = game.to_string();
        let again: othello_rules::GgfGame = printed.parse().expect("a printed GGF game parses");
        assert_eq!(again.to_string(), printed);
        assert_eq!(format!("{again:?}"), format!("{game:?}"), "{printed}");
    }
}

/// A whole NBoard session read from the input, as bytes. `set depth` is capped at 3 so that
/// no input searches for long; the session must end (it always does at the end of the input).
pub fn nboard(data: &[u8]) {
    let (searcher, _) = searcher_from_spec("pvs:tt=1").expect("a valid spec");
    let config = SessionConfig {
        depth: 1,
        max_depth: 3,
        diagnostics: false,
        drain_input: true,
    };
    serve(searcher, config, std::io::Cursor::new(data.to_vec()), std::io::sink());
}

/// The pattern evaluation's weights file (`othello_pattern::Weights::from_bytes`): any bytes are
/// refused with a typed error or accepted; an accepted file of the current pattern set prints
/// back to the same bytes, a file of an older set is written in the current set with the same
/// scores (and that file round-trips), and the evaluator scores a position without panicking.
pub fn weights(data: &[u8]) {
    if let Ok(w) = othello_pattern::Weights::from_bytes(data) {
        let bytes = w.to_bytes();
        let eval = othello_pattern::PatternEval::new(&w);
        let score = othello_eval::Evaluator::evaluate(&eval, &Position::start());
        if data[12..16] == othello_pattern::PATTERN_SET_ID.to_le_bytes() {
            assert_eq!(bytes, data, "an accepted weights file round-trips bit for bit");
        } else {
            let again = othello_pattern::Weights::from_bytes(&bytes).expect("a converted file is accepted");
            assert_eq!(
                again.to_bytes(),
                bytes,
                "a converted weights file round-trips bit for bit"
            );
            let eval = othello_pattern::PatternEval::new(&again);
            let converted = othello_eval::Evaluator::evaluate(&eval, &Position::start());
            assert_eq!(converted, score, "a converted weights file scores the same");
        }
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
