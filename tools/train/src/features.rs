//! The hand-feature model: feature values of a position, computed the way `WeightedEval::evaluate` computes them (on
//! the raw bitboards), and the regression columns built from them.

use othello_eval::{Feature, corners, mobility, parity, potential_mobility, stable_discs, xc_squares};
use othello_rules::Position;

/// Every feature's value for the side to move, indexed as [`Feature::ALL`].
pub fn values(pos: &Position) -> [i32; Feature::COUNT] {
    let size = pos.size();
    let (p, o) = (pos.player().0, pos.opponent().0);
    let mut v = [0; Feature::COUNT];
    for f in Feature::ALL {
        v[f as usize] = match f {
            Feature::Discs => p.count_ones() as i32 - o.count_ones() as i32,
            Feature::Mobility => mobility(p, o, size),
            Feature::Potential => potential_mobility(p, o, size),
            Feature::Corners => corners(p, o, size),
            Feature::Xc => xc_squares(p, o, size),
            Feature::Stability => {
                let st = stable_discs(p, o, size);
                (st & p).count_ones() as i32 - (st & o).count_ones() as i32
            }
            Feature::Parity => parity(pos.empty_count()),
        };
    }
    v
}

/// The phase of a position: `e / E0`, with `E0` the empties at the start of the game (60 on
/// 8x8), capped at 1 as `Weight::at` does.
pub fn phase(pos: &Position) -> f64 {
    let full = pos.size().squares() - 4;
    pos.empty_count().min(full) as f64 / full as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::random::random_move;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn values_equal_feature_value() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked = 0;
        for size in othello_rules::BoardSize::ALL {
            for _ in 0..30 {
                let mut pos = Position::start_of(size);
                while !pos.is_game_over() {
                    let v = values(&pos);
                    for f in Feature::ALL {
                        assert_eq!(v[f as usize], f.raw(&pos), "{f} at {pos}");
                    }
                    checked += 1;
                    pos = pos.play_unchecked(random_move(&pos, &mut rng).expect("not over"));
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn phase_ends() {
        assert_eq!(phase(&Position::start()), 1.0);
    }
}
