//! Replays: the recorded games in the config folder's `replays/`; Watch (or a double click on
//! a row) plays the chosen one.

use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

impl Shell {
    /// The folder battles are recorded into.
    pub fn replay_dir(&self) -> std::path::PathBuf {
        self.settings_path().parent().map(|p| p.join("replays")).unwrap_or_default()
    }
}

pub(super) fn init(shell: &mut Shell) {
    let dir = shell.replay_dir();
    let mut rows: Vec<Vec<String>> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| {
                    // Map and length from the file; a file that does not read says so.
                    let (map, length) = match crate::session::Replay::load(&e.path()) {
                        Ok(r) => {
                            let s = r.frames / crate::sim::FRAMES_PER_SECOND;
                            (r.setup.map, format!("{}:{:02}", s / 60, s % 60))
                        }
                        Err(crate::content::FileError::Version { .. }) => {
                            ("(another game version)".to_string(), String::new())
                        }
                        Err(_) => ("(unreadable)".to_string(), String::new()),
                    };
                    vec![e.file_name().to_string_lossy().into_owned(), map, length]
                })
                .collect()
        })
        .unwrap_or_default();
    rows.sort();
    let note = if rows.is_empty() {
        shell.say("Message:NoReplaysIn", &[("folder", &dir.display().to_string())])
    } else {
        String::new()
    };
    if let Some(l) = shell.find("Replays.wnd:ListReplays") {
        shell.ui.list_set_rows(l, rows);
    }
    shell.set_text("Replays.wnd:ReplaysNote", &note);
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    match (short(&e.name), &e.kind) {
        // Watch, or a double click (Enter) on a row.
        ("ButtonWatch", EventKind::Selected) | ("ListReplays", EventKind::ListActivated(_)) => watch(shell),
        ("ButtonBack", EventKind::Selected) => shell.open(Screen::MainMenu),
        _ => {}
    }
}

/// Plays the replay chosen in the list, or says to choose one.
fn watch(shell: &mut Shell) {
    let list = shell.find("Replays.wnd:ListReplays");
    let chosen = list.and_then(|l| {
        let row = *shell.ui.list_selected(l).first()?;
        shell.ui.list_rows(l).get(row)?.first().cloned()
    });
    match chosen {
        Some(name) => {
            let path = shell.replay_dir().join(name);
            shell.request(super::ShellRequest::WatchReplay(path));
        }
        None => {
            let (title, text) = (shell.say("Title:Replays", &[]), shell.say("Message:ChooseReplay", &[]));
            shell.message(&title, &text, false);
        }
    }
}
