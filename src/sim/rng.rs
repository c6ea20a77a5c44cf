//! The game's only source of randomness: a seeded PCG-XSH-RR generator.
//!
//! Its state is part of the state hash, and it is called in a fixed order by the tick, so
//! every machine draws the same numbers. Must not: be seeded from anything but the game seed,
//! or be called from outside the simulation (the client has its own randomness).

use serde::{Deserialize, Serialize};

const MULTIPLIER: u64 = 6364136223846793005;
const INCREMENT: u64 = 1442695040888963407;

/// The seeded game random number generator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    state: u64,
}

impl GameRng {
    /// A generator seeded for a game.
    pub fn new(seed: u64) -> GameRng {
        let mut rng = GameRng { state: 0 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// The internal state (for the state hash).
    pub fn state(&self) -> u64 {
        self.state
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A uniform integer in `lo..hi` (returns `lo` when the range is empty), without bias.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        if hi <= lo {
            return lo;
        }
        let span = (hi as i64 - lo as i64) as u64;
        // Lemire's multiply-and-reject.
        let threshold = (u32::MAX as u64 + 1 - span) % span;
        loop {
            let m = self.next_u32() as u64 * span;
            if (m & 0xFFFF_FFFF) >= threshold {
                return (lo as i64 + (m >> 32) as i64) as i32;
            }
        }
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        den != 0 && (self.range(0, den as i32) as u32) < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seed_differs() {
        let mut a = GameRng::new(7);
        let mut b = GameRng::new(7);
        let mut c = GameRng::new(8);
        let sa: Vec<u32> = (0..16).map(|_| a.next_u32()).collect();
        let sb: Vec<u32> = (0..16).map(|_| b.next_u32()).collect();
        let sc: Vec<u32> = (0..16).map(|_| c.next_u32()).collect();
        assert_eq!(sa, sb);
        assert_ne!(sa, sc);
    }

    #[test]
    fn range_stays_inside_and_covers() {
        let mut rng = GameRng::new(1);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            let v = rng.range(-3, 3);
            assert!((-3..3).contains(&v));
            seen[(v + 3) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(rng.range(5, 5), 5);
    }
}
