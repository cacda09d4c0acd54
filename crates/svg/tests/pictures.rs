//! The pictures parsed as XML (every disc and mark where the position says) and a board
//! rendered to pixels with resvg (a disc's colour where a disc is, the board's green where a
//! square is empty).

use othello_rules::{Bitboard, BoardSize, Color, Move, Position, Square};
use othello_svg::{BoardPicture, MatchPlot, MatchPoint};
use std::collections::BTreeSet;

/// A small deterministic generator (xorshift64*), so the positions are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions from random games of every size, with the move that led to each (`None` at the
/// start and after a pass).
fn random_positions(count: usize) -> Vec<(Position, Option<Square>)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for i in 0..count {
        let size = BoardSize::ALL[i % 3];
        let mut pos = Position::start_of(size);
        let mut last = None;
        let plies = rng.below(size.squares() as usize);
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let moves = pos.moves();
            let mv = moves[rng.below(moves.len())];
            pos = pos.play(mv).unwrap();
            last = mv.square();
        }
        out.push((pos, last));
    }
    out
}

/// The squares named by the `data-square` of the elements whose `class` is `class`.
fn squares_of(doc: &roxmltree::Document<'_>, class: &str) -> BTreeSet<Square> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| {
            n.attribute("data-square")
                .expect("a mark names its square")
                .parse()
                .unwrap()
        })
        .collect()
}

fn count_class(doc: &roxmltree::Document<'_>, class: &str) -> usize {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .count()
}

fn set(b: Bitboard) -> BTreeSet<Square> {
    b.into_iter().collect()
}

#[test]
fn discs_and_marks_match_the_position() {
    for (pos, last) in random_positions(300) {
        let svg = BoardPicture::new(&pos).last_move(last).to_svg().unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{pos}: {e}\n{svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
        assert_eq!(squares_of(&doc, "disc black"), set(pos.black()), "{pos}");
        assert_eq!(squares_of(&doc, "disc white"), set(pos.white()), "{pos}");
        assert_eq!(count_class(&doc, "disc black"), pos.black().count() as usize);
        assert_eq!(count_class(&doc, "disc white"), pos.white().count() as usize);
        assert_eq!(squares_of(&doc, "legal"), set(pos.legal_moves()), "{pos}");
        assert_eq!(count_class(&doc, "legal"), pos.legal_moves().count() as usize);
        assert_eq!(squares_of(&doc, "last-move"), last.into_iter().collect(), "{pos}");
        let n = pos.size().side() as usize;
        assert_eq!(count_class(&doc, "coord"), 2 * n);
        // Without legal marks: none drawn.
        let plain = BoardPicture::new(&pos).legal(false).to_svg().unwrap();
        let doc = roxmltree::Document::parse(&plain).unwrap();
        assert_eq!(count_class(&doc, "legal"), 0);
    }
}

#[test]
fn values_and_the_variation_mark_their_squares() {
    let mut rng = Rng(7);
    for (pos, _) in random_positions(150) {
        let legal = set(pos.legal_moves());
        let values: Vec<(Square, i32)> = legal.iter().map(|&sq| (sq, rng.below(129) as i32 - 64)).collect();
        // A variation of up to six random legal moves.
        let mut pv = Vec::new();
        let mut p = pos;
        for _ in 0..6 {
            if p.is_game_over() {
                break;
            }
            let moves = p.moves();
            let mv = moves[rng.below(moves.len())];
            pv.push(mv);
            p = p.play(mv).unwrap();
        }
        let svg = BoardPicture::new(&pos).values(values.clone()).to_svg().unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(squares_of(&doc, "value"), legal, "{pos}");
        assert_eq!(squares_of(&doc, "legal"), legal, "{pos}");
        for node in doc.descendants().filter(|n| n.attribute("class") == Some("value")) {
            let sq: Square = node.attribute("data-square").unwrap().parse().unwrap();
            let want = values.iter().find(|v| v.0 == sq).unwrap().1;
            assert_eq!(node.text(), Some(format!("{want:+}").as_str()), "{pos} {sq}");
        }
        // The highest value (and only it) is bold.
        if let Some(best) = values.iter().map(|v| v.1).max() {
            let bold: BTreeSet<Square> = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("value") && n.attribute("font-weight") == Some("bold"))
                .map(|n| n.attribute("data-square").unwrap().parse().unwrap())
                .collect();
            let want: BTreeSet<Square> = values.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
            assert_eq!(bold, want);
        }

        let svg = BoardPicture::new(&pos).pv(&pv).to_svg().unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        // One numbered disc per distinct square of the variation, numbered by its first ply,
        // filled with the mover's colour.
        let mut first: Vec<(Square, usize, Color)> = Vec::new();
        let mut p = pos;
        for (i, &mv) in pv.iter().enumerate() {
            if let Move::Place(sq) = mv
                && !first.iter().any(|f| f.0 == sq)
            {
                first.push((sq, i + 1, p.side_to_move()));
            }
            p = p.play(mv).unwrap();
        }
        assert_eq!(count_class(&doc, "pv"), first.len(), "{pos}");
        for g in doc.descendants().filter(|n| n.attribute("class") == Some("pv")) {
            let sq: Square = g.attribute("data-square").unwrap().parse().unwrap();
            let &(_, ply, mover) = first.iter().find(|f| f.0 == sq).unwrap();
            let text = g.descendants().find(|n| n.has_tag_name("text")).unwrap();
            assert_eq!(text.text(), Some(ply.to_string().as_str()));
            let circle = g.descendants().find(|n| n.has_tag_name("circle")).unwrap();
            let fill = if mover == Color::Black { "#111111" } else { "#f5f5f5" };
            assert_eq!(circle.attribute("fill"), Some(fill));
        }
        // The captions list the whole line, passes included (wrapped to the board's width).
        if !pv.is_empty() {
            let line: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
            let want = format!("PV {}", line.join(" "));
            let captions: Vec<&str> = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("caption"))
                .filter_map(|n| n.text())
                .skip(1)
                .collect();
            let got = captions.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(got, want);
        }
    }
}

