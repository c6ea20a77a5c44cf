//! A match as one typed value: the map, the seed, every slot (who plays it, name, faction,
//! colour, team, starting money, which machine runs it), the run-ahead, and the content hashes
//! of the map and data it was set up with. The skirmish screen, replays, the command line and
//! the online lobby all describe a match this way, and [`super::start`] turns it into a game.
//!
//! Must not: load content or start anything (resolving against loaded content is pure).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::sim::ids::PlayerId;
use crate::sim::rules::Rules;
use crate::sim::world::PlayerSetup;

/// Colour names a slot may take, in the order of the game's player palette.
pub const COLOURS: [&str; 8] = ["Blue", "Red", "Green", "Yellow", "Orange", "Purple", "Cyan", "Pink"];

/// The [`COLOURS`] as the interface shows them (sRGB): setup screens' start marks and map
/// previews.
pub const COLOUR_SRGB: [[u8; 3]; 8] = [
    [40, 90, 230],
    [220, 40, 40],
    [40, 190, 60],
    [230, 200, 30],
    [240, 140, 20],
    [160, 70, 200],
    [30, 200, 210],
    [240, 120, 170],
];

/// Starting money a setup screen offers (skirmish and the online lobby).
pub const MONEY: [i64; 4] = [5_000, 10_000, 20_000, 50_000];

/// Teams a setup screen offers, counted from 1 (0 is "no team").
pub const TEAMS: u8 = 8;

/// Each slot's team from the teams chosen on a setup screen (0 = none): a slot without one
/// gets a team of its own that no slot chose, so it plays against everyone.
pub fn teams_or_own(chosen: &[u8]) -> Vec<u8> {
    let mut free = (1u8..).filter(|t| !chosen.contains(t));
    chosen.iter().map(|&t| if t > 0 { t } else { free.next().unwrap_or(u8::MAX) }).collect()
}

/// Run-ahead used when a setup names none, in frames.
pub const DEFAULT_RUN_AHEAD: u32 = 3;

/// Most run-ahead a setup may ask for, in frames (two seconds): the stream's own limit.
pub use crate::lockstep::stream::MAX_RUN_AHEAD;

/// Skirmish AI strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Difficulty {
    /// Slow and forgiving.
    Easy,
    /// A fair fight.
    Normal,
    /// Fast and focused.
    Hard,
    /// Everything it has.
    Brutal,
    /// Not a difficulty but a yardstick: a scripted new player (`learner` on the command line)
    /// that builds power, barracks and a factory, trains a mixed army at a learner's pace,
    /// defends its base and attacks at about 15 minutes (`data/ai.ron`'s `learner` plan). Easy
    /// must lose to it, Hard must beat it; the skirmish setup does not offer it.
    Learner,
}

impl Difficulty {
    /// Every difficulty, weakest first (the skirmish setup's computer choices in order).
    pub const ALL: [Difficulty; 4] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard, Difficulty::Brutal];

    /// Its name in `data/ai.ron` and on the command line (`ai:<name>`; the learner's is plain
    /// `learner`).
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
            Difficulty::Brutal => "brutal",
            Difficulty::Learner => "learner",
        }
    }
}

/// Who plays a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotKind {
    /// Nobody gives orders (a punching bag, or a human seat left empty in a headless run).
    Idle,
    /// The `--commands` script (or a replay's recorded commands).
    Scripted,
    /// A person at the machine that runs the slot.
    Human,
    /// A person at another machine (online play).
    Remote,
    /// A skirmish AI.
    Ai {
        /// How strong.
        difficulty: Difficulty,
    },
    /// Nobody: the start position stays empty.
    Closed,
}

/// One slot of a match, as written; every field but `kind` is optional.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotSetup {
    /// Who plays it.
    pub kind: SlotKind,
    /// Shown on the score screen; default "Player N" (or "Computer N" for an AI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Faction name; default the first playable faction in `data/factions.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    /// Colour name from [`COLOURS`]; default the slot's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Team, counted from 1; slots sharing a team are allies. Default: slot index + 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<u8>,
    /// Starting money; default the faction's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub money: Option<i64>,
    /// The machine that runs the slot (0 = the host); default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<u8>,
}

impl SlotSetup {
    /// A slot of `kind` with every other field left to its default.
    pub fn new(kind: SlotKind) -> SlotSetup {
        SlotSetup { kind, name: None, faction: None, colour: None, team: None, money: None, machine: None }
    }
}

