//! Replays: the recorded games in the config folder's `replays/`, a row each — the map, the
//! players, who won, the length and when it was played (a file that does not read shows its
//! name and says why; a cell too long for its column ends in an ellipsis, and the chosen row
//! is shown whole under the list, after its file's name); Watch (or a double click on a row)
//! plays the chosen one.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

pub(super) fn init(stage: &mut Stage) {
    let dir = stage.prefs.replay_dir();
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf, Vec<String>)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| {
                    let when = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
                    let played = played_at(when);
                    // What the file tells; a file that does not read says so beside its name.
                    let file = || e.file_name().to_string_lossy().into_owned();
                    let row = match crate::session::Replay::load(&e.path()) {
                        Ok(r) => describe(stage, &r, played),
                        Err(crate::content::FileError::Version { .. }) => {
                            vec![file(), stage.say("Replays:OtherVersion", &[]), String::new(), String::new(), played]
                        }
                        Err(_) => {
                            vec![file(), stage.say("Replays:Unreadable", &[]), String::new(), String::new(), played]
                        }
                    };
                    (when, e.path(), row)
                })
                .collect()
        })
        .unwrap_or_default();
    // Newest first; files written in the same instant by name.
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let note = if found.is_empty() {
        stage.say("Message:NoReplaysIn", &[("folder", &dir.display().to_string())])
    } else {
        String::new()
    };
    let (files, rows): (Vec<_>, Vec<_>) = found.into_iter().map(|(_, path, row)| (path, row)).unzip();
    stage.screens.replays = files;
    if let Some(l) = stage.find("Replays.wnd:ListReplays") {
        stage.ui.list_set_rows(l, rows);
    }
    stage.set_text("Replays.wnd:ReplaysNote", &note);
}

/// When a replay was written (the game's end), to the minute, in UTC: "2026-12-06 14:27".
fn played_at(when: std::time::SystemTime) -> String {
    let secs = when.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let stamp = crate::session::replay::utc_stamp(secs); // "YYYY-MM-DD HHMMSS"
    match (stamp.get(..13), stamp.get(13..15)) {
        (Some(day_hour), Some(minute)) => format!("{day_hour}:{minute}"),
        _ => stamp,
    }
}

/// A replay's map (its name in the map list, else its folder's), players, result, length and
/// when it was `played`, as its row shows them.
fn describe(stage: &Stage, r: &crate::session::Replay, played: String) -> Vec<String> {
    let map = stage.content.maps.iter().find(|m| super::skirmish::folder_of(m) == r.setup.map);
    let map = map.map_or_else(|| r.setup.map.clone(), |m| m.name.clone());
    let names = r.player_names();
    let result = match r.winner.and_then(|w| names.get(w as usize)) {
        Some((name, _)) => stage.say("Replays:Won", &[("name", name)]),
        None => stage.say("Replays:NoWinner", &[]),
    };
    // A computer with its difficulty ("Computer 1 (brutal)").
    let players: Vec<String> = names
        .iter()
        .map(|(name, difficulty)| match difficulty {
            Some(d) => format!("{name} ({})", d.name()),
            None => name.clone(),
        })
        .collect();
    let s = r.frames / crate::sim::FRAMES_PER_SECOND;
    vec![map, players.join(", "), result, format!("{}:{:02}", s / 60, s % 60), played]
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    match (short(&e.name), &e.kind) {
        // Watch, or a double click (Enter) on a row.
        ("ButtonWatch", EventKind::Selected) | ("ListReplays", EventKind::ListActivated(_)) => watch(stage),
        ("ListReplays", EventKind::ListSelection(_)) => show_chosen(stage),
        ("ButtonBack", EventKind::Selected) => stage.open(Screen::MainMenu),
        _ => {}
    }
}

/// The chosen row whole under the list, after its file's name (its cells end in an ellipsis
/// where their columns are too narrow: long player names).
fn show_chosen(stage: &mut Stage) {
    let list = stage.find("Replays.wnd:ListReplays");
    let chosen = list.and_then(|l| stage.ui.list_selected(l).first().copied());
    let row =
        chosen.and_then(|i| Some((stage.screens.replays.get(i)?.clone(), stage.ui.list_rows(list?).get(i)?.clone())));
    // "file: map · players · result · length · played" (an unreadable file: its reason).
    let text = row.map_or_else(String::new, |(path, cells)| {
        let file = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let cells: Vec<&str> = cells.iter().map(String::as_str).filter(|c| !c.is_empty() && *c != file).collect();
        format!("{file}: {}", cells.join(" · "))
    });
    stage.set_text("Replays.wnd:ReplaysNote", &text);
}

/// Plays the replay chosen in the list, or says to choose one.
fn watch(stage: &mut Stage) {
    let list = stage.find("Replays.wnd:ListReplays");
    let chosen = list.and_then(|l| stage.screens.replays.get(*stage.ui.list_selected(l).first()?).cloned());
    match chosen {
        Some(path) => stage.request(ShellRequest::WatchReplay(path)),
        None => {
            let (title, text) = (stage.say("Title:Replays", &[]), stage.say("Message:ChooseReplay", &[]));
            stage.message(&title, &text, false);
        }
    }
}
