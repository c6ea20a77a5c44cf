//! A player's synchronized state: faction, team, money, the selection orders apply to,
//! whether defeated, and how many commands were refused.
//!
//! Must not: hold client-side state such as the camera or the highlighted selection.

use super::hash::StateHasher;
use super::ids::{ObjectId, PlayerId};

/// One player slot in the game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// Slot.
    pub id: PlayerId,
    /// Faction index into the rules.
    pub faction: u16,
    /// Players on one team are allies.
    pub team: u8,
    /// The map's start position it began at (an index into the map's list; not its own index
    /// when a slot before it was left closed).
    pub start: u8,
    /// Money.
    pub money: i64,
    /// The objects orders apply to, in id order.
    pub selection: Vec<ObjectId>,
    /// Set when the player has nothing left.
    pub defeated: bool,
    /// Commands of this player refused so far.
    pub rejected: u32,
    /// Upgrades researched, one bit per [`super::ids::UpgradeId`].
    pub upgrades: u64,
}

impl Player {
    /// True if `other` is an enemy of this player.
    pub fn is_enemy(&self, other: &Player) -> bool {
        self.team != other.team
    }

    /// Feeds the synchronized fields to the hasher.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here.
        let Player { id, faction, team, start, money, selection, defeated, rejected, upgrades } = self;
        h.write_words(&[
            id.0 as u64
                | (*faction as u64) << 8
                | (*team as u64) << 24
                | (*defeated as u64) << 32
                | (*start as u64) << 40,
            *money as u64,
            *rejected as u64,
            selection.len() as u64,
            *upgrades,
        ]);
        for id in selection {
            h.write_u64(id.to_bits());
        }
    }
}
