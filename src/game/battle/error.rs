//! Why a battle could not start or go on.
//!
//! Must not: hide the source (each variant keeps the error it came from).

use thiserror::Error;

/// Why a battle could not start or go on.
#[derive(Debug, Error)]
pub enum BattleError {
    /// The match could not start (content, map or setup).
    #[error(transparent)]
    Start(#[from] crate::session::StartError),
    /// Content for the picture (the scene) is broken.
    #[error(transparent)]
    Scene(#[from] super::super::scene::SceneError),
    /// The session stopped.
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
    /// A replay file could not be read.
    #[error(transparent)]
    Replay(#[from] crate::content::FileError),
    /// A saved game could not be continued.
    #[error(transparent)]
    Save(#[from] crate::session::save::SaveError),
    /// The keys file (`data/keys.ron`) could not be read.
    #[error("the keys: {0}")]
    Keys(crate::content::FileError),
    /// The command sets (`data/command_sets.ron`) could not be read.
    #[error("the command sets: {0}")]
    CommandSets(crate::content::FileError),
    /// A replay could not be taken over, and why.
    #[error("cannot take over: {0}")]
    TakeOver(&'static str),
}
