//! A battle on this machine, in three owned parts coordinated here: `play.rs` (the match:
//! session, pace, replay watching, the online link, stepping frames), `picture.rs` (what is
//! drawn: camera, selection, markers, effects, particles, wrecks, fog of war) and
//! `hud_state.rs` (what the HUD shows: control bar, alerts, score, power). Logic frames run at
//! 30 a second (times the game speed, none while paused: `pace.rs`) as real time falls due
//! (never more than a few per drawn frame, and never while the stream waits for a peer: game
//! time then stands still, and the next frame runs as soon as the data is in); each frame's
//! events go to the picture and the HUD, and the picture is interpolated in between. Beside
//! this file still implementing the battle as a whole (to become parts' own types):
//! `input.rs` (mouse, keys and control-bar clicks → commands, through the simulation's
//! `order_for`), `overlay.rs` (what is drawn over the world, the cursor), `online.rs` (the
//! other machines) and `replay.rs` (watching and recording). Parts with their own types:
//! `control_bar.rs` (the buttons and line over what it reads), `markers.rs` (order markers,
//! target lines, the cursor's shapes), `view.rs` (with the ear sounds are heard from),
//! `selection.rs`, `alerts.rs`, `effects.rs`, `floaters.rs`, `particles.rs`, `rubble.rs`,
//! `wrecks.rs`, `sounds.rs` (what the player hears), `score.rs` (the score and its summary),
//! `status.rs` (an object's health, rank and work in words), `error.rs`. The HUD's radar and
//! selection panel (`hud/`) draw from what the battle shows and order through it.
//!
//! Must not: change the world; every order goes through the stream as a command.

mod alerts;
mod control_bar;
mod effects;
mod error;
mod floaters;
mod hud_state;
mod input;
mod markers;
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
mod view;
mod wrecks;

use glam::{Mat4, Vec2};

use crate::content::ContentRoots;
use crate::render::ObjectInstance;
use crate::session::{CommandScript, MatchSetup, start_local};
use crate::sim::command::Command;
use crate::sim::ids::ObjectId;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};

use super::scene::{Scene, poses, shown_to};
use super::shroud::Shroud;

pub use alerts::{Alert, AlertKind, Alerts};
pub use control_bar::{Action, CommandButton};
pub use error::BattleError;
pub use markers::Intent;
pub use pace::Pace;

use hud_state::HudState;
use picture::Picture;
use play::Play;
use view::View;

/// Seconds of one logic frame.
const FRAME: f32 = 1.0 / FRAMES_PER_SECOND as f32;
/// Most logic frames run for one drawn frame (after a stall the game slows, never spirals).
const MAX_CATCH_UP: u32 = 4;

/// A running battle: three owned parts — the match ([`Play`]), the picture ([`Picture`]: what
/// is drawn and how the player points at it) and the HUD's state ([`HudState`]) — and the scene.
pub struct Battle {
    /// The match: session, pacing, replay watching, the online link, the clocks.
    play: Play,
    /// What is drawn.
    pub scene: Scene,
    /// The camera, selection, markers, effects and fog of war as the player sees them.
    pic: Picture,
    /// The control bar, alerts, score and power the HUD shows.
    hud: HudState,
}

impl Battle {
    /// Starts the match `setup` on this machine: computer slots are skirmish AIs, the human's
    /// orders go through the same stream as everyone's.
    pub fn start(roots: &ContentRoots, setup: &MatchSetup, screen: Vec2) -> Result<Battle, BattleError> {
        let game = start_local(roots, setup, &CommandScript::default())?;
        Battle::from_match(roots, game, screen)
    }

    /// A battle over a started match, seen by its human player (or its first player when it has
    /// none: tools and replays watch).
    pub fn from_match(
        roots: &ContentRoots,
        game: crate::session::start::LocalMatch,
        screen: Vec2,
    ) -> Result<Battle, BattleError> {
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
        let start = world.players().get(local.index()).map_or(0, |p| p.start as usize);
        let mut view = View::new(scene.start_camera(start), screen);
        view.settle(&scene);
        Ok(Battle {
            pic: Picture::new(view, shroud, poses(world)),
            hud: HudState::new(world.players().len(), power),
            scene,
            play: Play::new(game, local),
        })
    }

    /// True once the game is over, or a watched replay has reached its recorded end.
    fn finished(&self) -> bool {
        self.play.finished()
    }

    /// The match as it was set up (hashes filled in).
    pub fn setup(&self) -> &MatchSetup {
        &self.play.game.setup
    }

    /// The world as of the last executed frame.
    pub fn world(&self) -> &World {
        self.play.world()
    }

    /// The local player.
    pub fn local(&self) -> PlayerId {
        self.play.local
    }

    /// What the local player's team sees.
    pub fn shroud(&self) -> &Shroud {
        &self.pic.shroud
    }

    /// True if the local player may see `id` now.
    pub fn sees(&self, id: ObjectId) -> bool {
        let world = self.world();
        world.object(id).is_some_and(|o| shown_to(world, o, self.play.local, &self.pic.shroud))
    }

