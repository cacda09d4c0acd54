//! Integration tests: every feature against a slow, independent reference computed from
//! black's and white's discs; symmetries; stability soundness by exhaustive play; the text
//! format; and a sanity check that the default evaluation plays better than disc counting.

use othello_eval::{Evaluator, Feature, ParseEvalError, Stability, Weight, WeightedEval, stable_discs};
use othello_rules::random::{play_random_until, random_game};
use othello_rules::reference::Grid;
use othello_rules::{BoardSize, Color, Move, Position, Square, Symmetry};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

// ---------------------------------------------------------------------------------------
// Positions

/// Every position of `games` seeded random games on `size`, finished ones and passes included.
fn random_positions(size: BoardSize, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..games)
        .flat_map(|_| random_game(&Position::start_of(size), &mut rng))
        .collect()
}

fn all_sizes() -> Vec<Position> {
    let mut v = random_positions(BoardSize::Four, 300, 1);
    v.extend(random_positions(BoardSize::Six, 200, 2));
    v.extend(random_positions(BoardSize::Eight, 150, 3));
    v
}

// ---------------------------------------------------------------------------------------
// Slow references, square by square, from black's and white's discs (black minus white).

struct Board {
    n: i32,
    cells: Vec<Option<Color>>,
}

impl Board {
    fn of(pos: &Position) -> Board {
        let g = Grid::from_position(pos);
        Board { n: g.n, cells: g.cells }
    }
    fn inside(&self, c: i32, r: i32) -> bool {
        c >= 0 && r >= 0 && c < self.n && r < self.n
    }
    fn at(&self, c: i32, r: i32) -> Option<Color> {
        self.cells[(r * self.n + c) as usize]
    }
    fn squares(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let n = self.n;
        (0..n).flat_map(move |r| (0..n).map(move |c| (c, r)))
    }
    fn corners(&self) -> [(i32, i32); 4] {
        let m = self.n - 1;
        [(0, 0), (m, 0), (0, m), (m, m)]
    }
}

fn colour_value(c: Option<Color>) -> i32 {
    match c {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => 0,
    }
}

fn ref_discs(pos: &Position) -> i32 {
    Board::of(pos).cells.iter().map(|&c| colour_value(c)).sum()
}

fn ref_mobility(pos: &Position) -> i32 {
    let g = Grid::from_position(pos);
    g.moves_for(Color::Black).len() as i32 - g.moves_for(Color::White).len() as i32
}

fn ref_potential(pos: &Position) -> i32 {
    let b = Board::of(pos);
    let mut v = 0;
    for (c, r) in b.squares() {
        if b.at(c, r).is_some() {
            continue;
        }
        let (mut next_to_black, mut next_to_white) = (false, false);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (x, y) = (c + dc, r + dr);
                if (dc, dr) != (0, 0) && b.inside(x, y) {
                    next_to_black |= b.at(x, y) == Some(Color::Black);
                    next_to_white |= b.at(x, y) == Some(Color::White);
                }
            }
        }
        // An empty square next to a white disc is potential mobility for black.
        v += next_to_white as i32 - next_to_black as i32;
    }
    v
}

fn ref_corners(pos: &Position) -> i32 {
    let b = Board::of(pos);
    b.corners().iter().map(|&(c, r)| colour_value(b.at(c, r))).sum()
}

fn ref_xc(pos: &Position) -> i32 {
    let b = Board::of(pos);
    let mut v = 0;
    for (c, r) in b.corners() {
        if b.at(c, r).is_some() {
            continue;
        }
        let dc = if c == 0 { 1 } else { -1 };
        let dr = if r == 0 { 1 } else { -1 };
        // A black disc on a bad square is a penalty for black: negative black-minus-white.
        v -= 2 * colour_value(b.at(c + dc, r + dr));
        v -= colour_value(b.at(c + dc, r));
        v -= colour_value(b.at(c, r + dr));
    }
    v
}

