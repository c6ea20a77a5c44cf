//! A battle on this machine: three owned parts, coordinated here and only here — `play.rs`
//! (the match: session, pace, a watched replay, the online link, stepping frames),
//! `picture.rs` (what is drawn: camera, selection, markers, effects, particles, wrecks, fog of
//! war) and `hud_state.rs` (what the HUD shows: control bar, alerts, power) — and the
//! scene. Logic frames run at 30 a second (times the game speed, none while paused: `pace.rs`)
//! as real time falls due (never more than a few per drawn frame, and never while the stream
//! waits for a peer: game time then stands still); each frame's events go to the picture and
//! the HUD, and the picture is interpolated in between. Two borrowed views over the parts:
//! `look.rs` (read-only: what the player sees, picking, what a right click would order through
//! the simulation's `order_for`) and `input.rs` (`Controls`: mouse, keys and control-bar
//! clicks become commands). Every other file implements its own type: `overlay.rs` (drawn over
//! the world, from a `Look`), `online.rs` (`OnlineLink`), `replay.rs` (`Watching`),
//! `control_bar.rs`, `markers.rs`, `view.rs`, `selection.rs`, `alerts.rs` (and `alerts_seen.rs`,
//! a spectator's), `command_sets.rs` (the army's buttons from data), `effects.rs`,
//! `floaters.rs`, `particles.rs`, `rubble.rs`, `wrecks.rs`, `debris.rs`, `sounds.rs`, `score.rs`,
//! `summary.rs`, `status.rs` (an object's health, rank and work in words), `stills.rs` (the picture driven without the game, for tools' stills), `error.rs`. The HUD's radar and
//! selection panel (`hud/`) draw from what the battle shows and order through its controls.
//!
//! Must not: change the world; every order goes through the stream as a command.

mod alerts;
mod alerts_seen;
mod army_bar;
mod command_sets;
mod control_bar;
mod debris;
mod effects;
mod error;
mod floaters;
mod hud_state;
mod input;
mod look;
mod markers;
mod memory;
mod online;
mod overlay;
mod pace;
mod particles;
mod picture;
mod play;
mod replay;
mod rubble;
mod score;
mod selection;
mod sounds;
pub mod status;
mod stills;
mod summary;
mod view;
mod wrecks;

use glam::Vec2;

use crate::content::ContentRoots;
use crate::render::ObjectInstance;
use crate::session::start::start_local_from;
use crate::session::{CommandScript, MatchSetup, Replay, start_local};
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};
use crate::ui::draw::DrawCmd;

use super::keys::KeyMap;
use super::scene::{Scene, poses};
use super::shroud::Shroud;

pub use alerts::{Alert, AlertKind, Alerts};
pub use command_sets::{COMMAND_SETS_FILE, CommandSets};
pub use control_bar::{Action, CommandButton};
pub use error::BattleError;
pub use hud_state::HudState;
pub use input::Controls;
pub use look::Look;
pub use markers::Intent;
pub use online::{HostGone, OnlineLink};
pub use pace::Pace;
pub use picture::Picture;
pub use play::Play;

use replay::Watching;

/// Seconds of one logic frame.
const FRAME: f32 = 1.0 / FRAMES_PER_SECOND as f32;
/// The longest drawn frame counted in full (seconds): a longer hitch counts as this long.
const MAX_DRAWN_GAP: f32 = 1.0;
/// Most game seconds of logic frames run for one drawn frame: a slow renderer still gets every
/// frame real time requires (at 4 drawn frames a second, about 8 logic frames each); past this
/// the machine cannot simulate in real time, the clock falls behind (never spirals) and the top
/// bar says so.
const MAX_CATCH_UP_SECONDS: f32 = 1.0;

/// Seconds a finished battle stays on screen under its result's banner before the score
/// screen, so the last structure is seen to fall (a click or a key skips the rest).
pub const RESULT_HOLD_SECONDS: f32 = 6.0;

/// A running battle: three owned parts — the match ([`Play`]), the picture ([`Picture`]: what
/// is drawn and how the player points at it) and the HUD's state ([`HudState`]) — and the scene.
pub struct Battle {
    /// The match: session, pacing, replay watching, the online link, the clocks.
    play: Play,
    /// What is drawn.
    pub scene: Scene,
    /// The camera, selection, markers, effects and fog of war as the player sees them.
    pic: Picture,
    /// The control bar, alerts and power the HUD shows.
    hud: HudState,
}

