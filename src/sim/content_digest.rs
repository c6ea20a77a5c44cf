//! The digest of everything the simulation reads from content — the validated rules (objects,
//! weapons, armour, factions) and the terrain's passability, structures' cells and start
//! positions — taken once when a world is built and folded into every frame's state hash, so
//! two machines holding different content disagree from frame 0 even if the handshake that
//! compares files were skipped. Map objects are objects and are hashed as such.
//!
//! Must not: read files (it digests the values the world was built from), or depend on the
//! platform: every write becomes 64-bit words, lengths included.

use std::hash::{Hash, Hasher};

use super::hash::StateHasher;
use super::rules::Rules;
use super::terrain::Terrain;

/// `std::hash::Hash` into the state hasher, in 64-bit words whatever the platform.
struct Words {
    inner: StateHasher,
}

impl Hasher for Words {
    fn write(&mut self, bytes: &[u8]) {
        self.inner.write_u64(bytes.len() as u64);
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.inner.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.inner.write_u64(i as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.inner.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.inner.write_u64(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.inner.write_u64(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.inner.write_u64(i as u64);
    }

    fn write_i64(&mut self, i: i64) {
        self.inner.write_i64(i);
    }

    fn finish(&self) -> u64 {
        self.inner.finish()
    }
}

/// The digest of `rules` and `terrain`.
pub fn content_digest(rules: &Rules, terrain: &Terrain) -> u64 {
    let mut h = Words { inner: StateHasher::new() };
    rules.hash(&mut h);
    terrain.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::fixed::Fixed;
    use crate::sim::vector::Vec2;

    fn terrain(blocked_cell: usize) -> Terrain {
        let mut blocked = vec![false; 16];
        blocked[blocked_cell] = true;
        Terrain::new(4, 4, Fixed::from_int(10), blocked, vec![Vec2::ZERO, Vec2::new(Fixed::from_int(30), Fixed::ZERO)])
    }

    #[test]
    fn one_changed_number_in_the_rules_or_one_cell_changes_the_digest() {
        let rules = Rules {
            damage_types: vec!["ballistic".into()],
            factions: vec![crate::sim::rules::Faction {
                name: "A".into(),
                starting_money: 1000,
                playable: true,
                starting_objects: vec![],
                low_power_speed: 50,
                sell_refund: 50,
                veterancy: vec![],
                upkeep: crate::sim::rules::Upkeep {
                    burn_below: 25,
                    burn_per_mille: 10,
                    repair_frames: 1200,
                    repair_cost: 50,
                },
            }],
            ..Rules::default()
        };
        let base = content_digest(&rules, &terrain(0));
        assert_eq!(base, content_digest(&rules.clone(), &terrain(0)), "the same content digests the same");
        let mut richer = rules.clone();
        richer.factions[0].starting_money = 1001;
        assert_ne!(base, content_digest(&richer, &terrain(0)));
        let mut renamed = rules.clone();
        renamed.damage_types[0] = "ballistik".into();
        assert_ne!(base, content_digest(&renamed, &terrain(0)));
        assert_ne!(base, content_digest(&rules, &terrain(5)));
    }

    #[test]
    fn bytes_split_differently_digest_differently() {
        let digest = |parts: &[&str]| {
            let mut h = Words { inner: StateHasher::new() };
            parts.hash(&mut h);
            h.finish()
        };
        assert_ne!(digest(&["ab", "c"]), digest(&["a", "bc"]));
    }
}
