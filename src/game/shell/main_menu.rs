//! The main menu: skirmish, online, replays, options, credits, quit.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, Key, UiEvent};

use super::question::Question;
use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

pub(super) fn init(stage: &mut Stage) {
    stage.set_text("MainMenu.wnd:Version", concat!("Ridgeline ", env!("CARGO_PKG_VERSION")));
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        let text = stage.say("Message:Quit", &[]);
        stage.ask(Question::Quit, &text);
        return;
    }
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonSkirmish" => stage.open(Screen::Skirmish),
        "ButtonOnline" => stage.open(Screen::Online),
        "ButtonReplays" => stage.open(Screen::Replays),
        "ButtonMods" => stage.open(Screen::Mods),
        "ButtonOptions" => stage.open(Screen::Options),
        "ButtonCredits" => stage.tell("Title:Credits", "Message:Credits", &[]),
        "ButtonQuit" => stage.request(ShellRequest::Quit),
        _ => {}
    }
}