impl Battle {
    /// Starts the match `setup` on this machine: computer slots are skirmish AIs, the human's
    /// orders go through the same stream as everyone's.
    pub fn start(roots: &ContentRoots, setup: &MatchSetup, screen: Vec2) -> Result<Battle, BattleError> {
        let game = start_local(roots, setup, &CommandScript::default())?;
        let observed = game.human.is_none();
        let mut battle = Battle::from_match(roots, game, screen)?;
        if observed {
            battle.observe();
        }
        Ok(battle)
    }

    /// Nobody plays from this machine (an observer's seat): it sees everything to begin with,
    /// and chooses a player's view with the view selector ([`Battle::cycle_view`]).
    pub fn observe(&mut self) {
        if self.play.game.human.is_some() {
            return; // someone plays from here
        }
        self.play.observing = true;
        self.pic.see_all = true;
        self.pic.refresh_sight(self.play.world(), self.play.local);
    }

    /// A battle over a started match, seen by its human player (or its first player when it has
    /// none: tools and replays watch).
    pub fn from_match(
        roots: &ContentRoots,
        mut game: crate::session::start::LocalMatch,
        screen: Vec2,
    ) -> Result<Battle, BattleError> {
        let labels = own_labels(roots);
        game.content.defs.translate(|label| labels.0.get(label).cloned());
        let c = &game.content;
        let mut scene = Scene::new(roots, c.map.clone(), &c.map_content, &c.defs)?;
        scene.colors = game.slots.iter().map(|s| s.colour).collect();
        // Without a human seat nobody gives orders through this view (tools and replays watch
        // the first player).
        let local = game.human.map_or(PlayerId(0), |seat| seat.player);
        let world = game.session.world();
        let (w, h) = scene.map.file.size;
        let mut shroud = Shroud::new(w, h, scene.map.file.cell_size as f32);
        shroud.update(world, local);
        let power = world.power(local);
        let mut battle = Battle {
            pic: Picture::new(&scene, screen, shroud, poses(world)),
            hud: HudState::new(
                power,
                labels,
                std::sync::Arc::new(KeyMap::load(roots).map_err(BattleError::Keys)?),
                command_sets::CommandSets::load(roots).map_err(BattleError::CommandSets)?.army,
            ),
            scene,
            play: Play::new(game, local),
        };
        battle.look_from_start();
        Ok(battle)
    }

    /// Plays a replay (`name`: its file name): every player is driven by the recorded
    /// commands, through the same stream; the view is the recording player's.
    pub fn watch(roots: &ContentRoots, replay: &Replay, name: &str, screen: Vec2) -> Result<Battle, BattleError> {
        let mut game = start_local(roots, &replay.setup.for_playback(), &CommandScript::default())?;
        game.session.play_back(&replay.commands);
        let mut battle = Battle::from_match(roots, game, screen)?;
        battle.play.local = PlayerId(replay.local);
        battle.look_from_start();
        battle.pic.refresh_sight(battle.play.world(), battle.play.local);
        battle.play.pace = Pace::replay();
        battle.play.watching = Some(Watching::new(replay, name, battle.world().clone()));
        Ok(battle)
    }

    /// "Take over": a skirmish from the watched replay's moment, with the person in the seat
    /// whose view is shown (`name` theirs) and computers in the others (see
    /// [`Watching::take_over`]). The new game runs the recorded commands up to this frame
    /// first, so its own replay plays the whole game from the start; it records where it came
    /// from.
    pub fn take_over(&self, roots: &ContentRoots, name: &str, screen: Vec2) -> Result<Battle, BattleError> {
        let Some(w) = &self.play.watching else { return Err(BattleError::TakeOver("this is not a replay")) };
        if self.pic.see_all {
            return Err(BattleError::TakeOver("choose a player's view to take over first"));
        }
        let (setup, prelude, origin) = w.take_over(self.world().frame().0, self.play.local, name);
        let (game, hashes) = start_local_from(roots, &setup, &CommandScript::default(), prelude, origin.frame)?;
        let mut battle = Battle::from_match(roots, game, screen)?;
        battle.pic.view.set_camera(self.pic.view.camera, &battle.scene);
        battle.play.checkpoints = hashes.into_iter().map(|(f, h)| (f, format!("{h:016x}"))).collect();
        battle.play.origin = Some(origin);
        Ok(battle)
    }

