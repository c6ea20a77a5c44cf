//! Message boxes (disconnected, out of sync, notices): OK closes; Cancel closes too. A question
//! ([`Question`]) is known by what it asks, not by its title (which the string table words):
//! on the quit question OK quits, on the leave-battle question OK leaves the battle, and on the
//! drop-player question (the host of a stalled online battle) OK drops the stalled players.

use crate::ui::{EventKind, Key, UiEvent};

use super::Shell;
use crate::ui::window::short_name as short;

/// A question a message box asks, which its OK (or Cancel) answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Leave Ridgeline? OK quits.
    Quit,
    /// Leave the battle? OK leaves it.
    LeaveBattle,
    /// The host's question whether to drop players the battle has waited for.
    DropPlayer,
    /// A layout changed on disk under unsaved edits: OK takes the file, Cancel keeps the edits.
    LayoutConflict,
    /// The first save of one of the game's own layouts: OK saves it into the player's own
    /// layouts mod and turns that on.
    SaveOwnLayout,
}

impl Question {
    /// The label of its title in the string table.
    pub fn title_label(self) -> &'static str {
        match self {
            Question::Quit => "Title:Quit",
            Question::LeaveBattle => "Title:LeaveBattle",
            Question::DropPlayer => "Title:DropPlayer",
            Question::LayoutConflict => "Title:LayoutConflict",
            Question::SaveOwnLayout => "Title:SaveOwnLayout",
        }
    }
}

impl Shell {
    /// Shows a modal message box over the current screen; `cancel` adds a Cancel button.
    pub fn message(&mut self, title: &str, text: &str, cancel: bool) {
        self.show_message(title, text, cancel);
    }

    /// Asks `question` with `text` (worded by the caller), titled from the string table, with
    /// OK and Cancel; the answer goes where the question says.
    pub fn ask(&mut self, question: Question, text: &str) {
        let title = self.say(question.title_label(), &[]);
        self.show_message(&title, text, true);
        self.question = Some(question);
    }

    /// The question the open message box asks, if it asks one.
    pub fn question(&self) -> Option<Question> {
        self.message.and(self.question)
    }

    fn show_message(&mut self, title: &str, text: &str, cancel: bool) {
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
        self.tell("Title:Disconnected", "Message:Disconnected", &[("name", player)]);
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
        self.question = None;
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
        self.ask(Question::DropPlayer, &text);
    }

    /// Closes the drop question if it is open: the battle no longer waits (the player came
    /// back, or was dropped).
    pub fn close_drop_question(&mut self) {
        if self.question() == Some(Question::DropPlayer) {
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
    let question = shell.question();
    shell.close_message();
    match question {
        Some(Question::Quit) if ok => shell.request(super::ShellRequest::Quit),
        Some(Question::LeaveBattle) if ok => shell.request(super::ShellRequest::LeaveBattle),
        Some(Question::DropPlayer) if ok => shell.request(super::ShellRequest::DropStalled),
        Some(Question::LayoutConflict) => shell.settle_conflict(ok),
        Some(Question::SaveOwnLayout) if ok => shell.save_now(),
        _ => {}
    }
}