/// The least fixed point of the stability rule, by repeated sweeps over the squares.
fn ref_stable(pos: &Position) -> Vec<bool> {
    let b = Board::of(pos);
    let n = b.n;
    let mut stable = vec![false; (n * n) as usize];
    let line_full = |c: i32, r: i32, dc: i32, dr: i32| {
        for s in [1, -1] {
            let (mut x, mut y) = (c, r);
            while b.inside(x, y) {
                if b.at(x, y).is_none() {
                    return false;
                }
                x += s * dc;
                y += s * dr;
            }
        }
        true
    };
    loop {
        let mut changed = false;
        for (c, r) in b.squares() {
            let Some(colour) = b.at(c, r) else { continue };
            if stable[(r * n + c) as usize] {
                continue;
            }
            let anchor = |x: i32, y: i32, st: &[bool]| {
                !b.inside(x, y) || (st[(y * n + x) as usize] && b.at(x, y) == Some(colour))
            };
            let safe = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().all(|&(dc, dr)| {
                line_full(c, r, dc, dr) || anchor(c + dc, r + dr, &stable) || anchor(c - dc, r - dr, &stable)
            });
            if safe {
                stable[(r * n + c) as usize] = true;
                changed = true;
            }
        }
        if !changed {
            return stable;
        }
    }
}

fn ref_stability(pos: &Position) -> i32 {
    let b = Board::of(pos);
    let st = ref_stable(pos);
    b.cells
        .iter()
        .zip(&st)
        .map(|(&c, &s)| if s { colour_value(c) } else { 0 })
        .sum()
}

/// The simple edge rule: occupied corners, same-colour runs along an edge from a corner, and
/// every disc of a completely filled edge. Returned as (col, row) squares.
fn ref_edge_anchored(pos: &Position) -> Vec<(i32, i32)> {
    let b = Board::of(pos);
    let m = b.n - 1;
    let mut out = Vec::new();
    for (c, r) in b.corners() {
        let Some(colour) = b.at(c, r) else { continue };
        let dc = if c == 0 { 1 } else { -1 };
        let dr = if r == 0 { 1 } else { -1 };
        for (sc, sr) in [(dc, 0), (0, dr)] {
            let (mut x, mut y) = (c, r);
            while b.inside(x, y) && b.at(x, y) == Some(colour) {
                out.push((x, y));
                x += sc;
                y += sr;
            }
        }
    }
    let edges: [Vec<(i32, i32)>; 4] = [
        (0..=m).map(|i| (i, 0)).collect(),
        (0..=m).map(|i| (i, m)).collect(),
        (0..=m).map(|i| (0, i)).collect(),
        (0..=m).map(|i| (m, i)).collect(),
    ];
    for edge in edges {
        if edge.iter().all(|&(x, y)| b.at(x, y).is_some()) {
            out.extend(edge);
        }
    }
    out
}

fn ref_parity(pos: &Position) -> i32 {
    let e = Board::of(pos).cells.iter().filter(|c| c.is_none()).count();
    match e {
        0 => 0,
        e if e % 2 == 1 => 1,
        _ => -1,
    }
}

/// The reference of a feature that depends only on the discs, black minus white.
fn reference(f: Feature, pos: &Position) -> i32 {
    match f {
        Feature::Discs => ref_discs(pos),
        Feature::Mobility => ref_mobility(pos),
        Feature::Potential => ref_potential(pos),
        Feature::Corners => ref_corners(pos),
        Feature::Xc => ref_xc(pos),
        Feature::Stability => ref_stability(pos),
        Feature::Parity => unreachable!("parity depends on the side to move"),
    }
}

// ---------------------------------------------------------------------------------------
// (1) Perspective, against the absolute references

#[test]
fn features_match_the_black_minus_white_reference_for_both_sides() {
    let positions = all_sizes();
    assert!(positions.len() > 5000);
    for pos in &positions {
        for side in [Color::Black, Color::White] {
            let p = pos.with_side_to_move(side);
            for f in Feature::ALL {
                if f.depends_on_turn() {
                    continue;
                }
                let want = side.sign() * reference(f, &p);
                assert_eq!(f.raw(&p), want, "{f} on {p}");
                assert_eq!(f.evaluate(&p), 100 * want, "{f} on {p}");
            }
        }
    }
}

#[test]
fn parity_is_a_property_of_the_side_to_move() {
    for pos in all_sizes() {
        for side in [Color::Black, Color::White] {
            let p = pos.with_side_to_move(side);
            // Same discs, either side to move: the same value, not the negated one.
            assert_eq!(Feature::Parity.raw(&p), ref_parity(&p), "{p}");
        }
    }
    assert!(Feature::Parity.depends_on_turn());
    assert_eq!(Feature::ALL.iter().filter(|f| f.depends_on_turn()).count(), 1);
}

