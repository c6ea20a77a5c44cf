//! A headless run's timeline: each player's money, army and gatherers sampled every so many
//! frames, for reading how a game went (balance work: who outbuilt whom, when an army broke).
//!
//! Reads the world only; must not: change it or feed anything back into the game.

use std::fmt;

use serde::Serialize;

use crate::sim::ids::FRAMES_PER_SECOND;
use crate::sim::world::World;

use super::match_setup::ResolvedSlot;

/// One player at one sampled frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerSample {
    /// Its slot in the setup (closed slots counted).
    pub slot: u8,
    /// Money in hand.
    pub money: i64,
    /// Armed units it has (not structures, gatherers or builders; the tournament's army value
    /// counts every unit).
    pub army: u32,
    /// Those units' price, summed.
    pub army_worth: i64,
    /// Gatherers it has.
    pub gatherers: u32,
}

/// Every player at one frame, in player order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sample {
    /// Frames executed when it was taken (0: the start).
    pub frame: u32,
    /// Each player.
    pub players: Vec<PlayerSample>,
}

/// Samples `world` as it stands after `frame` frames; `slots` maps players to setup slots
/// (empty: slot = player).
pub fn sample(world: &World, slots: &[ResolvedSlot], frame: u32) -> Sample {
    let rules = world.rules();
    let players = world
        .players()
        .iter()
        .map(|p| {
            let mut s = PlayerSample {
                slot: slots.get(p.id.index()).map_or(p.id.0, |s| s.slot),
                money: p.money,
                army: 0,
                army_worth: 0,
                gatherers: 0,
            };
            for o in world.objects().filter(|o| o.owner == p.id) {
                let t = rules.template(o.template);
                if t.gather.is_some() {
                    s.gatherers += 1;
                } else if t.is_armed() && t.is_mobile() {
                    s.army += 1;
                    s.army_worth += t.cost;
                }
            }
            s
        })
        .collect();
    Sample { frame, players }
}

impl fmt::Display for Sample {
    /// One line: the game time, then each player's money, army and gatherers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.frame / FRAMES_PER_SECOND;
        write!(f, "{:>3}:{:02}", secs / 60, secs % 60)?;
        for p in &self.players {
            write!(f, "  slot {}: ${} army {} (${}) gatherers {}", p.slot, p.money, p.army, p.army_worth, p.gatherers)?;
        }
        Ok(())
    }
}
