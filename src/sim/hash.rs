//! The 64-bit state hash: a fast, order-sensitive digest of words.
//!
//! Four independent lanes let the CPU mix four words at once; each lane step is a bijection in
//! both the lane and the word, so changing any single word always changes the final hash.
//! Sub-hashes per subsystem are kept for diagnosing a desync.
//! Must not: hash anything that is not simulation state (no display state, no addresses).

use serde::Serialize;

const P: u64 = 0x9E37_79B9_7F4A_7C15;
const SEEDS: [u64; 4] = [
    0x243F_6A88_85A3_08D3,
    0x1319_8A2E_0370_7344,
    0xA409_3822_299F_31D0,
    0x082E_FA98_EC4E_6C89,
];

/// Accumulates words into a 64-bit digest.
#[derive(Clone, Debug)]
pub struct StateHasher {
    lanes: [u64; 4],
    words: u64,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher { lanes: SEEDS, words: 0 }
    }
}

#[inline(always)]
fn step(lane: u64, word: u64) -> u64 {
    (lane ^ word).wrapping_mul(P).rotate_left(31)
}

fn fmix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

impl StateHasher {
    /// A fresh hasher.
    pub fn new() -> StateHasher {
        StateHasher::default()
    }

    /// Mixes a slice of words; the lane a word lands in depends on its position in the stream.
    pub fn write_words(&mut self, words: &[u64]) {
        let [mut a, mut b, mut c, mut d] = self.lanes;
        let mut rest = words;
        // Keep the stream position aligned to the lanes.
        while self.words % 4 != 0 && !rest.is_empty() {
            let lane = &mut [&mut a, &mut b, &mut c, &mut d][(self.words % 4) as usize];
            **lane = step(**lane, rest[0]);
            rest = &rest[1..];
            self.words += 1;
        }
        let mut chunks = rest.chunks_exact(4);
        for w in &mut chunks {
            a = step(a, w[0]);
            b = step(b, w[1]);
            c = step(c, w[2]);
            d = step(d, w[3]);
        }
        self.words += (rest.len() - chunks.remainder().len()) as u64;
        self.lanes = [a, b, c, d];
        for &w in chunks.remainder() {
            self.write_u64(w);
        }
    }

    /// Mixes one word.
    pub fn write_u64(&mut self, w: u64) {
        let i = (self.words % 4) as usize;
        self.lanes[i] = step(self.lanes[i], w);
        self.words += 1;
    }

    /// Mixes a signed word.
    pub fn write_i64(&mut self, w: i64) {
        self.write_u64(w as u64);
    }

    /// The digest of everything written so far.
    pub fn finish(&self) -> u64 {
        let [a, b, c, d] = self.lanes;
        fmix(a ^ self.words) ^ fmix(b).rotate_left(16) ^ fmix(c).rotate_left(32) ^ fmix(d).rotate_left(48)
    }
}

/// The whole-state hash of one frame with its per-subsystem parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StateHash {
    /// Hash of everything below together with the frame number.
    pub total: u64,
    /// Every object's synchronized fields, in id order.
    pub objects: u64,
    /// Every player's state.
    pub players: u64,
    /// The game RNG.
    pub rng: u64,
    /// The path request queue.
    pub pathfinding: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_bit_anywhere_changes_the_hash() {
        let base: Vec<u64> = (0..37).map(|i| i * 0x1234_5678).collect();
        let mut h = StateHasher::new();
        h.write_words(&base);
        let reference = h.finish();
        for i in 0..base.len() {
            for bit in [0, 17, 63] {
                let mut changed = base.clone();
                changed[i] ^= 1 << bit;
                let mut h = StateHasher::new();
                h.write_words(&changed);
                assert_ne!(h.finish(), reference, "word {i} bit {bit}");
            }
        }
    }

    #[test]
    fn split_writes_equal_one_write() {
        let words: Vec<u64> = (0..23).map(|i| i * 977).collect();
        let mut one = StateHasher::new();
        one.write_words(&words);
        let mut split = StateHasher::new();
        split.write_words(&words[..3]);
        split.write_u64(words[3]);
        split.write_words(&words[4..11]);
        split.write_words(&words[11..]);
        assert_eq!(one.finish(), split.finish());
    }

    #[test]
    fn order_matters() {
        let mut a = StateHasher::new();
        a.write_words(&[1, 2]);
        let mut b = StateHasher::new();
        b.write_words(&[2, 1]);
        assert_ne!(a.finish(), b.finish());
    }
}
