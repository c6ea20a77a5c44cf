//! The skirmish being set up: a map, up to eight slots (who, faction, colour, team) and the
//! starting money, and the match those choices describe.
//!
//! Must not: show anything (the skirmish screen does) or start a match (the client does).

use crate::session::match_setup::{COLOURS, MONEY, teams_or_own};
use crate::session::{Difficulty, MatchSetup, SlotKind, SlotSetup};

/// What fills a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotChoice {
    /// The local player.
    Human,
    /// The computer at a difficulty (0 easy … 3 brutal).
    Computer(u8),
    /// Nobody.
    Closed,
}

/// Slots a skirmish offers: one per start of the largest maps.
pub const SLOTS: usize = 8;

/// One slot's setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Who.
    pub who: SlotChoice,
    /// Faction index among the playable factions.
    pub faction: usize,
    /// Colour index.
    pub color: usize,
    /// Team (0 none).
    pub team: usize,
}

/// The skirmish being set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkirmishConfig {
    /// Map index in the shell's list.
    pub map: usize,
    /// The slots.
    pub slots: [Slot; SLOTS],
    /// Starting money index in [`MONEY`].
    pub money: usize,
}

impl Default for SkirmishConfig {
    fn default() -> SkirmishConfig {
        let slot = |i: usize| {
            let who = [SlotChoice::Human, SlotChoice::Computer(1)].get(i).copied().unwrap_or(SlotChoice::Closed);
            Slot { who, faction: i % 2, color: i, team: 0 }
        };
        SkirmishConfig { map: 0, slots: std::array::from_fn(slot), money: 1 }
    }
}

impl SkirmishConfig {
    /// The setup a first skirmish starts from, given each listed map's players: you and a
    /// normal computer on the first two-player map (the first map if there is none).
    pub fn first(map_players: impl IntoIterator<Item = u8>) -> SkirmishConfig {
        let map = map_players.into_iter().position(|p| p == 2).unwrap_or(0);
        SkirmishConfig { map, ..SkirmishConfig::default() }
    }

    /// Slots that take part.
    pub fn open_slots(&self) -> usize {
        self.slots.iter().filter(|s| s.who != SlotChoice::Closed).count()
    }

    /// The match these choices describe on `map` (a map folder name) with `start_positions`
    /// slots, `factions` being the playable factions in the combo's order. Slots without a team
    /// ("-") each get a team of their own that no other slot chose.
    pub fn to_match_setup(
        &self,
        map: &str,
        start_positions: usize,
        factions: &[String],
        player_name: &str,
        seed: u64,
    ) -> MatchSetup {
        let slots = &self.slots[..start_positions.min(self.slots.len())];
        let teams = teams_or_own(&slots.iter().map(|s| s.team as u8).collect::<Vec<_>>());
        let money = MONEY.get(self.money).copied();
        let slots = slots
            .iter()
            .zip(teams)
            .map(|(s, team)| {
                let kind = match s.who {
                    SlotChoice::Human => SlotKind::Human,
                    SlotChoice::Computer(level) => {
                        SlotKind::Ai { difficulty: Difficulty::ALL[(level as usize).min(Difficulty::ALL.len() - 1)] }
                    }
                    SlotChoice::Closed => SlotKind::Closed,
                };
                SlotSetup {
                    kind,
                    name: (kind == SlotKind::Human).then(|| player_name.to_string()),
                    faction: factions.get(s.faction).cloned(),
                    colour: COLOURS.get(s.color).map(|c| c.to_string()),
                    team: Some(team),
                    money,
                    machine: None,
                }
            })
            .collect();
        MatchSetup { map: map.to_string(), seed, slots, run_ahead: None, map_hash: None, content_hash: None }
    }
}
