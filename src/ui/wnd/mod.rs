//! The WND layout format: the window-tree text files of C&C Generals, read unmodified, plus
//! Ridgeline's optional `ANCHOR` and `SCALING` keys. See `ui/FORMAT.md`.
//!
//! Must not: panic on any input (every problem is a [`WndError`] at `file:line:col`), or refuse
//! a key it merely does not use (those become notes).

pub mod error;
pub mod lexer;
pub mod model;
pub mod parser;
pub mod writer;

pub use error::WndError;
pub use model::{WindowDef, WindowType, WndFile};
pub use parser::{parse, parse_patch, parse_with_slips};
pub use writer::{write, write_patch};

/// True if two layouts say the same thing: the same text through the canonical writer, where
/// and how each was read apart (its lines, its notes).
pub fn same_content(a: &WndFile, b: &WndFile) -> bool {
    a == b || write(a) == write(b)
}
