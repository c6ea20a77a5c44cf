//! Reading a RON content file: the two ways it can fail, each naming the file (and line and
//! column for syntax), shared by maps, scripts and settings.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use thiserror::Error;

/// A content file that could not be read or parsed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The file could not be read (or written).
    #[error("{}: cannot read: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's words.
        message: String,
    },
    /// The file is of a format version this build does not read.
    #[error("{}: {message}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Which version it is and which this build reads.
        message: String,
    },
    /// The text is not valid RON for the expected shape.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
    },
}

/// Parses RON text (`path` names it in errors). Optional fields may be written without
/// `Some(…)` (RON's implicit_some), which is friendlier to people editing the files.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| FileError::Syntax {
        path: path.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| FileError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    parse_ron(path, &text)
}
