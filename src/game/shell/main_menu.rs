//! The main menu: skirmish, online, replays, options, credits, quit.

use crate::ui::{EventKind, Key, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

pub(super) fn init(shell: &mut Shell) {
    shell.set_text("MainMenu.wnd:Version", concat!("Ridgeline ", env!("CARGO_PKG_VERSION")));
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        let text = shell.say("Message:Quit", &[]);
        shell.ask(super::Question::Quit, &text);
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
        "ButtonCredits" => shell.tell("Title:Credits", "Message:Credits", &[]),
        "ButtonQuit" => shell.request(super::ShellRequest::Quit),
        _ => {}
    }
}
