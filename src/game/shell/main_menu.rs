//! The main menu: skirmish, online, replays, options, credits, quit.

use crate::ui::{EventKind, Key, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

pub(super) const CREDITS: &str = "Ridgeline is made by its founding engineers.\nText: Noto Sans (SIL Open Font License).\nArt and sound are made by the game's own generators.";

pub(super) fn init(shell: &mut Shell) {
    shell.set_text("MainMenu.wnd:Version", concat!("Ridgeline ", env!("CARGO_PKG_VERSION")));
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        shell.message("Quit", "Leave Ridgeline?", true);
        return;
    }
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonSkirmish" => shell.open(Screen::Skirmish),
        "ButtonOnline" => shell.open(Screen::Online),
        "ButtonReplays" => shell.open(Screen::Replays),
        "ButtonMods" => shell.open(Screen::Mods),
        "ButtonOptions" => shell.open(Screen::Options),
        "ButtonCredits" => shell.message("Credits", CREDITS, false),
        "ButtonQuit" => shell.request(super::ShellRequest::Quit),
        _ => {}
    }
}
