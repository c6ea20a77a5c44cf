//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too; on the
//! quit question OK quits, on the leave-battle question OK leaves the battle, and on the
//! drop-player question (the host of a stalled online battle) OK drops the stalled players.

use crate::ui::{EventKind, Key, UiEvent};

use super::Shell;
use super::callbacks::short;

/// The title of the host's question whether to drop players the battle has waited for.
pub const DROP_TITLE: &str = "Drop player";

impl Shell {
    /// Asks the host whether to drop `names`, whom the battle has waited for `seconds`.
    pub fn ask_drop(&mut self, names: &str, seconds: u32) {
        let text = format!(
            "Nothing has come from {names} for {seconds} seconds. Drop them and play on? They can rejoin with the code."
        );
        self.message(DROP_TITLE, &text, true);
    }

    /// Closes the drop question if it is open: the battle no longer waits (the player came
    /// back, or was dropped).
    pub fn close_drop_question(&mut self) {
        let title = self.find("MessageBox.wnd:MessageTitle").and_then(|id| self.ui.window(id)).map(|w| w.text.clone());
        if self.message_open() && title.as_deref() == Some(DROP_TITLE) {
            self.close_message();
        }
    }
}

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
        Some(DROP_TITLE) if ok => shell.request(super::ShellRequest::DropStalled),
        _ => {}
    }
}
