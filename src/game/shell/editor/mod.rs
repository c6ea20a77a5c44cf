//! The layout editor: F10 turns the screen on show (the battle's HUD included) into an
//! editable copy of its layout. A click selects the deepest window under the pointer (Tab
//! walks to the next, Shift+Tab back; Shift+click gathers more for the alignment tools,
//! `align.rs`), a drag moves it (from one of its handles, `handles.rs`, resizes it), the arrow
//! keys nudge it a pixel (Shift: ten) — a drag snaps to the siblings' edges within four units,
//! else to a five-unit grid — `t` types its text, `d` duplicates it, Delete removes it, `u`
//! undoes and `r` redoes, `s` saves what was edited (`save.rs`: into the front mod that has
//! the layout, its copy or its patch, else the player's own `mods/my-layouts/`; never over the
//! game's files, never with another mod's changes baked in), and
//! Escape or F10 leaves. The screen shows every change at once; `overlay.rs` draws the
//! editor's marks, `panel.rs` fills its own panel (`Editor.wnd`), whose events `events.rs`
//! turns into edits.
//!
//! [`LayoutEditor`] (this file) holds the session on (an [`Editor`], `session.rs`: the tree
//! and every edit of it), the sessions left with unsaved edits, and the modifier keys; each of
//! its acts receives the shell's parts as a [`Stage`].
//!
//! Must not: write the game's own files, or let input through to the battle while editing.

mod align;
mod events;
mod handles;
mod input;
mod labelled;
mod overlay;
mod panel;
mod save;
mod session;
mod tree;
mod values;

use std::collections::BTreeMap;

use crate::game::shell::question::Question;
use crate::game::shell::stage::Stage;
use crate::ui::draw::DrawCmd;
use crate::ui::wnd::model::WindowType;
use crate::ui::wnd::{WndFile, same_content};
use crate::ui::{Input, UiEvent, WindowManager};

pub use session::Editor;

use events::Asked;
use input::Held;

/// The layout editor's state.
#[derive(Debug, Default)]
pub struct LayoutEditor {
    /// The session on, while the editor is (F10).
    session: Option<Editor>,
    /// Editing sessions left (F10 off) with unsaved edits, by layout file: their edits stay on
    /// screen and the next F10 on that layout takes them up again.
    shelved: BTreeMap<String, Editor>,
    /// The modifier keys held (the client says so when they change).
    held: Held,
}

impl LayoutEditor {
    /// True while the editor is on.
    pub fn editing(&self) -> bool {
        self.session.is_some()
    }

    /// The editing session, if any.
    pub fn session(&self) -> Option<&Editor> {
        self.session.as_ref()
    }

    /// The client tells whether Shift is held: clicks then add to the group.
    pub fn set_shift(&mut self, held: bool) {
        self.held.shift = held;
    }

    /// The client tells whether Alt is held: the editor then moves a window without its
    /// children.
    pub fn set_alt(&mut self, held: bool) {
        self.held.alt = held;
    }

    /// F10: starts editing the screen on show (in modder mode, from Options), or stops. A
    /// session left with unsaved edits is taken up again where it was, undo history and all.
    pub fn toggle(&mut self, stage: &mut Stage) {
        if self.session.is_some() {
            self.leave(stage.ui);
            return;
        }
        if !stage.prefs.settings.modder_mode {
            return;
        }
        let Some(screen) = stage.screen() else { return };
        // A mod's own screen has its layout by its place in the list (`Screens::file_of`).
        let Some(file) = stage.screens.file_of(screen).map(str::to_string) else { return };
        if let Some(mut shelved) = self.shelved.remove(&file) {
            shelved.screen = screen;
            panel::show_edit(self.session.insert(shelved), stage);
            return;
        }
        let Some(tree) = stage.screens.layout(&file).cloned() else { return };
        panel::show_panel(self.session.insert(Editor::new(screen, file, tree)), stage);
    }

    /// Turns the editor on over the screen on show (modder mode on for it) and selects the
    /// window `name` (none: nothing selected), as `screenshot --edit` shows it; false if the
    /// editor could not start or has no such window.
    pub fn edit_with(&mut self, stage: &mut Stage, name: Option<&str>) -> bool {
        stage.prefs.settings.modder_mode = true;
        if !self.editing() {
            self.toggle(stage);
        }
        let Some(ed) = &mut self.session else { return false };
        if let Some(name) = name {
            if !ed.tree.all_windows().iter().any(|w| w.name == name) {
                return false;
            }
            ed.selected = Some(name.to_string());
        }
        panel::fill_panel(ed, stage);
        true
    }

    /// Leaves the editor (its panel goes). Unsaved edits stay on screen and are kept, with
    /// their undo history, for the next F10 on this layout.
    pub fn leave(&mut self, ui: &mut WindowManager) {
        let Some(mut ed) = self.session.take() else { return };
        if let Some(p) = ed.panel.take() {
            ui.destroy_layout(p);
        }
        (ed.typing, ed.drag) = (false, None);
        if ed.unsaved() {
            self.shelved.insert(ed.file.clone(), ed);
        }
    }

    /// Adds a new window of `kind` inside the selected one (or at the top level), selects it
    /// and shows it.
    pub fn add_window(&mut self, stage: &mut Stage, kind: WindowType) {
        if let Some(ed) = &mut self.session
            && ed.add_window(kind)
        {
            panel::show_edit(ed, stage);
        }
    }

