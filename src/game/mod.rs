//! The client: the shell screens and their settings now; the game window, camera, in-game UI
//! and translators from intents to commands grow here.
//!
//! Must not: change the simulation except by submitting commands to the stream.

pub mod app;
pub mod screenshot;
pub mod settings;
pub mod shell;
