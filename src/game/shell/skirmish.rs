//! Skirmish setup: a map from the list (with its preview and description), up to eight slots
//! (human, computer at a difficulty, or closed; faction, colour, team), starting money; Start
//! turns the choices into a [`MatchSetup`] and asks the client to play it. A layout with fewer
//! slot rows (a mod's older one) offers as many slots as it shows.
//!
//! Must not: start anything itself (it sends [`super::ShellRequest::StartMatch`]).

pub use crate::session::match_setup::MONEY;
use crate::session::match_setup::{COLOURS, teams_or_own};
use crate::session::{Difficulty, MatchSetup, SlotKind, SlotSetup};
use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

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

/// Slot kinds in the order of the player combo.
const PLAYER_ITEMS: [(&str, SlotChoice); 6] = [
    ("Human", SlotChoice::Human),
    ("Easy AI", SlotChoice::Computer(0)),
    ("Normal AI", SlotChoice::Computer(1)),
    ("Hard AI", SlotChoice::Computer(2)),
    ("Brutal AI", SlotChoice::Computer(3)),
    ("Closed", SlotChoice::Closed),
];
/// The player combo's items: the human slot under the player's own name.
fn player_items(player_name: &str) -> Vec<String> {
    PLAYER_ITEMS
        .iter()
        .map(|(n, c)| if *c == SlotChoice::Human { player_name.to_string() } else { n.to_string() })
        .collect()
}

/// Team choices (0 is no team).
const TEAMS: [&str; 9] = ["-", "1", "2", "3", "4", "5", "6", "7", "8"];

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

fn name(field: &str, i: usize) -> String {
    format!("SkirmishSetup.wnd:{field}{i}")
}

pub(super) fn init(shell: &mut Shell) {
    let rows: Vec<Vec<String>> =
        shell.maps.iter().map(|m| vec![format!("{} ({} players)", m.name, m.players)]).collect();
    if let Some(list) = shell.find("SkirmishSetup.wnd:ListMaps") {
        shell.ui.list_set_rows(list, rows);
        shell.ui.list_select(list, Some(shell.skirmish.map));
    }
    if let Some(c) = shell.find("SkirmishSetup.wnd:ComboMoney") {
        shell.ui.combo_set(c, MONEY.iter().map(|m| format!("${m}")).collect(), Some(shell.skirmish.money));
    }
    for i in 0..SLOTS {
        let s = shell.skirmish.slots[i];
        let who = PLAYER_ITEMS.iter().position(|(_, c)| *c == s.who);
        let sets: [(String, Vec<String>, Option<usize>); 4] = [
            (name("ComboPlayer", i), player_items(&shell.settings.player_name), who),
            (name("ComboFaction", i), shell.factions.clone(), Some(s.faction)),
            (name("ComboColor", i), COLOURS.iter().map(|c| c.to_string()).collect(), Some(s.color)),
            (name("ComboTeam", i), TEAMS.iter().map(|t| t.to_string()).collect(), Some(s.team)),
        ];
        for (n, items, sel) in sets {
            if let Some(id) = shell.find(&n) {
                shell.ui.combo_set(id, items, sel);
            }
        }
    }
    refresh(shell);
}

/// Shows the chosen map's description and closes slots the map has no room for.
fn refresh(shell: &mut Shell) {
    let Some(map) = shell.maps.get(shell.skirmish.map).cloned() else { return };
    shell.set_text("SkirmishSetup.wnd:MapDescription", &map.description);
    for i in 0..SLOTS {
        // A slot fits the map's starts and the layout's rows.
        let fits = i < map.players as usize && shell.find(&name("ComboPlayer", i)).is_some();
        if !fits {
            shell.skirmish.slots[i].who = SlotChoice::Closed;
        }
        for field in ["ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam"] {
            if let Some(id) = shell.find(&name(field, i)) {
                shell.ui.enable(id, fits);
                if field == "ComboPlayer" {
                    let who = PLAYER_ITEMS.iter().position(|(_, c)| *c == shell.skirmish.slots[i].who);
                    let items = player_items(&shell.settings.player_name);
                    shell.ui.combo_set(id, items, who);
                }
            }
        }
    }
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    let id = short(&e.name).to_string();
    match &e.kind {
        EventKind::ListSelection(rows) if id == "ListMaps" => {
            if let Some(&r) = rows.first() {
                shell.skirmish.map = r;
                refresh(shell);
            }
        }
        EventKind::ComboSelected(k) => {
            let k = *k;
            if id == "ComboMoney" {
                shell.skirmish.money = k.min(MONEY.len() - 1);
            }
            for i in 0..SLOTS {
                let slot = &mut shell.skirmish.slots[i];
                if id == format!("ComboPlayer{i}") {
                    slot.who = PLAYER_ITEMS.get(k).map_or(SlotChoice::Closed, |(_, c)| *c);
                } else if id == format!("ComboFaction{i}") {
                    slot.faction = k;
                } else if id == format!("ComboColor{i}") {
                    slot.color = k;
                } else if id == format!("ComboTeam{i}") {
                    slot.team = k;
                }
            }
        }
        EventKind::Selected => match id.as_str() {
            "ButtonBack" => shell.open(Screen::MainMenu),
            "ButtonStart" => start(shell),
            _ => {}
        },
        _ => {}
    }
}

/// Starts a skirmish with the setup as chosen (or says why it cannot start).
pub(super) fn start(shell: &mut Shell) {
    let cfg = shell.skirmish.clone();
    let humans = cfg.slots.iter().filter(|s| s.who == SlotChoice::Human).count();
    if cfg.open_slots() < 2 {
        shell.tell("Title:Skirmish", "Message:NeedTwoPlayers", &[]);
        return;
    }
    if humans != 1 {
        shell.tell("Title:Skirmish", "Message:OneHuman", &[]);
        return;
    }
    if shell.maps.get(cfg.map).is_some_and(|m| cfg.open_slots() > m.players as usize) {
        let (title, text) = (shell.say("Title:Skirmish", &[]), shell.say("Message:TooManyPlayers", &[]));
        shell.message(&title, &text, false);
        return;
    }
    let Some(map) = shell.maps.get(cfg.map) else { return };
    let folder = map.dir.file_name().map_or_else(|| map.dir.display().to_string(), |n| n.to_string_lossy().into());
    // Each skirmish is a new game; the seed is kept in the replay.
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs());
    let setup = cfg.to_match_setup(&folder, map.players as usize, &shell.factions, &shell.settings.player_name, seed);
    shell.request(super::ShellRequest::StartMatch(Box::new(setup)));
}
