//! Offscreen screenshots of the interface through the very UI pass the window uses: a shell
//! screen (populated by its init callback) or any layout file, at any size.

use std::path::Path;

use image::RgbaImage;
use thiserror::Error;

use crate::content::ContentRoots;
use crate::render::offscreen::{FORMAT, Offscreen};
use crate::render::{Gpu, UiPass};
use crate::ui::draw::draw_list;
use crate::ui::wnd::parse;
use crate::ui::{Input, MouseButton};

use super::shell::{Screen, Shell};

/// Why a screenshot could not be taken.
#[derive(Debug, Error)]
pub enum ScreenshotError {
    /// The layout or content is broken.
    #[error("{0}")]
    Content(String),
    /// No GPU device.
    #[error(transparent)]
    Gpu(#[from] crate::render::GpuError),
    /// Reading the image back failed.
    #[error(transparent)]
    Readback(#[from] crate::render::offscreen::ReadbackError),
}

/// Renders a layout at `size`. `hover` names a window to put the cursor over.
pub fn ui(
    roots: &ContentRoots,
    layout: &Path,
    size: (u32, u32),
    hover: Option<&str>,
) -> Result<RgbaImage, ScreenshotError> {
    let screen = (size.0 as f32, size.1 as f32);
    let settings = std::env::temp_dir().join("ridgeline-screenshot-settings.ron");
    let mut shell = Shell::new(roots, screen, settings).map_err(|e| ScreenshotError::Content(e.to_string()))?;
    let file_name = layout.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    match Screen::for_layout(&file_name) {
        Some(s) => shell.open(s),
        None => {
            let text = std::fs::read_to_string(layout)
                .map_err(|e| ScreenshotError::Content(format!("{}: {e}", layout.display())))?;
            let file =
                parse(&layout.display().to_string(), &text).map_err(|e| ScreenshotError::Content(e.to_string()))?;
            shell.ui.create_layout(&file_name, &file);
        }
    }
    if let Some(name) = hover {
        let id = shell.find(name).ok_or_else(|| ScreenshotError::Content(format!("no window named {name}")))?;
        let r = shell.ui.window(id).map(|w| w.rect).unwrap_or_default();
        shell.handle(Input::MouseMove { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0 });
        // Rest long enough for its tooltip to show.
        shell.ui.advance(10_000);
        if shell.ui.window(id).is_some_and(|w| matches!(w.gadget, crate::ui::Gadget::ComboBox { .. })) {
            shell.handle(Input::MouseDown { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0, button: MouseButton::Left });
        }
    }
    render_shell(&shell, size)
}

/// Draws the shell's current UI offscreen.
pub fn render_shell(shell: &Shell, size: (u32, u32)) -> Result<RgbaImage, ScreenshotError> {
    let gpu = Gpu::headless()?;
    let atlas = load_atlas(shell)?;
    let mut pass = UiPass::new(&gpu.device, &gpu.queue, FORMAT, &atlas, shell.images.clone(), shell.fonts.clone());
    for (name, img) in &shell.dynamic_images {
        pass.set_image(&gpu.device, &gpu.queue, name, img);
    }
    let cmds = draw_list(&shell.ui, shell.fonts.as_ref(), &|w, out| shell.custom_draw(w, out));
    let target = Offscreen::new(&gpu, size);
    pass.render(&gpu.device, &gpu.queue, &target.view, size, &cmds, Some(wgpu::Color::BLACK));
    Ok(target.read(&gpu)?)
}

/// The UI atlas image named by the image set.
pub fn load_atlas(shell: &Shell) -> Result<RgbaImage, ScreenshotError> {
    let roots = ContentRoots::discover();
    let path = roots
        .find(format!("ui/{}", shell.images.atlas))
        .ok_or_else(|| ScreenshotError::Content(format!("ui/{} not found", shell.images.atlas)))?;
    Ok(image::open(&path).map_err(|e| ScreenshotError::Content(format!("{}: {e}", path.display())))?.into_rgba8())
}
