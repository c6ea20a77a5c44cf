//! The retained UI: GameWindow trees loaded from WND layouts, the window manager (routing,
//! focus, capture, modal stack), gadgets, the callback lexicon and the draw list.
//!
//! Must not: know the renderer (it produces a draw list), or touch the simulation (screens turn
//! gadget events into commands).

pub mod access;
pub mod atlas_preview;
pub mod check;
pub mod draw;
pub mod event;
pub mod font;
pub(crate) mod gadgets;
pub mod geometry;
pub mod images;
pub mod labels;
pub mod lexicon;
pub mod manager;
pub mod original_names;
pub mod patch;
pub mod patch_edit;
pub mod routes;
pub mod skin;
pub mod text_fit;
pub mod unpatch;
pub mod window;
pub mod wnd;

pub use event::{EventKind, Input, Key, MouseButton, UiEvent};
pub use geometry::{Fit, Rect};
pub use manager::{Layout, LayoutId, WindowManager};
pub use window::{Gadget, GameWindow, WindowId};
