//! The 64-bit state hash: a fast, order-sensitive digest of words, and a set digest for the
//! many objects.
//!
//! [`StateHasher`]: four independent lanes let the CPU mix four words at once; each lane step
//! is a bijection in both the lane and the word, so changing any single word always changes the
//! final hash. [`ObjectKey`]: the objects' part is kept up to date incrementally, one multiply
//! per changed field, so a frame's hash does not have to read thousands of objects (see
//! `store.rs` and `object_mut.rs`). [`digest8`] folds several words of a rarely changing field
//! (an order, a destination) into one value. Sub-hashes per subsystem are kept for diagnosing
//! a desync.
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
        while !self.words.is_multiple_of(4) && !rest.is_empty() {
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

/// The synchronized fields of an object, each with its own key salt (see [`ObjectKey`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Field {
    /// Template, owner and kind packed into one word (fixed for now; capture will change owner).
    Identity,
    /// Position, x.
    PosX,
    /// Position, y.
    PosY,
    /// Facing.
    Facing,
    /// Speed.
    Speed,
    /// Health.
    Health,
    /// Weapon cooldown.
    Cooldown,
    /// The standing order (tag and payload folded by [`digest8`]).
    Order,
    /// The engaged target.
    Target,
    /// The destination (folded by [`digest8`]).
    NavGoal,
    /// The path's length and the index of the next waypoint.
    NavPath,
    /// The pending path request.
    NavRequest,
    /// Frames without progress.
    NavStuck,
    /// Closest distance to the next waypoint.
    NavBest,
    /// Paths requested for the goal.
    NavRepaths,
    /// Construction work left.
    Construction,
    /// A gatherer's load.
    Cargo,
    /// A gatherer's loading time so far.
    Work,
    /// Money left in a supply pile.
    Supply,
    /// The speed a group order holds the unit to.
    NavPace,
    /// Worth of the enemies it destroyed (veterancy).
    Xp,
    /// A structure's switches: powered down, being repaired.
    Flags,
    /// The step a unit takes each frame while cruising, and the frame cruising ends.
    NavCruise,
    /// Orders queued after the standing one.
    Queue,
}

impl Field {
    /// Every field, in the order [`super::object::Object::hashed_fields`] lists them.
    pub const ALL: [Field; 24] = [
        Field::Identity,
        Field::PosX,
        Field::PosY,
        Field::Facing,
        Field::Speed,
        Field::Health,
        Field::Cooldown,
        Field::Order,
        Field::Target,
        Field::NavGoal,
        Field::NavPath,
        Field::NavRequest,
        Field::NavStuck,
        Field::NavBest,
        Field::NavRepaths,
        Field::Construction,
        Field::Cargo,
        Field::Work,
        Field::Supply,
        Field::NavPace,
        Field::Xp,
        Field::Flags,
        Field::NavCruise,
        Field::Queue,
    ];
}

/// One salt per [`Field`]: random odd-looking words with the top bit set.
const SALTS: [u64; 24] = [
    0x5851_F42D_4C95_7F2D,
    0xD1B5_4A32_D192_ED03,
    0xAEF1_7502_108E_F2D9,
    0xC13F_A9A9_02A6_328F,
    0x9E6C_63D0_676A_9A99,
    0xF1BB_CDCB_FA53_E5A3,
    0xB5AD_4ECE_DA1C_E2A9,
    0x8CB9_2BA7_2F3D_8DD7,
    0xE220_A839_7B1D_CDAF,
    0xA24B_AED4_963E_E407,
    0xDB4F_0B91_75AE_2165,
    0x9FB2_1C65_1E98_DF25,
    0xFF51_AFD7_ED55_8CCD,
    0xC4CE_B9FE_1A85_EC53,
    0x94D0_49BB_1331_11EB,
    0xBF58_476D_1CE4_E5B9,
    0x94D0_49BB_1331_11EF,
    0xD6E8_FEB8_6659_FD95,
    0xE703_7ED1_A0B4_28DD,
    0xA076_1D64_78BD_642F,
    0xE703_7ED1_A0B4_28DB,
    0xB492_B66F_BE98_F273,
    0xF68B_4EF5_F6AE_AAFD,
    0x9E6C_63D0_676A_9A99,
];

