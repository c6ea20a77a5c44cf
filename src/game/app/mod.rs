//! The game window's event loop: a winit 0.30 application. It opens the window (`running.rs`,
//! `surface.rs`), hands each window event to the input router (`input.rs`), serves what the
//! screens asked for (`requests.rs`), reloads layouts a modder saved, advances the battle and
//! draws at most [`MAX_FPS`] times a second, only when something changed (Fifo is not throttled
//! under Xvfb, and an idle menu should cost nothing).
//!
//! Must not: hold game state of its own (the shell, the battle and the lobby do).

mod error;
mod input;
mod requests;
mod running;
mod surface;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::ModifiersState;
use winit::window::WindowId;

use crate::content::ContentRoots;

use super::settings::Settings;
use super::watch::ContentWatch;
pub use error::{AppError, StartupError};
use running::Running;

/// Frames per second the window draws at most.
const MAX_FPS: u32 = 60;

/// Where content comes from: the roots in use and what they are worked out from.
struct ModRoots {
    /// The content roots in use: `--mod` folders, the mods the settings turn on, the game's.
    current: ContentRoots,
    /// The roots the command line gave (`--mod` folders, then the game's).
    base: ContentRoots,
    /// The settings file (the player's `mods/` folder lies beside it).
    settings_path: PathBuf,
}

impl ModRoots {
    /// Works the roots in use out again from the mods `settings` turn on, after those given
    /// with `--mod`; a broken mod is left out alone (logged) and comes back among the mods
    /// refused.
    fn follow(&mut self, settings: &Settings) -> Vec<crate::game::shell::Refused> {
        let (usable, refused) = crate::game::shell::mods_in_use(&self.base, settings, &self.settings_path);
        self.current = usable;
        refused
    }
}

struct App {
    /// Where content comes from.
    mods: ModRoots,
    running: Option<Running>,
    error: Option<StartupError>,
    modifiers: ModifiersState,
    next_frame: Instant,
    /// Something changed since the last frame (input, resize): draw again.
    dirty: bool,
    /// When hover time was last advanced.
    last_tick: Instant,
    /// The layout files, for reloading them when a modder saves one.
    watch: Option<ContentWatch>,
    /// Wakes the event loop from the watch's thread when content changed.
    wake: super::watch::Waker,
}