#[test]
fn a_title_is_escaped() {
    let svg = BoardPicture::new(&Position::start())
        .title("#1 <a & b>")
        .to_svg()
        .unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("title"))
        .unwrap();
    assert_eq!(title.text(), Some("#1 <a & b>"));
}

/// The pixel at (x, y) of a rendering, as RGB.
fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let p = pixmap.pixel(x, y).unwrap().demultiply();
    (p.red(), p.green(), p.blue())
}

fn near(got: (u8, u8, u8), want: (u8, u8, u8)) -> bool {
    got.0.abs_diff(want.0) <= 8 && got.1.abs_diff(want.1) <= 8 && got.2.abs_diff(want.2) <= 8
}

#[test]
fn a_board_renders_to_the_right_pixels() {
    // After f5 d6: black on e4 e5 f5, white on d4 d5 d6, black to move; d6 is the last move.
    let pos = Position::start()
        .play("f5".parse().unwrap())
        .unwrap()
        .play("d6".parse().unwrap())
        .unwrap();
    let d6: Square = "d6".parse().unwrap();
    let svg = BoardPicture::new(&pos).last_move(d6).to_svg().unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let board = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("board"))
        .unwrap();
    let num = |n: roxmltree::Node<'_, '_>, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let (bx, by, side) = (num(board, "x"), num(board, "y"), num(board, "width"));
    let cell = side / 8.0;
    // A point of square `sq` at (fx, fy) of the cell (0.5, 0.5 is the centre).
    let at = |sq: &str, fx: f64, fy: f64| {
        let sq: Square = sq.parse().unwrap();
        (
            (bx + (f64::from(sq.col()) + fx) * cell) as u32,
            (by + (f64::from(sq.row()) + fy) * cell) as u32,
        )
    };

    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());

    let green = (0x1e, 0x7b, 0x3c);
    let black = (0x11, 0x11, 0x11);
    let white = (0xf5, 0xf5, 0xf5);
    let red = (0xe5, 0x39, 0x35);
    // Discs where the position has them (off the centre, clear of the last-move dot).
    for sq in ["e4", "e5", "f5"] {
        let (x, y) = at(sq, 0.5, 0.3);
        assert!(near(pixel(&pixmap, x, y), black), "{sq}: {:?}", pixel(&pixmap, x, y));
    }
    for sq in ["d4", "d5", "d6"] {
        let (x, y) = at(sq, 0.5, 0.3);
        assert!(near(pixel(&pixmap, x, y), white), "{sq}: {:?}", pixel(&pixmap, x, y));
    }
    // The last move's dot on d6.
    let (x, y) = at("d6", 0.5, 0.5);
    assert!(near(pixel(&pixmap, x, y), red), "{:?}", pixel(&pixmap, x, y));
    // Empty squares are the board's green, at the centre and near a corner.
    for sq in ["a1", "h8", "b7", "g2", "f6"] {
        assert!(!pos.legal_moves().contains(sq.parse().unwrap()), "{sq}");
        for (fx, fy) in [(0.5, 0.5), (0.2, 0.2)] {
            let (x, y) = at(sq, fx, fy);
            assert!(near(pixel(&pixmap, x, y), green), "{sq}: {:?}", pixel(&pixmap, x, y));
        }
    }
    // A legal move (c3 for black) is darker than the green at its centre, green near its edge.
    assert!(pos.is_legal("c3".parse().unwrap()));
    let (x, y) = at("c3", 0.5, 0.5);
    let dot = pixel(&pixmap, x, y);
    assert!(dot.1 < green.1 - 20 && !near(dot, green), "{dot:?}");
    let (x, y) = at("c3", 0.15, 0.15);
    assert!(near(pixel(&pixmap, x, y), green));
}

