//! Integration tests of the MCTS player: turns, passes, terminal nodes, rewards against exact
//! solutions, reproducibility, reuse, limits, parallel merging and strength.

use othello_mcts::{Limits, Mcts, MctsConfig, PlayoutPolicy, Tree, playout, random_playout};
use othello_rules::random::{play_random_until, random_move};
use othello_rules::{Bitboard, BoardSize, Color, Move, Position, Square};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn config(seed: u64) -> MctsConfig {
    MctsConfig::default().with_seed(seed)
}

/// Plain negamax with alpha-beta on the checked API: the exact final score from the side to
/// move (empties to the winner).
fn solve(pos: &Position, mut alpha: i32, beta: i32) -> i32 {
    let moves = pos.moves();
    if moves.is_empty() {
        return pos.final_score();
    }
    let mut best = -65;
    for m in moves {
        let v = -solve(&pos.play(m).unwrap(), -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn exact(pos: &Position) -> i32 {
    solve(pos, -65, 65)
}

/// Plays uniformly random moves from the start of `size` until `stop` says so (or the game
/// ends).
fn random_game(size: BoardSize, rng: &mut SmallRng, stop: impl FnMut(&Position) -> bool) -> Position {
    play_random_until(&Position::start_of(size), rng, stop)
}

/// The obvious playout on the checked API, drawing from the generator exactly as documented
/// for the fast one (the `k`-th legal square in index order for `k = random_range(0..count)`;
/// a pass draws nothing; with `CornersFirst`, one `random::<f64>()` when a corner is legal).
fn reference_playout(pos: &Position, policy: PlayoutPolicy, rng: &mut SmallRng) -> i32 {
    let mut p = *pos;
    loop {
        let moves = p.moves();
        if moves.is_empty() {
            return p.final_score() * p.side_to_move().sign() * pos.side_to_move().sign();
        }
        if moves == [Move::Pass] {
            p = p.play(Move::Pass).unwrap();
            continue;
        }
        let corners: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| p.size().corners().contains(m.square().unwrap()))
            .collect();
        let from = match policy {
            PlayoutPolicy::CornersFirst { epsilon } if !corners.is_empty() && rng.random::<f64>() >= epsilon => corners,
            _ => moves,
        };
        p = p.play(from[rng.random_range(0..from.len() as u32) as usize]).unwrap();
    }
}

#[test]
fn fast_playouts_replay_the_reference_playout() {
    let mut rng = SmallRng::seed_from_u64(11);
    let policies = [
        PlayoutPolicy::Random,
        PlayoutPolicy::CornersFirst { epsilon: 0.2 },
        PlayoutPolicy::CornersFirst { epsilon: 0.0 },
    ];
    for size in BoardSize::ALL {
        for i in 0..300 {
            let plies = rng.random_range(0..size.squares() as usize);
            let mut n = 0;
            let pos = random_game(size, &mut rng, |_| {
                n += 1;
                n > plies
            });
            let policy = policies[i % 3];
            let seed = rng.random::<u64>();
            let fast = playout(&pos, policy, &mut SmallRng::seed_from_u64(seed));
            let slow = reference_playout(&pos, policy, &mut SmallRng::seed_from_u64(seed));
            assert_eq!(fast, slow, "{pos} {policy:?}");
            if policy == PlayoutPolicy::Random {
                assert_eq!(random_playout(&pos, &mut SmallRng::seed_from_u64(seed)), slow);
            }
            if pos.is_game_over() {
                assert_eq!(fast, pos.final_score());
            }
        }
    }
}

#[test]
fn the_start_position_has_the_four_opening_moves() {
    let start = Position::start();
    let mut mcts = Mcts::new(config(1));
    let r = mcts.search(&start, &Limits::nodes(500));
    let moves: Vec<Move> = r.stats.root_children.iter().map(|c| c.0).collect();
    assert_eq!(moves, vec![mv("d3"), mv("c4"), mv("f5"), mv("e6")]);
    assert_eq!(
        [sq("d3"), sq("c4"), sq("f5"), sq("e6")].map(Square::index),
        [19, 26, 37, 44]
    );
    assert!(moves.contains(&r.best_move));
    assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), 500);
    let tree = mcts.tree().unwrap();
    assert_eq!(*tree.position(tree.root()), start);
    for c in tree.children(tree.root()) {
        let m = tree.incoming_move(c).unwrap();
        assert_eq!(*tree.position(c), start.play(m).unwrap());
        assert_eq!(tree.position(c).disc_counts(), (4, 1));
        assert_eq!(tree.mover(c), Color::Black);
        assert_eq!(tree.position(c).side_to_move(), Color::White);
    }
}

