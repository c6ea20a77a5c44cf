//! Skirmish setup: a map from the list (with its preview and description), up to eight slots
//! (human, computer at a difficulty, closed, or the player watching as an observer; faction,
//! colour, team), starting money; Start
//! turns the choices into a `MatchSetup` and asks the client to play it. A layout with fewer
//! slot rows (a mod's older one) offers as many slots as it shows.
//!
//! Must not: start anything itself (it sends [`ShellRequest::StartMatch`]).

use crate::session::match_setup::{COLOUR_SRGB, COLOURS, MONEY};
use crate::ui::draw::DrawCmd;
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, Rect, UiEvent};

use super::content::Content;
use super::request::ShellRequest;
use super::screen::Screen;
use super::skirmish_config::{SLOTS, SkirmishConfig, SlotChoice};
use super::stage::Stage;

/// Slot kinds in the order of the player combo, each by its label in the string table
/// (Observer last, so a layout's older indices keep their meaning).
const PLAYER_ITEMS: [(&str, SlotChoice); 7] = [
    ("Skirmish:Human", SlotChoice::Human),
    ("Skirmish:EasyAI", SlotChoice::Computer(0)),
    ("Skirmish:NormalAI", SlotChoice::Computer(1)),
    ("Skirmish:HardAI", SlotChoice::Computer(2)),
    ("Skirmish:BrutalAI", SlotChoice::Computer(3)),
    ("Skirmish:Closed", SlotChoice::Closed),
    ("Skirmish:Observer", SlotChoice::Observer),
];
/// The player combo's items in the player's language: the human slot under the player's own
/// name.
fn player_items(stage: &Stage) -> Vec<String> {
    let player_name = &stage.prefs.settings.player_name;
    PLAYER_ITEMS
        .iter()
        .map(|(n, c)| if *c == SlotChoice::Human { player_name.to_string() } else { stage.say(n, &[]) })
        .collect()
}

/// A map's name in the player's language (`Map:<folder>`), else as the map gives it.
fn map_name(stage: &Stage, map: &super::loading::MapEntry) -> String {
    stage.word_or(&format!("Map:{}", folder_of(map)), &map.name)
}

/// The folder name a map is known by (`proving_grounds`).
pub(super) fn folder_of(map: &super::loading::MapEntry) -> String {
    map.dir.file_name().map_or_else(|| map.dir.display().to_string(), |n| n.to_string_lossy().into())
}

/// Team choices (0 is no team).
const TEAMS: [&str; 9] = ["-", "1", "2", "3", "4", "5", "6", "7", "8"];

fn name(field: &str, i: usize) -> String {
    format!("SkirmishSetup.wnd:{field}{i}")
}

pub(super) fn init(stage: &mut Stage) {
    let rows: Vec<Vec<String>> = stage
        .content
        .maps
        .iter()
        .map(|m| {
            vec![stage.say("Skirmish:MapPlayers", &[("map", &map_name(stage, m)), ("players", &m.players.to_string())])]
        })
        .collect();
    if let Some(list) = stage.find("SkirmishSetup.wnd:ListMaps") {
        stage.ui.list_set_rows(list, rows);
        stage.ui.list_select(list, Some(stage.skirmish.map));
    }
    if let Some(c) = stage.find("SkirmishSetup.wnd:ComboMoney") {
        stage.ui.combo_set(c, MONEY.iter().map(|m| format!("${m}")).collect(), Some(stage.skirmish.money));
    }
    // Factions and colours as the player's language words them (the setup keeps their ids).
    let factions: Vec<String> =
        stage.content.factions.iter().map(|f| stage.word_or(&format!("Faction:{f}"), f)).collect();
    let colours: Vec<String> = COLOURS.iter().map(|c| stage.word_or(&format!("Colour:{c}"), c)).collect();
    for i in 0..SLOTS {
        let s = stage.skirmish.slots[i];
        let who = PLAYER_ITEMS.iter().position(|(_, c)| *c == s.who);
        let sets: [(String, Vec<String>, Option<usize>); 4] = [
            (name("ComboPlayer", i), player_items(stage), who),
            (name("ComboFaction", i), factions.clone(), Some(s.faction)),
            (name("ComboColor", i), colours.clone(), Some(s.color)),
            (name("ComboTeam", i), TEAMS.iter().map(|t| t.to_string()).collect(), Some(s.team)),
        ];
        for (n, items, sel) in sets {
            if let Some(id) = stage.find(&n) {
                stage.ui.combo_set(id, items, sel);
            }
        }
    }
    refresh(stage);
}

/// Shows the chosen map's description and closes slots the map has no room for.
fn refresh(stage: &mut Stage) {
    let Some(map) = stage.content.maps.get(stage.skirmish.map).cloned() else { return };
    let description = stage.word_or(&format!("Map:{}.Description", folder_of(&map)), &map.description);
    stage.set_text("SkirmishSetup.wnd:MapDescription", &description);
    for i in 0..SLOTS {
        // A slot fits the map's starts and the layout's rows.
        let fits = stage.skirmish.fits(i, map.players as usize) && stage.find(&name("ComboPlayer", i)).is_some();
        if !fits {
            stage.skirmish.slots[i].who = SlotChoice::Closed;
        }
        for field in ["ComboPlayer", "ComboFaction", "ComboColor", "ComboTeam"] {
            if let Some(id) = stage.find(&name(field, i)) {
                stage.ui.enable(id, fits);
                if field == "ComboPlayer" {
                    let who = PLAYER_ITEMS.iter().position(|(_, c)| *c == stage.skirmish.slots[i].who);
                    let items = player_items(stage);
                    stage.ui.combo_set(id, items, who);
                }
            }
        }
    }
}

