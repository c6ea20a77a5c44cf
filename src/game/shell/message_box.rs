//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too; on the
//! quit question OK quits, and on the leave-battle question OK leaves the battle.

use crate::ui::{EventKind, Key, UiEvent};

use super::Shell;
use super::callbacks::short;

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    let ok = match (&e.kind, short(&e.name)) {
        (EventKind::Selected, "ButtonOk") | (EventKind::KeyUnhandled(Key::Enter), _) => true,
        (EventKind::Selected, "ButtonCancel") | (EventKind::KeyUnhandled(Key::Escape), _) => false,
        _ => return,
    };
    let title = shell.find("MessageBox.wnd:MessageTitle").and_then(|id| shell.ui.window(id)).map(|w| w.text.clone());
    shell.close_message();
    match title.as_deref() {
        Some("Quit") if ok => shell.request(super::ShellRequest::Quit),
        Some(super::in_game::LEAVE_TITLE) if ok => shell.request(super::ShellRequest::LeaveBattle),
        _ => {}
    }
}
