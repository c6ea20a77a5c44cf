//! A definition file's text, kept for parsing and for pointing at lines in error messages.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::error::DefsError;
use crate::content::parse_ron;

/// A loaded text file.
#[derive(Clone, Debug)]
pub struct Source {
    /// Where it came from.
    pub path: PathBuf,
    /// Its contents.
    pub text: String,
}

impl Source {
    /// Reads a file.
    pub fn read(path: &Path) -> Result<Source, DefsError> {
        crate::content::read_text(path).map(|text| Source { path: path.to_path_buf(), text }).map_err(DefsError::from)
    }

    /// Text held in memory (tests, generated content).
    pub fn from_text(path: impl Into<PathBuf>, text: impl Into<String>) -> Source {
        Source { path: path.into(), text: text.into() }
    }

    /// Parses the whole file as RON.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, DefsError> {
        Ok(parse_ron(&self.path, &self.text)?)
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
        let key = format!("{}:", field.rsplit('.').next().unwrap_or(field));
        let is_key = |l: &str| {
            l.match_indices(&key)
                .any(|(i, _)| i == 0 || !l[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        };
        for (i, line) in self.text.lines().enumerate().skip(start - 1) {
            if i + 1 > start && line.contains("name:") {
                break; // the next item
            }
            if is_key(line) {
                return i + 1;
            }
        }
        start
    }

    /// An [`DefsError::Invalid`] pointing at the item called `name`.
    pub fn invalid(
        &self,
        item: &'static str,
        name: &str,
        field: &'static str,
        message: impl Into<String>,
    ) -> DefsError {
        DefsError::Invalid {
            path: self.path.clone(),
            line: self.line_of_field(name, field),
            item,
            name: name.to_string(),
            field,
            message: message.into(),
        }
    }
}
