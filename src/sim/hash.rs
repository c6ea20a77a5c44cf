//! The 64-bit state hash: a fast, order-sensitive digest of words, and a set digest for the
//! many objects.
//!
//! [`StateHasher`]: four independent lanes let the CPU mix four words at once; each lane step
//! is a bijection in both the lane and the word, so changing any single word always changes the
//! final hash. [`digest8`] and [`SetDigest`]: each object's eight state words fold into one
//! digest with two 64×64→128-bit multiplies, and the digests (which include the ids) are
//! summed, so hashing thousands of objects costs a few nanoseconds each. Sub-hashes per
//! subsystem are kept for diagnosing a desync.
//! Must not: hash anything that is not simulation state (no display state, no addresses).

use serde::Serialize;

const P: u64 = 0x9E37_79B9_7F4A_7C15;
const SEEDS: [u64; 4] = [0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89];

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

/// Keys for [`digest8`]: top bits set, so no small state word can cancel one.
const KEYS: [u64; 8] = [
    0xA076_1D64_78BD_642F,
    0xE703_7ED1_A0B4_28DB,
    0x8EBC_6AF0_9C88_C6E3,
    0x8945_66E5_8D58_2BF5,
    0xC2B2_AE3D_27D4_EB4F,
    0x9FB2_1C65_1E98_DF25,
    0xD6E8_FEB8_6659_FD93,
    0xB492_B66F_BE98_F273,
];

#[inline(always)]
fn mum(a: u64, b: u64) -> u64 {
    let r = a as u128 * b as u128;
    (r as u64) ^ ((r >> 64) as u64)
}

/// Folds eight words into one well-mixed digest (a change to any word changes it except with
/// probability about 2^-64).
#[inline(always)]
pub fn digest8(w: [u64; 8]) -> u64 {
    // Pairs of words are first combined with an odd multiplier (a bijection in each word, so a
    // change in either always changes the pair), then two wide multiplies mix everything.
    let a = w[0].wrapping_mul(KEYS[4] | 1) ^ w[1];
    let b = w[2].wrapping_mul(KEYS[5] | 1) ^ w[3];
    let c = w[4].wrapping_mul(KEYS[6] | 1) ^ w[5];
    let d = w[6].wrapping_mul(KEYS[7] | 1) ^ w[7];
    mum(a ^ KEYS[0], b ^ KEYS[1]) ^ mum(c ^ KEYS[2], d ^ KEYS[3]).rotate_left(32)
}

/// An order-independent digest of a set of digests (each must already include its item's id).
#[derive(Clone, Copy, Debug, Default)]
pub struct SetDigest {
    sum: u64,
    count: u64,
}

impl SetDigest {
    /// Adds one item's digest.
    #[inline(always)]
    pub fn add(&mut self, digest: u64) {
        self.sum = self.sum.wrapping_add(digest);
        self.count += 1;
    }

    /// The digest of all items added.
    pub fn finish(&self) -> u64 {
        fmix(self.sum ^ fmix(self.count))
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
    fn digest8_reacts_to_every_word_and_bit() {
        let base = [1u64, 2, 3, 4, 5, 6, 7, 8];
        let reference = digest8(base);
        for i in 0..8 {
            for bit in 0..64 {
                let mut w = base;
                w[i] ^= 1 << bit;
                assert_ne!(digest8(w), reference, "word {i} bit {bit}");
            }
        }
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
