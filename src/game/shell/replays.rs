//! Replays: the recorded games in the config folder's `replays/`, a row each — the file (its
//! name holds the map and the date), the players, who won and the length (a file that does
//! not read says why in the players' column; a cell too long for its column ends in an
//! ellipsis, and the chosen row is shown whole under the list); Watch (or a double click on a
//! row) plays the chosen one.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

pub(super) fn init(stage: &mut Stage) {
    let dir = stage.prefs.replay_dir();
    let mut found: Vec<(std::time::SystemTime, Vec<String>)> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| {
                    let when = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
                    // What the file tells; a file that does not read says so.
                    let mut row = match crate::session::Replay::load(&e.path()) {
                        Ok(r) => describe(stage, &r),
                        Err(crate::content::FileError::Version { .. }) => {
                            vec![stage.say("Replays:OtherVersion", &[]), String::new(), String::new()]
                        }
                        Err(_) => vec![stage.say("Replays:Unreadable", &[]), String::new(), String::new()],
                    };
                    row.insert(0, e.file_name().to_string_lossy().into_owned());
                    (when, row)
                })
                .collect()
        })
        .unwrap_or_default();
    // Newest first; files written in the same instant by name.
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let rows: Vec<Vec<String>> = found.into_iter().map(|(_, row)| row).collect();
    let note = if rows.is_empty() {
        stage.say("Message:NoReplaysIn", &[("folder", &dir.display().to_string())])
    } else {
        String::new()
    };
    if let Some(l) = stage.find("Replays.wnd:ListReplays") {
        stage.ui.list_set_rows(l, rows);
    }
    stage.set_text("Replays.wnd:ReplaysNote", &note);
}

/// A replay's players, result and length, as its row shows them (the map is in the file's
/// name).
fn describe(stage: &Stage, r: &crate::session::Replay) -> Vec<String> {
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
    vec![players.join(", "), result, format!("{}:{:02}", s / 60, s % 60)]
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

/// The chosen row whole under the list (its cells end in an ellipsis where their columns are
/// too narrow: long player names).
fn show_chosen(stage: &mut Stage) {
    let list = stage.find("Replays.wnd:ListReplays");
    let row = list.and_then(|l| {
        let row = *stage.ui.list_selected(l).first()?;
        stage.ui.list_rows(l).get(row).cloned()
    });
    // "file: players · result · length" (an unreadable file has only its reason).
    let text = row.map_or_else(String::new, |r| {
        let rest: Vec<&str> = r.iter().skip(1).map(String::as_str).filter(|c| !c.is_empty()).collect();
        format!("{}: {}", r.first().map_or("", String::as_str), rest.join(" · "))
    });
    stage.set_text("Replays.wnd:ReplaysNote", &text);
}

/// Plays the replay chosen in the list, or says to choose one.
fn watch(stage: &mut Stage) {
    let list = stage.find("Replays.wnd:ListReplays");
    let chosen = list.and_then(|l| {
        let row = *stage.ui.list_selected(l).first()?;
        stage.ui.list_rows(l).get(row)?.first().cloned()
    });
    match chosen {
        Some(name) => {
            let path = stage.prefs.replay_dir().join(name);
            stage.request(ShellRequest::WatchReplay(path));
        }
        None => {
            let (title, text) = (stage.say("Title:Replays", &[]), stage.say("Message:ChooseReplay", &[]));
            stage.message(&title, &text, false);
        }
    }
}
