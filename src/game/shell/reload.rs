//! Taking up what a modder changed on disk while the game runs: the layouts (keeping the
//! layout editor's unsaved edits, and asking when a file changed under them), the interface's
//! images and the map list.
//!
//! Must not: write files, or drop an unsaved edit without the modder's answer.

use crate::content::ContentRoots;
use crate::ui::images::ImageSet;
use crate::ui::wnd::same_content;

use super::loading::{find_maps, load_all_layouts, load_bindings};
use super::{Screen, Shell, ShellError};

impl Shell {
    /// Reads every layout again (a modder saved one while the game runs). If all are sound and
    /// any changed, the new ones replace the old and the current screen opens again from its
    /// layout; returns whether anything changed. If any is broken, nothing is replaced and the
    /// problems come back, each naming its file, line and column.
    ///
    /// A layout with unsaved edits in the editor (on, or left with F10) keeps them: if its
    /// file is unchanged nothing happens to it; if its file now holds what the editor holds
    /// (it was just saved) the edits count as saved; if the file changed to something else,
    /// the edits stay on screen and the modder is asked which to keep. A layout being edited
    /// without unsaved edits follows its file (the old tree stays in the undo history).
    pub fn reload_layouts(&mut self, roots: &ContentRoots) -> Result<bool, String> {
        let bindings = load_bindings(roots).map_err(|e| e.to_string())?;
        let mut layouts = load_all_layouts(roots, &bindings).map_err(|e| match e {
            ShellError::Layouts(list) => list,
            other => other.to_string(),
        })?;
        let mut conflicts = Vec::new();
        for e in self.editor.iter_mut().chain(self.shelved_edits.values_mut()) {
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
        // The string table may have changed with them (a mod's wording).
        let labels = self.labels_in_language(roots, bindings.labels);
        let labels_changed = self.ui.set_labels_if_changed(labels);
        let changed = layouts != self.layouts || labels_changed;
        if changed {
            self.layouts = layouts;
            if let Some(screen) = self.screen() {
                self.open(screen);
            }
            if self.editor.is_some() {
                self.show_panel();
            }
        }
        if !conflicts.is_empty() {
            let text = self.say("Message:LayoutConflict", &[("files", &conflicts.join(", "))]);
            self.ask(super::Question::LayoutConflict, &text);
        }
        Ok(changed)
    }

    /// The answer to [`CONFLICT_TITLE`]: `take_file` replaces the edited layouts with their
    /// files as they now are (the edits kept for undo); otherwise the edits stay, and count as
    /// unsaved against the new files.
    pub fn settle_conflict(&mut self, take_file: bool) {
        let mut shown = None;
        for e in self.editor.iter_mut().chain(self.shelved_edits.values_mut()) {
            let Some(theirs) = e.theirs.take() else { continue };
            if take_file {
                e.remember(theirs.clone());
                shown = Some((e.file.clone(), theirs.clone()));
            }
            e.base = theirs;
        }
        // A shelved session whose edits were all taken back has nothing left to keep.
        self.shelved_edits.retain(|_, e| e.unsaved());
        if let Some((file, tree)) = shown {
            self.use_layout(&file, tree);
            if self.editor.is_some() {
                self.show_edit();
            } else if let Some(screen) = self.screen() {
                self.open(screen);
            }
        }
    }

    /// Reads the images (the game's atlas and every extra set the roots hold, mods' included)
    /// again; true when they changed, and the client must then rebuild its atlas from them.
    pub fn reload_images(&mut self, roots: &ContentRoots) -> Result<bool, String> {
        let images = ImageSet::load_all(roots).map_err(|e| e.to_string())?;
        if images == self.images {
            return Ok(false);
        }
        self.images = images;
        Ok(true)
    }

    /// Looks for maps again (a map was added, changed or removed while the game runs): the
    /// skirmish list follows at once (the screen reopens if it is on show) and the maps that
    /// cannot be loaded are named in the log. True when the list or a preview changed; the
    /// client must then upload the new previews.
    pub fn refresh_maps(&mut self, roots: &ContentRoots) -> bool {
        let (maps, previews, refused) = find_maps(roots);
        for problem in &refused {
            log::warn!("a map was left out: {problem}");
        }
        let same_previews = previews.iter().all(|(k, v)| self.dynamic_images.get(k) == Some(v));
        if maps == self.maps && same_previews {
            return false;
        }
        self.maps = maps;
        self.dynamic_images.extend(previews);
        if self.skirmish.map >= self.maps.len() {
            self.skirmish.map = super::SkirmishConfig::first(self.maps.iter().map(|m| m.players)).map;
        }
        if self.screen() == Some(Screen::Skirmish) && self.editor.is_none() {
            self.open(Screen::Skirmish);
        }
        true
    }
}