#[test]
fn a_move_flipping_in_three_directions_builds_the_right_child() {
    // Black d4 flanks e4 (east, to f4), d5 (south, to d6) and e5 (south-east, to f6); b2/b3 give
    // black a second move (b1), so the search does not return at once.
    let black = Bitboard(sq("f4").bit() | sq("d6").bit() | sq("f6").bit() | sq("b3").bit());
    let white = Bitboard(sq("e4").bit() | sq("d5").bit() | sq("e5").bit() | sq("b2").bit());
    let pos = Position::from_discs(black, white, Color::Black, BoardSize::Eight).unwrap();
    assert!(pos.legal_moves().count() >= 2);
    let mut mcts = Mcts::new(config(2));
    mcts.search(&pos, &Limits::nodes(300));
    let tree = mcts.tree().unwrap();
    let child = tree.child(tree.root(), mv("d4")).expect("every root move is expanded");
    let after = tree.position(child);
    let flipped = Bitboard(sq("e4").bit() | sq("d5").bit() | sq("e5").bit());
    assert_eq!(after.black(), black | flipped | Bitboard(sq("d4").bit()));
    assert_eq!(after.white(), Bitboard(sq("b2").bit()));
    assert_eq!(after.side_to_move(), Color::White);
    assert_eq!(othello_rules::reference::flips(&pos, sq("d4")), flipped);
    for c in tree.children(tree.root()) {
        let m = tree.incoming_move(c).unwrap().square().unwrap();
        assert_eq!(*tree.position(c), othello_rules::reference::play(&pos, Some(m)));
    }
}

/// A position where the side to move has two or more moves and `mv` leads to a position that
/// satisfies `want`.
fn find_parent(size: BoardSize, seed: u64, want: impl Fn(&Position) -> bool) -> (Position, Move) {
    let mut rng = SmallRng::seed_from_u64(seed);
    loop {
        let mut found = None;
        random_game(size, &mut rng, |p| {
            if p.legal_moves().count() >= 2 {
                found = p
                    .moves()
                    .into_iter()
                    .find(|&m| want(&p.play(m).unwrap()))
                    .map(|m| (*p, m));
            }
            found.is_some()
        });
        if let Some(f) = found {
            return f;
        }
    }
}

#[test]
fn a_side_without_moves_has_exactly_one_child_the_pass() {
    for (size, seed) in [(BoardSize::Four, 1), (BoardSize::Six, 2), (BoardSize::Eight, 3)] {
        let (parent, m) = find_parent(size, seed, Position::must_pass);
        let mut mcts = Mcts::new(config(seed));
        mcts.search(&parent, &Limits::nodes(3000));
        let tree = mcts.tree().unwrap();
        let node = tree.child(tree.root(), m).unwrap();
        let passed = tree.position(node);
        assert!(passed.must_pass() && !tree.is_terminal(node));
        let children: Vec<_> = tree.children(node).collect();
        assert_eq!(children.len(), 1, "{parent} {m}");
        let pass = children[0];
        assert_eq!(tree.incoming_move(pass), Some(Move::Pass));
        assert_eq!(*tree.position(pass), passed.play(Move::Pass).unwrap());
        assert!(tree.unexpanded_moves(node).is_empty());
        // The same colour is the mover into the pass node and into its children.
        assert_eq!(tree.mover(node), parent.side_to_move());
        assert_eq!(tree.mover(pass), passed.side_to_move());
        for g in tree.children(pass) {
            assert_eq!(tree.mover(g), parent.side_to_move());
        }
        // The node was played out once when created; every later visit went through the pass,
        // and the two views of those games add up to one reward per visit.
        assert_eq!(tree.visits(node), tree.visits(pass) + 1);
        let first = tree.total_reward_halves(node) + tree.total_reward_halves(pass) - 2 * tree.visits(pass);
        assert!(first <= 2, "{first}");

        // At the root, the pass is returned at once, and the game goes on after it.
        let mut mcts = Mcts::new(config(seed));
        let r = mcts.search(passed, &Limits::nodes(1000));
        assert_eq!((r.best_move, r.iterations), (Move::Pass, 0));
        mcts.advance(Move::Pass);
        let next = passed.play(Move::Pass).unwrap();
        let r = mcts.search(&next, &Limits::nodes(1000));
        assert!(next.legal_moves().contains(r.best_move.square().unwrap()));
    }
}