#[test]
fn every_built_in_evaluator_returns_centi_discs() {
    use othello_eval::{CENTI_DISCS_PER_UNIT, Corners, Discs, Mobility, Parity, PotentialMobility, XcSquares};
    assert_eq!(CENTI_DISCS_PER_UNIT, 100);
    let mut checked = 0;
    for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
        for pos in random_positions(size, 40, 4) {
            // Each feature type: 100 centi-discs per unit of its raw value, and the same as the
            // enum, as the free function on bitboards, and as a bare term of the text form.
            let (p, o) = (pos.player().0, pos.opponent().0);
            let cases: [(&dyn Evaluator, i32, Feature); 7] = [
                (&Discs, Discs.raw(&pos), Feature::Discs),
                (&Mobility, othello_eval::mobility(p, o, size), Feature::Mobility),
                (
                    &PotentialMobility,
                    othello_eval::potential_mobility(p, o, size),
                    Feature::Potential,
                ),
                (&Corners, othello_eval::corners(p, o, size), Feature::Corners),
                (&XcSquares, othello_eval::xc_squares(p, o, size), Feature::Xc),
                (&Stability, Stability.raw(&pos), Feature::Stability),
                (&Parity, othello_eval::parity(pos.empty_count()), Feature::Parity),
            ];
            for (eval, raw, feature) in cases {
                assert_eq!(raw, feature.raw(&pos), "{feature} {pos}");
                assert_eq!(eval.evaluate(&pos), 100 * raw, "{feature} {pos}");
                assert_eq!(feature.evaluate(&pos), 100 * raw, "{feature} {pos}");
                let bare: WeightedEval = feature.name().parse().unwrap();
                assert_eq!(bare.evaluate(&pos), 100 * raw, "{feature} {pos}");
                checked += usize::from(raw != 0);
            }
            assert_eq!(Discs.raw(&pos), pos.disc_difference());
            // A finished game: the disc evaluator has the sign and, with no empties, the value
            // of the exact score in centi-discs.
            if pos.is_game_over() && pos.empty_count() == 0 {
                assert_eq!(Discs.evaluate(&pos), 100 * pos.final_score());
            }
        }
    }
    assert!(checked > 100, "too few non-zero raw values: {checked}");
    // The combinations: the text form's weights are centi-discs per unit, the default is tuned
    // in centi-discs (an estimate of the final score x100, compared with exact scores in
    // the tuning tool); a reference, a box and an Arc forward unchanged.
    let pos = Position::start().play("f5".parse().unwrap()).unwrap();
    assert_eq!("discs*100".parse::<WeightedEval>().unwrap().evaluate(&pos), -300);
    assert_eq!("discs".parse::<WeightedEval>().unwrap().to_string(), "discs");
    assert_eq!("discs*1".parse::<WeightedEval>().unwrap().evaluate(&pos), -3);
    let d = WeightedEval::default();
    let v = d.evaluate(&pos);
    assert_eq!(Evaluator::evaluate(&&d, &pos), v);
    assert_eq!(Box::new(d.clone()).evaluate(&pos), v);
    assert_eq!(std::sync::Arc::new(d).evaluate(&pos), v);
}

// ---------------------------------------------------------------------------------------
// (2) Symmetries

#[test]
fn symmetries_leave_every_feature_unchanged() {
    let default = WeightedEval::default();
    let all = WeightedEval::from_terms(Feature::ALL.map(|f| (f, Weight::phased(3 + f as i32, 11 - f as i32))));
    for pos in all_sizes().iter().step_by(3) {
        for s in Symmetry::ALL {
            let t = s.apply_position(pos);
            for f in Feature::ALL {
                assert_eq!(f.raw(&t), f.raw(pos), "{f} {s:?} {pos}");
            }
            assert_eq!(default.evaluate(&t), default.evaluate(pos));
            assert_eq!(all.evaluate(&t), all.evaluate(pos));
        }
    }
}

// ---------------------------------------------------------------------------------------
// (3) Finished games

#[test]
fn disc_difference_has_the_sign_of_the_final_score_at_the_end() {
    let mut finished = 0;
    for pos in all_sizes() {
        if pos.is_game_over() {
            finished += 1;
            assert_eq!(Feature::Discs.raw(&pos).signum(), pos.final_score().signum(), "{pos}");
        }
    }
    assert_eq!(finished, 300 + 200 + 150);
}

// ---------------------------------------------------------------------------------------
// (4) Stability: sound (exhaustive play) and not trivially low

