//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too. A question
//! ([`Question`]) is known by what it asks, not by its title (which the string table words):
//! on the quit question OK quits, on the leave-battle question OK leaves the battle, and on the
//! drop-player question (the host of a stalled online battle) OK drops the stalled players. The
//! layout editor's questions are answered to the editor (the shell hands the answer over); on
//! the question before quitting with unsaved edits, Don't save quits at once.
//!
//! Must not: act on an answer beyond a request to the client or the answer kept for the
//! editor.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, Key, UiEvent};

use super::question::Question;
use super::request::ShellRequest;
use super::stage::Stage;

/// Tells the player which maps could not be loaded and were left out of the list (nothing
/// when none was).
pub(super) fn show_maps_left_out(stage: &mut Stage, refused: &[String]) {
    if refused.is_empty() {
        return;
    }
    let n = refused.len().to_string();
    let head = stage.say(if n == "1" { "Message:MapLeftOut" } else { "Message:MapsLeftOut" }, &[("count", &n)]);
    let title = stage.say("Title:Maps", &[]);
    stage.message(&title, &format!("{head}\n{}", refused.join("\n")), false);
}

/// Tells the player a peer left the game.
pub(super) fn show_disconnected(stage: &mut Stage, player: &str) {
    stage.tell("Title:Disconnected", "Message:Disconnected", &[("name", player)]);
}

/// Tells the player the game went out of sync, on which frame, and where the report is.
pub(super) fn show_out_of_sync(stage: &mut Stage, frame: u32, report: Option<&str>) {
    let mut text = stage.say("Message:OutOfSync", &[("frame", &frame.to_string())]);
    if let Some(path) = report {
        text.push('\n');
        text.push_str(&stage.say("Message:OutOfSyncReport", &[("path", path)]));
    }
    let title = stage.say("Title:OutOfSync", &[]);
    stage.message(&title, &text, false);
}

/// Asks the host whether to drop `names`, whom the battle has waited for `seconds`.
pub(super) fn ask_drop(stage: &mut Stage, names: &str, seconds: u32) {
    let text = stage.say("Message:AskDrop", &[("names", names), ("seconds", &seconds.to_string())]);
    stage.ask(Question::DropPlayer, &text);
}

/// Closes the drop question if it is open: the battle no longer waits (the player came back,
/// or was dropped).
pub(super) fn close_drop_question(stage: &mut Stage) {
    if stage.screens.question() == Some(Question::DropPlayer) {
        stage.close_message();
    }
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    if (&e.kind, short(&e.name)) == (&EventKind::Selected, "ButtonDiscard") {
        // Don't save: quit, leaving the edits unsaved.
        let question = stage.screens.question();
        stage.close_message();
        if question == Some(Question::QuitUnsaved) {
            stage.request(ShellRequest::QuitNow);
        }
        return;
    }
    let ok = match (&e.kind, short(&e.name)) {
        (EventKind::Selected, "ButtonOk") | (EventKind::KeyUnhandled(Key::Enter), _) => true,
        (EventKind::Selected, "ButtonCancel") | (EventKind::KeyUnhandled(Key::Escape), _) => false,
        _ => return,
    };
    let question = stage.screens.question();
    stage.close_message();
    match question {
        Some(Question::Quit) if ok => stage.request(ShellRequest::Quit),
        Some(Question::LeaveBattle) if ok => stage.request(ShellRequest::LeaveBattle),
        Some(Question::DropPlayer) if ok => stage.request(ShellRequest::DropStalled),
        Some(Question::DeleteSave) if ok => super::load::delete_chosen(stage),
        Some(q @ Question::LayoutConflict) => stage.screens.answer_for_editor(q, ok),
        Some(q @ Question::SaveOwnLayout) if ok => stage.screens.answer_for_editor(q, ok),
        Some(q @ Question::QuitUnsaved) if ok => stage.screens.answer_for_editor(q, ok),
        _ => {}
    }
}