    /// Lets `dt` seconds pass: the camera moves, and logic frames run as they fall due.
    pub fn advance(&mut self, dt: f32) -> Result<(), BattleError> {
        let dt = dt.clamp(0.0, 0.25);
        self.play.elapsed += dt;
        self.pic.view.scroll(dt, &self.scene);
        self.play.since_tick += self.play.pace.scale(dt);
        if self.finished() {
            self.play.ended_for += dt;
        }
        // Faster speeds run more frames a drawn frame, in the same bounded steps.
        let catch_up = MAX_CATCH_UP * self.play.pace.speed().ceil().max(1.0) as u32;
        if self.play.pace.stopped() {
            // No frame falls due while paused, but messages must still flow: the resume
            // (anyone's) arrives this way.
            self.play.listen()?;
        }
        let mut ran = 0;
        // Out of sync: no frame runs while the report's exchange finishes.
        let desynced = self.play.online.as_ref().is_some_and(|o| o.desynced());
        while self.play.since_tick >= FRAME && ran < catch_up && !self.finished() && !desynced {
            let before = poses(self.world());
            // None: a peer's data is late or the game is paused (see `Play::step`).
            let Some((frame, report)) = self.play.step()? else { break };
            self.pic.previous = before;
            let world = self.play.world();
            let defs = &self.play.game.content.defs;
            self.hud.control_bar.note_refusals(&report.events, self.play.local, defs, self.play.elapsed);
            self.hud.power = world.power(self.play.local);
            self.hud.alerts.note(&report.events, self.play.local, world, defs, self.hud.power.low(), self.play.elapsed);
            self.hud.score.count(&report.events);
            self.pic.shroud.update(world, self.play.local);
            if self.pic.see_all {
                self.pic.shroud.reveal_all();
            }
            self.display_events(&report.events);
            self.tell_replay_pace(frame);
            ran += 1;
        }
        self.tell_stream_pace();
        self.check_online();
        if ran == catch_up {
            self.play.since_tick = self.play.since_tick.min(FRAME);
        }
        // Particles live in game time: a pause freezes them, a faster game speeds them.
        let game_dt = self.play.pace.scale(dt);
        let shells = self.shells_in_sight();
        self.pic.pass_time(dt, game_dt, &self.scene, self.play.world(), self.play.local, &shells);
        Ok(())
    }

    /// Pause and game speed.
    pub fn pace(&self) -> &Pace {
        &self.play.pace
    }

    /// Pause and game speed, to change (keys, dialogs).
    pub fn pace_mut(&mut self) -> &mut Pace {
        &mut self.play.pace
    }

    /// The local player's alerts.
    pub fn alerts(&self) -> &Alerts {
        &self.hud.alerts
    }

    /// The alert lines to show now, oldest first (at most three).
    pub fn alert_lines(&self) -> Vec<String> {
        self.hud.alerts.lines(self.play.elapsed, 3)
    }

    /// Moves the camera to the newest alert's place (Space); false if no alert has one.
    pub fn jump_to_alert(&mut self) -> bool {
        let Some(p) = self.hud.alerts.last_place() else { return false };
        self.look_at(p);
        true
    }

    /// Seconds of play so far.
    pub fn clock(&self) -> u32 {
        self.world().frame().0 / FRAMES_PER_SECOND
    }

    /// The local player's power balance.
    pub fn power(&self) -> crate::sim::power::PowerBalance {
        self.hud.power
    }