/// Plays every continuation of `pos` (passes included) and returns the squares whose disc
/// changes colour somewhere below it. At every node, checks that no disc it reports stable is
/// among them. Counts nodes in `nodes`.
fn changed_below(pos: &Position, nodes: &mut u64) -> u64 {
    *nodes += 1;
    let mut changed = 0;
    for mv in pos.moves() {
        let flipped = match mv {
            Move::Place(sq) => pos.flips(sq).0,
            Move::Pass => 0,
        };
        changed |= flipped | changed_below(&pos.play(mv).unwrap(), nodes);
    }
    let stable = stable_discs(pos.player().0, pos.opponent().0, pos.size());
    assert_eq!(stable & changed, 0, "a stable disc flips in a continuation of {pos}");
    changed
}

/// A position `empties` squares before the end of a seeded random game (or an earlier
/// position if the game ends sooner).
fn late_position(size: BoardSize, empties: u32, rng: &mut SmallRng) -> Position {
    play_random_until(&Position::start_of(size), rng, |p| p.empty_count() <= empties)
}

#[test]
fn stable_discs_never_flip_in_the_whole_4x4_game_tree() {
    let mut nodes = 0;
    changed_below(&Position::start_of(BoardSize::Four), &mut nodes);
    assert!(nodes > 10_000, "{nodes}");
}

#[test]
fn stable_discs_never_flip_in_any_continuation_6x6_and_8x8() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut nodes = 0;
    let mut stable_found = 0;
    for (size, empties, count) in [(BoardSize::Six, 9, 40), (BoardSize::Eight, 8, 40)] {
        for _ in 0..count {
            let pos = late_position(size, empties, &mut rng);
            stable_found += stable_discs(pos.player().0, pos.opponent().0, size).count_ones();
            changed_below(&pos, &mut nodes);
        }
    }
    assert!(stable_found > 200, "the check is vacuous: {stable_found} stable discs");
    assert!(nodes > 50_000, "{nodes}");
}

#[test]
fn stable_discs_include_the_edge_anchored_ones() {
    let mut with_stable = 0;
    for pos in all_sizes() {
        let fast = stable_discs(pos.player().0, pos.opponent().0, pos.size());
        let edge = ref_edge_anchored(&pos);
        if !edge.is_empty() {
            with_stable += 1;
        }
        for (c, r) in edge {
            let sq = Square::from_coords(c as u8, r as u8).unwrap();
            assert!(fast >> sq.index() & 1 == 1, "{sq} is edge-anchored in {pos}");
        }
        // Exactly the slow fixed point, not only a superset of the edge rule.
        let slow = ref_stable(&pos);
        let n = pos.size().side();
        for sq in pos.size().mask() {
            let i = sq.row() as usize * n as usize + sq.col() as usize;
            assert_eq!(fast >> sq.index() & 1 == 1, slow[i], "{sq} in {pos}");
        }
    }
    assert!(with_stable > 1000, "{with_stable}");
}

#[test]
fn filled_corner_region_is_stable() {
    // Black holds the triangle a1 b1 c1 a2 b2 a3, plus c2 and e5; white holds d4. The triangle
    // is stable; c2 is not (white on a4 then d1 would flip c2 and b3 if b3 were black, and
    // nothing yet protects its h1-a8 diagonal); neither is e5.
    let sq = |s: &str| s.parse::<Square>().unwrap().bit();
    let triangle = ["a1", "b1", "c1", "a2", "b2", "a3"].iter().fold(0, |b, s| b | sq(s));
    let black = triangle | sq("c2") | sq("e5");
    let pos = Position::from_raw_unchecked(black, sq("d4"), Color::Black, BoardSize::Eight);
    assert_eq!(stable_discs(pos.player().0, pos.opponent().0, pos.size()), triangle);
    // Filling the whole diagonal through c2 (b3, a4 black; d1 white) makes it stable too.
    let black = black | sq("b3") | sq("a4");
    let pos = Position::from_raw_unchecked(black, sq("d4") | sq("d1"), Color::Black, BoardSize::Eight);
    let s = stable_discs(pos.player().0, pos.opponent().0, pos.size());
    assert_eq!(s & black, triangle | sq("c2") | sq("b3") | sq("a4"));
}

// ---------------------------------------------------------------------------------------
// (5) The weighted combination and its text form