/// Opens the window at the main menu and runs until the player quits.
pub fn run(roots: ContentRoots, settings_path: PathBuf) -> Result<(), AppError> {
    let event_loop = EventLoop::new().map_err(AppError::NoDisplay)?;
    // A user event wakes the loop: about_to_wait then looks at the watch.
    let proxy = std::sync::Mutex::new(event_loop.create_proxy());
    let wake: super::watch::Waker = std::sync::Arc::new(move || {
        if let Ok(p) = proxy.lock() {
            let _ = p.send_event(());
        }
    });
    let mut app = App {
        mods: ModRoots { base: roots.clone(), current: roots, settings_path },
        running: None,
        error: None,
        modifiers: ModifiersState::default(),
        next_frame: Instant::now(),
        dirty: true,
        last_tick: Instant::now(),
        watch: None,
        wake,
    };
    event_loop.run_app(&mut app).map_err(AppError::EventLoop)?;
    match app.error {
        Some(e) => Err(AppError::Startup(e)),
        None => Ok(()),
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match Running::start(event_loop, &mut self.mods) {
            Ok(r) => {
                r.gfx.window.request_redraw();
                self.running = Some(r);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(r) = self.running.as_mut() else { return };
        if !matches!(event, WindowEvent::RedrawRequested) {
            self.dirty = true;
        }
        match event {
            // Closing the window with unsaved layout edits asks first, as the menu's Quit does.
            WindowEvent::CloseRequested => {
                let asked = r.shell.ask_before_quit();
                if !asked {
                    event_loop.exit();
                }
            }
            WindowEvent::Resized(size) => r.resize(size),
            WindowEvent::Moved(_) => r.follow_window(),
            WindowEvent::Occluded(hidden) => r.gfx.occluded = hidden,
            WindowEvent::RedrawRequested => r.draw(),
            WindowEvent::ModifiersChanged(m) => {
                self.modifiers = m.state();
                input::modifiers(r, self.modifiers);
            }
            WindowEvent::CursorLeft { .. } => input::cursor_left(r),
            WindowEvent::CursorMoved { position, .. } => {
                input::cursor_moved(r, glam::Vec2::new(position.x as f32, position.y as f32));
            }
            WindowEvent::MouseInput { state, button, .. } => {
                input::mouse_button(r, state, button, self.modifiers.control_key());
            }
            WindowEvent::MouseWheel { delta, .. } => input::wheel(r, delta),
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Released => {
                input::key_released(r, &event);
            }
            WindowEvent::KeyboardInput { event, .. } => input::key_pressed(r, &event, self.modifiers),
            _ => {}
        }
        let requests = r.shell.take_requests();
        if !requests::serve(r, requests, &mut self.mods) {
            event_loop.exit();
        }
        r.apply_settings();
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // The window's size and place are kept for the next start (read once more: an X11
        // window moved with no window manager to tell of it says so only when asked).
        if let Some(r) = self.running.as_mut() {
            r.follow_window();
            r.save_window();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(r) = self.running.as_mut() else { return };
        let requests = r.shell.update();
        if !requests::serve(r, requests, &mut self.mods) {
            event_loop.exit();
            return;
        }
        if !r.shell.content.fresh_images.is_empty() {
            r.gfx.upload_fresh_images(&mut r.shell);
        }
        if r.lobby.is_some() {
            requests::poll_lobby(r, &self.mods.current);
            self.dirty = true;
        }
        let wake = std::sync::Arc::clone(&self.wake);
        let watch = self.watch.get_or_insert_with(|| ContentWatch::waking(&self.mods.current, Some(wake)));
        let changes = watch.changed(&self.mods.current);
        if changes.any() {
            r.take_up(changes, &self.mods.current);
            self.dirty = true;
        }
        let elapsed = self.last_tick.elapsed();
        self.last_tick = Instant::now();
        if r.shell.ui.advance(elapsed.as_millis().min(10_000) as u32) {
            self.dirty = true;
        }
        let surrenders = r.battle.as_ref().is_some_and(|(b, _)| b.play().is_online() && !b.play().watches());
        r.shell.follow_battle(r.battle.is_some(), surrenders);
        r.shell.battle_saves(r.battle.as_ref().is_some_and(|(b, _)| !b.play().is_online()));
        if r.battle.is_some() {
            r.update_battle(elapsed.as_secs_f32());
            // A battle is always moving: draw every frame.
            self.dirty = true;
        }
        let battle = r.battle.as_mut().map(|(b, _)| b);
        crate::game::listen::follow(&mut r.audio, &mut r.shell, battle, r.gfx.minimized || r.gfx.occluded);
        // Draw at most MAX_FPS times a second, and only when something changed: an idle menu
        // costs nothing.
        let now = Instant::now();
        if self.dirty && now >= self.next_frame {
            r.gfx.window.request_redraw();
            self.dirty = false;
            self.next_frame = now + Duration::from_secs_f64(1.0 / MAX_FPS as f64);
        }
        if self.dirty {
            event_loop.set_control_flow(ControlFlow::WaitUntil(self.next_frame));
        } else if r.shell.ui.tooltip_pending() {
            event_loop.set_control_flow(ControlFlow::WaitUntil(now + Duration::from_millis(100)));
        } else {
            event_loop.set_control_flow(ControlFlow::Wait);
        }
        // Changes still settling are looked at again when they will have (a new one wakes the
        // loop itself).
        let look = self.watch.as_ref().and_then(ContentWatch::next_look);
        // The window's new size and place are saved once the player has let go of it.
        if let Some(due) = r.save_window_when_settled(now).into_iter().chain(look).min() {
            let at = match event_loop.control_flow() {
                ControlFlow::WaitUntil(t) => t.min(due),
                _ => due,
            };
            event_loop.set_control_flow(ControlFlow::WaitUntil(at));
        }
    }
}