#[test]
fn a_finished_game_is_terminal_and_scored_exactly() {
    // Neither side can move on an almost empty board: black 2, white 1, 61 empties to black.
    let black = Bitboard(sq("a1").bit() | sq("b1").bit());
    let white = Bitboard(sq("h8").bit());
    for (side, rate) in [(Color::Black, 1.0), (Color::White, 0.0)] {
        let pos = Position::from_discs(black, white, side, BoardSize::Eight).unwrap();
        assert!(pos.is_game_over());
        let r = Mcts::new(config(0)).search(&pos, &Limits::nodes(1000));
        assert_eq!(
            (r.best_move, r.iterations, r.playouts, r.win_rate),
            (Move::Pass, 0, 0, rate)
        );
    }

    // Inside the tree: a move that ends the game before the board is full.
    for (size, seed) in [(BoardSize::Four, 4), (BoardSize::Six, 5), (BoardSize::Eight, 6)] {
        let (parent, m) = find_parent(size, seed, |p| p.is_game_over() && p.empty_count() > 0);
        let mut mcts = Mcts::new(config(seed));
        let r = mcts.search(&parent, &Limits::nodes(2000));
        let tree = mcts.tree().unwrap();
        let node = tree.child(tree.root(), m).unwrap();
        assert!(tree.is_terminal(node));
        assert_eq!(tree.children(node).len(), 0);
        assert!(tree.unexpanded_moves(node).is_empty());
        // Every visit scored the exact result for the mover, with no playout.
        let score = -tree.position(node).final_score();
        let halves = (score.signum() + 1) as u64;
        assert_eq!(
            tree.total_reward_halves(node),
            halves * tree.visits(node),
            "{parent} {m}"
        );
        assert!(r.playouts <= r.iterations - tree.visits(node));
    }
}

#[test]
fn one_legal_move_is_returned_at_once() {
    let mut rng = SmallRng::seed_from_u64(8);
    let mut seen = 0;
    while seen < 20 {
        let pos = random_game(BoardSize::Eight, &mut rng, |p| p.legal_moves().count() == 1);
        if pos.is_game_over() {
            continue;
        }
        seen += 1;
        let r = Mcts::new(config(0)).search(&pos, &Limits::nodes(100_000));
        assert_eq!(r.best_move, Move::Place(pos.legal_moves().first().unwrap()));
        assert_eq!((r.iterations, r.playouts), (0, 0));
    }
}

#[test]
fn the_search_never_changes_the_position() {
    let mut rng = SmallRng::seed_from_u64(9);
    for threads in [1, 2] {
        let pos = random_game(BoardSize::Eight, &mut rng, |p| p.empty_count() < 40);
        let copy = pos;
        let mut mcts = Mcts::new(config(1).with_threads(threads));
        let r = mcts.search(&pos, &Limits::nodes(1000));
        assert_eq!(pos, copy);
        assert!(pos.is_legal(r.best_move));
    }
}

