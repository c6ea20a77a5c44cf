//! Making a new mod folder: `mod.ron` and copies of the layouts a modder wants to start from,
//! behind `ridgeline mod new`.
//!
//! Must not: overwrite anything (a folder that already holds a `mod.ron`, `ui/`, `data/` or
//! `maps/` is refused), leave half a mod behind (a write that fails removes what it made, so
//! the same command can be run again), or look anything up (the caller names the folder and
//! the layouts).

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a mod folder could not be made.
#[derive(Debug, Error)]
pub enum NewModError {
    /// The folder already is a mod (or holds one's files): nothing is overwritten.
    #[error("{0}: already holds a mod (mod.ron, ui/, data/ or maps/); nothing was written")]
    Exists(PathBuf),
    /// A name that cannot be a mod's name.
    #[error("{0:?} is not a mod name: one line of 1 to 64 characters")]
    BadName(String),
    /// Two layouts with one file name.
    #[error("{0}: named twice")]
    Twice(String),
    /// A file could not be written (what was made of the mod is removed again).
    #[error(transparent)]
    Write(#[from] super::safe_write::WriteError),
    /// A folder could not be made.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// A layout to copy into the new mod's `ui/`: its file name there and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutCopy {
    /// The file name (`InGame.wnd`).
    pub name: String,
    /// The layout's text, unchanged.
    pub text: String,
}

/// The error for a file that could not be written.
fn io(path: &Path, source: std::io::Error) -> NewModError {
    NewModError::Io { path: path.to_path_buf(), source }
}

/// True when `name` may be a mod's folder name under a mods folder.
pub fn is_mod_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=64).contains(&n) && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// Writes a new mod at `dir`: `mod.ron` naming it `name`, and `ui/<layout>` for each copy.
/// Returns the files written.
pub fn create(dir: &Path, name: &str, layouts: &[LayoutCopy]) -> Result<Vec<PathBuf>, NewModError> {
    let quoted = match ron::to_string(name) {
        Ok(q) if !name.trim().is_empty() && name.chars().count() <= 64 && !name.contains('\n') => q,
        _ => return Err(NewModError::BadName(name.to_string())),
    };
    if ["mod.ron", "ui", "data", "maps"].iter().any(|f| dir.join(f).exists()) {
        return Err(NewModError::Exists(dir.to_path_buf()));
    }
    for (i, l) in layouts.iter().enumerate() {
        if layouts[..i].iter().any(|o| o.name == l.name) {
            return Err(NewModError::Twice(l.name.clone()));
        }
    }
    let existed = dir.exists();
    let made = write_all(dir, &quoted, layouts);
    if made.is_err() {
        // Half a mod would block the retry ("already holds a mod"): what was made goes.
        let _ = if existed {
            let _ = std::fs::remove_file(dir.join("mod.ron"));
            std::fs::remove_dir_all(dir.join("ui"))
        } else {
            std::fs::remove_dir_all(dir)
        };
    }
    made
}

/// Writes the new mod's files into `dir` (checked to hold none of them); the files written.
fn write_all(dir: &Path, quoted: &str, layouts: &[LayoutCopy]) -> Result<Vec<PathBuf>, NewModError> {
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let info = dir.join("mod.ron");
    let text = format!(
        "// A Ridgeline mod: its ui/, data/ and maps/ override the game's files of the same name.\n\
         // See ui/FORMAT.md for layouts and docs/modding.md for the rest.\n\
         (\n    name: {quoted},\n    version: \"0.1\",\n    author: \"\",\n    description: \"\",\n    game_version: \"{}\",\n)\n",
        env!("CARGO_PKG_VERSION")
    );
    super::write_file(&info, text.as_bytes())?;
    let mut written = vec![info];
    if !layouts.is_empty() {
        let ui = dir.join("ui");
        std::fs::create_dir_all(&ui).map_err(|e| io(&ui, e))?;
        for l in layouts {
            let path = ui.join(&l.name);
            super::write_file(&path, l.text.as_bytes())?;
            written.push(path);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::super::mod_info::ModInfo;
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ridgeline-new-mod-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_new_mod_reads_back_with_its_name_and_layouts() {
        let dir = temp("ok");
        let copy = LayoutCopy { name: "InGame.wnd".into(), text: "WINDOW\nEND\n".into() };
        let files = create(&dir, "My \u{e9}dit", std::slice::from_ref(&copy)).unwrap();
        assert_eq!(files, vec![dir.join("mod.ron"), dir.join("ui/InGame.wnd")]);
        let info = ModInfo::load(&dir).unwrap().unwrap();
        assert_eq!((info.name.as_str(), info.version.as_str()), ("My \u{e9}dit", "0.1"));
        assert_eq!(std::fs::read_to_string(dir.join("ui/InGame.wnd")).unwrap(), copy.text);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_existing_mod_is_never_overwritten() {
        let dir = temp("exists");
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        std::fs::write(dir.join("ui/Keep.wnd"), "mine").unwrap();
        assert!(matches!(create(&dir, "x", &[]), Err(NewModError::Exists(_))));
        assert_eq!(std::fs::read_to_string(dir.join("ui/Keep.wnd")).unwrap(), "mine");
        assert!(!dir.join("mod.ron").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_mod_that_fails_half_way_is_removed_so_the_retry_works() {
        let copy = LayoutCopy { name: "InGame.wnd".into(), text: "WINDOW\nEND\n".repeat(1_000) };
        for existed in [false, true] {
            let dir = temp(&format!("half-{existed}"));
            if existed {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("notes.txt"), "mine").unwrap();
            }
            // Room for mod.ron, not for the layout.
            crate::content::safe_write::simulate_disk_space(Some(1_000));
            let e = create(&dir, "x", std::slice::from_ref(&copy)).unwrap_err();
            crate::content::safe_write::simulate_disk_space(None);
            assert!(e.to_string().contains("InGame.wnd: No space left on device"), "{e}");
            assert_eq!(dir.exists(), existed, "a folder made for the mod is removed");
            if existed {
                let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
                assert_eq!(left, vec![std::ffi::OsString::from("notes.txt")], "only what was there before");
            }
            create(&dir, "x", std::slice::from_ref(&copy)).unwrap();
            assert_eq!(std::fs::read_to_string(dir.join("ui/InGame.wnd")).unwrap(), copy.text);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn names_that_are_not_folder_names_are_refused() {
        for bad in ["", "..", ".", "a/b", "a\\b", &"x".repeat(65)] {
            assert!(!is_mod_name(bad), "{bad:?}");
        }
        assert!(is_mod_name("compact-hud"));
        let dir = temp("bad");
        assert!(matches!(create(&dir, " ", &[]), Err(NewModError::BadName(_))));
        assert!(!dir.exists());
        create(&dir, "say \"hi\"", &[]).unwrap();
        assert_eq!(ModInfo::load(&dir).unwrap().unwrap().name, "say \"hi\"");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