    /// The local player's money.
    pub fn money(&self) -> i64 {
        self.world().players().get(self.play.local.index()).map_or(0, |p| p.money)
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

    /// The camera.
    pub fn camera(&self) -> &super::camera::Camera {
        &self.pic.view.camera
    }

    /// The camera, to move by hand (tools, tests).
    pub fn camera_mut(&mut self) -> &mut super::camera::Camera {
        &mut self.pic.view.camera
    }

    /// Replaces the camera (tools place it by hand).
    pub fn set_camera(&mut self, camera: super::camera::Camera) {
        self.pic.view.set_camera(camera, &self.scene);
    }

    /// Where an object stands on the screen (pixels), if in front of the camera.
    pub fn screen_pos(&self, id: ObjectId) -> Option<Vec2> {
        self.pic.view.screen_pos(self.world(), id, &self.scene)
    }

    /// The view-projection matrix for the current screen.
    pub fn view_proj(&self) -> Mat4 {
        self.pic.view.view_proj()
    }

    /// What to draw, interpolated between the last two frames.
    pub fn instances(&self) -> Vec<Vec<ObjectInstance>> {
        let mut out = self.scene.instances_kicked(
            self.world(),
            Some(&self.pic.previous),
            self.alpha(),
            Some((self.play.local, &self.pic.shroud)),
            &self.pic.recoil,
        );
        self.pic.rubble.instances(&self.scene, &mut out);
        self.pic.wrecks.instances(&self.scene, self.world(), &mut out);
        out
    }

    /// The particles to draw this frame, as world sprites.
    pub fn sprites(&self) -> Vec<crate::render::world::SpriteInstance> {
        self.pic.particles.sprites()
    }

    /// The screen size changed.
    pub fn resize(&mut self, screen: Vec2) {
        self.pic.view.screen = screen;
    }

    /// Shows `events` as the tick reported them — tracers, particles, recoil, rubble, wrecks —
    /// and nothing else: the world does not change. Each frame's report comes through here;
    /// tools and the renderer's tests call it too.
    pub fn display_events(&mut self, events: &[crate::sim::event::GameEvent]) {
        self.pic.note(events, &self.scene, self.play.world(), self.play.local);
        self.hear_events(events);
    }

    /// Lets `seconds` of display time pass without running the game: effects and particles
    /// age, the camera settles. For tools and the renderer's tests.
    pub fn age_display(&mut self, seconds: f32) {
        self.pic.age(seconds);
    }

    /// Where the player listens from (see `View::ear`).
    pub fn ear(&self) -> crate::audio::Ear {
        self.pic.view.ear(&self.scene)
    }

    /// Turns a frame's events into sounds for the player.
    fn hear_events(&mut self, events: &[crate::sim::event::GameEvent]) {
        let (ear, frame) = (self.ear(), self.world().frame().0);
        let defs = &self.play.game.content.defs;
        self.pic.sounds.hear(events, defs, frame, self.play.local, &ear, &self.pic.shroud);
    }

    /// A unit's radio chirp for the player's own selection or order.
    fn acknowledge(&mut self, command: &Command) {
        let selected = self.pic.selection.ids.first().copied();
        let defs = &self.play.game.content.defs;
        self.pic.sounds.acknowledge(command, selected, self.play.world(), defs, self.play.elapsed);
    }

    /// The sounds heard since the last call, oldest first.
    pub fn take_heard(&mut self) -> Vec<crate::audio::cues::Heard> {
        self.pic.sounds.take_heard()
    }

    /// How much fighting the player hears, 0–1 (for the music).
    pub fn intensity(&self) -> f32 {
        self.pic.sounds.intensity()
    }

    /// The outcome for the local player and a score row per player (see `Score::summary`).
    pub fn summary(&self) -> (String, Vec<Vec<String>>) {
        self.hud.score.summary(&self.play)
    }

    /// A player's name as the match knows it ("Player 2" when it has none).
    pub fn player_name(&self, player: PlayerId) -> String {
        self.play.player_name(player)
    }

    /// P or Pause (see [`Play::toggle_pause`]); the player is told when nothing could be done.
    pub fn toggle_pause(&mut self) -> Result<(), BattleError> {
        if let Some(line) = self.play.toggle_pause()? {
            self.hud.alerts.notice(AlertKind::Pace, line, self.clock(), self.play.elapsed);
        }
        self.tell_stream_pace();
        Ok(())
    }

    /// + : the next faster speed (a replay's own; a skirmish's through the stream).
    pub fn faster(&mut self) -> Result<(), BattleError> {
        self.play.faster()?;
        self.tell_stream_pace();
        Ok(())
    }

    /// − : the next slower speed.
    pub fn slower(&mut self) -> Result<(), BattleError> {
        self.play.slower()?;
        self.tell_stream_pace();
        Ok(())
    }

    /// Mirrors the stream's pause and speed and tells the player of the changes.
    fn tell_stream_pace(&mut self) {
        if self.play.is_replay() {
            return;
        }
        for mark in self.play.follow_stream_pace() {
            self.tell_pace(mark);
        }
    }

    /// Tells the player of a change of pace.
    pub(super) fn tell_pace(&mut self, mark: crate::lockstep::PaceMark) {
        let (text, clock) = self.play.pace_line(mark);
        self.hud.alerts.notice(AlertKind::Pace, text, clock, self.play.elapsed);
    }

    /// What the top bar says of the pace: "Paused by Ann" online, "Paused", "2×", or nothing.
    pub fn pace_label(&self) -> String {
        self.play.pace_label()
    }

    /// The control bar's buttons for the current selection (none while watching a replay).
    pub fn commands(&self) -> Vec<CommandButton> {
        if self.is_replay() { Vec::new() } else { self.bar_seen().buttons() }
    }

    /// The control bar's second line: a refused order for a few seconds, else the selected
    /// structure's queue or construction progress.
    pub fn queue_text(&self) -> String {
        self.bar_seen().line(&self.hud.control_bar, self.play.elapsed)
    }

    /// What the control bar reads.
    fn bar_seen(&self) -> control_bar::Seen<'_> {
        control_bar::Seen {
            world: self.world(),
            defs: &self.play.game.content.defs,
            local: self.play.local,
            selection: &self.pic.selection.ids,
        }
    }

    /// The match's definitions (names, upgrades).
    pub fn defs(&self) -> &crate::defs::Definitions {
        &self.play.game.content.defs
    }

    /// Submits one of the local player's orders to the stream, now.
    fn send(&mut self, command: Command) {
        let Some(seat) = self.play.game.human else { return };
        self.acknowledge(&command);
        if let Err(e) = self.play.game.session.submit_local(seat.player, command) {
            log::warn!("an order was not sent: {e}");
        }
    }
}
