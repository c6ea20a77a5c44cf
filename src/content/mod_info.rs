//! A mod folder's `mod.ron`: its name, version, author, one-line description and the game
//! version it was made for. The folder may hold any of `ui/`, `data/` and `maps/`, which override
//! the game's files of the same name when the mod is in front.
//!
//! Must not: apply the mod (content roots do), or fail on a folder without `mod.ron` (plain
//! folders passed with `--mod` keep working).

use std::path::Path;

use serde::Deserialize;

use super::{FileError, read_ron};

/// What `mod.ron` says.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModInfo {
    /// Shown in lists.
    pub name: String,
    /// The mod's own version.
    pub version: String,
    /// Who made it.
    #[serde(default)]
    pub author: String,
    /// One line on what it changes.
    #[serde(default)]
    pub description: String,
    /// The game version it was made for.
    #[serde(default)]
    pub game_version: String,
}

impl ModInfo {
    /// Reads `<dir>/mod.ron`; `Ok(None)` when the folder has none.
    pub fn load(dir: &Path) -> Result<Option<ModInfo>, FileError> {
        let path = dir.join("mod.ron");
        if !path.is_file() {
            return Ok(None);
        }
        let info: ModInfo = read_ron(&path)?;
        if info.name.trim().is_empty() || info.name.chars().count() > 64 {
            return Err(FileError::Syntax { path, line: 1, col: 1, message: "name: 1 to 64 characters".into() });
        }
        Ok(Some(info))
    }
}
