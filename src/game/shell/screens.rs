//! Which screen is on show and what it is built from: the layouts the screens open (checked
//! when loaded), the open screen and message box, the question that box asks (and, once
//! answered, an answer the layout editor acts on), whether a battle runs underneath, and the
//! last score shown.
//!
//! Must not: run a screen's callbacks (the stage opens screens and runs their hooks).

use std::collections::BTreeMap;

use crate::ui::wnd::WndFile;
use crate::ui::{LayoutId, WindowManager};

use super::question::Question;
use super::screen::Screen;

/// The layout of the message box.
const MESSAGE_BOX: &str = "MessageBox.wnd";
/// The layout of the layout editor's panel.
const EDITOR: &str = "Editor.wnd";

/// The screens' state.
#[derive(Debug, Default)]
pub struct Screens {
    /// Every layout the shell uses, by file name.
    layouts: BTreeMap<String, WndFile>,
    /// The screen on show and its layout.
    current: Option<(Screen, LayoutId)>,
    /// The open message box.
    message: Option<LayoutId>,
    /// The question the open message box asks, if any.
    question: Option<Question>,
    /// A question for the layout editor that was answered (OK: true), not yet acted on.
    answered: Option<(Question, bool)>,
    /// A battle is running under the screens (the client says so each frame): Options then
    /// returns to it rather than to the main menu.
    pub(super) in_battle: bool,
    /// The battle is an online one, where leaving surrenders (the HUD says so each frame).
    pub(super) leave_surrenders: bool,
    /// The battle can be saved (not an online one, which other machines play too): the battle
    /// menu's Save is greyed out otherwise (the client says so each frame).
    pub(super) battle_saves: bool,
    /// The last score shown.
    pub score_rows: Vec<Vec<String>>,
    /// The saved games the Load screen lists, in its rows' order.
    pub saves: Vec<std::path::PathBuf>,
    /// The replay files the Replays screen lists, in its rows' order.
    pub replays: Vec<std::path::PathBuf>,
    /// Where Continue on the score screen goes (the replay list after watching a replay; the
    /// main menu when none is set).
    pub after_score: Option<Screen>,
    /// The screens a mod's screen was opened from, latest last: where `back` goes.
    pub(super) trail: Vec<Screen>,
}

/// Screens `back` remembers at most (a longer trail forgets its oldest).
const MAX_TRAIL: usize = 32;

impl Screens {
    /// Screens over these layouts, none open.
    pub fn new(layouts: BTreeMap<String, WndFile>) -> Screens {
        Screens { layouts, ..Screens::default() }
    }

    /// The layouts of the screens mods bring (every layout loaded that is not the game's own),
    /// by file name: `Screen::Mod`'s index into them.
    fn mod_files(&self) -> impl Iterator<Item = &String> {
        let game = |f: &str| Screen::for_layout(f).is_some() || [MESSAGE_BOX, EDITOR].contains(&f);
        self.layouts.keys().filter(move |f| !game(f))
    }

    /// The mod's screen `open:<name>` opens (its layout `<name>.wnd`), if one loaded.
    pub fn mod_screen(&self, name: &str) -> Option<Screen> {
        let file = format!("{name}.wnd");
        let i = self.mod_files().position(|f| *f == file)?;
        u8::try_from(i).ok().map(Screen::Mod)
    }

    /// The layout file of `screen` (None: a mod's screen that is not there).
    pub fn file_of(&self, screen: Screen) -> Option<&str> {
        match screen {
            Screen::Mod(i) => self.mod_files().nth(usize::from(i)).map(String::as_str),
            other => Some(other.layout()),
        }
    }

    /// Remembers `from` as where `back` on the screen about to open goes.
    pub fn remember(&mut self, from: Screen) {
        if self.trail.len() >= MAX_TRAIL {
            self.trail.remove(0);
        }
        self.trail.push(from);
    }

    /// The screen on show.
    pub fn screen(&self) -> Option<Screen> {
        self.current.map(|(s, _)| s)
    }

    /// The layout of the screen on show.
    pub fn shown_layout(&self) -> Option<&WndFile> {
        self.layouts.get(self.file_of(self.screen()?)?)
    }

    /// The layout `file`, if it loaded.
    pub fn layout(&self, file: &str) -> Option<&WndFile> {
        self.layouts.get(file)
    }

