//! Layout errors and notes, each at `file:line:col`.

use std::fmt;

/// A problem in a layout file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WndError {
    /// The file, as given.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl WndError {
    /// An error at a place.
    pub fn new(path: &str, line: usize, col: usize, message: impl Into<String>) -> WndError {
        WndError { path: path.to_string(), line, col, message: message.into() }
    }
}

impl fmt::Display for WndError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.path, self.line, self.col, self.message)
    }
}

impl std::error::Error for WndError {}
