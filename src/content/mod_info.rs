//! A mod folder's `mod.ron`: its name, version, author, one-line description, the game
//! version it was made for, the mods it needs (`requires`) and the screens of its own it brings
//! (`screens`). The folder may hold any of `ui/`, `data/` and `maps/`, which override the game's
//! files of the same name when the mod is in front.
//!
//! Must not: apply the mod (content roots do), or fail on a folder without `mod.ron` (plain
//! folders passed with `--mod` keep working).

use std::path::Path;

use serde::Deserialize;

use super::FileError;

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
    /// Other mods it needs, each by folder name (and at least a version): they must be on, and
    /// are put behind it so its files win (`requires.rs`).
    #[serde(default)]
    pub requires: Vec<Requirement>,
    /// Screens of its own: layout files in its `ui/`, each opened by `open:<file stem>`
    /// (`OptionsMenu2.wnd` by `open:OptionsMenu2`).
    #[serde(default)]
    pub screens: Vec<String>,
}

/// One mod another needs: `(id: "hd-art")` or `(id: "hd-art", version: "1.2")`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    /// The needed mod's folder name (what the settings and the Mods screen call it).
    pub id: String,
    /// The lowest version of it that will do (empty: any).
    #[serde(default)]
    pub version: String,
}

/// Mods one may require, and screens one may bring, at most.
const MAX_LISTED: usize = 64;

impl ModInfo {
    /// Reads `<dir>/mod.ron`; `Ok(None)` when the folder has none.
    pub fn load(dir: &Path) -> Result<Option<ModInfo>, FileError> {
        let path = dir.join("mod.ron");
        // Only a missing file means none: a folder, a FIFO or a link loop in its place is
        // refused when read.
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let text = super::read_text(&path)?;
        let info: ModInfo = super::parse_ron(&path, &text)?;
        let line_of = |field: &str| text.lines().position(|l| l.trim_start().starts_with(field)).map_or(1, |i| i + 1);
        let bad = |field: &str, message: String| FileError::Syntax {
            path: path.clone(),
            line: line_of(field),
            col: 1,
            message: format!("{field}: {message}"),
        };
        if info.name.trim().is_empty() || info.name.chars().count() > 64 {
            return Err(bad("name", "1 to 64 characters".into()));
        }
        for (field, value, most) in [
            ("version", &info.version, 64),
            ("author", &info.author, 64),
            ("game_version", &info.game_version, 64),
            ("description", &info.description, 1024),
        ] {
            if value.chars().count() > most {
                return Err(bad(field, format!("at most {most} characters")));
            }
            if value.chars().any(char::is_control) && field != "description" {
                return Err(bad(field, "one line, without control characters".into()));
            }
        }
        if info.requires.len() > MAX_LISTED {
            return Err(bad("requires", format!("at most {MAX_LISTED} mods")));
        }
        for r in &info.requires {
            if !plain_name(&r.id) || r.version.chars().count() > 64 || r.version.chars().any(char::is_control) {
                return Err(bad(
                    "requires",
                    format!("\"{}\": a mod's folder name (letters, digits, - _ .) and a one-line version", r.id),
                ));
            }
        }
        if info.screens.len() > MAX_LISTED {
            return Err(bad("screens", format!("at most {MAX_LISTED} screens")));
        }
        for screen in &info.screens {
            let stem = screen.strip_suffix(".wnd").unwrap_or_default();
            if !plain_name(stem) {
                return Err(bad(
                    "screens",
                    format!("\"{screen}\": a layout file name in the mod's ui/ (Name.wnd: letters, digits, - _)"),
                ));
            }
        }
        Ok(Some(info))
    }
}