    /// Every layout, by file name.
    pub fn layouts(&self) -> &BTreeMap<String, WndFile> {
        &self.layouts
    }

    /// Uses `file` for the layout `name`; it takes effect when that screen next opens.
    pub fn use_layout(&mut self, name: &str, file: WndFile) {
        self.layouts.insert(name.to_string(), file);
    }

    /// Replaces every layout; true when they changed. A mod's screen on show stays the same
    /// file's, or becomes the main menu when that is gone (its mod turned off).
    pub fn replace_layouts(&mut self, layouts: BTreeMap<String, WndFile>) -> bool {
        let changed = layouts != self.layouts;
        let shown = self.current.and_then(|(s, _)| self.file_of(s)).map(str::to_string);
        self.layouts = layouts;
        if let (Some((screen @ Screen::Mod(_), id)), Some(file)) = (self.current, shown) {
            let stem = file.strip_suffix(".wnd").unwrap_or(&file);
            self.current = Some((self.mod_screen(stem).unwrap_or(Screen::MainMenu), id));
            return changed || self.current.map(|(s, _)| s) != Some(screen);
        }
        changed
    }

    /// Takes the open screen off the record (the caller destroys its layout).
    pub fn take_current(&mut self) -> Option<(Screen, LayoutId)> {
        self.current.take()
    }

    /// Opens the layout of `screen` in `ui` as the screen on show (none open before); its
    /// layout, for the hooks it names, or none when it did not load.
    pub fn open_layout(&mut self, ui: &mut WindowManager, screen: Screen) -> Option<WndFile> {
        let name = self.file_of(screen)?.to_string();
        let file = self.layouts.get(&name).cloned()?;
        let id = ui.create_layout(&name, &file);
        self.current = Some((screen, id));
        Some(file)
    }

    /// Shows a modal message box over the screen with `title` and `text`; `cancel` adds a
    /// Cancel button; `question` is what its answer answers.
    pub fn show_message(
        &mut self,
        ui: &mut WindowManager,
        title: &str,
        text: &str,
        cancel: bool,
        question: Option<Question>,
    ) {
        self.close_message(ui);
        let Some(file) = self.layouts.get(MESSAGE_BOX).cloned() else { return };
        self.message = Some(ui.create_layout(MESSAGE_BOX, &file));
        for (name, value) in [("MessageBox.wnd:MessageTitle", title), ("MessageBox.wnd:MessageText", text)] {
            if let Some(w) = ui.find(name).and_then(|id| ui.window_mut(id)) {
                w.text = value.to_string();
            }
        }
        if let Some(c) = ui.find("MessageBox.wnd:ButtonCancel") {
            ui.show(c, cancel);
        }
        // Save / Don't save / Cancel: OK says Save, and the third button shows (a layout
        // without it offers Save and Cancel).
        if question == Some(Question::QuitUnsaved) {
            let save = ui.shown_text("MessageBox:ButtonSave");
            if let Some(w) = ui.find("MessageBox.wnd:ButtonOk").and_then(|id| ui.window_mut(id)) {
                w.text = save;
            }
            if let Some(d) = ui.find("MessageBox.wnd:ButtonDiscard") {
                ui.show(d, true);
            }
        }
        if let Some(root) = ui.find("MessageBox.wnd:MessageBoxParent") {
            ui.push_modal(root);
        }
        self.question = question;
    }

    /// Closes the message box, if one is open.
    pub fn close_message(&mut self, ui: &mut WindowManager) {
        self.question = None;
        if let Some(id) = self.message.take() {
            if let Some(root) = ui.find("MessageBox.wnd:MessageBoxParent") {
                ui.pop_modal(root);
            }
            ui.destroy_layout(id);
        }
    }

    /// True while a message box is open.
    pub fn message_open(&self) -> bool {
        self.message.is_some()
    }

    /// The question the open message box asks, if it asks one.
    pub fn question(&self) -> Option<Question> {
        self.message.and(self.question)
    }

    /// Keeps the answer to a question the layout editor asked, for the shell to hand it over.
    pub fn answer_for_editor(&mut self, question: Question, ok: bool) {
        self.answered = Some((question, ok));
    }

    /// The answer to a question of the editor's, once.
    pub fn take_answer(&mut self) -> Option<(Question, bool)> {
        self.answered.take()
    }
}
