//! Seeded random play, for tests, benchmarks and data generation (feature `rand`).
//!
//! Every function draws a move the same way: `rng.random_range(0..n)` over [`Position::moves`]
//! (squares in index order, or the single pass), one draw per move played, a pass included. A
//! seeded generator therefore gives the same positions on every machine and in every crate, and
//! code that interleaves its own draws with the moves can call [`random_move`] alone.
//!
//! ```
//! use othello_rules::{Position, random};
//! use rand::{SeedableRng, rngs::SmallRng};
//!
//! let mut rng = SmallRng::seed_from_u64(1);
//! let game = random::random_game(&Position::start(), &mut rng);
//! assert!(game.last().unwrap().is_game_over());
//! let late = random::play_random_until(&Position::start(), &mut rng, |p| p.empty_count() <= 20);
//! assert!(late.empty_count() <= 20 || late.is_game_over());
//! ```

use crate::{Move, Position};
use rand::Rng;

/// A legal move of `pos` drawn uniformly (the pass when it is the only move); `None` when the
/// game is over (no draw is made then).
pub fn random_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Option<Move> {
    let moves = pos.moves();
    if moves.is_empty() {
        None
    } else {
        Some(moves[rng.random_range(0..moves.len())])
    }
}

/// The position after `plies` random moves from `pos` (a pass counts as one), or the finished
/// game if it ends sooner.
pub fn play_random<R: Rng + ?Sized>(pos: &Position, plies: usize, rng: &mut R) -> Position {
    let mut left = plies;
    play_random_until(pos, rng, |_| {
        let done = left == 0;
        left = left.saturating_sub(1);
        done
    })
}

/// Random moves from `pos` until `stop` holds for the position reached (checked before each
/// move, `pos` included) or the game is over.
pub fn play_random_until<R: Rng + ?Sized>(
    pos: &Position,
    rng: &mut R,
    mut stop: impl FnMut(&Position) -> bool,
) -> Position {
    let mut pos = *pos;
    while !stop(&pos) {
        match random_move(&pos, rng) {
            Some(mv) => pos = pos.play_unchecked(mv),
            None => break,
        }
    }
    pos
}

/// Every position of a random game from `pos`: `pos` first, then the position after each
/// move (passes included), the finished game last.
pub fn random_game<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Vec<Position> {
    let mut out = vec![*pos];
    let mut pos = *pos;
    while let Some(mv) = random_move(&pos, rng) {
        pos = pos.play_unchecked(mv);
        out.push(pos);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn a_random_game_is_a_chain_of_legal_moves_to_the_end() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut passes = 0;
        for size in BoardSize::ALL {
            for _ in 0..200 {
                let game = random_game(&Position::start_of(size), &mut rng);
                assert_eq!(game[0], Position::start_of(size));
                assert!(game.last().unwrap().is_game_over());
                for w in game.windows(2) {
                    assert!(!w[0].is_game_over());
                    let reached: Vec<Position> = w[0].moves().iter().map(|&m| w[0].play(m).unwrap()).collect();
                    assert!(reached.contains(&w[1]), "{} -> {}", w[0], w[1]);
                    passes += usize::from(w[0].must_pass());
                }
            }
        }
        assert!(passes > 0, "some games pass");
    }

    #[test]
    fn draws_are_uniform_over_the_legal_moves() {
        let pos = Position::start();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut counts = [0_u32; 4];
        for _ in 0..4000 {
            let mv = random_move(&pos, &mut rng).unwrap();
            counts[pos.moves().iter().position(|&m| m == mv).unwrap()] += 1;
        }
        assert!(counts.iter().all(|&c| (900..1100).contains(&c)), "{counts:?}");
    }

    #[test]
    fn the_game_over_draws_nothing_and_passes_draw_once() {
        let over = random_game(&Position::start(), &mut SmallRng::seed_from_u64(3));
        let over = *over.last().unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut same = SmallRng::seed_from_u64(1);
        assert_eq!(random_move(&over, &mut rng), None);
        assert_eq!(rng.random::<u64>(), same.random::<u64>(), "no draw at the end");
        // A position whose side to move must pass: the pass, with one draw of a 1-wide range.
        let pass: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O"
            .parse()
            .unwrap();
        assert!(pass.must_pass());
        assert_eq!(random_move(&pass, &mut rng), Some(Move::Pass));
    }

    #[test]
    fn play_random_plays_the_plies_asked_or_to_the_end() {
        let mut rng = SmallRng::seed_from_u64(8);
        let mut ended = 0;
        for plies in 0..70 {
            let mut a = SmallRng::seed_from_u64(plies as u64);
            let mut b = a.clone();
            let pos = play_random(&Position::start(), plies, &mut a);
            let game = random_game(&Position::start(), &mut b);
            // The same draws: the position after `plies` moves of the same game.
            assert_eq!(pos, game[plies.min(game.len() - 1)]);
            ended += usize::from(plies >= game.len());
            let _ = rng.random::<u8>();
        }
        assert!(ended > 0, "some games end before 70 plies");
    }

    #[test]
    fn play_random_until_stops_at_the_first_position_that_holds() {
        for seed in 0..100 {
            let game = random_game(&Position::start(), &mut SmallRng::seed_from_u64(seed));
            for empties in [60, 40, 20, 3] {
                let got = play_random_until(&Position::start(), &mut SmallRng::seed_from_u64(seed), |p| {
                    p.empty_count() <= empties
                });
                let want = game
                    .iter()
                    .find(|p| p.empty_count() <= empties)
                    .unwrap_or(game.last().unwrap());
                assert_eq!(got, *want, "seed {seed}, {empties} empties");
            }
        }
    }
}