/// Draws the chosen map's preview, squared inside `rect`, with a mark at each start a row takes:
/// the row's colour and number (a closed row leaves its start grey, an observer's takes none).
pub(super) fn draw_preview(content: &Content, setup: &SkirmishConfig, rect: Rect, out: &mut Vec<DrawCmd>) {
    let (Some(key), Some(map)) = (content.preview(setup.map), content.maps.get(setup.map)) else { return };
    let r = rect.inset(3.0);
    let side = r.w.min(r.h);
    let sq = Rect::new(r.x + (r.w - side) / 2.0, r.y + (r.h - side) / 2.0, side, side);
    out.push(DrawCmd::Image { rect: sq, name: key, tint: [255; 4] });
    let mark = (side * 0.06).clamp(10.0, 22.0);
    for (row, start) in setup.rows_at_starts(map.starts.len()) {
        let Some(&(fx, fy)) = map.starts.get(start) else { continue };
        let [red, green, blue] = COLOUR_SRGB[setup.slots[row].color % COLOUR_SRGB.len()];
        let at = Rect::new(sq.x + fx * side - mark / 2.0, sq.y + fy * side - mark / 2.0, mark, mark);
        out.push(DrawCmd::Fill { rect: at, color: [red, green, blue, 255] });
        out.push(DrawCmd::Frame { rect: at, color: [255, 255, 255, 255], width: 1.5 });
        let px = mark * 0.8;
        out.push(DrawCmd::Text {
            x: at.x + mark * 0.3,
            y: at.y + (mark - px * 1.2) / 2.0,
            text: (row + 1).to_string(),
            px,
            bold: true,
            color: [255, 255, 255, 255],
            shadow: Some([0, 0, 0, 255]),
        });
    }
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    let id = short(&e.name).to_string();
    match &e.kind {
        EventKind::ListSelection(rows) if id == "ListMaps" => {
            if let Some(&r) = rows.first() {
                stage.skirmish.map = r;
                refresh(stage);
            }
        }
        EventKind::ComboSelected(k) => {
            let k = *k;
            let mut refresh_rows = false;
            if id == "ComboMoney" {
                stage.skirmish.money = k.min(MONEY.len() - 1);
            }
            for i in 0..SLOTS {
                let slot = &mut stage.skirmish.slots[i];
                if id == format!("ComboPlayer{i}") {
                    slot.who = PLAYER_ITEMS.get(k).map_or(SlotChoice::Closed, |(_, c)| *c);
                    // An observer's row takes no start: the rows below may fit one more.
                    refresh_rows = true;
                } else if id == format!("ComboFaction{i}") {
                    slot.faction = k;
                } else if id == format!("ComboColor{i}") {
                    slot.color = k;
                } else if id == format!("ComboTeam{i}") {
                    slot.team = k;
                }
            }
            if refresh_rows {
                refresh(stage);
            }
        }
        EventKind::Selected => match id.as_str() {
            "ButtonBack" => stage.open(Screen::MainMenu),
            "ButtonStart" => start(stage),
            _ => {}
        },
        _ => {}
    }
}

/// Starts a skirmish with the setup as chosen (or says why it cannot start).
pub(super) fn start(stage: &mut Stage) {
    let cfg = stage.skirmish.clone();
    let humans = cfg.local_seats();
    if cfg.open_slots() < 2 {
        stage.tell("Title:Skirmish", "Message:NeedTwoPlayers", &[]);
        return;
    }
    if humans != 1 {
        stage.tell("Title:Skirmish", "Message:OneHuman", &[]);
        return;
    }
    if stage.content.maps.get(cfg.map).is_some_and(|m| cfg.open_slots() > m.players as usize) {
        let (title, text) = (stage.say("Title:Skirmish", &[]), stage.say("Message:TooManyPlayers", &[]));
        stage.message(&title, &text, false);
        return;
    }
    let Some(map) = stage.content.maps.get(cfg.map) else { return };
    let folder = folder_of(map);
    // Each skirmish is a new game; the seed is kept in the replay.
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs());
    let setup = cfg.to_match_setup(
        &folder,
        map.players as usize,
        &stage.content.factions,
        &stage.prefs.settings.player_name,
        seed,
    );
    keep_setup(stage, &cfg, &folder);
    stage.request(ShellRequest::StartMatch(Box::new(setup)));
}

/// Keeps the setup just started in the settings, so the setup screen offers it again next
/// time (a failure to write is logged: the match starts all the same).
fn keep_setup(stage: &mut Stage, cfg: &SkirmishConfig, folder: &str) {
    let kept = cfg.to_kept(folder, &stage.content.factions);
    if stage.prefs.settings.skirmish == kept {
        return;
    }
    let wanted = crate::game::settings::Settings { skirmish: kept, ..stage.prefs.settings.clone() };
    if let Err(e) = stage.prefs.save_as(wanted) {
        log::warn!("the skirmish setup was not kept: {e}");
    }
}

/// The setup the skirmish screen opens with: the last one started, kept in the settings, if
/// its map is still listed; else a first skirmish's.
pub(super) fn opening_setup(
    content: &super::content::Content,
    settings: &crate::game::settings::Settings,
) -> SkirmishConfig {
    let maps: Vec<(String, u8)> = content.maps.iter().map(|m| (folder_of(m), m.players)).collect();
    SkirmishConfig::remembered(&settings.skirmish, &maps, &content.factions)
        .unwrap_or_else(|| SkirmishConfig::first(content.maps.iter().map(|m| m.players)))
}
