//! The game window: a winit 0.30 application with a wgpu surface, showing the shell or a
//! battle (the world pass, then the UI over it). Input goes to the UI first and to the battle
//! only if no window took it; the frame rate is capped (Fifo is not throttled under Xvfb);
//! resize, minimise and surface loss are handled.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key as WKey, ModifiersState, NamedKey};
use winit::window::{Fullscreen, Window, WindowId};

use crate::content::ContentRoots;
use crate::render::{Gpu, UiPass, WorldPass};
use crate::ui::{Input, Key, MouseButton};

use super::battle::Battle;
use super::frame::{self, Sight};
use super::hud::{self, Gadget};
use super::online_lobby::{OnlineLobby, Outcome};
use super::screenshot::load_atlas;
use super::settings::Settings;
use super::shell::{Screen, Shell, ShellRequest};
use super::watch::LayoutWatch;

/// Frames per second the window draws at most.
const MAX_FPS: u32 = 60;

/// Why the game could not run.
#[derive(Debug, Error)]
pub enum AppError {
    /// No display to open a window on.
    #[error(
        "cannot open a window: {0}\nRidgeline needs a graphical session (DISPLAY or WAYLAND_DISPLAY). Without one, try `ridgeline sim` or `ridgeline screenshot`."
    )]
    NoDisplay(String),
    /// Starting failed after the window opened.
    #[error("{0}")]
    Startup(String),
}

struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    gpu: Gpu,
    config: wgpu::SurfaceConfiguration,
    pass: UiPass,
    shell: Shell,
    minimized: bool,
    applied: Settings,
    /// The battle being played, with its world pass.
    battle: Option<(Battle, WorldPass)>,
    /// The left button went down on the radar (this rectangle) and is still held.
    radar_drag: Option<crate::ui::Rect>,
    /// The player chose to leave the battle.
    leaving: bool,
    /// When the player asked to leave.
    leaving_since: Instant,
    /// The online lobby, while one is open.
    lobby: Option<OnlineLobby>,
    /// The system clipboard (join codes are copied and pasted), if there is one.
    clipboard: Option<arboard::Clipboard>,
    /// How long the battle had stalled when the host was last asked to drop players.
    asked_drop_at: f32,
    /// The game draws its own cursor (the system's is hidden).
    own_cursor: bool,
    /// Sound (silent where there is no device).
    audio: crate::audio::Audio,
    /// The window is hidden (minimised or covered, where the system says so).
    occluded: bool,
}

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
    /// with `--mod`.
    fn follow(&mut self, settings: &Settings) {
        let front = self.base.roots().len().saturating_sub(1);
        self.current = settings.roots_with_mods(&self.base, front, &self.settings_path);
    }
}

struct App {
    /// Where content comes from.
    mods: ModRoots,
    running: Option<Running>,
    error: Option<String>,
    modifiers: ModifiersState,
    next_frame: Instant,
    /// Something changed since the last frame (input, resize): draw again.
    dirty: bool,
    /// When hover time was last advanced.
    last_tick: Instant,
    /// The layout files, for reloading them when a modder saves one.
    watch: Option<LayoutWatch>,
}

/// Opens the window at the main menu and runs until the player quits.
pub fn run(roots: ContentRoots, settings_path: PathBuf) -> Result<(), AppError> {
    let event_loop = EventLoop::new().map_err(|e| AppError::NoDisplay(e.to_string()))?;
    let mut app = App {
        mods: ModRoots { base: roots.clone(), current: roots, settings_path },
        running: None,
        error: None,
        modifiers: ModifiersState::default(),
        next_frame: Instant::now(),
        dirty: true,
        last_tick: Instant::now(),
        watch: None,
    };
    event_loop.run_app(&mut app).map_err(|e| AppError::Startup(e.to_string()))?;
    match app.error {
        Some(e) => Err(AppError::Startup(e)),
        None => Ok(()),
    }
}