    /// Input while editing, over the screen (not the panel).
    pub fn input(&mut self, stage: &mut Stage, input: &Input) {
        let Some(ed) = &mut self.session else { return };
        if input::input(ed, stage, self.held, input) {
            self.leave(stage.ui);
        }
    }

    /// An event of the editor's own panel (`EditorSystem`).
    pub fn event(&mut self, stage: &mut Stage, e: &UiEvent) {
        let Some(ed) = &mut self.session else { return };
        if events::event(ed, stage, e) == Asked::Leave {
            self.leave(stage.ui);
        }
    }

    /// True when `input` belongs to the editor's own panel (the pointer is over it, or one of
    /// its fields has the keyboard).
    pub fn panel_has(&self, ui: &WindowManager, input: Input) -> bool {
        self.session.as_ref().is_some_and(|ed| panel::panel_has(ed, ui, input))
    }

    /// True while one of the panel's text fields has the keyboard.
    pub fn field_focused(&self, ui: &WindowManager) -> bool {
        self.editing() && panel::field_focused(ui)
    }

    /// True while the editor takes typed text: a panel field has the keyboard, or `t` is
    /// typing the selected window's text.
    pub fn takes_text(&self, ui: &WindowManager) -> bool {
        self.field_focused(ui) || self.session.as_ref().is_some_and(|e| e.typing)
    }

    /// The editor's marks over the screen.
    pub fn overlay(&self, ui: &WindowManager) -> Vec<DrawCmd> {
        self.session.as_ref().map_or_else(Vec::new, |ed| overlay::overlay(ed, ui))
    }

    /// The answer to one of the editor's questions (asked through a message box).
    pub fn answer(&mut self, stage: &mut Stage, question: Question, ok: bool) {
        match question {
            Question::LayoutConflict => self.settle_conflict(stage, ok),
            Question::QuitUnsaved if ok => {
                save::save_all_and_quit(self.session.iter_mut().chain(self.shelved.values_mut()), stage)
            }
            Question::SaveOwnLayout if ok => match &mut self.session {
                Some(ed) => save::save_now(ed, stage),
                None => stage.tell("Title:LayoutEditor", "Message:NotSaved", &[("error", "not editing")]),
            },
            _ => {}
        }
    }

    /// Before quitting: with unsaved edits (on, or left with F10), asks Save / Don't save /
    /// Cancel ([`Question::QuitUnsaved`]) naming the layouts, and returns true; false when
    /// there is nothing to lose.
    pub fn ask_before_quit(&mut self, stage: &mut Stage) -> bool {
        let files: Vec<&str> =
            self.session.iter().chain(self.shelved.values()).filter(|e| e.unsaved()).map(|e| e.file.as_str()).collect();
        if files.is_empty() {
            return false;
        }
        let text = stage.say("Message:QuitUnsaved", &[("files", &files.join(", "))]);
        stage.ask(Question::QuitUnsaved, &text);
        true
    }

    /// Takes up `layouts` just read from disk (a reload): a layout with unsaved edits (on, or
    /// left with F10) keeps them: if its file is unchanged nothing happens to it; if its file
    /// now holds what the editor holds (it was just saved) the edits count as saved; if the
    /// file changed to something else, the edits stay on screen and the layout's file is
    /// returned among those to ask about. A layout being edited without unsaved edits follows
    /// its file (the old tree stays in the undo history).
    pub fn take_up(&mut self, layouts: &mut BTreeMap<String, WndFile>) -> Vec<String> {
        let mut conflicts = Vec::new();
        for e in self.session.iter_mut().chain(self.shelved.values_mut()) {
            let Some(disk) = layouts.get(&e.file) else { continue };
            if same_content(disk, &e.tree) {
                (e.base, e.theirs) = (disk.clone(), None);
                continue;
            }
            if !same_content(disk, &e.base) {
                if !e.unsaved() {
                    e.remember(disk.clone());
                    e.base = disk.clone();
                    continue;
                }
                e.theirs = Some(disk.clone());
                conflicts.push(e.file.clone());
            }
            layouts.insert(e.file.clone(), e.tree.clone());
        }
        conflicts
    }

    /// Puts the panel back on top (the screen under it opened again).
    pub fn show_panel(&mut self, stage: &mut Stage) {
        if let Some(ed) = &mut self.session {
            panel::show_panel(ed, stage);
        }
    }

    /// The answer to [`Question::LayoutConflict`]: `take_file` replaces the edited layouts with
    /// their files as they now are (the edits kept for undo); otherwise the edits stay, and
    /// count as unsaved against the new files.
    pub fn settle_conflict(&mut self, stage: &mut Stage, take_file: bool) {
        let mut shown = None;
        for e in self.session.iter_mut().chain(self.shelved.values_mut()) {
            let Some(theirs) = e.theirs.take() else { continue };
            if take_file {
                e.remember(theirs.clone());
                shown = Some((e.file.clone(), theirs.clone()));
            }
            e.base = theirs;
        }
        // A shelved session whose edits were all taken back has nothing left to keep.
        self.shelved.retain(|_, e| e.unsaved());
        let Some((file, tree)) = shown else { return };
        stage.screens.use_layout(&file, tree);
        match &mut self.session {
            Some(ed) => panel::show_edit(ed, stage),
            None => {
                if let Some(screen) = stage.screen() {
                    stage.open(screen);
                }
            }
        }
    }
}