#[test]
fn the_opponent_is_modelled_as_an_opponent() {
    // Black to move, ten empties. Flat Monte Carlo (random replies) likes g1, but g1 hands the
    // h1 corner to white, the one white reply that wins; c7 wins by 18.
    let pos: Position = "-OOOOO--OOOOOOX--OOOOXXXXOOOXXXXXOOXOOXXXOXXXOXXXX-OOOO--XXXX-X- X"
        .parse()
        .unwrap();
    let trap = mv("g1");
    let after = pos.play(trap).unwrap();
    assert!(-exact(&after) < 0);
    let winning_replies: Vec<Move> = after
        .moves()
        .into_iter()
        .filter(|&r| -exact(&after.play(r).unwrap()) > 0)
        .collect();
    assert_eq!(winning_replies, vec![mv("h1")]);
    assert!(after.moves().len() >= 3);
    let best = pos
        .moves()
        .into_iter()
        .max_by_key(|&m| -exact(&pos.play(m).unwrap()))
        .unwrap();
    assert_eq!((best, -exact(&pos.play(best).unwrap())), (mv("c7"), 18));

    // The trap is real: averaging random continuations prefers it.
    let mut rng = SmallRng::seed_from_u64(1);
    let flat = |m: Move, rng: &mut SmallRng| {
        let child = pos.play(m).unwrap();
        (0..4000)
            .map(|_| (1 - random_playout(&child, rng).signum()) as f64 / 2.0)
            .sum::<f64>()
            / 4000.0
    };
    let flat_best = pos
        .moves()
        .into_iter()
        .map(|m| (m, flat(m, &mut rng)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert_eq!(flat_best.0, trap);

    for seed in 0..3 {
        let r = Mcts::new(config(seed)).search(&pos, &Limits::nodes(20_000));
        assert_eq!(r.best_move, best, "seed {seed}");
    }
}

#[test]
fn small_endgames_pick_an_exactly_optimal_move() {
    let mut rng = SmallRng::seed_from_u64(12);
    let mut checked = 0;
    while checked < 10 {
        let empties = 4 + checked % 3; // 4, 5 and 6 empties
        let pos = random_game(BoardSize::Eight, &mut rng, |p| p.empty_count() <= empties);
        if pos.is_game_over() || pos.legal_moves().count() < 2 {
            continue;
        }
        let values: Vec<(Move, i32)> = pos
            .moves()
            .into_iter()
            .map(|m| (m, -exact(&pos.play(m).unwrap())))
            .collect();
        let best = values.iter().map(|v| v.1.signum()).max().unwrap();
        if values.iter().all(|v| v.1.signum() == best) {
            continue; // every move gives the same result: nothing to check
        }
        let r = Mcts::new(config(checked as u64)).search(&pos, &Limits::nodes(20_000));
        let chosen = values.iter().find(|v| v.0 == r.best_move).unwrap().1;
        // Rewards are win/draw/loss, so optimal means the best game result, not the margin.
        assert_eq!(chosen.signum(), best, "{pos} {values:?} chose {}", r.best_move);
        if best == 1 {
            assert!(r.win_rate > 0.5, "{pos} {}", r.win_rate);
        }
        checked += 1;
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let pos = Position::start().play(mv("f5")).unwrap().play(mv("d6")).unwrap();
    for threads in [1, 2] {
        let run = |seed| {
            let r = Mcts::new(config(seed).with_threads(threads)).search(&pos, &Limits::nodes(3000));
            (
                r.best_move,
                r.playouts,
                r.stats.tree_size,
                r.stats.max_depth,
                r.stats.root_children,
            )
        };
        let a = run(5);
        assert_eq!(a, run(5));
        assert_ne!(a.4, run(6).4);
    }
}

#[test]
fn root_parallel_trees_are_merged() {
    let mut mcts = Mcts::new(config(3).with_threads(2).with_max_tree_nodes(4000));
    let r = mcts.search(&Position::start(), &Limits::nodes(2001));
    assert_eq!(mcts.trees().len(), 2);
    let visits: Vec<u64> = mcts.trees().iter().map(|t| t.visits(t.root())).collect();
    assert_eq!(visits, vec![1001, 1000]);
    assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), 2001);
    for (m, n, q) in &r.stats.root_children {
        let per_tree: Vec<(u64, f64)> = mcts
            .trees()
            .iter()
            .filter_map(|t| t.child(t.root(), *m).map(|c| (t.visits(c), t.total_reward(c))))
            .collect();
        assert_eq!(per_tree.iter().map(|x| x.0).sum::<u64>(), *n);
        assert_eq!(per_tree.iter().map(|x| x.1).sum::<f64>() / *n as f64, *q);
    }
    let most = r.stats.root_children.iter().map(|c| c.1).max().unwrap();
    let first_most = r.stats.root_children.iter().find(|c| c.1 == most).unwrap().0;
    assert_eq!(r.best_move, first_most);
    assert_eq!(
        r.stats.tree_size,
        mcts.trees().iter().map(Tree::node_count).sum::<usize>()
    );
    assert!(mcts.trees().iter().all(|t| t.node_count() <= 2000));
}

#[test]
fn the_node_cap_bounds_the_tree() {
    let mut mcts = Mcts::new(config(4).with_max_tree_nodes(50));
    let pos = Position::start();
    let r = mcts.search(&pos, &Limits::nodes(5000));
    assert!(r.stats.tree_size <= 50);
    assert_eq!(r.iterations, 5000);
    assert_eq!(r.playouts, 5000);
    assert!(pos.is_legal(r.best_move));
    assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), 5000);
}