/// A whole match, as written in a `match.ron` or built by a screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSetup {
    /// A map folder name (under `maps/`) or path.
    pub map: String,
    /// The game seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// One per start position, in order.
    pub slots: Vec<SlotSetup>,
    /// Frames between issuing a command and executing it; default [`DEFAULT_RUN_AHEAD`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_ahead: Option<u32>,
    /// Content hash of the map folder (16 hex digits); checked when given, filled in when a
    /// match starts so a replay or a joining peer can tell the same map from another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_hash: Option<String>,
    /// Content hash of the data in use (`data/`, mods included), checked and filled the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
}

fn default_seed() -> u64 {
    1
}

/// The name of a slot that names none: "Computer N" for an AI, else "Player N".
pub(crate) fn default_name(kind: SlotKind, slot: usize) -> String {
    match kind {
        SlotKind::Ai { .. } => format!("Computer {}", slot + 1),
        _ => format!("Player {}", slot + 1),
    }
}

/// A setup that does not fit the map or the rules; each names the slot (counted from 0).
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    /// Fewer than two open slots.
    #[error("a match needs at least 2 players, {0} given")]
    TooFewPlayers(usize),
    /// More slots than start positions.
    #[error("{slots} slots given but map \"{map}\" has {starts} start positions")]
    TooManySlots {
        /// Slots given.
        slots: usize,
        /// Map name.
        map: String,
        /// Its start positions.
        starts: usize,
    },
    /// An unknown or unplayable faction.
    #[error("slot {slot}: unknown faction \"{name}\" (known: {known})")]
    UnknownFaction {
        /// The slot.
        slot: usize,
        /// The name given.
        name: String,
        /// Known names.
        known: String,
    },
    /// An unknown colour.
    #[error("slot {slot}: unknown colour \"{name}\" (known: {})", COLOURS.join(", "))]
    UnknownColour {
        /// The slot.
        slot: usize,
        /// The name given.
        name: String,
    },
    /// Team 0 (teams count from 1).
    #[error("slot {0}: teams count from 1")]
    TeamZero(usize),
    /// Negative or absurd starting money.
    #[error("slot {slot}: starting money {money} is outside 0..={max}", max = MAX_MONEY)]
    BadMoney {
        /// The slot.
        slot: usize,
        /// The money given.
        money: i64,
    },
    /// A slot's name, faction or colour longer than any the game shows.
    #[error("slot {slot}: the {what} is over {max} characters", max = crate::content::limits::MAX_NAME)]
    TooLong {
        /// The slot.
        slot: usize,
        /// Which text (`name`, `faction`, `colour`).
        what: &'static str,
    },
    /// A run-ahead outside 1..=MAX_RUN_AHEAD.
    #[error("run_ahead {0} is outside 1..={MAX_RUN_AHEAD}")]
    BadRunAhead(u32),
    /// A slot that another machine must play, in a match started on this machine alone.
    #[error("slot {0} is played on another machine (remote); start it with `ridgeline host`")]
    NotLocal(usize),
    /// Every open slot is on one team: nobody could win.
    #[error("every player is on team {0}: a match needs two sides")]
    OneTeam(u8),
}

/// Most starting money a slot may have.
pub const MAX_MONEY: i64 = 1_000_000_000;

/// One open slot, resolved against the rules: everything a game and its screens need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedSlot {
    /// Its index among the setup's slots (closed ones included).
    pub slot: u8,
    /// The player id the simulation knows it by (its index among open slots).
    pub player: PlayerId,
    /// Who plays it.
    pub kind: SlotKind,
    /// Its name.
    pub name: String,
    /// Faction index into the rules.
    pub faction: u16,
    /// Faction name.
    pub faction_name: String,
    /// Colour index into [`COLOURS`] (and the client's palette).
    pub colour: usize,
    /// Team, counted from 1.
    pub team: u8,
    /// Starting money.
    pub money: i64,
    /// The machine that runs it.
    pub machine: u8,
}

impl ResolvedSlot {
    /// The simulation's view of this player. Sim teams count from 0 (team 1 is sim team 0), so a
    /// setup that names no teams gives each player the team it always had: its own slot.
    pub fn player_setup(&self) -> PlayerSetup {
        PlayerSetup { faction: self.faction, team: self.team - 1, money: self.money, start: self.slot }
    }
}

