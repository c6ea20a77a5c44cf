//! The layout editor's saving: where a save goes (the mod the layout came from, else the
//! player's own `mods/my-layouts/`, made with its `mod.ron`), the question the first save of
//! one of the game's own layouts asks, and turning the player's own layouts mod on so what was
//! saved is what the game shows.
//!
//! Must not: write the game's own files.

use std::path::PathBuf;

use super::Shell;

/// The folder name of the player's own layouts mod, where the editor saves the game's layouts.
const OWN_LAYOUTS: &str = "my-layouts";

impl Shell {
    /// Where a save goes: the mod folder the layout was loaded from, else the player's own
    /// `mods/my-layouts/ui/` (created with a `mod.ron`) — never the game's own folder.
    fn save_target(&self, file: &str) -> Result<PathBuf, String> {
        if let Some(copy) = self.mod_copy(file) {
            return Ok(copy);
        }
        let dir = self.own_layouts_dir().ok_or("no settings folder")?;
        let info = dir.join("mod.ron");
        if !info.is_file() {
            let text = "(\n    name: \"My layouts\",\n    version: \"1\",\n    description: \"Layouts saved by the in-game editor.\",\n)\n";
            crate::content::write_file(&info, text.as_bytes()).map_err(|e| e.to_string())?;
        }
        Ok(dir.join("ui").join(file))
    }

    /// Writes the edited layout through the canonical writer; returns where. Saved into the
    /// player's own layouts mod, that mod is turned on (first) if it was off, so what was
    /// saved is what the game shows.
    pub fn save_edit(&mut self) -> Result<PathBuf, String> {
        let Some(e) = &self.editor else { return Err("not editing".into()) };
        let (file, text) = (e.file.clone(), crate::ui::wnd::write(&e.tree));
        let path = self.save_target(&file)?;
        // Written beside and renamed over: a full disk leaves the earlier layout as it was.
        crate::content::write_file(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        if let Some(e) = &mut self.editor {
            e.base = e.tree.clone();
            e.theirs = None;
        }
        Ok(path)
    }

    /// Saves (`s`, or the panel's Save) and says where, and whether the player's own layouts
    /// mod was turned on for it. The first save of one of the game's own layouts, while that
    /// mod is off, asks first ([`super::Question::SaveOwnLayout`]): the edit then goes to a
    /// mod the player may not know of, and turns it on.
    pub fn save_and_tell(&mut self) {
        let Some(file) = self.editor.as_ref().map(|e| e.file.clone()) else { return };
        let own_is_off = !self.settings.mods.iter().any(|m| m == OWN_LAYOUTS);
        if own_is_off && self.mod_copy(&file).is_none() {
            let dir = self.own_layouts_dir().map_or_else(|| "mods/my-layouts".into(), |d| d.display().to_string());
            let text = self.say("Message:SaveOwnLayout", &[("file", &file), ("folder", &dir)]);
            self.ask(super::Question::SaveOwnLayout, &text);
            return;
        }
        self.save_now();
    }

    /// The copy of layout `file` the first mod that has one holds (where a save goes), if the
    /// layout is not the game's own alone.
    fn mod_copy(&self, file: &str) -> Option<PathBuf> {
        let rel = format!("ui/{file}");
        let all = self.roots.roots();
        let game = all.last();
        let root = all.iter().find(|r| r.join(&rel).is_file())?;
        (Some(root) != game).then(|| root.join(&rel))
    }

    /// Saves and says where (the answer to the save question, or a save that needs none).
    pub(super) fn save_now(&mut self) {
        match self.save_edit() {
            Ok(path) => {
                let own = self.own_layouts_dir().is_some_and(|d| path.starts_with(d));
                let path = path.display().to_string();
                let said = if own && self.turn_on_own_layouts() { "Message:SavedToOwnOn" } else { "Message:SavedTo" };
                self.tell("Title:LayoutEditor", said, &[("path", &path)]);
            }
            Err(e) => self.tell("Title:LayoutEditor", "Message:NotSaved", &[("error", &e.to_string())]),
        }
    }

    /// The player's own layouts mod folder (`mods/my-layouts/` beside the settings).
    fn own_layouts_dir(&self) -> Option<PathBuf> {
        self.settings_path().parent().map(|d| d.join("mods").join(OWN_LAYOUTS))
    }

    /// Turns the player's own layouts mod on, first, if it is off (saved in the settings; the
    /// client then uses it); true if it was off.
    fn turn_on_own_layouts(&mut self) -> bool {
        if self.settings.mods.iter().any(|m| m == OWN_LAYOUTS) {
            return false;
        }
        self.settings.mods.insert(0, OWN_LAYOUTS.to_string());
        self.save_settings();
        self.request(super::ShellRequest::ApplyMods);
        true
    }
}
