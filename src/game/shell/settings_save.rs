//! Saving the player's settings from the shell: only what this copy changed since it loaded
//! (or last saved) is written over what the file holds now, so another copy of the game keeps
//! its changes; a save that fails is said in the window ("Not saved: <file>: <why>"), not only
//! logged.
//!
//! Must not: write the file itself (`Settings::save_changes` does), or show a failed save as
//! applied.

use super::Shell;
use crate::game::settings::Settings;

impl Shell {
    /// Saves `wanted` as the settings; on success the shell's settings become what the file now
    /// holds (this copy's changes over another copy's) and that is returned. On failure the
    /// window says what was not saved and why, under `title`, and the shell's settings stay.
    pub fn save_settings_as(&mut self, title: &str, wanted: Settings) -> Option<Settings> {
        let path = self.settings_path().clone();
        match wanted.save_changes(&self.settings_base, &path) {
            Ok(merged) => {
                self.settings_base = merged.clone();
                self.settings = merged.clone();
                Some(merged)
            }
            Err(e) => {
                log::warn!("the settings were not saved: {e}");
                self.tell(title, "Message:NotSaved", &[("error", &e.to_string())]);
                None
            }
        }
    }

    /// Saves the shell's settings as they are now (after a change made in place); false, with
    /// the window saying why, when they could not be.
    pub fn save_settings(&mut self) -> bool {
        self.save_settings_as("Title:Options", self.settings.clone()).is_some()
    }
}
