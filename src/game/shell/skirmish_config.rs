//! The skirmish being set up: a map, up to eight slots (who, faction, colour, team) and the
//! starting money, the match those choices describe, and the setup as the settings keep it
//! between runs of the game.
//!
//! Must not: show anything (the skirmish screen does) or start a match (the client does).

use crate::game::settings::{LastRow, LastSkirmish};
use crate::session::match_setup::{COLOURS, MONEY, TEAMS, teams_or_own};
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
    /// The local player watches, giving no orders: the start position stays empty and the
    /// other seats (the computers) play.
    Observer,
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

    /// The setup kept in the settings, on the maps listed (folder names, each with its
    /// players) and the playable `factions`; None when its map is no longer listed. A row's
    /// word or faction that is not known any more falls back to the first setup's.
    pub fn remembered(kept: &LastSkirmish, maps: &[(String, u8)], factions: &[String]) -> Option<SkirmishConfig> {
        let map = maps.iter().position(|(folder, _)| !kept.map.is_empty() && *folder == kept.map)?;
        let mut cfg = SkirmishConfig { map, ..SkirmishConfig::default() };
        for (slot, row) in cfg.slots.iter_mut().zip(&kept.rows) {
            slot.who = match row.who.as_str() {
                "human" => SlotChoice::Human,
                "observer" => SlotChoice::Observer,
                "closed" => SlotChoice::Closed,
                word => match Difficulty::ALL.iter().position(|d| d.name() == word) {
                    Some(level) => SlotChoice::Computer(level as u8),
                    None => slot.who,
                },
            };
            slot.faction = factions.iter().position(|f| *f == row.faction).unwrap_or(slot.faction);
            slot.color = if row.colour < COLOURS.len() { row.colour } else { slot.color };
            slot.team = if row.team <= TEAMS as usize { row.team } else { 0 };
        }
        cfg.money = if kept.money < MONEY.len() { kept.money } else { cfg.money };
        // Only a setup that can start is offered again (one local seat, no more rows playing
        // than the map has starts): anything else opens as a first skirmish does on that map.
        let players = maps[map].1 as usize;
        if cfg.local_seats() != 1 || cfg.open_slots() > players {
            return Some(SkirmishConfig { map, ..SkirmishConfig::default() });
        }
        Some(cfg)
    }

    /// The setup as the settings keep it, its map being the folder `map`.
    pub fn to_kept(&self, map: &str, factions: &[String]) -> LastSkirmish {
        let who = |w: SlotChoice| match w {
            SlotChoice::Human => "human".to_string(),
            SlotChoice::Observer => "observer".to_string(),
            SlotChoice::Closed => "closed".to_string(),
            SlotChoice::Computer(level) => {
                Difficulty::ALL[(level as usize).min(Difficulty::ALL.len() - 1)].name().to_string()
            }
        };
        let rows = self
            .slots
            .iter()
            .map(|s| LastRow {
                who: who(s.who),
                faction: factions.get(s.faction).cloned().unwrap_or_default(),
                colour: s.color,
                team: s.team,
            })
            .collect();
        LastSkirmish { map: map.to_string(), rows, money: self.money }
    }

    /// Slots that take part (an observer's seat plays no side).
    pub fn open_slots(&self) -> usize {
        self.slots.iter().filter(|s| !matches!(s.who, SlotChoice::Closed | SlotChoice::Observer)).count()
    }

    /// Seats of the local player: playing or watching (a skirmish needs exactly one).
    pub fn local_seats(&self) -> usize {
        self.slots.iter().filter(|s| matches!(s.who, SlotChoice::Human | SlotChoice::Observer)).count()
    }

    /// True when row `i` has a start position on a map with `start_positions` of them: the
    /// rows above it that play (an observer's does not) leave one.
    pub fn fits(&self, i: usize, start_positions: usize) -> bool {
        let playing_above = self.slots[..i.min(SLOTS)].iter().filter(|s| s.who != SlotChoice::Observer).count();
        i < SLOTS && playing_above < start_positions
    }

    /// The rows that take a start on a map with `start_positions` of them, each with its
    /// start: the rows that play fill the starts in order, a closed row keeping its start
    /// empty; an observer's row takes none.
    pub fn rows_at_starts(&self, start_positions: usize) -> Vec<(usize, usize)> {
        let seated = self.slots.iter().enumerate().filter(|(_, s)| s.who != SlotChoice::Observer).take(start_positions);
        seated
            .enumerate()
            .filter(|(_, (_, s))| s.who != SlotChoice::Closed)
            .map(|(start, (row, _))| (row, start))
            .collect()
    }

    /// The match these choices describe on `map` (a map folder name) with `start_positions`
    /// slots (an observer's row left out), `factions` being the playable factions in the combo's order. Slots without a team
    /// ("-") each get a team of their own that no other slot chose.
    pub fn to_match_setup(
        &self,
        map: &str,
        start_positions: usize,
        factions: &[String],
        player_name: &str,
        seed: u64,
    ) -> MatchSetup {
        // An observer's seat takes no start position: the playing slots fill the map's starts
        // in order.
        let slots: Vec<&Slot> =
            self.slots.iter().filter(|s| s.who != SlotChoice::Observer).take(start_positions).collect();
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
                    SlotChoice::Closed | SlotChoice::Observer => SlotKind::Closed,
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
