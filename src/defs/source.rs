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
            line: self.line_of(name),
            item,
            name: name.to_string(),
            field,
            message: message.into(),
        }
    }
}
