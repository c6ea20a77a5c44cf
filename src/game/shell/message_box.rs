//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too; on the
//! quit question, OK quits.

use crate::ui::{EventKind, Key, UiEvent};

use super::Shell;
use super::callbacks::short;

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    let ok = match (&e.kind, short(&e.name)) {
        (EventKind::Selected, "ButtonOk") | (EventKind::KeyUnhandled(Key::Enter), _) => true,
        (EventKind::Selected, "ButtonCancel") | (EventKind::KeyUnhandled(Key::Escape), _) => false,
        _ => return,
    };
    let quitting =
        shell.find("MessageBox.wnd:MessageTitle").and_then(|id| shell.ui.window(id)).is_some_and(|w| w.text == "Quit");
    shell.close_message();
    if ok && quitting {
        shell.quit = true;
    }
}