/// The per-object key of the incremental object hash.
///
/// An object's digest is `key + Σ (key ^ salt(field) | 1) · value(field)` over its fields, in
/// wrapping 64-bit arithmetic, and the objects' part of the state hash is the sum of all
/// digests. The sum is linear in each field's value (Zobrist hashing with multiplication in
/// place of table lookups), so a change of one field updates it with one multiply:
/// `Δ = k · (new − old)`. Each multiplier is odd, so any change of any single field changes
/// the sum; the key is a strong mix of the object's id, so equal values on different objects,
/// and values swapped between objects, count differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ObjectKey(u64);

impl ObjectKey {
    /// The key of the object with these id bits.
    pub fn of(id_bits: u64) -> ObjectKey {
        ObjectKey(fmix(id_bits ^ 0x6A09_E667_F3BC_C909))
    }

    /// The term the object's identity contributes on its own.
    #[inline(always)]
    pub fn base(self) -> u64 {
        self.0
    }

    #[inline(always)]
    fn multiplier(self, field: Field) -> u64 {
        (self.0 ^ SALTS[field as usize]) | 1
    }

    /// The contribution of `field` holding `value`.
    #[inline(always)]
    pub fn term(self, field: Field, value: u64) -> u64 {
        self.multiplier(field).wrapping_mul(value)
    }

    /// The change of the digest when `field` goes from `old` to `new`.
    #[inline(always)]
    pub fn delta(self, field: Field, old: u64, new: u64) -> u64 {
        self.multiplier(field).wrapping_mul(new.wrapping_sub(old))
    }
}

/// The objects' sub-hash from the sum of their digests and their number.
pub fn finish_set(sum: u64, count: u64) -> u64 {
    fmix(sum ^ fmix(count))
}

/// The whole-state hash of one frame with its per-subsystem parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StateHash {
    /// Hash of everything below together with the frame number.
    pub total: u64,
    /// Every object's synchronized fields, in id order.
    pub objects: u64,
    /// Every player's state, and how much of the map each team has explored.
    pub players: u64,
    /// The game RNG.
    pub rng: u64,
    /// The path request queue.
    pub pathfinding: u64,
    /// Production queues and rally points, and shells in flight.
    pub production: u64,
    /// The rules and terrain the game was built from (constant through a game).
    pub content: u64,
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
    fn every_field_change_moves_the_sum() {
        let fields = Field::ALL;
        for id in [0u64, 1, 1 << 32, 12345] {
            let key = ObjectKey::of(id);
            for f in fields {
                for (old, new) in [(0u64, 1u64), (5, 5 + (1 << 40)), (u64::MAX, 0), (7, 7 + (1 << 63))] {
                    let d = key.delta(f, old, new);
                    assert_ne!(d, 0, "{f:?} {old} -> {new}");
                    assert_eq!(key.term(f, old).wrapping_add(d), key.term(f, new));
                }
            }
        }
    }

    #[test]
    fn equal_values_on_different_objects_or_fields_count_differently() {
        let (a, b) = (ObjectKey::of(1), ObjectKey::of(2));
        assert_ne!(a.term(Field::PosX, 99), b.term(Field::PosX, 99));
        assert_ne!(a.term(Field::PosX, 99), a.term(Field::PosY, 99));
        // Swapping values between two objects changes the sum.
        let before = a.term(Field::Health, 10).wrapping_add(b.term(Field::Health, 20));
        let after = a.term(Field::Health, 20).wrapping_add(b.term(Field::Health, 10));
        assert_ne!(before, after);
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
