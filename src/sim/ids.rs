//! Newtypes for the simulation's identities: frames, players, objects, commands and the
//! indices of definition tables.
//!
//! Must not: allow a stale [`ObjectId`] to name a newer object in a reused slot: every id
//! carries its slot's generation.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A logic frame number (30 per second of game time).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Frame(pub u32);

impl Frame {
    /// The frame `n` frames later (saturating).
    pub const fn plus(self, n: u32) -> Frame {
        Frame(self.0.saturating_add(n))
    }

    /// The next frame.
    pub const fn next(self) -> Frame {
        self.plus(1)
    }
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Logic frames per second of game time.
pub const FRAMES_PER_SECOND: u32 = 30;

/// A player slot (0-based start position order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// The owner of scenery and other objects that belong to no player.
    pub const NEUTRAL: PlayerId = PlayerId(u8::MAX);

    /// The slot as an index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An object in the world: a slot index plus the slot's generation when the object was made.
///
/// Serialized as one number, `generation << 32 | index`, so objects of the first generation
/// are written by their index alone in command scripts.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ObjectId {
    /// Slot in the object store.
    pub index: u32,
    /// How many objects used the slot before this one.
    pub generation: u32,
}

impl ObjectId {
    /// The packed form: `generation << 32 | index`.
    pub const fn to_bits(self) -> u64 {
        (self.generation as u64) << 32 | self.index as u64
    }

    /// The inverse of [`ObjectId::to_bits`].
    pub const fn from_bits(bits: u64) -> ObjectId {
        ObjectId { index: bits as u32, generation: (bits >> 32) as u32 }
    }
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.generation == 0 {
            write!(f, "#{}", self.index)
        } else {
            write!(f, "#{}g{}", self.index, self.generation)
        }
    }
}

impl Serialize for ObjectId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.to_bits())
    }
}

impl<'de> Deserialize<'de> for ObjectId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        u64::deserialize(d).map(ObjectId::from_bits)
    }
}

/// A command's number, unique per player for the whole game.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CommandId(pub u32);

/// An index into the object template table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TemplateId(pub u16);

/// An index into the weapon table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WeaponId(pub u16);

/// An index into the upgrade table (at most [`crate::sim::rules::MAX_UPGRADES`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UpgradeId(pub u16);

/// An index into the armour table.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ArmorId(pub u16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_id_bits_round_trip() {
        let id = ObjectId { index: 7, generation: 3 };
        assert_eq!(ObjectId::from_bits(id.to_bits()), id);
        assert_eq!(ObjectId::from_bits(7), ObjectId { index: 7, generation: 0 });
        assert_eq!(id.to_string(), "#7g3");
    }
}
