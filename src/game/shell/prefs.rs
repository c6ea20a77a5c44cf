//! The player's settings as the shell keeps them: what the screens edit, what this copy last
//! loaded or saved (a save writes only what changed since, over what the file holds now, so
//! another copy of the game keeps its changes), where the file is, and the folders beside it.
//!
//! Must not: say anything to the player (the stage says a failed save in the window).

use std::path::{Path, PathBuf};

use crate::game::settings::{Settings, SettingsError, UiScaling};
use crate::ui::labels::Language;
use crate::ui::wnd::model::ScalingMode;

/// The folder name of the player's own layouts mod, where the editor saves the game's layouts.
pub const OWN_LAYOUTS: &str = "my-layouts";

/// The player's settings and their file.
#[derive(Debug)]
pub struct Prefs {
    /// Options (saved by the options screen).
    pub settings: Settings,
    /// The settings as this copy last loaded or saved them.
    base: Settings,
    /// The settings file.
    path: PathBuf,
    /// The languages Options offers beside the game's own (found when Options opens).
    pub languages: Vec<Language>,
    /// The window sizes Options lists (found when Options opens: the window's own first when
    /// it is none of the presets).
    pub sizes: Vec<(u32, u32)>,
}

impl Prefs {
    /// The settings in `path` (the defaults, said in the log, when it cannot be read).
    pub fn load(path: PathBuf) -> Prefs {
        let settings = Settings::load(&path).unwrap_or_else(|e| {
            log::warn!("{e}; using default settings");
            Settings::default()
        });
        Prefs { base: settings.clone(), settings, path, languages: Vec::new(), sizes: Vec::new() }
    }

    /// The settings file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves `wanted` as the settings; on success they become what the file now holds (this
    /// copy's changes over another copy's), which is returned. On failure nothing changes.
    pub fn save_as(&mut self, wanted: Settings) -> Result<Settings, SettingsError> {
        let merged = wanted.save_changes(&self.base, &self.path)?;
        self.base = merged.clone();
        self.settings = merged.clone();
        Ok(merged)
    }

    /// True when the settings changed since this copy last loaded or saved them (the window
    /// was resized or moved, say).
    pub fn unsaved(&self) -> bool {
        self.settings != self.base
    }

    /// How the interface scales, as the settings say.
    pub fn scaling_mode(&self) -> ScalingMode {
        match self.settings.ui_scaling {
            UiScaling::Aspect => ScalingMode::Aspect,
            UiScaling::Stretch => ScalingMode::Stretch,
        }
    }

    /// The folder battles are recorded into.
    pub fn replay_dir(&self) -> PathBuf {
        self.path.parent().map(|p| p.join("replays")).unwrap_or_default()
    }

    /// The folder battles are saved into (Menu → Save) and loaded from (Load).
    pub fn save_dir(&self) -> PathBuf {
        self.path.parent().map(|p| p.join("saves")).unwrap_or_default()
    }

    /// The player's own layouts mod folder (`mods/my-layouts/` beside the settings).
    pub fn own_layouts_dir(&self) -> Option<PathBuf> {
        self.path.parent().map(|d| d.join("mods").join(OWN_LAYOUTS))
    }
}