#[test]
fn the_played_subtree_is_reused() {
    let start = Position::start();
    let mut mcts = Mcts::new(config(1));
    mcts.search(&start, &Limits::nodes(4000));
    let tree = mcts.tree().unwrap();
    let f5 = tree.child(tree.root(), mv("f5")).unwrap();
    let reply = tree.children(f5).max_by_key(|&c| tree.visits(c)).unwrap();
    let reply_move = tree.incoming_move(reply).unwrap();
    let kept = tree.visits(reply);
    assert!(kept > 1);
    let pos = start.play(mv("f5")).unwrap().play(reply_move).unwrap();

    for with_moves in [true, false] {
        let mut m = Mcts::new(config(1));
        m.search(&start, &Limits::nodes(4000));
        if with_moves {
            m.advance(mv("f5"));
            m.advance(reply_move);
        }
        let r = m.search(&pos, &Limits::nodes(4000));
        assert_eq!(r.stats.reused_visits, kept);
        let t = m.tree().unwrap();
        assert_eq!(*t.position(t.root()), pos);
        assert_eq!(t.visits(t.root()), kept + 4000);
        // The kept root was played out once when it was created; all else went to children.
        assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), kept - 1 + 4000);
    }

    // Without reuse, or after a move the tree cannot follow, the search starts afresh.
    let mut m = Mcts::new(config(1).with_reuse_tree(false));
    m.search(&start, &Limits::nodes(4000));
    m.advance(mv("f5"));
    m.advance(reply_move);
    assert_eq!(m.search(&pos, &Limits::nodes(4000)).stats.reused_visits, 0);
    let mut m = Mcts::new(config(1));
    m.search(&start, &Limits::nodes(500));
    m.advance(Move::Pass);
    let far = random_game(BoardSize::Eight, &mut SmallRng::seed_from_u64(3), |p| {
        p.empty_count() < 30
    });
    let r = m.search(&far, &Limits::nodes(500));
    assert_eq!(r.stats.reused_visits, 0);
    assert!(far.is_legal(r.best_move));
}

#[test]
fn self_play_with_reuse_follows_every_rule() {
    let mut passes = 0;
    for (g, size) in [
        BoardSize::Four,
        BoardSize::Six,
        BoardSize::Four,
        BoardSize::Six,
        BoardSize::Eight,
    ]
    .into_iter()
    .enumerate()
    {
        let mut players = [
            Mcts::new(config(g as u64)),
            Mcts::new(config(100 + g as u64).with_threads(2)),
        ];
        let mut pos = Position::start_of(size);
        while !pos.is_game_over() {
            let side = pos.side_to_move() as usize;
            let r = players[side].search(&pos, &Limits::nodes(300));
            assert!(pos.is_legal(r.best_move), "{pos} {}", r.best_move);
            passes += usize::from(r.best_move == Move::Pass);
            pos = pos.play(r.best_move).unwrap();
            for p in &mut players {
                p.advance(r.best_move);
            }
        }
        let r = players[0].search(&pos, &Limits::nodes(300));
        assert_eq!(r.best_move, Move::Pass);
    }
    assert!(passes > 0);
}

