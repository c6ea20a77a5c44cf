//! Replays: the recorded games in the config folder's `replays/`.

use crate::ui::{EventKind, UiEvent};

use super::callbacks::short;
use super::{Screen, Shell};

pub(super) fn init(shell: &mut Shell) {
    let dir = shell.settings_path().parent().map(|p| p.join("replays")).unwrap_or_default();
    let mut rows: Vec<Vec<String>> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| vec![e.file_name().to_string_lossy().into_owned(), String::new(), String::new()])
                .collect()
        })
        .unwrap_or_default();
    rows.sort();
    let note = if rows.is_empty() { format!("No replays in {} yet.", dir.display()) } else { String::new() };
    if let Some(l) = shell.find("Replays.wnd:ListReplays") {
        shell.ui.list_set_rows(l, rows);
    }
    shell.set_text("Replays.wnd:ReplaysNote", &note);
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonWatch" => shell.message("Replays", "Replay playback is not in this build yet.", false),
        "ButtonBack" => shell.open(Screen::MainMenu),
        _ => {}
    }
}
