//! Where content lives: the ordered search roots for `data/`, `ui/` and `maps/`.
//!
//! A file is looked up under each root in turn, so a mod folder listed first overrides the
//! game's own files one by one. The game's roots are found from `RIDGELINE_HOME` (alone, when
//! it is set: empty, or naming no folder with a `data/`, is an error, never a silent fall back
//! to the source tree), else the current directory or the executable's folder and its parents
//! (`target/release/` sits in the game's folder). Never the path the binary was built at: a
//! copy run elsewhere says where it looked.
//! Must not: read file contents (callers do, and report errors with the path found here).

use std::path::{Path, PathBuf};

pub mod csf;
pub mod digest;
pub mod image_file;
pub mod limits;
pub mod mapped_images;
pub mod mod_info;
pub mod new_mod;
pub mod requires;
pub mod ron_file;
pub mod safe_write;
pub mod suggest;
pub mod tga_header;

pub use image_file::open_image;
pub use ron_file::{FileError, parse_ron, read_bytes_limited, read_ron, read_text, read_text_limited, regular_file};
pub use safe_write::{
    SafeFile, WriteError, commit_all, prepare_image, write_file, write_file_mode, write_image, write_with,
};

/// Why the game's own content could not be found.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RootsError {
    /// `RIDGELINE_HOME` is set to nothing.
    #[error("RIDGELINE_HOME is set but empty: name the folder that holds data/, or unset it")]
    EmptyHome,
    /// `RIDGELINE_HOME` names no folder with the game's `data/`.
    #[error("RIDGELINE_HOME={}: no data/ folder there (name the folder that holds data/, ui/ and maps/, or unset it)", .0.display())]
    NoData(PathBuf),
    /// `RIDGELINE_HOME` is not set and no folder looked in holds a `data/`.
    #[error(
        "the game's content (a folder holding data/, ui/ and maps/) is in none of {}: run the game from its folder, or set RIDGELINE_HOME to it",
        .0.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    NotFound(Vec<PathBuf>),
}

/// Ordered content roots, highest priority first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentRoots {
    roots: Vec<PathBuf>,
}

impl ContentRoots {
    /// Exactly these roots, in priority order.
    pub fn new(roots: Vec<PathBuf>) -> ContentRoots {
        ContentRoots { roots }
    }

    /// The game's own roots: `RIDGELINE_HOME` when it is set (checked), else the first of the
    /// current directory and the executable's folder and its parents that holds a `data/`.
    pub fn discover() -> Result<ContentRoots, RootsError> {
        if let Some(home) = std::env::var_os("RIDGELINE_HOME") {
            if home.is_empty() {
                return Err(RootsError::EmptyHome);
            }
            let home = PathBuf::from(home);
            if !home.join("data").is_dir() {
                return Err(RootsError::NoData(home));
            }
            return Ok(ContentRoots { roots: vec![home] });
        }
        let mut candidates = Vec::new();
        if let Ok(cwd) = std::env::current_dir() {
            candidates.push(cwd);
        }
        if let Ok(exe) = std::env::current_exe() {
            candidates.extend(exe.ancestors().skip(1).take(4).map(Path::to_path_buf));
        }
        match candidates.iter().find(|c| c.join("data").is_dir()) {
            Some(home) => Ok(ContentRoots { roots: vec![home.clone()] }),
            None => Err(RootsError::NotFound(candidates)),
        }
    }

    /// Puts a mod folder in front of the existing roots.
    pub fn with_mod(mut self, folder: PathBuf) -> ContentRoots {
        self.roots.insert(0, folder);
        self
    }

    /// The roots in priority order.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The first existing `root/relative`, if any.
    pub fn find(&self, relative: impl AsRef<Path>) -> Option<PathBuf> {
        let rel = relative.as_ref();
        self.roots.iter().map(|r| r.join(rel)).find(|p| p.exists())
    }

    /// The entry files a mod adds to a definition file: every `data/<stem>/*.ron` of every
    /// root (for `objects.ron`, `data/objects/*.ron`), the lowest-priority root first and each
    /// root's files by name, so the front mod's entries are merged last and win.
    pub fn extras(&self, file: &str) -> Vec<PathBuf> {
        let stem = file.strip_suffix(".ron").unwrap_or(file);
        let mut out = Vec::new();
        for root in self.roots.iter().rev() {
            let Ok(entries) = std::fs::read_dir(root.join("data").join(stem)) else { continue };
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                // A link out of the mod's folder is not followed (and a FIFO is refused when
                // read, by kind).
                .filter(|p| {
                    let ok = mod_info::inside(root, p);
                    if !ok {
                        log::warn!("{}: a link out of its content folder; left out", p.display());
                    }
                    ok
                })
                .collect();
            found.sort();
            out.extend(found);
        }
        out
    }

    /// The font files the roots bring in `ui/fonts/` (`.ttf`, `.otf`), front root first, each
    /// root's by name: (the name layouts give it — the file's stem without a `-Bold` ending —,
    /// whether it is that name's bold, the file). At most [`limits::MAX_FONT_FILES`]; a link out
    /// of its root is left out.
    pub fn font_files(&self) -> Vec<(String, bool, PathBuf)> {
        let mut out = Vec::new();
        for root in &self.roots {
            let Ok(entries) = std::fs::read_dir(root.join("ui").join("fonts")) else { continue };
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x.eq_ignore_ascii_case("ttf") || x.eq_ignore_ascii_case("otf"))
                })
                .filter(|p| mod_info::inside(root, p))
                .collect();
            found.sort();
            for p in found {
                let Some(stem) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else { continue };
                let (name, bold) = match stem.strip_suffix("-Bold") {
                    Some(name) => (name.to_string(), true),
                    None => (stem, false),
                };
                out.push((name, bold, p));
            }
        }
        out.truncate(limits::MAX_FONT_FILES);
        out
    }

    /// Every map folder (one holding a `map.ron`) under `maps/` in any root, sorted.
    pub fn map_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self
            .roots
            .iter()
            .filter_map(|r| std::fs::read_dir(r.join("maps")).ok())
            .flat_map(|d| d.filter_map(Result::ok).map(|e| e.path()))
            .filter(|p| p.join("map.ron").is_file())
            .collect();
        dirs.sort();
        dirs
    }

    /// Resolves a name the user typed: an existing path as given, else a search under the roots
    /// in `folder` (e.g. a map name under `maps/`).
    pub fn resolve(&self, folder: &str, name: &str) -> Option<PathBuf> {
        let direct = PathBuf::from(name);
        if direct.exists() {
            return Some(direct);
        }
        self.find(Path::new(folder).join(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earlier_roots_win() {
        let tmp = std::env::temp_dir().join(format!("ridgeline-content-{}", std::process::id()));
        let (a, b) = (tmp.join("mod"), tmp.join("game"));
        std::fs::create_dir_all(a.join("data")).unwrap();
        std::fs::create_dir_all(b.join("data")).unwrap();
        std::fs::write(a.join("data/x.ron"), "1").unwrap();
        std::fs::write(b.join("data/x.ron"), "2").unwrap();
        std::fs::write(b.join("data/y.ron"), "3").unwrap();
        let roots = ContentRoots::new(vec![b.clone()]).with_mod(a.clone());
        assert_eq!(roots.find("data/x.ron"), Some(a.join("data/x.ron")));
        assert_eq!(roots.find("data/y.ron"), Some(b.join("data/y.ron")));
        assert_eq!(roots.find("data/z.ron"), None);
        std::fs::remove_dir_all(tmp).unwrap();
    }
}
