//! The game while its window is open: the shell's screens, the battle being played with its
//! world pass, the online lobby, sound, and the battle's lifetime — started, advanced a frame at
//! a time (the HUD filled from it), and ended with the score, the replay saved and what the
//! player must be told.
//!
//! Must not: route input (`input.rs`) or serve the screens' requests (`requests.rs`).

use std::time::Instant;

use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;

use crate::content::ContentRoots;
use crate::render::WorldPass;
use crate::ui::Input;

use super::super::battle::{Battle, BattleError, HostGone, OnlineLink};
use super::super::hud;
use super::super::online_lobby::OnlineLobby;
use super::super::settings::Settings;
use super::super::shell::{Screen, Shell};
use super::ModRoots;
use super::error::StartupError;
use super::surface::WindowSurface;

/// How long the window must stay as the player left it before its size and place are saved
/// (a drag sends many resizes).
const SETTLE: std::time::Duration = std::time::Duration::from_secs(1);

/// The game with its window open.
pub(super) struct Running {
    /// The window and what draws into it.
    pub gfx: WindowSurface,
    /// The screens and the HUD's windows.
    pub shell: Shell,
    /// The settings the window was last made to follow.
    applied: Settings,
    /// When the player last resized or moved the window, until that is saved.
    window_changed: Option<Instant>,
    /// The battle being played, with its world pass.
    pub battle: Option<(Battle, WorldPass)>,
    /// The left button went down on the radar (this rectangle) and is still held.
    pub radar_drag: Option<crate::ui::Rect>,
    /// The player chose to leave the battle.
    pub leaving: bool,
    /// When the player asked to leave.
    pub leaving_since: Instant,
    /// The online lobby, while one is open.
    pub lobby: Option<OnlineLobby>,
    /// The system clipboard (join codes are copied and pasted), if there is one.
    pub clipboard: Option<arboard::Clipboard>,
    /// How long the battle had stalled when the host was last asked to drop players.
    asked_drop_at: f32,
    /// Sound (silent where there is no device).
    pub audio: crate::audio::Audio,
}

impl Running {
    /// Opens the window at the main menu, with the mods the settings turn on (or, when they are
    /// refused, without them and saying why).
    pub fn start(event_loop: &ActiveEventLoop, mods: &mut ModRoots) -> Result<Running, StartupError> {
        let settings = Settings::load(&mods.settings_path).unwrap_or_default();
        // A broken mod is left out alone; the good ones stay on.
        let refused = mods.follow(&settings);
        let mut gfx = WindowSurface::open(event_loop, &settings)?;
        let size = gfx.size();
        let screen = (size.x, size.y);
        let shell = match Shell::new(&mods.current, screen, mods.settings_path.clone()) {
            Ok(mut s) => {
                if !refused.is_empty() {
                    s.tell_refusals(&refused);
                }
                s
            }
            // Mods that are sound alone may still clash together: then the game starts with
            // its own content and says why.
            Err(e) if ContentRoots::discover().is_ok_and(|own| own != mods.current) => {
                log::warn!("the mods were refused: {e}");
                mods.current = ContentRoots::discover()?;
                let mut s = Shell::new(&mods.current, screen, mods.settings_path.clone())?;
                let why = e.to_string().replace("layout problems:\n", "").replace("\n    ", "\n");
                s.tell("Title:Mods", "Message:ModsNotLoaded", &[("problems", why.trim())]);
                s
            }
            Err(e) => return Err(e.into()),
        };
        gfx.rebuild_ui(&shell)?;
        let audio = crate::audio::Audio::start(&mods.current, shell.volumes());
        Ok(Running {
            gfx,
            shell,
            applied: settings,
            window_changed: None,
            battle: None,
            radar_drag: None,
            leaving: false,
            leaving_since: Instant::now(),
            lobby: None,
            clipboard: arboard::Clipboard::new().ok(),
            asked_drop_at: 0.0,
            audio,
        })
    }

    /// The Mods screen saved a choice: the roots follow it, the interface's images (a mod's own
    /// atlas comes and goes with it) and then the layouts that name them change now, data with
    /// the next match.
    pub fn apply_mods(&mut self, mods: &mut ModRoots) {
        // The Mods screen turns on no broken mod; one broken since is left out, and said.
        let refused = mods.follow(&self.shell.prefs.settings);
        if !refused.is_empty() {
            self.shell.tell_refusals(&refused);
        }
        self.shell.use_roots(mods.current.clone());
        match self.shell.reload_images(&mods.current) {
            Ok(true) => {
                if let Err(e) = self.gfx.rebuild_ui(&self.shell) {
                    log::warn!("the interface's atlas could not be rebuilt: {e}");
                }
            }
            Ok(false) => {}
            Err(e) => log::warn!("the mods' images could not be read: {e}"),
        }
        if let Err(problems) = self.shell.reload_layouts(&mods.current) {
            self.shell.tell("Title:Mods", "Message:LayoutsKept", &[("problems", &problems.to_string())]);
        }
    }

