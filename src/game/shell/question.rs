//! The questions a message box asks, known by what they ask rather than by their title (which
//! the string table words).
//!
//! Must not: open or answer anything (the stage asks, `message_box.rs` answers).

/// A question a message box asks, which its OK (or Cancel) answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Leave Ridgeline? OK quits.
    Quit,
    /// Quitting with unsaved layout edits: OK (Save) saves them and quits, Don't save quits,
    /// Cancel stays.
    QuitUnsaved,
    /// Leave the battle? OK leaves it.
    LeaveBattle,
    /// The host's question whether to drop players the battle has waited for.
    DropPlayer,
    /// A layout changed on disk under unsaved edits: OK takes the file, Cancel keeps the edits.
    LayoutConflict,
    /// The first save of one of the game's own layouts: OK saves it into the player's own
    /// layouts mod and turns that on.
    SaveOwnLayout,
    /// Delete the saved game chosen on the Load screen? OK deletes it.
    DeleteSave,
}

impl Question {
    /// The label of its title in the string table.
    pub fn title_label(self) -> &'static str {
        match self {
            Question::Quit => "Title:Quit",
            Question::QuitUnsaved => "Title:QuitUnsaved",
            Question::LeaveBattle => "Title:LeaveBattle",
            Question::DropPlayer => "Title:DropPlayer",
            Question::LayoutConflict => "Title:LayoutConflict",
            Question::SaveOwnLayout => "Title:SaveOwnLayout",
            Question::DeleteSave => "Title:DeleteSave",
        }
    }
}
