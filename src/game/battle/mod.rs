//! A battle on this machine: the match's lifetime and pacing. Logic frames run at 30 a second
//! (times the game speed, none while paused: `pace.rs`) as real time falls due (never more
//! than a few per drawn frame, and never while the stream waits for a peer: game time then
//! stands still, and the next frame runs as soon as the data is in); the picture is
//! interpolated in between. The other jobs live beside this file: `input.rs` (mouse and keys
//! → commands), `selection.rs` (what is shown selected, control groups), `view.rs` (camera,
//! screen, picking), `control_bar.rs`, `alerts.rs` (losses, attacks and finished work told to
//! the player), `panel.rs` (the selection panel and production queue), `radar.rs`,
//! `overlay.rs`, `effects.rs` (tracers and rings from the tick's events), `floaters.rs`
//! (money brought in and promotions, rising from where they happened), `score.rs`,
//! `online.rs` (the other machines) and `replay.rs` (watching and recording).
//!
//! Must not: change the world; every order goes through the stream as a command.

mod alerts;
mod control_bar;
mod effects;
mod floaters;
mod input;
mod markers;
mod online;
mod overlay;
mod pace;
mod panel;
mod particles;
mod play;
mod radar;
mod replay;
mod rubble;
mod score;
mod selection;
mod sounds;
mod view;
mod wrecks;

use std::collections::BTreeMap;

use glam::{Mat4, Vec2};
use thiserror::Error;

use crate::content::ContentRoots;
use crate::lockstep::Transport;
use crate::render::ObjectInstance;
use crate::session::{CommandScript, Match, MatchSetup, start_local};
use crate::sim::command::Command;
use crate::sim::ids::ObjectId;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};

use super::scene::{Pose, Scene, poses, shown_to};
use super::shroud::Shroud;

pub use alerts::{Alert, AlertKind, Alerts};
pub use control_bar::{Action, CommandButton};
pub use markers::Intent;
pub use pace::Pace;

use control_bar::ControlBar;
use effects::Effects;
use floaters::Floaters;
use input::Pending;
use play::Play;
use score::Score;
use selection::Selection;
use view::View;

/// Seconds of one logic frame.
const FRAME: f32 = 1.0 / FRAMES_PER_SECOND as f32;
/// Most logic frames run for one drawn frame (after a stall the game slows, never spirals).
const MAX_CATCH_UP: u32 = 4;