#[test]
fn a_match_plot_is_well_formed() {
    let points: Vec<MatchPoint> = (1..=25)
        .map(|k| MatchPoint {
            games: 2 * k,
            elo: if k == 1 { None } else { Some(30.0 + 100.0 / k as f64) },
            elo_low: (k > 2).then(|| 30.0 - 400.0 / k as f64),
            elo_high: (k > 2).then(|| 30.0 + 600.0 / k as f64),
            llr: Some(0.1 * k as f64),
        })
        .collect();
    let svg = MatchPlot::new(points)
        .llr_bounds(-2.944, 2.944)
        .pentanomial([1, 3, 10, 8, 3])
        .title("pvs:depth=4 vs pvs:depth=3")
        .to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let elo = doc.descendants().find(|n| n.attribute("class") == Some("elo")).unwrap();
    assert_eq!(elo.attribute("points").unwrap().split(' ').count(), 24);
    let band = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("elo-interval"))
        .unwrap();
    assert_eq!(band.attribute("points").unwrap().split(' ').count(), 2 * 23);
    let llr = doc.descendants().find(|n| n.attribute("class") == Some("llr")).unwrap();
    assert_eq!(llr.attribute("points").unwrap().split(' ').count(), 25);
    assert_eq!(count_class(&doc, "llr-bound"), 2);
    let penta = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("pentanomial"))
        .unwrap();
    assert_eq!(
        penta.text(),
        Some("pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2): 1 3 10 8 3")
    );
    // The upper bound lies above the lower one on the page (smaller y).
    let ys: Vec<f64> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("llr-bound"))
        .map(|n| n.attribute("y1").unwrap().parse().unwrap())
        .collect();
    assert!(ys[1] < ys[0], "{ys:?}");
    // resvg reads it too.
    assert!(resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).is_ok());
}

/// The `y` of a node as a number.
fn y_of(node: roxmltree::Node<'_, '_>, attr: &str) -> f64 {
    node.attribute(attr).unwrap().parse().unwrap()
}

#[test]
fn a_match_plot_keeps_its_parts_apart() {
    let points: Vec<MatchPoint> = (1..=10)
        .map(|k| MatchPoint {
            games: 2 * k,
            elo: Some(50.0),
            elo_low: Some(0.0),
            elo_high: Some(100.0),
            llr: Some(0.2 * k as f64),
        })
        .collect();
    for plot in [
        MatchPlot::new(points.clone())
            .llr_bounds(-2.944, 2.944)
            .pentanomial([1, 2, 3, 2, 2]),
        MatchPlot::new(points.clone()),
    ] {
        let svg = plot.to_svg();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let height: f64 = y_of(doc.root_element(), "height");
        // The header's last line is well above the first panel's label, which is above its
        // frame; the second panel starts below the first one's axis labels; all on the page.
        let header = doc
            .descendants()
            .filter(|n| matches!(n.attribute("class"), Some("summary" | "pentanomial")))
            .map(|n| y_of(n, "y"))
            .fold(0.0, f64::max);
        let panels: Vec<roxmltree::Node<'_, '_>> = doc
            .descendants()
            .filter(|n| matches!(n.attribute("class"), Some("elo-panel" | "llr-panel")))
            .collect();
        assert_eq!(panels.len(), 2);
        let mut last_bottom = header;
        for panel in panels {
            let frame = panel.children().find(|n| n.has_tag_name("rect")).unwrap();
            let (top, bottom) = (y_of(frame, "y"), y_of(frame, "y") + y_of(frame, "height"));
            let label = panel.children().rfind(|n| n.has_tag_name("text")).unwrap();
            let label_y = y_of(label, "y");
            assert!(
                label_y - last_bottom >= 14.0,
                "label at {label_y}, above it {last_bottom}"
            );
            assert!(label_y < top, "label at {label_y}, frame at {top}");
            // The tick labels and the axis name sit under the frame.
            let lowest = panel
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| y_of(n, "y"))
                .fold(0.0, f64::max);
            assert!(lowest > bottom && lowest < height, "{lowest} {bottom} {height}");
            last_bottom = lowest;
        }
    }
}