#[test]
fn limits_time_and_stop_flag() {
    let pos = Position::start();
    let t = Instant::now();
    let r = Mcts::new(MctsConfig::default()).search(&pos, &Limits::move_time(Duration::from_millis(50)));
    assert!(r.iterations > 0 && pos.is_legal(r.best_move));
    assert!(r.time < Duration::from_secs(2) && t.elapsed() < Duration::from_secs(2));

    // A raised flag stops at once; the move is still legal.
    let stop = Arc::new(AtomicBool::new(true));
    let mut mcts = Mcts::new(MctsConfig::default());
    let limits = Limits::none().with_stop(stop.clone());
    let r = mcts.search(&pos, &limits);
    assert_eq!(r.iterations, 0);
    assert!(pos.is_legal(r.best_move));

    // With no limit but the flag, the search runs until another thread raises it.
    stop.store(false, Ordering::Relaxed);
    let raiser = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let r = mcts.search(&pos, &limits);
    raiser.join().unwrap();
    assert!(r.iterations > 0);
    assert_eq!(r.stats.root_children.iter().map(|c| c.1).sum::<u64>(), r.iterations);
}

#[test]
fn beats_a_random_player() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut wins = 0;
    for g in 0..200u64 {
        let me = if g % 2 == 0 { Color::Black } else { Color::White };
        let mut mcts = Mcts::new(config(g));
        let mut pos = Position::start();
        while !pos.is_game_over() {
            let m = if pos.side_to_move() == me {
                mcts.search(&pos, &Limits::nodes(300)).best_move
            } else {
                random_move(&pos, &mut rng).expect("the game is not over")
            };
            pos = pos.play(m).unwrap();
            mcts.advance(m);
        }
        wins += usize::from(pos.final_score_black() * me.sign() > 0);
    }
    assert!(wins >= 190, "won {wins} of 200");
}

#[test]
fn mcts_is_a_player_whose_nodes_are_iterations() {
    use othello_mcts::Player;
    let pos = Position::start();
    let mut m = Mcts::new(config(5));
    let r = m.search(&pos, &Limits::nodes(700));
    m.new_game();
    let reply = m.think(&pos, &Limits::nodes(700));
    assert_eq!(
        (reply.best_move, reply.nodes, reply.score, reply.depth),
        (r.best_move, 700, None, 0)
    );
    assert_eq!(m.name(), "mcts");
    // `observe` records the move for tree reuse, as `advance` does.
    m.observe(reply.best_move);
    let next = pos.play(reply.best_move).unwrap();
    assert!(m.think(&next, &Limits::nodes(10)).nodes == 10);
    assert!(m.search(&next, &Limits::nodes(10)).stats.reused_visits > 0);
}

#[test]
fn an_mcts_reply_carries_its_playouts_visit_share_and_mean_result() {
    use othello_mcts::Player;
    let pos = othello_rules::text::play_sequence(&Position::start(), "f5d6").unwrap();
    let r = Mcts::new(config(9)).search(&pos, &Limits::nodes(900));
    let mut m = Mcts::new(config(9));
    let mut calls = 0;
    let reply = m.think_with(&pos, &Limits::nodes(900), &mut |_| calls += 1);
    assert_eq!(calls, 0, "MCTS has no iterations of increasing depth to report");
    let f = reply.mcts.expect("MCTS reports its figures");
    let best = r.stats.root_children.iter().find(|c| c.0 == r.best_move).unwrap();
    assert_eq!((reply.best_move, reply.nodes), (r.best_move, 900));
    assert_eq!((f.playouts, f.visits, f.mean_result), (r.playouts, best.1, r.win_rate));
    assert!(f.playouts > 0 && f.playouts <= 900, "{}", f.playouts);
    assert_eq!(f.root_visits, 900, "every iteration visits one root child");
    let share = f.visit_share().unwrap();
    assert!(share > 0.0 && share <= 1.0, "{share}");
    // The most visited move has at least the mean share of the root's children.
    assert!(share * r.stats.root_children.len() as f64 >= 1.0, "{share}");
    assert!((0.0..=1.0).contains(&f.mean_result));
    // A forced move is answered without search: no visits, no share.
    let forced: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- O"
        .parse()
        .unwrap();
    assert_eq!(forced.moves(), [othello_rules::Move::Pass]);
    let f = Mcts::new(config(9)).think(&forced, &Limits::nodes(50)).mcts.unwrap();
    assert_eq!((f.playouts, f.root_visits, f.visit_share()), (0, 0, None));
}