    /// Continues the saved game in `path`, as it stood when saved: its replay goes on from
    /// the commands and checkpoints the save kept, so it holds the whole game.
    pub fn resume(roots: &ContentRoots, path: &std::path::Path, screen: Vec2) -> Result<Battle, BattleError> {
        let save = crate::session::save::Save::read(path)?;
        let checkpoints = save.state.checkpoints.clone();
        let score = save.state.score.clone();
        let view = save.state.view;
        let game = save.resume(roots, path)?;
        let mut battle = Battle::from_match(roots, game, screen)?;
        battle.play.checkpoints = checkpoints;
        // Pauses and speed changes before the save are history, not news.
        battle.play.pace_told = battle.play.game.session.stream().pace_log().len();
        let players = battle.world().players().len();
        if let Some(score) = score::Score::from_saved(score, players) {
            battle.play.score = score;
        }
        // The camera where the player left it (a headless save has none: the start).
        if let Some(v) = view.filter(|v| v.target.iter().chain([&v.yaw, &v.zoom]).all(|x| x.is_finite())) {
            let (lo, hi) = super::camera::ZOOM_RANGE;
            let camera = super::camera::Camera { target: v.target.into(), yaw: v.yaw, zoom: v.zoom.clamp(lo, hi) };
            battle.pic.view.set_camera(camera, &battle.scene);
        }
        Ok(battle)
    }

    /// Saves the battle into the folder `dir` as [`Play::save_into`] does, keeping where the
    /// camera looks so that loading opens there.
    pub fn save_into(
        &self,
        roots: &ContentRoots,
        dir: &std::path::Path,
        saved_at: u64,
    ) -> Result<std::path::PathBuf, String> {
        let c = &self.pic.view.camera;
        let view = crate::session::save::SavedView { target: c.target.into(), yaw: c.yaw, zoom: c.zoom };
        self.play.save_into_viewed(roots, dir, saved_at, Some(view))
    }

    /// The camera over the local player's start.
    fn look_from_start(&mut self) {
        let start = self.world().players().get(self.play.local.index()).map_or(0, |p| p.start as usize);
        self.pic.view.set_camera(self.scene.start_camera(start), &self.scene);
    }

    /// True once the result has been on screen under its banner for
    /// [`RESULT_HOLD_SECONDS`], or the player skipped the rest with a click or a key: time for
    /// the score screen.
    pub fn result_done(&self) -> bool {
        self.play.finished() && (self.play.ended_for > RESULT_HOLD_SECONDS || self.play.result_skipped)
    }

    /// The banner over the battle once the game is over ("Victory", "Defeat", a watched
    /// replay's "Blue won"); none while it goes on.
    pub fn result_banner(&self) -> Option<String> {
        self.look().result_banner()
    }

    /// The world as of the last executed frame.
    pub fn world(&self) -> &World {
        self.play.world()
    }

    /// The local player.
    pub fn local(&self) -> PlayerId {
        self.play.local
    }

    /// The match this battle runs: the world, the players, the pace, a replay, the online link.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The match, to act on as a whole (surrender, chat, going online, pace dialogs).
    pub fn play_mut(&mut self) -> &mut Play {
        &mut self.play
    }

    /// The picture: camera, selection, pending modes, markers, sounds heard, fog of war.
    pub fn picture(&self) -> &Picture {
        &self.pic
    }

