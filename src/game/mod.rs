//! The client: the shell screens and their settings, the camera and the scene the world pass
//! draws.
//!
//! Must not: change the simulation except by submitting commands to the stream.

pub mod app;
pub mod battle;
pub mod button_view;
pub mod camera;
pub mod data_check;
pub mod display;
pub mod frame;
pub mod gallery;
pub mod gallery_ground;
pub mod gallery_stage;
pub mod hud;
pub mod images;
pub mod keys;
pub mod listen;
pub mod offline_audio;
pub mod online_lobby;
pub mod scene;
pub mod screenshot;
pub mod settings;
pub mod settings_merge;
pub mod settings_window;
pub mod shell;
pub mod shroud;
pub mod travel;
pub mod watch;
