//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too; on the
//! quit question OK quits, on the leave-battle question OK leaves the battle, and on the
//! drop-player question (the host of a stalled online battle) OK drops the stalled players.

use crate::ui::{EventKind, Key, UiEvent};

use super::Shell;
use crate::ui::window::short_name as short;

/// The title of the question asked when a layout changed on disk under unsaved edits (its
/// answer settles it: OK takes the file, Cancel keeps the edits).
pub const CONFLICT_TITLE: &str = "Layout changed on disk";
/// The question the first save of one of the game's own layouts asks (OK saves it into the
/// player's own layouts mod and turns that on).
pub const SAVE_OWN_TITLE: &str = "Save your layout";

/// The title of the host's question whether to drop players the battle has waited for.
pub const DROP_TITLE: &str = "Drop player";

impl Shell {
    /// Shows a modal message box over the current screen; `cancel` adds a Cancel button.
    pub fn message(&mut self, title: &str, text: &str, cancel: bool) {
        self.close_message();
        let Some(file) = self.layouts.get("MessageBox.wnd").cloned() else { return };
        let id = self.ui.create_layout("MessageBox.wnd", &file);
        self.message = Some(id);
        self.set_text("MessageBox.wnd:MessageTitle", title);
        self.set_text("MessageBox.wnd:MessageText", text);
        if let Some(c) = self.ui.find("MessageBox.wnd:ButtonCancel") {
            self.ui.show(c, cancel);
        }
        if let Some(root) = self.ui.find("MessageBox.wnd:MessageBoxParent") {
            self.ui.push_modal(root);
        }
    }

    /// Tells the player a peer left the game.
    pub fn show_disconnected(&mut self, player: &str) {
        self.message("Disconnected", &format!("{player} has left the game."), false);
    }

    /// The text of a message the shell says by label (`Message:NoReplay`), in the player's
    /// language, each `{name}` in it filled in from `args` (a label with no entry shows as
    /// itself).
    pub fn say(&self, label: &str, args: &[(&str, &str)]) -> String {
        self.ui.labels().map_or_else(|| label.to_string(), |l| l.say(label, args))
    }

    /// Shows a message worded from the string table: the title `title` and the text `label`
    /// with `args` filled in (see [`Shell::say`]).
    pub fn tell(&mut self, title: &str, label: &str, args: &[(&str, &str)]) {
        let (title, text) = (self.say(title, &[]), self.say(label, args));
        self.message(&title, &text, false);
    }

    /// Tells the player the game went out of sync, on which frame, and where the report is.
    pub fn show_out_of_sync(&mut self, frame: u32, report: Option<&str>) {
        let mut text = self.say("Message:OutOfSync", &[("frame", &frame.to_string())]);
        if let Some(path) = report {
            text.push('\n');
            text.push_str(&self.say("Message:OutOfSyncReport", &[("path", path)]));
        }
        let title = self.say("Title:OutOfSync", &[]);
        self.message(&title, &text, false);
    }

    /// Closes the message box, if one is open.
    pub fn close_message(&mut self) {
        if let Some(id) = self.message.take() {
            if let Some(root) = self.ui.find("MessageBox.wnd:MessageBoxParent") {
                self.ui.pop_modal(root);
            }
            self.ui.destroy_layout(id);
        }
    }

    /// True while a message box is open.
    pub fn message_open(&self) -> bool {
        self.message.is_some()
    }

    /// Asks the host whether to drop `names`, whom the battle has waited for `seconds`.
    pub fn ask_drop(&mut self, names: &str, seconds: u32) {
        let text = self.say("Message:AskDrop", &[("names", names), ("seconds", &seconds.to_string())]);
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
        Some(CONFLICT_TITLE) => shell.settle_conflict(ok),
        Some(SAVE_OWN_TITLE) if ok => shell.save_now(),
        _ => {}
    }
}