impl App {
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<Running, String> {
        let settings = Settings::load(&self.mods.settings_path).unwrap_or_default();
        self.mods.follow(&settings);
        let (w, h) = settings.resolution;
        let mut attrs = Window::default_attributes().with_title("Ridgeline").with_inner_size(PhysicalSize::new(w, h));
        if settings.fullscreen {
            attrs = attrs.with_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        let window = Arc::new(event_loop.create_window(attrs).map_err(|e| format!("cannot create the window: {e}"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot create a drawing surface: {e}"))?;
        let gpu = Gpu::new(instance, Some(&surface)).map_err(|e| e.to_string())?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or("the graphics adapter cannot draw to this window")?;
        // Blending is done in linear space: prefer an sRGB format if the surface offers one.
        if let Some(srgb) = surface.get_capabilities(&gpu.adapter).formats.iter().find(|f| f.is_srgb()) {
            config.format = *srgb;
        }
        config.present_mode = wgpu::PresentMode::AutoVsync;
        surface.configure(&gpu.device, &config);
        let screen = (size.width as f32, size.height as f32);
        let shell = match Shell::new(&self.mods.current, screen, self.mods.settings_path.clone()) {
            Ok(s) => s,
            // A broken mod: the game starts with its own content and says what was refused.
            Err(e) if self.mods.current != ContentRoots::discover() => {
                log::warn!("the mods were refused: {e}");
                self.mods.current = ContentRoots::discover();
                let mut s = Shell::new(&self.mods.current, screen, self.mods.settings_path.clone())
                    .map_err(|e| e.to_string())?;
                let why = e.to_string().replace("layout problems:\n", "").replace("\n    ", "\n");
                s.message(
                    "Mods",
                    &format!("The mods were not loaded; the game runs without them.\n{}", why.trim()),
                    false,
                );
                s
            }
            Err(e) => return Err(e.to_string()),
        };
        let atlas = load_atlas(&shell).map_err(|e| e.to_string())?;
        let mut pass =
            UiPass::new(&gpu.device, &gpu.queue, config.format, &atlas, shell.images.clone(), shell.fonts.clone());
        for (name, img) in &shell.dynamic_images {
            pass.set_image(&gpu.device, &gpu.queue, name, img);
        }
        log::info!("window {}×{}, surface format {:?}", size.width, size.height, config.format);
        let audio = crate::audio::Audio::start(&self.mods.current, shell.volumes());
        Ok(Running {
            window,
            surface,
            gpu,
            config,
            pass,
            shell,
            minimized: false,
            applied: settings,
            battle: None,
            radar_drag: None,
            leaving: false,
            leaving_since: Instant::now(),
            lobby: None,
            clipboard: arboard::Clipboard::new().ok(),
            asked_drop_at: 0.0,
            own_cursor: false,
            audio,
            occluded: false,
        })
    }
}

impl Running {
    /// The Mods screen saved a choice: the roots follow it, the interface's images (a mod's own
    /// atlas comes and goes with it) and then the layouts that name them change now, data with
    /// the next match.
    fn apply_mods(&mut self, mods: &mut ModRoots) {
        mods.follow(&self.shell.settings);
        self.shell.roots = mods.current.clone();
        match self.shell.reload_images(&mods.current) {
            Ok(true) => {
                if let Err(e) = self.rebuild_atlas() {
                    log::warn!("the interface's atlas could not be rebuilt: {e}");
                }
            }
            Ok(false) => {}
            Err(e) => log::warn!("the mods' images could not be read: {e}"),
        }
        if let Err(problems) = self.shell.reload_layouts(&mods.current) {
            self.shell.message(
                "Mods",
                &format!("The mods' layouts have problems; keeping the old ones.\n{problems}"),
                false,
            );
        }
    }

    /// Builds the interface's drawing again from the shell's images (the game's atlas and the
    /// enabled mods'), with the pictures made at run time put back.
    fn rebuild_atlas(&mut self) -> Result<(), String> {
        let atlas = load_atlas(&self.shell).map_err(|e| e.to_string())?;
        let mut pass = UiPass::new(
            &self.gpu.device,
            &self.gpu.queue,
            self.config.format,
            &atlas,
            self.shell.images.clone(),
            self.shell.fonts.clone(),
        );
        for (name, img) in &self.shell.dynamic_images {
            pass.set_image(&self.gpu.device, &self.gpu.queue, name, img);
        }
        self.pass = pass;
        Ok(())
    }

    /// Shows the system's cursor unless the battle draws its own.
    fn update_cursor(&mut self) {
        let own = self.battle.as_ref().is_some_and(|(b, _)| b.draws_cursor()) && !self.shell.message_open();
        if own == self.own_cursor {
            return;
        }
        self.own_cursor = own;
        self.window.set_cursor_visible(!own);
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        self.minimized = size.width == 0 || size.height == 0;
        if self.minimized {
            return;
        }
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.shell.resize((size.width as f32, size.height as f32));
        if let Some((battle, _)) = &mut self.battle {
            battle.resize(glam::Vec2::new(size.width as f32, size.height as f32));
        }
    }

    /// Carries out what the shell's screens asked for, in order; `mods` are the content roots
    /// (which the Mods screen's choice changes). Returns false when the player quit.
    fn serve(&mut self, requests: Vec<ShellRequest>, mods: &mut ModRoots) -> bool {
        for r in requests {
            let roots = &mods.current;
            match r {
                ShellRequest::Quit => return false,
                ShellRequest::ApplyMods => self.apply_mods(mods),
                ShellRequest::StartMatch(setup) => {
                    let screen = self.screen();
                    let started = Battle::start(roots, &setup, screen).map_err(|e| e.to_string());
                    self.begin_battle(started);
                }
                ShellRequest::WatchReplay(path) => {
                    let screen = self.screen();
                    let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                    let started = crate::session::Replay::load(&path)
                        .map_err(|e| e.to_string())
                        .and_then(|r| Battle::watch(roots, &r, &name, screen).map_err(|e| e.to_string()));
                    self.begin_battle(started);
                }
                ShellRequest::LeaveBattle => {
                    self.leaving = true;
                    self.leaving_since = Instant::now();
                }
                ShellRequest::HostOnline(addr) => self.host_online(roots, addr),
                ShellRequest::JoinOnline(code) => {
                    let name = self.shell.settings.player_name.clone();
                    match OnlineLobby::join(roots, &code, &name) {
                        Ok(l) => self.lobby = Some(l),
                        Err(e) => self.close_lobby(&format!("Could not join: {e}")),
                    }
                }
                ShellRequest::LobbyChat(text) => {
                    if let Some(l) = &mut self.lobby {
                        l.chat(&text, &mut self.shell.lobby);
                        self.shell.refresh_lobby();
                    }
                }
                ShellRequest::LobbyReady(ready) => {
                    if let Some(l) = &mut self.lobby {
                        l.set_ready(ready);
                    }
                }
                ShellRequest::LobbyChange(change) => {
                    if let Some(l) = &mut self.lobby {
                        if let Err(why) = l.change(&change, &mut self.shell.lobby) {
                            self.shell.message("Lobby", &why, false);
                        }
                        // Shows the table as it is now (a refused choice goes back).
                        self.shell.refresh_lobby();
                    }
                }
                ShellRequest::LobbyStart => {
                    let started = self.lobby.as_mut().map(|l| l.start(roots));
                    match started {
                        Some(Ok(outcome)) => self.lobby_outcome(roots, outcome),
                        Some(Err(why)) => self.shell.message("Lobby", &why, false),
                        None => {}
                    }
                }
                ShellRequest::LobbyLeave => self.lobby = None,
                ShellRequest::DropStalled => {
                    if let Some((battle, _)) = &mut self.battle {
                        battle.drop_stalled();
                    }
                }
                ShellRequest::CommandButton(i) => {
                    if let Some((battle, _)) = &mut self.battle {
                        battle.command_button(i);
                    }
                }
                ShellRequest::Replay(crate::game::shell::ReplayControl::TakeOver) => {
                    let name = self.shell.settings.player_name.clone();
                    let screen = self.screen();
                    let started = self.battle.as_ref().map(|(b, _)| b.take_over(roots, &name, screen));
                    // The watched replay gives way to the new game.
                    if let Some(started) = started {
                        self.begin_battle(started.map_err(|e| e.to_string()));
                    }
                }
                ShellRequest::Replay(control) => {
                    if let Some((battle, _)) = &mut self.battle {
                        use crate::game::shell::ReplayControl;
                        match control {
                            ReplayControl::PlayPause => battle.pace_mut().toggle_pause(),
                            ReplayControl::Slower => {
                                battle.pace_mut().slower();
                            }
                            ReplayControl::Faster => {
                                battle.pace_mut().faster();
                            }
                            ReplayControl::View => battle.cycle_view(),
                            ReplayControl::TakeOver => {} // served above
                            ReplayControl::Seek(permille) => {
                                let total = battle.replay_position().map_or(0, |(_, t)| t);
                                if let Err(e) = battle.seek((total as u64 * permille as u64 / 1000) as u32) {
                                    log::error!("the replay could not seek: {e}");
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    }

    /// Opens an online lobby as host on `port`, first on the map chosen on the skirmish screen; the
    /// join code goes to the clipboard and into the lobby's chat.
    fn host_online(&mut self, roots: &ContentRoots, addr: std::net::SocketAddr) {
        let map = self.shell.maps.get(self.shell.skirmish.map).or(self.shell.maps.first());
        let Some((folder, players)) =
            map.and_then(|m| Some((m.dir.file_name()?.to_string_lossy().into_owned(), m.players as usize)))
        else {
            return self.close_lobby("No map to play on.");
        };
        let name = self.shell.settings.player_name.clone();
        match OnlineLobby::host(roots, addr, &name, &folder, players) {
            Ok(l) => {
                if let Some(code) = l.code() {
                    let copied = self.clipboard.as_mut().is_some_and(|c| c.set_text(code.to_string()).is_ok());
                    println!("join-code: {code}");
                    let how = if copied { "copied to the clipboard" } else { "give it to your friend" };
                    self.shell.lobby.chat.push(format!("Join code ({how}): {code}"));
                    self.shell.refresh_lobby();
                }
                self.lobby = Some(l);
            }
            Err(e) => self.close_lobby(&format!("Could not host: {e}")),
        }
    }

    /// Ends the lobby with a message, back on the Online screen.
    fn close_lobby(&mut self, why: &str) {
        self.lobby = None;
        self.shell.open(Screen::Online);
        self.shell.message("Online", why, false);
    }

    /// Carries on from what the lobby came to.
    fn lobby_outcome(&mut self, roots: &ContentRoots, outcome: Outcome) {
        match outcome {
            Outcome::Waiting => {}
            Outcome::Closed(why) => self.close_lobby(&why),
            Outcome::Started(game, net) => {
                self.lobby = None;
                let started = Battle::from_match(roots, *game, self.screen()).map(|mut b| {
                    b.set_online(net);
                    b
                });
                self.begin_battle(started.map_err(|e| e.to_string()));
            }
        }
    }

    /// Lets the lobby handle what arrived.
    fn poll_lobby(&mut self, roots: &ContentRoots) {
        let Some(l) = &mut self.lobby else { return };
        let before = self.shell.lobby.clone();
        let outcome = l.poll(roots, &mut self.shell.lobby);
        if self.shell.lobby != before {
            self.shell.refresh_lobby();
        }
        self.lobby_outcome(roots, outcome);
    }

    /// Pastes the clipboard's text into the focused text field.
    fn paste(&mut self) {
        let Some(text) = self.clipboard.as_mut().and_then(|c| c.get_text().ok()) else { return };
        for c in text.chars().filter(|c| !c.is_control()).take(512) {
            self.shell.handle(Input::Char(c));
        }
    }

    fn screen(&self) -> glam::Vec2 {
        glam::Vec2::new(self.config.width as f32, self.config.height as f32)
    }

    /// Shows a battle that started, or says why it did not.
    fn begin_battle(&mut self, started: Result<Battle, String>) {
        match started {
            Ok(battle) => {
                let pass =
                    WorldPass::new(&self.gpu.device, &self.gpu.queue, self.config.format, &battle.scene.statics());
                self.shell.open(Screen::InGame);
                self.shell.offer_hint(!battle.is_replay());
                self.battle = Some((battle, pass));
            }
            Err(e) => self.shell.message("Battle", &format!("The battle could not start: {e}"), false),
        }
    }

    /// Leaves the battle for the main menu.
    fn end_battle(&mut self) {
        self.battle = None;
        self.leaving = false;
        self.shell.open(Screen::MainMenu);
    }

    /// Per-frame battle upkeep: the clock runs, the top bar follows, and the battle ends when
    /// the player leaves or a few seconds after someone wins.
    fn update_battle(&mut self, dt: f32) {
        let Some((battle, _)) = &mut self.battle else { return };
        // A dialog over a skirmish (leave) or another screen (options) holds the game.
        battle.pace_mut().hold(self.shell.message_open() || self.shell.screen() != Some(Screen::InGame));
        if let Err(e) = battle.advance(dt) {
            log::error!("the battle stopped: {e}");
            self.end_battle();
            self.shell.message("Battle", &format!("The battle stopped: {e}"), false);
            return;
        }
        hud::sync(&mut self.shell, battle);
        // The host of a stalled online battle is asked, every ten seconds of waiting, whether
        // to drop whoever it waits for.
        let stalled = battle.stalled_for();
        if battle.hosting() && stalled >= 10.0 && !self.shell.message_open() && stalled - self.asked_drop_at >= 10.0 {
            self.asked_drop_at = stalled;
            let names = battle.waiting_for().unwrap_or_default();
            self.shell.ask_drop(&names, stalled as u32);
        } else if stalled == 0.0 {
            self.asked_drop_at = 0.0;
        }
        let finished = battle.ended_for() > 3.0 || battle.desync_frame().is_some() || battle.host_left();
        let desync = battle.desync_frame();
        let report = battle.desync_report().map(str::to_string);
        let host_left = battle.host_left();
        // Leaving an online battle surrenders first, so the others see the forces go and can
        // win; the battle is left once the surrender has run here (or after a few seconds).
        let left = self.leaving
            && (!battle.is_online() || battle.surrender() || self.leaving_since.elapsed().as_secs_f32() > 5.0);
        let summary = (finished || left).then(|| battle.summary());
        let verdict = battle.replay_verdict();
        let failed_at = battle.replay_failed_at();
        let replay = (!battle.is_replay() && summary.is_some()).then(|| battle.replay());
        if let Some((outcome, rows)) = summary {
            self.battle = None;
            self.leaving = false;
            self.shell.show_score(&outcome, rows);
            if let Some(replay) = replay {
                let secs =
                    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
                let map = std::path::Path::new(&replay.setup.map).file_name().map(|n| n.to_string_lossy().into_owned());
                let name = format!("{} {}.ron", map.unwrap_or_default(), crate::session::replay::utc_stamp(secs));
                let path = self.shell.replay_dir().join(name);
                if let Err(e) = replay.save(&path) {
                    log::warn!("the replay was not saved: {e}");
                }
            }
            if let Some(frame) = desync {
                self.shell.show_out_of_sync(frame, report.as_deref());
            } else if host_left {
                self.shell.message("Online", "The host left the game.", false);
            }
            if verdict == Some(false) {
                let when = failed_at.map_or("its recorded end".to_string(), |f| format!("frame {f}"));
                self.shell.message(
                    "Replay",
                    &format!("This replay stopped matching its recording at {when}: it was made by a different version of the game."),
                    false,
                );
            }
        }
    }

    fn draw(&mut self) {
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
        if let Some((battle, world_pass)) = &mut self.battle {
            let seconds = battle.display_seconds();
            frame::draw_world(&self.gpu, world_pass, &view, size, battle, Sight::Player, seconds);
            clear = None;
        }
        // Over the battlefield the game draws its own cursor, shaped by what a click would do.
        let cmds = frame::ui_commands(&self.shell, self.battle.as_ref().map(|(b, _)| b), true);
        self.pass.render(&self.gpu.device, &self.gpu.queue, &view, size, &cmds, clear);
        self.update_cursor();
        self.window.pre_present_notify();
        self.gpu.queue.present(frame);
    }

    /// Applies saved window settings (size, fullscreen) when the options screen changed them.
    fn apply_settings(&mut self) {
        let s = self.shell.settings.clone();
        if s == self.applied {
            return;
        }
        if s.resolution != self.applied.resolution {
            let _ = self.window.request_inner_size(PhysicalSize::new(s.resolution.0, s.resolution.1));
        }
        if s.fullscreen != self.applied.fullscreen {
            self.window.set_fullscreen(s.fullscreen.then_some(Fullscreen::Borderless(None)));
        }
        self.applied = s;
    }
}

fn key(k: &WKey) -> Option<Key> {
    match k {
        WKey::Named(n) => Some(match n {
            NamedKey::Tab => Key::Tab,
            NamedKey::Enter => Key::Enter,
            NamedKey::Escape => Key::Escape,
            NamedKey::ArrowLeft => Key::Left,
            NamedKey::ArrowRight => Key::Right,
            NamedKey::ArrowUp => Key::Up,
            NamedKey::ArrowDown => Key::Down,
            NamedKey::Home => Key::Home,
            NamedKey::End => Key::End,
            NamedKey::Backspace => Key::Backspace,
            NamedKey::Delete => Key::Delete,
            NamedKey::Space => Key::Space,
            _ => return None,
        }),
        _ => None,
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match self.start(event_loop) {
            Ok(r) => {
                r.window.request_redraw();
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
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => r.resize(size),
            WindowEvent::Occluded(hidden) => r.occluded = hidden,
            WindowEvent::RedrawRequested => r.draw(),
            WindowEvent::ModifiersChanged(m) => {
                self.modifiers = m.state();
                r.shell.set_shift(self.modifiers.shift_key());
                if let Some((battle, _)) = &mut r.battle {
                    battle.set_shift(self.modifiers.shift_key());
                    battle.set_show_orders(self.modifiers.alt_key());
                }
            }
            WindowEvent::CursorLeft { .. } => {
                if let Some((battle, _)) = &mut r.battle {
                    battle.mouse_left();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let at = glam::Vec2::new(position.x as f32, position.y as f32);
                r.shell.handle(Input::MouseMove { x: at.x, y: at.y });
                let radar = r.radar_drag;
                let over_ui = r.shell.ui.hit(at.x, at.y).is_some() || r.shell.message_open();
                if let Some((battle, _)) = &mut r.battle {
                    battle.mouse_move(at);
                    battle.set_cursor_over_ui(over_ui);
                    if let Some(rect) = radar {
                        battle.radar_click(rect, at);
                    }
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let button = match button {
                    winit::event::MouseButton::Left => MouseButton::Left,
                    winit::event::MouseButton::Right => MouseButton::Right,
                    _ => return,
                };
                let (x, y) = r.shell.ui.cursor();
                let input = match state {
                    ElementState::Pressed => Input::MouseDown { x, y, button },
                    ElementState::Released => Input::MouseUp { x, y, button },
                };
                let consumed = r.shell.handle(input);
                if r.shell.editing() {
                    // The layout editor has the mouse: nothing reaches the battle, radar or panel.
                    r.radar_drag = None;
                    return;
                }
                let at = glam::Vec2::new(x, y);
                // The battle's gadgets are found through the window tree, by what they show.
                let gadget = hud::under(&r.shell, x, y).filter(|_| r.battle.is_some());
                if state == ElementState::Released {
                    r.radar_drag = None;
                }
                let ctrl = self.modifiers.control_key();
                if let (Some((gadget, rect)), ElementState::Pressed, Some((battle, _))) = (gadget, state, &mut r.battle)
                {
                    match (gadget, button) {
                        (Gadget::SelectionPanel, _) => {
                            battle.panel_click(rect, at, ctrl);
                        }
                        (Gadget::Radar, MouseButton::Left) => {
                            r.radar_drag = Some(rect);
                            battle.radar_click(rect, at);
                        }
                        (Gadget::Radar, _) => battle.radar_order(rect, at),
                    }
                } else if let Some((battle, _)) = &mut r.battle {
                    match state {
                        ElementState::Pressed if !consumed => battle.mouse_down(button, at),
                        ElementState::Pressed => {}
                        // Releases always reach the battle so a drag never sticks.
                        ElementState::Released => battle.mouse_up(button, at),
                    }
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let d = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                let (x, y) = r.shell.ui.cursor();
                if !r.shell.handle(Input::Wheel { x, y, delta: d })
                    && let Some((battle, _)) = &mut r.battle
                {
                    battle.wheel(d);
                }
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Released => {
                if let (Some(k), Some((battle, _))) = (key(&event.logical_key), &mut r.battle) {
                    battle.key(k, false);
                }
            }
            // F10 turns the layout editor on and off; while it is on, keys are its own.
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed
                    && (matches!(event.logical_key, WKey::Named(NamedKey::F10))
                        || (r.shell.editing() && !r.shell.message_open())) =>
            {
                if matches!(event.logical_key, WKey::Named(NamedKey::F10)) {
                    r.shell.toggle_editor();
                } else if let Some(k) = key(&event.logical_key) {
                    r.shell.handle(Input::Key { key: k, shift: self.modifiers.shift_key() });
                } else if let Some(text) = &event.text {
                    for c in text.chars().filter(|c| !c.is_control()) {
                        r.shell.handle(Input::Char(c));
                    }
                }
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                let battle_keys =
                    r.battle.is_some() && !r.shell.message_open() && r.shell.screen() == Some(Screen::InGame);
                // An online battle's chat: Enter opens a line, and while it is open the keys
                // are its own.
                if let (true, Some((battle, _))) = (battle_keys, &mut r.battle) {
                    let chatting = battle.chat_open();
                    let k = key(&event.logical_key);
                    if chatting || k == Some(Key::Enter) {
                        let used = k.is_some_and(|k| battle.chat_key(k));
                        if chatting {
                            if k.is_none() || k == Some(Key::Space) {
                                for c in event.text.iter().flat_map(|t| t.chars()) {
                                    battle.chat_char(c);
                                }
                            }
                            return;
                        }
                        if used {
                            return;
                        }
                    }
                }
                if let (true, WKey::Named(NamedKey::Pause), Some((battle, _))) =
                    (battle_keys, &event.logical_key, &mut r.battle)
                    && let Err(e) = battle.toggle_pause()
                {
                    log::warn!("pause: {e}");
                }
                if let (true, WKey::Character(text), Some((battle, _))) =
                    (battle_keys, &event.logical_key, &mut r.battle)
                {
                    // With Ctrl held the text may be a control character: use the key's own.
                    if let Some(c) = text.chars().next() {
                        battle.hotkey(c, self.modifiers.control_key());
                    }
                }
                if let Some(k) = key(&event.logical_key) {
                    // In a battle with no dialog open, keys belong to the battle (no in-game
                    // window takes keys yet); otherwise to the UI.
                    let battle_keys =
                        r.battle.is_some() && !r.shell.message_open() && r.shell.screen() == Some(Screen::InGame);
                    if !battle_keys {
                        r.shell.handle(Input::Key { key: k, shift: self.modifiers.shift_key() });
                    } else if k == Key::Escape {
                        let cancelled = r.battle.as_mut().is_some_and(|(b, _)| b.cancel_mode());
                        if !cancelled {
                            r.shell.ask_leave_battle();
                        }
                    } else if let Some((battle, _)) = &mut r.battle {
                        battle.key(k, true);
                    }
                }
                let ctrl_key = |letter: &str| {
                    self.modifiers.control_key()
                        && matches!(&event.logical_key, WKey::Character(t) if t.eq_ignore_ascii_case(letter))
                };
                if ctrl_key("v") && r.battle.is_none() {
                    r.paste();
                } else if ctrl_key("a") {
                    // Select all, never an "a" typed.
                    if r.battle.is_none() || r.shell.message_open() || r.shell.screen() != Some(Screen::InGame) {
                        r.shell.handle(Input::Key { key: Key::SelectAll, shift: false });
                    }
                } else if let Some(text) = &event.text {
                    for c in text.chars().filter(|c| !c.is_control()) {
                        r.shell.handle(Input::Char(c));
                    }
                }
            }
            _ => {}
        }
        let requests = r.shell.take_requests();
        if !r.serve(requests, &mut self.mods) {
            event_loop.exit();
        }
        r.apply_settings();
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(r) = self.running.as_mut() else { return };
        let requests = r.shell.update();
        if !r.serve(requests, &mut self.mods) {
            event_loop.exit();
            return;
        }
        if r.lobby.is_some() {
            r.poll_lobby(&self.mods.current);
            self.dirty = true;
        }
        let watch = self.watch.get_or_insert_with(|| LayoutWatch::new(&self.mods.current));
        if watch.changed(&self.mods.current) {
            match r.shell.reload_layouts(&self.mods.current) {
                Ok(true) => log::info!("layouts reloaded"),
                Ok(false) => {}
                Err(problems) => r.shell.message(
                    "Layouts",
                    &format!("A layout has problems; keeping the old one.\n{problems}"),
                    false,
                ),
            }
            self.dirty = true;
        }
        let elapsed = self.last_tick.elapsed();
        self.last_tick = Instant::now();
        if r.shell.ui.advance(elapsed.as_millis().min(10_000) as u32) {
            self.dirty = true;
        }
        r.shell.in_battle = r.battle.is_some();
        if r.battle.is_some() {
            r.update_battle(elapsed.as_secs_f32());
            // A battle is always moving: draw every frame.
            self.dirty = true;
        }
        let battle = r.battle.as_mut().map(|(b, _)| b);
        crate::game::listen::follow(&mut r.audio, &mut r.shell, battle, r.minimized || r.occluded);
        // Draw at most MAX_FPS times a second, and only when something changed: an idle menu
        // costs nothing.
        let now = Instant::now();
        if self.dirty && now >= self.next_frame {
            r.window.request_redraw();
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
    }
}