    /// The battle as the local player looks at it (read-only).
    pub fn look(&self) -> Look<'_> {
        Look {
            play: &self.play,
            pic: &self.pic,
            scene: &self.scene,
            labels: &self.hud.labels,
            keys: &self.hud.keys,
            army: &self.hud.army,
        }
    }

    /// The player's controls: input and the control bar's buttons become orders.
    pub fn controls(&mut self) -> Controls<'_> {
        Controls { play: &mut self.play, pic: &mut self.pic, hud: &mut self.hud, scene: &self.scene }
    }

    /// Lets `dt` seconds pass: the camera moves, and logic frames run as they fall due.
    pub fn advance(&mut self, dt: f32) -> Result<(), BattleError> {
        if dt > MAX_DRAWN_GAP && !self.play.pace.stopped() {
            // The time past the bound is lost to the game: it runs slower than the clock.
            self.play.behind_at = Some(self.play.elapsed);
        }
        let dt = dt.clamp(0.0, MAX_DRAWN_GAP);
        self.play.elapsed += dt;
        if self.play.game.session.watcher_behind() {
            // An observer that fell behind catches up as fast as this machine can (the bound
            // below still keeps the picture drawn), then goes on at the clock.
            self.play.since_tick = self.play.since_tick.max(MAX_CATCH_UP_SECONDS * FRAMES_PER_SECOND as f32 * FRAME);
        }
        self.pic.view.scroll(dt, &self.scene);
        self.play.since_tick += self.play.pace.scale(dt);
        if self.play.finished() {
            self.play.ended_for += dt;
        }
        // Every frame real time requires runs, up to a bound that faster speeds raise alike.
        let catch_up = (MAX_CATCH_UP_SECONDS * self.play.pace.speed().max(1.0) * FRAMES_PER_SECOND as f32) as u32;
        let mut ran = 0;
        let mut tried = false;
        // Out of sync: no frame runs while the report's exchange finishes.
        let desynced = self.play.online.as_ref().is_some_and(OnlineLink::desynced);
        while self.play.since_tick >= FRAME && ran < catch_up && !self.play.finished() && !desynced {
            let before = poses(self.world());
            // None: a peer's data is late or the game is paused (see `Play::step`).
            tried = true;
            let Some((frame, report)) = self.play.step()? else { break };
            self.pic.previous = before;
            let world = self.play.world();
            let before = &self.pic.previous;
            self.pic.travel.step(|id| before.get(&id).map(|p| (p.pos, p.yaw)), world);
            let defs = &self.play.game.content.defs;
            self.hud.control_bar.note_refusals(
                &report.events,
                self.play.local,
                (defs, &self.hud.labels),
                self.play.elapsed,
            );
            self.hud.power = world.power(self.play.local);
            let (low, now) = (self.hud.power.low(), self.play.elapsed);
            if self.pic.see_all {
                let name = |p| self.play.player_name(p);
                self.hud.alerts.note_everyone(&report.events, world, (defs, &self.hud.labels), &name, now);
            } else {
                self.hud.alerts.note(&report.events, self.play.local, world, (defs, &self.hud.labels), low, now);
            }
            self.pic.refresh_sight(self.play.world(), self.play.local);
            self.display_events(&report.events);
            if let Some(w) = &self.play.watching {
                for mark in w.marks_at(frame) {
                    self.hud.tell_pace(&self.play, mark);
                }
            }
            ran += 1;
        }
        if !tried {
            // Each logic frame tried exchanged messages once; a drawn frame that tried none
            // (paused, out of sync, between frames) exchanges them here, once.
            self.play.listen()?;
        }
        self.hud.follow_pace(&mut self.play);
        for (label, name) in self.play.update_online() {
            let line = self.hud.labels.say(label, &[("name", &name)]);
            self.hud.tell_players(line, self.play.clock(), self.play.elapsed);
        }
        if ran == catch_up && self.play.since_tick >= FRAME {
            // This machine cannot keep up: the rest is dropped, and the player told.
            self.play.since_tick = self.play.since_tick.min(FRAME);
            self.play.behind_at = Some(self.play.elapsed);
        }
        // Particles live in game time: a pause freezes them, a faster game speeds them.
        let game_dt = self.play.pace.scale(dt);
        let shells = self.look().shells_in_sight();
        self.pic.pass_time(dt, game_dt, &self.scene, self.play.world(), self.play.local, &shells);
        Ok(())
    }

    /// Moves a watched replay to `frame` (at most its end; see [`Play::seek`]). The picture
    /// jumps: what was drawn from the frames played before (alert lines, wrecks, rubble,
    /// smoke, shots, markers, remembered structures) is dropped, never shown at a moment it
    /// does not belong to; what happens from there on is drawn as it comes. The alert log
    /// holds every alert up to the new moment, those of the frames run over included.
    pub fn seek(&mut self, frame: u32) -> Result<(), BattleError> {
        let names = (0..self.world().players().len()).map(|p| self.play.player_name(PlayerId(p as u8))).collect();
        let mut rerun = alerts_seen::Rerun::new(self.play.local, self.pic.see_all, names, self.hud.labels.clone());
        let Some(from) = self.play.seek(frame, |world, events, defs| rerun.note(world, events, defs))? else {
            return Ok(());
        };
        self.hud.alerts = std::mem::take(&mut self.hud.alerts).rejoined(from, rerun.alerts);
        self.pic.forget_the_moment();
        self.pic.previous = poses(self.play.world());
        self.hud.power = self.play.world().power(self.play.local);
        self.pic.refresh_sight(self.play.world(), self.play.local);
        Ok(())
    }

    /// A watcher's next view (a replay's, or an observer's): each player's in turn (their
    /// shroud, their alerts), then everything; then the first player's again. Nothing happens
    /// where someone plays from this machine.
    pub fn cycle_view(&mut self) {
        if !self.play.watches() {
            return;
        }
        let players = self.world().players().len() as u8;
        if self.pic.see_all {
            self.pic.see_all = false;
            self.play.local = PlayerId(0);
        } else if self.play.local.0 + 1 < players {
            self.play.local = PlayerId(self.play.local.0 + 1);
        } else {
            self.pic.see_all = true;
        }
        self.hud.alerts = Alerts::default();
        self.pic.memory = Default::default();
        self.pic.refresh_sight(self.play.world(), self.play.local);
        if !self.pic.see_all {
            self.look_at_home();
        }
    }

    /// The camera over the shown player's home (where they started), zoomed as it was: a
    /// watcher choosing whose view to see is shown that player's base, not shroud.
    fn look_at_home(&mut self) {
        let Some(player) = self.world().players().get(self.play.local.index()) else { return };
        let mut camera = self.scene.start_camera(usize::from(player.start));
        camera.zoom = self.pic.view.camera.zoom;
        camera.yaw = self.pic.view.camera.yaw;
        self.pic.view.set_camera(camera, &self.scene);
    }

    /// A watcher sees `player`'s view (their shroud, their alerts), or everything for `None`.
    /// Nothing happens where someone plays from this machine, or for a player not in the game.
    pub fn set_view(&mut self, player: Option<PlayerId>) {
        let players = self.world().players().len();
        if !self.play.watches() || player.is_some_and(|p| p.index() >= players) {
            return;
        }
        self.pic.see_all = player.is_none();
        if let Some(p) = player {
            self.play.local = p;
        }
        self.hud.alerts = Alerts::default();
        self.pic.memory = Default::default();
        self.pic.refresh_sight(self.play.world(), self.play.local);
    }

    /// Whose view a watcher sees, in words ("Everything" without a shroud).
    pub fn view_label(&self) -> String {
        if self.pic.see_all { "Everything".to_string() } else { self.play.player_name(self.play.local) }
    }

    /// True when a watcher sees everything, no one player's view (the top bar then shows no
    /// one player's money and power).
    pub fn sees_everything(&self) -> bool {
        self.pic.see_all
    }

    /// True when a watched replay shows one player's view, whose seat Take over would give.
    pub fn can_take_over(&self) -> bool {
        self.play.is_replay() && !self.pic.see_all
    }

    /// The local player's alerts.
    pub fn alerts(&self) -> &Alerts {
        &self.hud.alerts
    }

    /// The alert lines to show now, oldest first (at most three).
    pub fn alert_lines(&self) -> Vec<String> {
        self.hud.alerts.lines(self.play.elapsed, 3)
    }

    /// The local player's power balance.
    pub fn power(&self) -> crate::sim::power::PowerBalance {
        self.hud.power
    }

    /// Seconds the battle has been on screen (display time: the water's motion).
    pub fn display_seconds(&self) -> f32 {
        self.play.elapsed
    }

    /// Seconds since the game ended (0 while it goes on).
    pub fn ended_for(&self) -> f32 {
        self.play.ended_for
    }

    /// How far the picture is between the last two logic frames (0..1).
    pub fn alpha(&self) -> f32 {
        (self.play.since_tick / FRAME).clamp(0.0, 1.0)
    }

    /// The camera, to move by hand (tools, tests).
    pub fn camera_mut(&mut self) -> &mut super::camera::Camera {
        &mut self.pic.view.camera
    }

    /// What to draw, interpolated between the last two frames.
    pub fn instances(&self) -> Vec<Vec<ObjectInstance>> {
        self.pic.instances(&self.scene, self.world(), self.play.local, self.alpha())
    }

    /// The screen size changed.
    pub fn resize(&mut self, screen: Vec2) {
        self.pic.view.screen = screen;
    }

    /// Shows `events` as the tick reported them — tracers, particles, recoil, rubble, wrecks,
    /// sounds — and nothing else: the world does not change. Each frame's report comes through
    /// here; tools and the renderer's tests call it too.
    pub fn display_events(&mut self, events: &[crate::sim::event::GameEvent]) {
        let (world, local) = (self.play.world(), self.play.local);
        self.pic.note(events, &self.scene, world, local);
        let ear = self.pic.view.ear(&self.scene);
        let defs = &self.play.game.content.defs;
        self.pic.sounds.hear(events, defs, world.frame().0, local, &ear, &self.pic.shroud);
    }

    /// Lets `seconds` of display time pass without the game (for tools and the renderer's tests).
    pub fn age_display(&mut self, seconds: f32) {
        self.pic.age(seconds, &self.scene);
    }

    /// The picture driven without the game, for stills made by tools (`stills.rs`).
    pub fn stills(&mut self) -> stills::Stills<'_> {
        stills::Stills { pic: &mut self.pic, scene: &self.scene, world: self.play.world(), local: self.play.local }
    }

    /// Words the battle's messages (alerts) and the names and descriptions of units, structures
    /// and upgrades (`Object:<Name>`, `Object:<Name>.Description`, …) from `labels` from now
    /// on: the window gives the string table of the player's language. Display only: the
    /// simulation keeps its unique names.
    pub fn set_labels(&mut self, labels: crate::ui::labels::SharedLabels) {
        if std::sync::Arc::ptr_eq(&self.hud.labels, &labels) {
            return;
        }
        self.play.game.content.defs.translate(|label| labels.0.get(label).cloned());
        self.hud.labels = labels;
    }

    /// Gives the player's commands the keys of `keys` from now on (the window gives the keys
    /// the player chose; a battle starts with the defaults).
    pub fn set_keys(&mut self, keys: std::sync::Arc<KeyMap>) {
        self.hud.keys = keys;
    }

    /// Makes from now on the effects `quality` keeps (`data/effects.ron`: a slow machine
    /// draws fewer particles and wreck parts).
    pub fn set_effects_quality(&mut self, quality: crate::render::quality::Quality) {
        self.pic.particles.set_quality(quality);
    }

    /// The sounds heard since the last call, oldest first.
    pub fn take_heard(&mut self) -> Vec<crate::audio::cues::Heard> {
        self.pic.sounds.take_heard()
    }

    /// The outcome for the local player and a score row per player (see `summary::summary`).
    pub fn summary(&self) -> (String, Vec<Vec<String>>) {
        summary::summary(&self.play, &self.hud.labels)
    }

    /// The control bar's second line: a refused order for a few seconds, else the selected
    /// structure's queue or construction progress.
    pub fn queue_text(&self) -> String {
        self.look().bar().line(&self.hud.control_bar, self.play.elapsed)
    }

    /// Tracers, health bars, selection marks, the drag box, chat and stalls, drawn over the
    /// world.
    pub fn overlay(&self) -> Vec<DrawCmd> {
        overlay::overlay(&self.look())
    }

    /// The game's cursor at the mouse, shaped by what a click would do (drawn last, over all).
    pub fn cursor(&self) -> Vec<DrawCmd> {
        overlay::cursor(&self.look())
    }

    /// The host drops the players the battle is waiting for (see
    /// [`OnlineLink::drop_stalled`]); everyone is told.
    pub fn drop_stalled(&mut self) {
        for (label, name) in self.play.drop_stalled() {
            let line = self.hud.labels.say(label, &[("name", &name)]);
            self.hud.tell_players(line, self.play.clock(), self.play.elapsed);
        }
    }
}

/// The game's own string table from `roots` (an empty one, said in the log, if it cannot be
/// read: the messages then show their labels).
fn own_labels(roots: &ContentRoots) -> crate::ui::labels::SharedLabels {
    let labels = crate::ui::labels::Labels::load_all(roots).unwrap_or_else(|e| {
        log::warn!("the string table: {e}; messages show their labels");
        crate::ui::labels::Labels::default()
    });
    std::sync::Arc::new(labels)
}