#[test]
fn weighted_eval_is_the_interpolated_sum_of_its_features() {
    let mut rng = SmallRng::seed_from_u64(6);
    let positions = all_sizes();
    for _ in 0..40 {
        let mut e = WeightedEval::new();
        for f in Feature::ALL {
            if rng.random_range(0..3) > 0 {
                e.set(
                    f,
                    Weight::phased(rng.random_range(-500..500), rng.random_range(-500..500)),
                );
            }
        }
        for pos in positions.iter().step_by(7) {
            let want: i32 = e
                .terms()
                .iter()
                .map(|&(f, w)| w.at(pos.size(), pos.empty_count()) * f.raw(pos))
                .sum();
            assert_eq!(e.evaluate(pos), want, "{e} on {pos}");
        }
    }
}

#[test]
fn interpolation_reaches_both_ends() {
    let e: WeightedEval = "discs*0/100".parse().unwrap();
    for pos in all_sizes() {
        let full = pos.size().squares() - 4;
        if pos.empty_count() == 0 {
            assert_eq!(e.evaluate(&pos), 100 * pos.disc_difference());
            assert_eq!(e.evaluate(&pos), 100 * pos.final_score());
        }
        if pos.empty_count() == full {
            assert_eq!(e.evaluate(&pos), 0);
        }
    }
    let w: Weight = "80/40".parse().unwrap();
    assert_eq!((w.start(), w.end()), (80, 40));
    for size in BoardSize::ALL {
        assert_eq!(w.at(size, size.squares() - 4), 80);
        assert_eq!(w.at(size, 0), 40);
        assert_eq!(w.at(size, (size.squares() - 4) / 2), 60);
    }
    let e: WeightedEval = "corners*80/40".parse().unwrap();
    assert_eq!(e.weights_at(BoardSize::Six, 32)[Feature::Corners as usize], 80);
    assert_eq!(e.weights_at(BoardSize::Six, 0)[Feature::Corners as usize], 40);
}

#[test]
fn text_round_trips() {
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..500 {
        let mut features = Feature::ALL.to_vec();
        let mut terms = Vec::new();
        while !features.is_empty() && (terms.is_empty() || rng.random_range(0..4) > 0) {
            let f = features.swap_remove(rng.random_range(0..features.len()));
            let w = match rng.random_range(0..3) {
                0 => Weight::constant(othello_eval::CENTI_DISCS_PER_UNIT),
                1 => Weight::constant(rng.random_range(-Weight::MAX..=Weight::MAX)),
                _ => Weight::phased(rng.random_range(-1000..1000), rng.random_range(-1000..1000)),
            };
            terms.push((f, w));
        }
        let e = WeightedEval::from_terms(terms.clone());
        let text = e.to_string();
        assert!(
            !text.contains(',') && !text.contains('=') && !text.contains(' '),
            "{text}"
        );
        let back: WeightedEval = text.parse().unwrap();
        assert_eq!(back, e, "{text}");
        assert_eq!(back.terms(), &terms[..]);
        assert_eq!(back.to_string(), text);
    }
    let zero = WeightedEval::new();
    assert_eq!(zero.to_string().parse::<WeightedEval>().unwrap(), zero);
}

#[test]
fn text_accepts_the_documented_forms() {
    let e: WeightedEval = "mobility*10+corners*80/40+discs*0/30".parse().unwrap();
    assert_eq!(
        e.terms(),
        &[
            (Feature::Mobility, Weight::constant(10)),
            (Feature::Corners, Weight::phased(80, 40)),
            (Feature::Discs, Weight::phased(0, 30)),
        ]
    );
    let e: WeightedEval = "Mob + frontier*-5 + stable*2/-3 + xc + parity*0".parse().unwrap();
    assert_eq!(e.to_string(), "mobility+potential*-5+stability*2/-3+xc+parity*0");
    assert_eq!("default".parse::<WeightedEval>().unwrap(), WeightedEval::default());
}

#[test]
fn text_errors_name_the_bad_token() {
    let cases: [(&str, ParseEvalError); 8] = [
        ("", ParseEvalError::Empty),
        ("mobilty*3", ParseEvalError::UnknownFeature("mobilty".into())),
        ("mobility*abc", ParseEvalError::BadWeight("abc".into())),
        ("mobility*1/2/3", ParseEvalError::BadWeight("1/2/3".into())),
        ("mobility*", ParseEvalError::BadWeight("".into())),
        (
            "mobility++corners",
            ParseEvalError::EmptyTerm("mobility++corners".into()),
        ),
        ("corners*2000000", ParseEvalError::WeightOutOfRange("2000000".into())),
        (
            "corners+mobility+corners*2",
            ParseEvalError::DuplicateFeature("corners".into()),
        ),
    ];
    for (text, want) in cases {
        let got = text.parse::<WeightedEval>().unwrap_err();
        assert_eq!(got, want, "{text:?}");
    }
    let msg = "mobility,depth=3".parse::<WeightedEval>().unwrap_err().to_string();
    assert!(msg.contains("mobility,depth"), "{msg}");
    let msg = "discs*1/x".parse::<WeightedEval>().unwrap_err().to_string();
    assert!(msg.contains("1/x"), "{msg}");
}

