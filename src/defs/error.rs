//! Errors from loading definitions: each names the file, the line and, where it applies, the
//! item and field at fault.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

use crate::content::FileError;

/// One problem found in a definition file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DefsError {
    /// The file could not be read, or is not valid RON for its schema (unknown or missing
    /// field, wrong type…): file, line and column are named.
    #[error(transparent)]
    File(#[from] FileError),
    /// A value parsed but makes no sense (bad number, unknown reference, duplicate name).
    #[error("{}:{line}: {item} \"{name}\", field `{field}`: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line of the item.
        line: usize,
        /// What kind of item ("object", "weapon"...).
        item: &'static str,
        /// The item's name.
        name: String,
        /// The field at fault.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// Every problem found in one load, so a modder sees them all at once.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub struct DefsErrors(pub Vec<DefsError>);

impl fmt::Display for DefsErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}