    /// Takes up what changed on disk while the game runs: the interface's images (the atlas
    /// is rebuilt), the layouts (a broken one is kept out, and the player told), the map list
    /// (new previews uploaded); data is read by the next match.
    pub fn take_up(&mut self, changes: crate::game::watch::Changes, roots: &ContentRoots) {
        let mut atlas = false;
        if changes.interface {
            match self.shell.reload_images(roots) {
                Ok(changed) => atlas |= changed,
                Err(e) => self.shell.tell("Title:Images", "Message:ImagesKept", &[("problems", &e.to_string())]),
            }
        }
        if changes.layouts || changes.interface {
            match self.shell.reload_layouts(roots) {
                Ok(true) => log::info!("layouts reloaded"),
                Ok(false) => {}
                Err(problems) => {
                    log::warn!("a layout has problems; keeping the old one:\n{problems}");
                    let problems = problems.to_string();
                    self.shell.tell("Title:Layouts", "Message:LayoutProblems", &[("problems", &problems)]);
                }
            }
        }
        if changes.maps || changes.data {
            atlas |= self.shell.refresh_maps(roots);
        }
        if changes.data {
            log::info!("data files changed: the next match reads them");
        }
        if atlas && let Err(e) = self.gfx.rebuild_ui(&self.shell) {
            log::warn!("the interface's atlas could not be rebuilt: {e}");
        }
    }

    /// The window changed size.
    pub fn resize(&mut self, size: PhysicalSize<u32>) {
        if !self.gfx.resize(size) {
            return;
        }
        self.shell.resize((size.width as f32, size.height as f32));
        if let Some((battle, _)) = &mut self.battle {
            battle.resize(glam::Vec2::new(size.width as f32, size.height as f32));
        }
        self.follow_window();
    }

    /// The player resized or moved the window: the settings follow its size and place (not
    /// while fullscreen or minimised), and so does what the window was last made to follow, so
    /// [`Running::apply_settings`] does not size it back. Saved when the game closes.
    pub fn follow_window(&mut self) {
        if self.gfx.minimized {
            return;
        }
        let window = &self.gfx.window;
        let size = window.inner_size();
        // Wayland does not tell a window where it is: the position known stays.
        let position = window.outer_position().ok().map(|p| (p.x, p.y));
        let settings = &mut self.shell.prefs.settings;
        if settings.follow_window((size.width, size.height), position, window.fullscreen().is_some()) {
            self.applied.resolution = settings.resolution;
            self.applied.window_position = settings.window_position;
            self.window_changed = Some(Instant::now());
        }
    }

    /// Saves the window's size and place once they have settled ([`SETTLE`] after the last
    /// resize or move); else when to look again (none: nothing waits to be saved).
    pub fn save_window_when_settled(&mut self, now: Instant) -> Option<Instant> {
        let due = self.window_changed? + SETTLE;
        if now < due {
            return Some(due);
        }
        self.save_window();
        None
    }

    /// Saves the window's size and place (and anything else not saved yet) when they changed
    /// since the settings were loaded or saved, through the merging save; a failure is logged
    /// only (the player did not ask for this save, and it is tried again on the next change
    /// and when the game closes).
    pub fn save_window(&mut self) {
        self.window_changed = None;
        let prefs = &mut self.shell.prefs;
        if prefs.unsaved()
            && let Err(e) = prefs.save_as(prefs.settings.clone())
        {
            log::warn!("the window's size and place were not saved: {e}");
        }
    }

    /// Pastes the clipboard's text into the focused text field.
    pub fn paste(&mut self) {
        let Some(text) = self.clipboard.as_mut().and_then(|c| c.get_text().ok()) else { return };
        for c in text.chars().filter(|c| !c.is_control()).take(512) {
            self.shell.handle(Input::Char(c));
        }
    }

    /// The drawable size.
    pub fn screen(&self) -> glam::Vec2 {
        self.gfx.size()
    }

    /// Draws one frame.
    pub fn draw(&mut self) {
        self.gfx.draw(&self.shell, self.battle.as_mut());
    }

    /// Applies saved window settings (size, fullscreen) when the options screen changed them.
    pub fn apply_settings(&mut self) {
        if self.shell.prefs.settings != self.applied {
            self.gfx.apply(&self.applied, &self.shell.prefs.settings);
            self.applied = self.shell.prefs.settings.clone();
        }
    }

    /// Shows a battle that started, or says why it did not.
    pub fn begin_battle(&mut self, started: Result<Battle, BattleError>) {
        match started {
            Ok(battle) => {
                let pass = self.gfx.world_pass(&battle.scene.statics());
                self.shell.open(Screen::InGame);
                self.shell.offer_hint(!battle.play().watches());
                self.battle = Some((battle, pass));
            }
            Err(e) => self.shell.tell("Title:Battle", "Message:BattleNotStarted", &[("error", &e.to_string())]),
        }
    }