impl MatchSetup {
    /// The run-ahead in frames.
    pub fn run_ahead(&self) -> u32 {
        self.run_ahead.unwrap_or(DEFAULT_RUN_AHEAD)
    }

    /// Checks every slot against the rules and a map with `starts` start positions (named `map`
    /// in errors) and fills in the defaults. Closed slots are left out; the rest keep their
    /// start position.
    pub fn resolve(&self, rules: &Rules, map: &str, starts: usize) -> Result<Vec<ResolvedSlot>, SetupError> {
        if self.slots.len() > starts {
            return Err(SetupError::TooManySlots { slots: self.slots.len(), map: map.to_string(), starts });
        }
        let run_ahead = self.run_ahead();
        if !(1..=MAX_RUN_AHEAD).contains(&run_ahead) {
            return Err(SetupError::BadRunAhead(run_ahead));
        }
        let playable: Vec<usize> = (0..rules.factions.len()).filter(|&i| rules.factions[i].playable).collect();
        let known = || playable.iter().map(|&i| rules.factions[i].name.as_str()).collect::<Vec<_>>().join(", ");
        let mut out = Vec::new();
        for (slot, s) in self.slots.iter().enumerate() {
            let max = crate::content::limits::MAX_NAME;
            for (what, text) in [("name", &s.name), ("faction", &s.faction), ("colour", &s.colour)] {
                if text.as_ref().is_some_and(|t| t.chars().count() > max) {
                    return Err(SetupError::TooLong { slot, what });
                }
            }
            if s.kind == SlotKind::Closed {
                continue;
            }
            let faction = match &s.faction {
                Some(name) => rules
                    .faction_index(name)
                    .filter(|&i| rules.factions[i as usize].playable)
                    .ok_or_else(|| SetupError::UnknownFaction { slot, name: name.clone(), known: known() })?,
                None => playable.first().copied().ok_or_else(|| SetupError::UnknownFaction {
                    slot,
                    name: String::new(),
                    known: known(),
                })? as u16,
            };
            let colour = match &s.colour {
                Some(name) => COLOURS
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(name))
                    .ok_or_else(|| SetupError::UnknownColour { slot, name: name.clone() })?,
                None => slot % COLOURS.len(),
            };
            let team = s.team.unwrap_or(slot as u8 + 1);
            if team == 0 {
                return Err(SetupError::TeamZero(slot));
            }
            let faction_def = &rules.factions[faction as usize];
            let money = s.money.unwrap_or(faction_def.starting_money);
            if !(0..=MAX_MONEY).contains(&money) {
                return Err(SetupError::BadMoney { slot, money });
            }
            let name = s.name.clone().unwrap_or_else(|| default_name(s.kind, slot));
            out.push(ResolvedSlot {
                slot: slot as u8,
                player: PlayerId(out.len() as u8),
                kind: s.kind,
                name,
                faction,
                faction_name: faction_def.name.clone(),
                colour,
                team,
                money,
                machine: s.machine.unwrap_or(0),
            });
        }
        if out.len() < 2 {
            return Err(SetupError::TooFewPlayers(out.len()));
        }
        if let Some(first) = out.first().filter(|f| out.iter().all(|s| s.team == f.team)) {
            return Err(SetupError::OneTeam(first.team));
        }
        Ok(out)
    }

    /// The same match for playing back recorded commands: every open slot scripted, all on
    /// this machine.
    /// Names stay as they were played (a computer is still "Computer 2" when watched).
    pub fn for_playback(&self) -> MatchSetup {
        let mut s = self.clone();
        for (i, slot) in s.slots.iter_mut().enumerate() {
            if slot.kind != SlotKind::Closed {
                slot.name = Some(slot.name.clone().unwrap_or_else(|| default_name(slot.kind, i)));
                slot.kind = SlotKind::Scripted;
                slot.machine = None;
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::parse_ron;
    use crate::sim::test_support;

    fn two(kind: SlotKind) -> MatchSetup {
        MatchSetup {
            map: "m".into(),
            seed: 1,
            slots: vec![SlotSetup::new(kind), SlotSetup::new(SlotKind::Idle)],
            run_ahead: None,
            map_hash: None,
            content_hash: None,
        }
    }

    #[test]
    fn the_documented_shape_parses() {
        let text = r#"(
            map: "four_corners",
            seed: 3,
            slots: [
                (kind: Ai(difficulty: Brutal), faction: "Coalition", team: 1, money: 20000),
                (kind: Scripted, team: 1),
                (kind: Ai(difficulty: Easy), team: 2, name: "Sparring", colour: "Red"),
                (kind: Closed),
            ],
        )"#;
        let s: MatchSetup = parse_ron(std::path::Path::new("match.ron"), text).unwrap();
        assert_eq!(s.seed, 3);
        assert_eq!(s.slots[0].kind, SlotKind::Ai { difficulty: Difficulty::Brutal });
        assert_eq!(s.slots[0].money, Some(20_000));
        assert_eq!(s.slots[2].name.as_deref(), Some("Sparring"));
        assert_eq!(s.slots[3].kind, SlotKind::Closed);
        assert_eq!(s.run_ahead(), DEFAULT_RUN_AHEAD);
    }

    #[test]
    fn unknown_fields_are_refused_with_their_place() {
        let text = "(map: \"m\", slots: [(kind: Idle, colour: \"Red\", tean: 2)])";
        let e = parse_ron::<MatchSetup>(std::path::Path::new("match.ron"), text).unwrap_err();
        assert!(e.to_string().starts_with("match.ron:1:"), "{e}");
        assert!(e.to_string().contains("tean"), "{e}");
    }

    #[test]
    fn defaults_fill_each_slot_and_closed_slots_keep_their_start() {
        let rules = test_support::rules();
        let mut s = two(SlotKind::Ai { difficulty: Difficulty::Hard });
        s.slots.insert(1, SlotSetup::new(SlotKind::Closed));
        let r = s.resolve(&rules, "m", 4).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].slot, r[0].player, r[0].team, r[0].colour), (0, PlayerId(0), 1, 0));
        assert_eq!((r[1].slot, r[1].player, r[1].team, r[1].colour), (2, PlayerId(1), 3, 2));
        assert_eq!(r[0].name, "Computer 1");
        assert_eq!(r[1].name, "Player 3");
        assert_eq!(r[0].money, rules.factions[0].starting_money);
        let p = r[1].player_setup();
        assert_eq!((p.start, p.team), (2, 2));
    }

    #[test]
    fn bad_slots_are_named() {
        let rules = test_support::rules();
        let mut s = two(SlotKind::Idle);
        s.slots[1].faction = Some("Nobody".into());
        assert!(matches!(s.resolve(&rules, "m", 2), Err(SetupError::UnknownFaction { slot: 1, .. })));
        let mut s = two(SlotKind::Idle);
        s.slots[0].colour = Some("Mauve".into());
        assert!(matches!(s.resolve(&rules, "m", 2), Err(SetupError::UnknownColour { slot: 0, .. })));
        let mut s = two(SlotKind::Idle);
        s.slots[1].money = Some(-5);
        assert_eq!(s.resolve(&rules, "m", 2), Err(SetupError::BadMoney { slot: 1, money: -5 }));
        let mut s = two(SlotKind::Idle);
        s.slots[0].team = Some(0);
        assert_eq!(s.resolve(&rules, "m", 2), Err(SetupError::TeamZero(0)));
        let mut s = two(SlotKind::Idle);
        s.slots[0].team = Some(2);
        assert_eq!(s.resolve(&rules, "m", 2), Err(SetupError::OneTeam(2)));
        let s = two(SlotKind::Closed);
        assert_eq!(s.resolve(&rules, "m", 2), Err(SetupError::TooFewPlayers(1)));
        assert!(matches!(two(SlotKind::Idle).resolve(&rules, "m", 1), Err(SetupError::TooManySlots { .. })));
        let mut s = two(SlotKind::Idle);
        s.run_ahead = Some(0);
        assert_eq!(s.resolve(&rules, "m", 2), Err(SetupError::BadRunAhead(0)));
    }

    #[test]
    fn playback_scripts_every_open_slot() {
        let mut s = two(SlotKind::Human);
        s.slots.push(SlotSetup::new(SlotKind::Closed));
        s.slots[1].machine = Some(1);
        s.slots[1].kind = SlotKind::Ai { difficulty: Difficulty::Easy };
        let p = s.for_playback();
        assert_eq!(p.slots[0].kind, SlotKind::Scripted);
        assert_eq!(p.slots[1].name.as_deref(), Some("Computer 2"), "a watched computer keeps its name");
        assert_eq!(p.slots[1].machine, None);
        assert_eq!(p.slots[2].kind, SlotKind::Closed);
    }
}
