//! A definition file's text, kept for parsing and for pointing at lines in error messages.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::DefsError;
use crate::content::parse_ron;

/// A loaded text file, with the files that add entries to it (a mod's `data/objects/*.ron`
/// beside `objects.ron`).
#[derive(Clone, Debug)]
pub struct Source {
    /// Where it came from.
    pub path: PathBuf,
    /// Its contents.
    pub text: String,
    /// Files whose entries are merged into this one's by name, in order (later ones win).
    pub extras: Vec<Source>,
}

/// An entry of a definition list, known by its name (for merging files by name).
pub trait Named {
    /// The entry's name.
    fn name(&self) -> &str;
}

impl Source {
    /// Reads a file.
    pub fn read(path: &Path) -> Result<Source, DefsError> {
        crate::content::read_text(path)
            .map(|text| Source { path: path.to_path_buf(), text, extras: Vec::new() })
            .map_err(DefsError::from)
    }

    /// Reads `relative` (such as `data/sounds.ron`) from the first content root that has it;
    /// a file no root has is named with the roots searched.
    pub fn find(roots: &crate::content::ContentRoots, relative: &str) -> Result<Source, DefsError> {
        match roots.find(relative) {
            Some(path) => Source::read(&path),
            None => Err(DefsError::File(crate::content::FileError::Io {
                path: relative.into(),
                message: format!(
                    "not found in any content root (searched: {})",
                    roots.roots().iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            })),
        }
    }

    /// Text held in memory (tests, generated content).
    pub fn from_text(path: impl Into<PathBuf>, text: impl Into<String>) -> Source {
        Source { path: path.into(), text: text.into(), extras: Vec::new() }
    }

    /// Parses the whole file as RON.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, DefsError> {
        Ok(parse_ron(&self.path, &self.text)?)
    }

    /// Parses the file and each of its extras as a list and merges them by name: an entry of an
    /// extra replaces the entry of the same name in place, a new name is added at the end.
    pub fn parse_merged<T: DeserializeOwned + Named>(&self) -> Result<Vec<T>, Vec<DefsError>> {
        let mut errors = Vec::new();
        let mut list: Vec<T> = self.parse().map_err(|e| errors.push(e)).unwrap_or_default();
        for extra in &self.extras {
            match extra.parse::<Vec<T>>() {
                Ok(entries) => {
                    // One file naming an entry twice is a slip (which would win?): refused.
                    let mut seen = std::collections::BTreeSet::new();
                    for e in &entries {
                        if !seen.insert(e.name().to_string()) {
                            errors.push(extra.invalid(
                                "entry",
                                e.name(),
                                "name",
                                "defined twice in this file (each file names an entry once)",
                            ));
                        }
                    }
                    for e in entries {
                        match list.iter().position(|x| x.name() == e.name()) {
                            Some(i) => list[i] = e,
                            None => list.push(e),
                        }
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() { Ok(list) } else { Err(errors) }
    }

    /// The file that defines the item called `name`: the last extra that has it, else this one.
    pub fn locate(&self, name: &str) -> &Source {
        let needle = format!("\"{name}\"");
        let defines = |s: &Source| s.text.lines().any(|l| l.contains("name") && l.contains(&needle));
        self.extras.iter().rev().find(|e| defines(e)).unwrap_or(self)
    }

    /// The 1-based line where the item called `name` is declared (`name: "…"`), or 1.
    pub fn line_of(&self, name: &str) -> usize {
        let needle = format!("\"{name}\"");
        self.text.lines().position(|l| l.contains("name") && l.contains(&needle)).map_or(1, |i| i + 1)
    }

    /// The 1-based line of `field` within the item called `name` (its last part for a dotted
    /// field such as `sounds.select`), or the item's line when the field is not written there.
    pub fn line_of_field(&self, name: &str, field: &str) -> usize {
        let start = self.line_of(name);
        let from = self.text.split_inclusive('\n').take(start - 1).map(str::len).sum();
        self.field_line_from(start, from, field)
    }

    /// The 1-based line of `field` in the item declared on line `start` (which begins at byte
    /// `from`), or `start` when the field is not written there.
    fn field_line_from(&self, start: usize, from: usize, field: &str) -> usize {
        let key = format!("{}:", field.rsplit('.').next().unwrap_or(field));
        let is_key = |l: &str| {
            l.match_indices(&key)
                .any(|(i, _)| i == 0 || !l[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        };
        for (i, line) in self.text.get(from..).unwrap_or("").lines().enumerate() {
            if i > 0 && line.contains("name:") {
                break; // the next item
            }
            if is_key(line) {
                return start + i;
            }
        }
        start
    }

    /// Where each quoted name is first declared in this file (on a line with `name` in it), as
    /// (1-based line, byte where that line begins): one pass over the text, so many lookups
    /// cost no more than one (4,096 entries would otherwise each scan the whole file).
    pub fn name_index(&self) -> std::collections::BTreeMap<&str, (usize, usize)> {
        let mut out = std::collections::BTreeMap::new();
        let mut from = 0;
        for (i, line) in self.text.split_inclusive('\n').enumerate() {
            if line.contains("name") {
                for quoted in line.split('"').skip(1).step_by(2) {
                    out.entry(quoted).or_insert((i + 1, from));
                }
            }
            from += line.len();
        }
        out
    }

    /// [`Source::line_of_field`] for an item found in `index` (this file's [`Source::name_index`]).
    pub fn indexed_line_of_field(
        &self,
        index: &std::collections::BTreeMap<&str, (usize, usize)>,
        name: &str,
        field: &str,
    ) -> usize {
        match index.get(name) {
            Some(&(start, from)) => self.field_line_from(start, from, field),
            None => 1,
        }
    }

    /// The 1-based line where `key:` is first written as a key outside a comment (a field of a
    /// file's one unnamed block, such as `data/ai.ron`'s `tuning`), or 1.
    pub fn line_of_key(&self, key: &str) -> usize {
        let written = |l: &str| {
            let code = l.split("//").next().unwrap_or("");
            code.match_indices(key).any(|(i, _)| {
                let before = code[..i].chars().next_back();
                let after = code[i + key.len()..].trim_start();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && after.starts_with(':')
            })
        };
        self.text.lines().position(written).map_or(1, |i| i + 1)
    }

    /// An [`DefsError::Invalid`] pointing at the item called `name`.
    pub fn invalid(
        &self,
        item: &'static str,
        name: &str,
        field: &'static str,
        message: impl Into<String>,
    ) -> DefsError {
        let at = self.locate(name);
        DefsError::Invalid {
            path: at.path.clone(),
            line: at.line_of_field(name, field),
            item,
            name: name.to_string(),
            field,
            message: message.into(),
        }
    }
}
