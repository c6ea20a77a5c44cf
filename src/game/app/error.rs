//! Why the window could not run: no display, or a start that failed after the window opened
//! (the window, its drawing surface, the GPU, the interface's images, the content), each with
//! its own cause.
//!
//! Must not: decide what to do about a failure (`main` reports it and exits).

use thiserror::Error;

use crate::content::RootsError;
use crate::game::screenshot::ScreenshotError;
use crate::game::shell::ShellError;
use crate::render::GpuError;

/// Why the game could not run.
#[derive(Debug, Error)]
pub enum AppError {
    /// No display to open a window on.
    #[error(
        "cannot open a window: {0}\nRidgeline needs a graphical session (DISPLAY or WAYLAND_DISPLAY). Without one, try `ridgeline sim` or `ridgeline screenshot`."
    )]
    NoDisplay(#[source] winit::error::EventLoopError),
    /// Starting failed after the window opened.
    #[error(transparent)]
    Startup(#[from] StartupError),
    /// The window's event loop stopped with an error.
    #[error("the window's event loop stopped: {0}")]
    EventLoop(#[source] winit::error::EventLoopError),
}

/// Why the window, once it could open, did not start.
#[derive(Debug, Error)]
pub enum StartupError {
    /// The system would not make the window.
    #[error("cannot create the window: {0}")]
    Window(#[from] winit::error::OsError),
    /// wgpu could not draw into the window.
    #[error("cannot create a drawing surface: {0}")]
    Surface(#[from] wgpu::CreateSurfaceError),
    /// No GPU device (or software adapter) could be had.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The adapter found offers no way to draw to this window.
    #[error("the graphics adapter cannot draw to this window")]
    NoSurfaceFormat,
    /// The interface's images (the atlas) could not be built.
    #[error("the interface's images: {0}")]
    Atlas(#[from] ScreenshotError),
    /// The game's own content could not be found.
    #[error(transparent)]
    Roots(#[from] RootsError),
    /// The menus could not be built from the content.
    #[error(transparent)]
    Shell(#[from] ShellError),
}