/// A name that is a single plain file or folder name: letters, digits, `-`, `_` and `.`, not
/// starting with a dot.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 64
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The screens the mods in `roots` bring (every root but the last, the game's), front first:
/// (the name `open:` takes, the layout's file name, the mod's folder). A screen already
/// brought by a mod in front is not listed again.
pub fn mod_screens(roots: &super::ContentRoots) -> Vec<(String, String, std::path::PathBuf)> {
    let all = roots.roots();
    let mut out: Vec<(String, String, std::path::PathBuf)> = Vec::new();
    for dir in all.iter().take(all.len().saturating_sub(1)) {
        let Ok(Some(info)) = ModInfo::load(dir) else { continue };
        for file in info.screens {
            let name = file.strip_suffix(".wnd").unwrap_or(&file).to_string();
            if !out.iter().any(|(n, ..)| *n == name) {
                out.push((name, file, dir.clone()));
            }
        }
    }
    out
}

/// How a file of content root `root` is named in messages: `mod "<folder>"` for a mod (any
/// root but the last of `roots`), `the game` for the game's own.
pub fn owner(roots: &super::ContentRoots, root: &Path) -> String {
    let all = roots.roots();
    if all.last().is_some_and(|g| g == root) || all.len() <= 1 {
        return "the game".to_string();
    }
    let id = root.file_name().map_or_else(|| root.display().to_string(), |n| n.to_string_lossy().into_owned());
    format!("mod \"{id}\"")
}

/// The problems of every root in front of the game's own (the mods), each naming its file (and
/// line): its `mod.ron`, and its `mod.ron`, `ui/`, `data/` and `maps/` themselves — a link
/// loop, a link leading out of the mod, a file where a folder belongs — and any file in those
/// folders that is a link leading out of the mod (or nowhere).
pub fn problems(roots: &super::ContentRoots) -> Vec<String> {
    let all = roots.roots();
    let mut out = Vec::new();
    for dir in all.iter().take(all.len().saturating_sub(1)) {
        let layout = layout_problems(dir);
        // A mod whose files lead out of it is refused unread: its mod.ron may be anything.
        if layout.is_empty() {
            match ModInfo::load(dir) {
                Err(e) => out.push(e.to_string()),
                Ok(Some(info)) => out.extend(missing_screens(dir, &info)),
                Ok(None) => {}
            }
        }
        out.extend(layout);
    }
    out
}

/// The screens `info` declares that its folder `dir` lacks, each naming `mod.ron`'s line.
pub fn missing_screens(dir: &Path, info: &ModInfo) -> Vec<String> {
    let path = dir.join("mod.ron");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    info.screens
        .iter()
        .filter(|s| !dir.join("ui").join(s).is_file())
        .map(|s| {
            let line = text.lines().position(|l| l.contains(&format!("\"{s}\""))).map_or(1, |i| i + 1);
            format!("{}:{line}:1: screens: \"{s}\" is not in the mod's ui/ folder", path.display())
        })
        .collect()
}

/// What is wrong with the top-level entries of the mod folder `dir`.
fn layout_problems(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for name in ["mod.ron", "ui", "data", "maps"] {
        let p = dir.join(name);
        if std::fs::symlink_metadata(&p).is_err() {
            continue;
        }
        match std::fs::metadata(&p) {
            Err(e) => out.push(format!("{}: {e}: refused", p.display())),
            Ok(m) if name != "mod.ron" && !m.is_dir() => {
                out.push(format!("{}: not a folder: refused (a mod's {name}/ holds its files)", p.display()))
            }
            Ok(_) if !inside(dir, &p) => out.push(format!("{}: a link leading out of the mod: refused", p.display())),
            Ok(_) => {}
        }
    }
    // A file inside may be a link too: one to the player's files would be read as content, and
    // the layout editor's Save would write through it.
    for rel in content_files(dir) {
        let p = dir.join(&rel);
        let link = std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
        if link && !inside(dir, &p) {
            out.push(format!("{}: a link leading out of the mod (or to nothing): refused", p.display()));
        }
    }
    out
}

/// A mod folder found in a mods folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundMod {
    /// The folder's name: how settings refer to it.
    pub id: String,
    /// The folder.
    pub dir: std::path::PathBuf,
    /// Its `mod.ron`, or why that could not be read (`Ok(None)`: it has none).
    pub info: Result<Option<ModInfo>, String>,
}

/// Every mod folder (a folder holding `mod.ron`, `ui/`, `data/` or `maps/`) in `folders`, the
/// first folder's winning where two have one of the same name; sorted by id.
pub fn find_mods(folders: &[std::path::PathBuf]) -> Vec<FoundMod> {
    let mut out: Vec<FoundMod> = Vec::new();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        for e in entries.filter_map(Result::ok) {
            let dir = e.path();
            let is_mod = ["mod.ron", "ui", "data", "maps"].iter().any(|n| dir.join(n).exists());
            let Some(id) = dir.file_name().map(|n| n.to_string_lossy().into_owned()) else { continue };
            if dir.is_dir() && is_mod && !out.iter().any(|m| m.id == id) {
                let info = ModInfo::load(&dir).map_err(|e| e.to_string());
                out.push(FoundMod { id, dir, info });
            }
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// The files a content folder brings under its `ui/`, `data/` and `maps/`, relative to it,
/// sorted within each folder.
pub fn content_files(dir: &Path) -> Vec<std::path::PathBuf> {
    /// Real folders only (a link to a folder is not followed: a loop or a link to `/` would
    /// never end), at most [`MAX_DEPTH`] deep and [`MAX_FILES`] files.
    fn walk(d: &Path, base: &Path, depth: usize, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(d) else { return };
        let mut found: Vec<(std::path::PathBuf, bool)> =
            entries.filter_map(Result::ok).filter_map(|e| e.file_type().ok().map(|t| (e.path(), t.is_dir()))).collect();
        found.sort();
        for (p, is_dir) in found {
            if out.len() >= MAX_FILES {
                return;
            }
            if is_dir {
                if depth < MAX_DEPTH {
                    walk(&p, base, depth + 1, out);
                }
            } else if let Ok(rel) = p.strip_prefix(base) {
                out.push(rel.to_path_buf());
            }
        }
    }
    const MAX_DEPTH: usize = 8;
    const MAX_FILES: usize = 10_000;
    let mut out = Vec::new();
    for sub in ["ui", "data", "maps"] {
        walk(&dir.join(sub), dir, 0, &mut out);
    }
    out
}

/// True if `path` (a file found in content root `root`) really lies inside that root once
/// links are followed: a mod's link to a file elsewhere (`/etc/passwd`) is not content.
pub fn inside(root: &Path, path: &Path) -> bool {
    match (std::fs::canonicalize(root), std::fs::canonicalize(path)) {
        (Ok(r), Ok(p)) => p.starts_with(r),
        _ => false,
    }
}