    /// Leaves the battle for the main menu.
    fn end_battle(&mut self) {
        self.battle = None;
        self.leaving = false;
        self.shell.open(Screen::MainMenu);
    }

    /// Per-frame battle upkeep: the clock runs, the HUD follows, and the battle ends when the
    /// player leaves or a few seconds after someone wins.
    pub fn update_battle(&mut self, dt: f32) {
        let Some((battle, _)) = &mut self.battle else { return };
        // The keys the player chose (Options → Keys), as saved.
        battle.set_keys(self.shell.prefs.keys());
        // A dialog over a skirmish (leave) or another screen (options) holds the game.
        battle.play_mut().pace_mut().hold(self.shell.message_open() || self.shell.screen() != Some(Screen::InGame));
        if let Err(e) = battle.advance(dt) {
            log::error!("the battle stopped: {e}");
            self.end_battle();
            self.shell.tell("Title:Battle", "Message:BattleStopped", &[("error", &e.to_string())]);
            return;
        }
        hud::sync(&mut self.shell, battle);
        let covered = hud::covered_bottom(&self.shell, battle.picture().screen().y);
        battle.controls().set_covered_bottom(covered);
        // The host of a stalled online battle is asked, every ten seconds of waiting, whether
        // to drop whoever it waits for.
        let online = battle.play().online();
        let stalled = online.map_or(0.0, OnlineLink::stalled_for);
        let hosting = online.is_some_and(OnlineLink::hosting);
        let stopped = online.is_some_and(|o| o.desync_frame().is_some() || o.host_left());
        if hosting && stalled >= 10.0 && !self.shell.message_open() && stalled - self.asked_drop_at >= 10.0 {
            self.asked_drop_at = stalled;
            let names = battle.play().waiting_for().unwrap_or_default();
            self.shell.ask_drop(&names, stalled as u32);
        } else if stalled == 0.0 {
            self.asked_drop_at = 0.0;
            self.shell.close_drop_question();
        }
        let finished = battle.result_done() || stopped;
        // Leaving an online battle surrenders first, so the others see the forces go and can
        // win; the battle is left once the surrender has run here (or after a few seconds).
        let left = self.leaving
            && (!battle.play().is_online()
                || battle.play_mut().surrender()
                || self.leaving_since.elapsed().as_secs_f32() > 5.0);
        if finished || left {
            self.finish_battle();
        }
    }

    /// The battle is over or left: the score, the replay saved, and what went wrong if anything.
    fn finish_battle(&mut self) {
        let Some((battle, _)) = self.battle.take() else { return };
        self.leaving = false;
        let (outcome, rows) = battle.summary();
        // After a replay, Continue goes back to the list it was chosen from.
        let then = if battle.play().is_replay() { Screen::Replays } else { Screen::MainMenu };
        self.shell.show_score(&outcome, rows, then);
        if !battle.play().is_replay() {
            let replay = battle.play().replay();
            let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            let map = std::path::Path::new(&replay.setup.map).file_name().map(|n| n.to_string_lossy().into_owned());
            let name = format!("{} {}.ron", map.unwrap_or_default(), crate::session::replay::utc_stamp(secs));
            let path = self.shell.prefs.replay_dir().join(name);
            if let Err(e) = replay.save(&path) {
                log::warn!("the replay was not saved: {e}");
                self.shell.tell("Title:Replays", "Message:NotSaved", &[("error", &e.to_string())]);
            }
        }
        let online = battle.play().online();
        if let Some(frame) = online.and_then(OnlineLink::desync_frame) {
            self.shell.show_out_of_sync(frame, online.and_then(OnlineLink::desync_report));
        } else if online.is_some_and(OnlineLink::host_left) {
            // Said as it was: the host left, this machine's own link dropped, or the host
            // turned it away (another copy of the game took the seat).
            match online.and_then(OnlineLink::host_gone) {
                Some(HostGone::LinkLost) => self.shell.tell("Title:Online", "Message:LinkLost", &[]),
                Some(HostGone::Refused(why)) if why == crate::net::wire::TAKEN_OVER => {
                    self.shell.tell("Title:Online", "Message:TakenOver", &[])
                }
                Some(HostGone::Refused(why)) => {
                    self.shell.tell("Title:Online", "Message:HostRefused", &[("error", why.as_str())])
                }
                _ => self.shell.tell("Title:Online", "Message:HostLeft", &[]),
            }
        }
        if battle.play().replay_verdict() == Some(false) {
            let label = if battle.play().replay_failed_at().is_some() {
                "Message:ReplayMismatch"
            } else {
                "Message:ReplayMismatchEnd"
            };
            let frame = battle.play().replay_failed_at().unwrap_or_default().to_string();
            self.shell.tell("Title:Replay", label, &[("frame", &frame)]);
        }
    }
}
