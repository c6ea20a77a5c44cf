//! The battle's picture on this machine: the camera and screen, what the player has selected
//! and is about to place, the order markers, effects, floaters, particles, rubble, wrecks and
//! recoil, the sounds heard, and the fog of war as the local team sees it (with the poses of
//! the frame before, for interpolation).
//!
//! Must not: change the world or hold the match (the battle's `Play` does); everything here is
//! display state.

use std::collections::BTreeMap;

use glam::Vec3;

use crate::sim::event::GameEvent;
use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, World};

use super::super::scene::{Pose, Scene};
use super::super::shroud::Shroud;
use super::effects::Effects;
use super::floaters::Floaters;
use super::input::Pending;
use super::selection::Selection;
use super::view::View;
use super::{markers, particles, rubble, sounds, wrecks};

/// The picture part of a battle.
pub(super) struct Picture {
    /// Camera, screen and picking.
    pub view: View,
    /// What is shown selected, and the control groups.
    pub selection: Selection,
    /// A structure being placed, an armed attack-move, a drag.
    pub pending: Pending,
    /// Tracers and rings from the tick's events.
    pub effects: Effects,
    /// Money brought in and promotions, rising and fading where they happened.
    pub floaters: Floaters,
    /// Flashes, explosions, smoke and dust.
    pub particles: particles::Particles,
    /// Guns that just fired: how hard each still kicks back (1 at the shot, fading to 0).
    pub recoil: BTreeMap<ObjectId, f32>,
    /// Where recent orders went, and whether target lines show.
    pub markers: markers::Markers,
    /// The mouse is over an interface window (the game draws no cursor of its own).
    pub cursor_over_ui: bool,
    /// What destroyed structures left behind.
    pub rubble: rubble::Rubble,
    /// What the player hears (display state).
    pub sounds: sounds::Sounds,
    /// Destroyed vehicles' hulks and fallen soldiers.
    pub wrecks: wrecks::Wrecks,
    /// What the local player's team sees.
    pub shroud: Shroud,
    /// A replay watcher chose to see everything (no shroud).
    pub see_all: bool,
    /// Every object's pose before the last frame, for interpolation.
    pub previous: BTreeMap<ObjectId, Pose>,
}

impl Picture {
    /// A picture through `view`, with the team's `shroud` and the objects' poses now.
    pub fn new(view: View, shroud: Shroud, previous: BTreeMap<ObjectId, Pose>) -> Picture {
        Picture {
            view,
            selection: Selection::default(),
            pending: Pending::default(),
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
            previous,
        }
    }

    /// Shows `events` as the tick reported them — tracers, floaters, particles, recoil, rubble,
    /// wrecks — as `local` may see them.
    pub fn note(&mut self, events: &[GameEvent], scene: &Scene, world: &World, local: PlayerId) {
        self.effects.note(events, scene, world, local, &self.shroud);
        self.floaters.note(events, scene, local);
        self.particles.note(events, scene, world, local, &self.shroud);
        for e in events {
            if let GameEvent::WeaponFired { shooter, .. } = e {
                self.recoil.insert(*shooter, 1.0);
            }
        }
        let cell = scene.map.file.cell_size as f32;
        self.rubble.note(events, world, cell, &self.shroud);
        self.wrecks.note(events, world, &self.previous, &self.shroud);
    }

    /// Lets `seconds` of display time pass without running the game.
    pub fn age(&mut self, seconds: f32) {
        self.effects.age(seconds);
        self.floaters.age(seconds);
        self.particles.age(seconds);
        self.wrecks.age(seconds);
    }

    /// A drawn frame passes: `dt` seconds of display time and `game_dt` of game time (particles,
    /// wrecks and recoil live in game time: a pause freezes them, a faster game speeds them);
    /// `shells` in flight leave trails; the selection forgets the dead.
    pub fn pass_time(&mut self, dt: f32, game_dt: f32, scene: &Scene, world: &World, local: PlayerId, shells: &[Vec3]) {
        self.effects.age(dt);
        self.floaters.age(dt);
        self.markers.age(dt);
        self.particles.emit(game_dt, scene, world, local, &self.shroud);
        self.particles.trails(game_dt, shells);
        self.particles.smoke_from(game_dt, self.wrecks.smoking().map(|p| p.extend(scene.height(p))));
        self.particles.age(game_dt);
        self.wrecks.age(game_dt);
        // A kick lasts a fifth of a second.
        self.recoil.retain(|_, k| {
            *k -= game_dt * 5.0;
            *k > 0.0
        });
        self.selection.retain_live(world);
    }
}
