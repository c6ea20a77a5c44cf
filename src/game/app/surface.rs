//! The game's window and what draws into it: the winit window, the wgpu surface and device, the
//! UI pass, and each frame drawn through `game/frame.rs`. Handles resize, minimise, a lost or
//! outdated surface, window settings (size, fullscreen), and hides the system's cursor while
//! the battle draws its own.
//!
//! Must not: decide what is shown (the shell and the battle do) or route input.

use std::sync::Arc;

use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Fullscreen, Window};

use crate::render::{Gpu, StaticWorld, UiPass, WorldPass};

use super::super::battle::Battle;
use super::super::frame::{self, Sight};
use super::super::screenshot::load_atlas;
use super::super::settings::Settings;
use super::super::settings_window::MonitorRect;
use super::super::shell::Shell;
use super::error::StartupError;

/// The window, its surface and the GPU behind them.
pub(super) struct WindowSurface {
    /// The window.
    pub window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    gpu: Gpu,
    config: wgpu::SurfaceConfiguration,
    /// The UI's pass, once the shell's images are known.
    pass: Option<UiPass>,
    /// The window has no area (minimised).
    pub minimized: bool,
    /// The window is hidden (covered, where the system says so).
    pub occluded: bool,
    /// The game draws its own cursor (the system's is hidden).
    own_cursor: bool,
}

impl WindowSurface {
    /// Opens the window `settings` ask for and a surface on it: at the saved size, and at the
    /// saved place unless that would be off every monitor (then, or where the system does not
    /// place windows itself, such as Wayland, the window manager places it).
    pub fn open(event_loop: &ActiveEventLoop, settings: &Settings) -> Result<WindowSurface, StartupError> {
        let (w, h) = settings.resolution;
        let mut attrs = Window::default_attributes().with_title("Ridgeline").with_inner_size(PhysicalSize::new(w, h));
        let monitors: Vec<MonitorRect> = event_loop
            .available_monitors()
            .map(|m| ((m.position().x, m.position().y), (m.size().width, m.size().height)))
            .collect();
        match settings.opening_position(&monitors) {
            Some((x, y)) => attrs = attrs.with_position(PhysicalPosition::new(x, y)),
            None if settings.window_position.is_some() => {
                log::info!("the saved window position is off every monitor; the window manager places it");
            }
            None => {}
        }
        if settings.fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = Arc::new(event_loop.create_window(attrs)?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let surface = instance.create_surface(window.clone())?;
        let gpu = Gpu::new(instance, Some(&surface))?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or(StartupError::NoSurfaceFormat)?;
        // Blending is done in linear space: prefer an sRGB format if the surface offers one.
        if let Some(srgb) = surface.get_capabilities(&gpu.adapter).formats.iter().find(|f| f.is_srgb()) {
            config.format = *srgb;
        }
        config.present_mode = wgpu::PresentMode::AutoVsync;
        surface.configure(&gpu.device, &config);
        log::info!("window {}×{}, surface format {:?}", size.width, size.height, config.format);
        Ok(WindowSurface {
            window,
            surface,
            gpu,
            config,
            pass: None,
            minimized: false,
            occluded: false,
            own_cursor: false,
        })
    }

    /// The drawable size in pixels.
    pub fn size(&self) -> glam::Vec2 {
        glam::Vec2::new(self.config.width as f32, self.config.height as f32)
    }

    /// Builds the UI's pass from the shell's images (the game's atlas and the enabled mods'),
    /// with the pictures made at run time.
    pub fn rebuild_ui(&mut self, shell: &Shell) -> Result<(), StartupError> {
        let atlas = load_atlas(shell)?;
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let mut pass = UiPass::new(
            device,
            queue,
            self.config.format,
            &atlas,
            shell.content.images.clone(),
            shell.content.fonts.clone(),
        );
        for (name, img) in &shell.content.dynamic_images {
            pass.set_image(device, queue, name, img);
        }
        self.pass = Some(pass);
        Ok(())
    }

    /// Uploads the pictures the shell made since the last call (a saved game's thumbnail).
    pub fn upload_fresh_images(&mut self, shell: &mut Shell) {
        let fresh = std::mem::take(&mut shell.content.fresh_images);
        let Some(pass) = self.pass.as_mut() else { return };
        for name in fresh {
            if let Some(img) = shell.content.dynamic_images.get(&name) {
                pass.set_image(&self.gpu.device, &self.gpu.queue, &name, img);
            }
        }
    }

    /// A world pass for a battle's static scene, drawing to this surface.
    pub fn world_pass(&self, statics: &StaticWorld) -> WorldPass {
        WorldPass::new(&self.gpu.device, &self.gpu.queue, self.config.format, statics)
    }

    /// Follows a new window size; false while the window has no area.
    pub fn resize(&mut self, size: PhysicalSize<u32>) -> bool {
        self.minimized = size.width == 0 || size.height == 0;
        if !self.minimized {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
        !self.minimized
    }

    /// Draws one frame: the battle (if any) under the shell's windows.
    pub fn draw(&mut self, shell: &Shell, battle: Option<&mut (Battle, WorldPass)>) {
        if self.minimized {
            return;
        }
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => return,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                return;
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                log::warn!("surface validation error; reconfiguring");
                self.surface.configure(&self.gpu.device, &self.config);
                return;
            }
        };
        let view = frame.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let size = (self.config.width, self.config.height);
        let mut clear = Some(wgpu::Color::BLACK);
        let mut shown = None;
        if let Some((battle, world_pass)) = battle {
            // Options' graphics quality and language, as saved (from the frame after a save).
            let quality = shell.prefs.settings.graphics;
            world_pass.set_quality(quality);
            battle.set_effects_quality(quality);
            if let Some(labels) = shell.ui.labels() {
                battle.set_labels(labels);
            }
            let seconds = battle.display_seconds();
            let instances = frame::instances(battle, Sight::Player);
            frame::draw_world(&self.gpu, world_pass, &view, size, battle, Sight::Player, seconds, &instances);
            clear = None;
            shown = Some(&*battle);
        }
        // Over the battlefield the game draws its own cursor, shaped by what a click would do.
        let cmds = frame::ui_commands(shell, shown, true);
        if let Some(pass) = &mut self.pass {
            pass.render(&self.gpu.device, &self.gpu.queue, &view, size, &cmds, clear);
        }
        let own = shown.is_some_and(|b| b.look().draws_cursor()) && !shell.message_open();
        if own != self.own_cursor {
            self.own_cursor = own;
            self.window.set_cursor_visible(!own);
        }
        self.window.pre_present_notify();
        self.gpu.queue.present(frame);
    }

    /// Applies changed window settings (size, fullscreen).
    pub fn apply(&self, old: &Settings, new: &Settings) {
        if new.resolution != old.resolution {
            let _ = self.window.request_inner_size(PhysicalSize::new(new.resolution.0, new.resolution.1));
        }
        if new.fullscreen != old.fullscreen {
            self.window.set_fullscreen(new.fullscreen.then_some(Fullscreen::Borderless(None)));
        }
    }
}