/// Why a battle could not start or go on.
#[derive(Debug, Error)]
pub enum BattleError {
    /// The match could not start (content, map or setup).
    #[error(transparent)]
    Start(#[from] crate::session::StartError),
    /// Content for the picture (the scene) is broken.
    #[error(transparent)]
    Scene(#[from] super::scene::SceneError),
    /// The session stopped.
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
    /// A replay could not be taken over, and why.
    #[error("cannot take over: {0}")]
    TakeOver(&'static str),
}

/// A running battle.
pub struct Battle {
    /// The match: session, pacing, replay watching, the online link, the clocks.
    play: Play,
    /// What is drawn.
    pub scene: Scene,
    view: View,
    selection: Selection,
    pending: Pending,
    control_bar: ControlBar,
    /// What the local player is told about (losses, attacks, finished work).
    alerts: Alerts,
    effects: Effects,
    /// Money brought in and promotions, rising and fading where they happened.
    floaters: Floaters,
    /// Flashes, explosions, smoke and dust.
    particles: particles::Particles,
    /// Guns that just fired: how hard each still kicks back (1 at the shot, fading to 0).
    recoil: BTreeMap<ObjectId, f32>,
    /// Where recent orders went, and whether target lines show.
    markers: markers::Markers,
    /// The mouse is over an interface window (the game draws no cursor of its own).
    cursor_over_ui: bool,
    /// What destroyed structures left behind.
    rubble: rubble::Rubble,
    /// What the player hears (display state).
    sounds: sounds::Sounds,
    /// Destroyed vehicles' hulks and fallen soldiers.
    wrecks: wrecks::Wrecks,
    score: Score,
    /// What the local player's team sees.
    shroud: Shroud,
    /// A replay watcher chose to see everything (no shroud).
    see_all: bool,
    /// Every object's pose before the last frame, for interpolation.
    previous: BTreeMap<ObjectId, Pose>,
    /// The local player's power after the last frame (the top bar, the radar and the control
    /// bar's warning read it).
    power: crate::sim::power::PowerBalance,
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
        game: Match<Box<dyn Transport>>,
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
            previous: poses(world),
            score: Score::new(world.players().len()),
            scene,
            view,
            selection: Selection::default(),
            pending: Pending::default(),
            control_bar: ControlBar::default(),
            alerts: Alerts::default(),
            effects: Effects::default(),
            floaters: Floaters::default(),
            particles: particles::Particles::default(),
            recoil: BTreeMap::new(),
            markers: markers::Markers::default(),
            cursor_over_ui: false,
            rubble: rubble::Rubble::default(),
            sounds: sounds::Sounds::default(),
            wrecks: wrecks::Wrecks::default(),
            shroud,
            see_all: false,
            power,
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
        &self.shroud
    }

    /// True if the local player may see `id` now.
    fn sees(&self, id: ObjectId) -> bool {
        let world = self.world();
        world.object(id).is_some_and(|o| shown_to(world, o, self.play.local, &self.shroud))
    }

    /// Lets `dt` seconds pass: the camera moves, and logic frames run as they fall due.
    pub fn advance(&mut self, dt: f32) -> Result<(), BattleError> {
        let dt = dt.clamp(0.0, 0.25);
        self.play.elapsed += dt;
        self.view.scroll(dt, &self.scene);
        self.play.since_tick += self.play.pace.scale(dt);
        if self.finished() {
            self.play.ended_for += dt;
        }
        // Faster speeds run more frames a drawn frame, in the same bounded steps.
        let catch_up = MAX_CATCH_UP * self.play.pace.speed().ceil().max(1.0) as u32;
        let mut ran = 0;
        while self.play.since_tick >= FRAME && ran < catch_up && !self.finished() {
            let before = poses(self.world());
            // None: a peer's data is late or the game is paused (see `Play::step`).
            let Some((frame, report)) = self.play.step()? else { break };
            self.previous = before;
            let world = self.play.world();
            let defs = &self.play.game.content.defs;
            self.control_bar.note_refusals(&report.events, self.play.local, defs, self.play.elapsed);
            self.power = world.power(self.play.local);
            self.alerts.note(&report.events, self.play.local, world, defs, self.power.low(), self.play.elapsed);
            self.score.count(&report.events);
            self.shroud.update(world, self.play.local);
            if self.see_all {
                self.shroud.reveal_all();
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
        self.effects.age(dt);
        self.floaters.age(dt);
        self.markers.age(dt);
        // Particles live in game time: a pause freezes them, a faster game speeds them.
        let game_dt = self.play.pace.scale(dt);
        let world = self.play.game.session.world();
        self.particles.emit(game_dt, &self.scene, world, self.play.local, &self.shroud);
        let shells = self.shells_in_sight();
        self.particles.trails(game_dt, &shells);
        let scene = &self.scene;
        self.particles.smoke_from(game_dt, self.wrecks.smoking().map(|p| p.extend(scene.height(p))));
        self.particles.age(game_dt);
        self.wrecks.age(game_dt);
        // A kick lasts a fifth of a second.
        self.recoil.retain(|_, k| {
            *k -= game_dt * 5.0;
            *k > 0.0
        });
        let world = self.play.game.session.world();
        self.selection.retain_live(world);
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
        &self.alerts
    }

    /// The alert lines to show now, oldest first (at most three).
    pub fn alert_lines(&self) -> Vec<String> {
        self.alerts.lines(self.play.elapsed, 3)
    }

    /// Moves the camera to the newest alert's place (Space); false if no alert has one.
    pub fn jump_to_alert(&mut self) -> bool {
        let Some(p) = self.alerts.last_place() else { return false };
        self.view.look_at(p, &self.scene);
        true
    }

    /// Seconds of play so far.
    pub fn clock(&self) -> u32 {
        self.world().frame().0 / FRAMES_PER_SECOND
    }

    /// The local player's power balance.
    pub fn power(&self) -> crate::sim::power::PowerBalance {
        self.power
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
        &self.view.camera
    }

    /// The camera, to move by hand (tools, tests).
    pub fn camera_mut(&mut self) -> &mut super::camera::Camera {
        &mut self.view.camera
    }

    /// Replaces the camera (tools place it by hand).
    pub fn set_camera(&mut self, camera: super::camera::Camera) {
        self.view.set_camera(camera, &self.scene);
    }

    /// Where an object stands on the screen (pixels), if in front of the camera.
    pub fn screen_pos(&self, id: ObjectId) -> Option<Vec2> {
        self.view.screen_pos(self.world(), id, &self.scene)
    }

    /// The view-projection matrix for the current screen.
    pub fn view_proj(&self) -> Mat4 {
        self.view.view_proj()
    }

    /// What to draw, interpolated between the last two frames.
    pub fn instances(&self) -> Vec<Vec<ObjectInstance>> {
        let mut out = self.scene.instances_kicked(
            self.world(),
            Some(&self.previous),
            self.alpha(),
            Some((self.play.local, &self.shroud)),
            &self.recoil,
        );
        self.rubble.instances(&self.scene, &mut out);
        self.wrecks.instances(&self.scene, self.world(), &mut out);
        out
    }

    /// The particles to draw this frame, as world sprites.
    pub fn sprites(&self) -> Vec<crate::render::world::SpriteInstance> {
        self.particles.sprites()
    }

    /// The screen size changed.
    pub fn resize(&mut self, screen: Vec2) {
        self.view.screen = screen;
    }

    /// Shows `events` as the tick reported them — tracers, particles, recoil, rubble, wrecks —
    /// and nothing else: the world does not change. Each frame's report comes through here;
    /// tools and the renderer's tests call it too.
    pub fn display_events(&mut self, events: &[crate::sim::event::GameEvent]) {
        let world = self.play.game.session.world();
        self.effects.note(events, &self.scene, world, self.play.local, &self.shroud);
        self.floaters.note(events, &self.scene, self.play.local);
        self.particles.note(events, &self.scene, world, self.play.local, &self.shroud);
        for e in events {
            if let crate::sim::event::GameEvent::WeaponFired { shooter, .. } = e {
                self.recoil.insert(*shooter, 1.0);
            }
        }
        let cell = self.scene.map.file.cell_size as f32;
        self.rubble.note(events, world, cell, &self.shroud);
        self.wrecks.note(events, world, &self.previous, &self.shroud);
        self.hear_events(events);
    }

    /// Lets `seconds` of display time pass without running the game: effects and particles
    /// age, the camera settles. For tools and the renderer's tests.
    pub fn age_display(&mut self, seconds: f32) {
        self.effects.age(seconds);
        self.floaters.age(seconds);
        self.particles.age(seconds);
        self.wrecks.age(seconds);
    }

    /// A player's name as the match knows it ("Player 2" when it has none).
    pub fn player_name(&self, player: PlayerId) -> String {
        self.play.player_name(player)
    }

    /// P or Pause (see [`Play::toggle_pause`]); the player is told when nothing could be done.
    pub fn toggle_pause(&mut self) -> Result<(), BattleError> {
        if let Some(line) = self.play.toggle_pause()? {
            self.alerts.notice(AlertKind::Pace, line, self.clock(), self.play.elapsed);
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
        self.alerts.notice(AlertKind::Pace, text, clock, self.play.elapsed);
    }

    /// What the top bar says of the pace: "Paused by Ann" online, "Paused", "2×", or nothing.
    pub fn pace_label(&self) -> String {
        self.play.pace_label()
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
