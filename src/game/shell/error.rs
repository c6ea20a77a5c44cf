//! Why the shell could not start: the one error its loading returns.
//!
//! Must not: carry anything but what a person needs to mend the content.

use thiserror::Error;

/// Why the shell could not start.
#[derive(Debug, Error)]
pub enum ShellError {
    /// A layout is missing or broken (every problem listed).
    #[error("layout problems:\n{0}")]
    Layouts(String),
    /// Definitions, UI images, fonts or sounds are broken (every problem listed).
    #[error(transparent)]
    Content(#[from] crate::defs::DefsErrors),
    /// Object icons could not be drawn from their models.
    #[error(transparent)]
    Icons(#[from] crate::game::scene::SceneError),
    /// The interface's fonts could not be read.
    #[error("the interface's fonts: {0}")]
    Fonts(&'static str),
    /// The default keys (`data/keys.ron`) are broken.
    #[error("the keys: {0}")]
    Keys(crate::content::FileError),
}