// ---------------------------------------------------------------------------------------
// The default is a sensible evaluation

/// Negamax to `depth` discs placed with `eval` at the leaves; finished games score exactly.
fn negamax<E: Evaluator>(pos: &Position, depth: u32, eval: &E) -> i32 {
    if pos.is_game_over() {
        return 100 * pos.final_score();
    }
    if depth == 0 {
        return eval.evaluate(pos);
    }
    if pos.must_pass() {
        return -negamax(&pos.pass_unchecked(), depth, eval);
    }
    pos.legal_moves()
        .into_iter()
        .map(|sq| -negamax(&pos.play_unchecked(Move::Place(sq)), depth - 1, eval))
        .max()
        .unwrap()
}

fn best_move<E: Evaluator>(pos: &Position, eval: &E) -> Move {
    let moves = pos.moves();
    if moves == [Move::Pass] {
        return Move::Pass;
    }
    let mut best = (i32::MIN, moves[0]);
    for mv in moves {
        let v = -negamax(&pos.play_unchecked(mv), 1, eval);
        if v > best.0 {
            best = (v, mv);
        }
    }
    best.1
}

#[test]
fn default_beats_disc_counting_at_two_plies() {
    let default = WeightedEval::default();
    let greedy: WeightedEval = "discs".parse().unwrap();
    let mut rng = SmallRng::seed_from_u64(8);
    let (mut wins, mut games) = (0, 0);
    for _ in 0..20 {
        let opening = late_position(BoardSize::Eight, 56, &mut rng);
        for default_plays in [Color::Black, Color::White] {
            let mut pos = opening;
            while !pos.is_game_over() {
                let mv = if pos.side_to_move() == default_plays {
                    best_move(&pos, &default)
                } else {
                    best_move(&pos, &greedy)
                };
                pos = pos.play(mv).unwrap();
            }
            games += 1;
            wins += (pos.final_score_black() * default_plays.sign() > 0) as u32;
        }
    }
    assert!(wins * 4 >= games * 3, "default won {wins} of {games}");
}

// ---------------------------------------------------------------------------------------
// Evaluation given the legal squares

/// An evaluation that reads the legal squares it is given (to see them forwarded).
struct CountsMoves;

impl Evaluator for CountsMoves {
    fn evaluate(&self, pos: &Position) -> i32 {
        pos.legal_moves().0.count_ones() as i32
    }
    fn evaluate_with_moves(&self, _pos: &Position, moves: u64) -> i32 {
        1000 + moves.count_ones() as i32
    }
}

/// The default `evaluate_with_moves` is `evaluate` (for every feature and the weighted sum),
/// and the references and smart pointers forward it to the evaluation's own.
#[test]
fn evaluate_with_moves_is_evaluate_and_is_forwarded() {
    let weighted = WeightedEval::default();
    for pos in random_positions(BoardSize::Eight, 4, 77)
        .into_iter()
        .chain(random_positions(BoardSize::Six, 2, 78))
    {
        let moves = pos.legal_moves().0;
        assert_eq!(
            weighted.evaluate_with_moves(&pos, moves),
            weighted.evaluate(&pos),
            "{pos}"
        );
        for f in Feature::ALL {
            assert_eq!(f.evaluate_with_moves(&pos, moves), f.evaluate(&pos), "{f:?} {pos}");
        }
    }
    let pos = Position::start();
    let moves = pos.legal_moves().0;
    assert_eq!(CountsMoves.evaluate(&pos), 4);
    let by_ref = &CountsMoves;
    assert_eq!(Evaluator::evaluate_with_moves(&by_ref, &pos, moves), 1004);
    let boxed: Box<dyn Evaluator> = Box::new(CountsMoves);
    assert_eq!(boxed.evaluate_with_moves(&pos, moves), 1004);
    let shared = std::sync::Arc::new(CountsMoves);
    assert_eq!(shared.evaluate_with_moves(&pos, moves), 1004);
}
