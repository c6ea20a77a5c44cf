//! The battle's picture on this machine: the camera and screen, what the player has selected
//! and is about to place, the order markers, effects, floaters, particles, rubble, wrecks, the
//! parts they throw and recoil, the sounds heard, and the fog of war as the local team sees it (with the poses of
//! the frame before, for interpolation).
//!
//! Must not: change the world or hold the match (the battle's `Play` does); everything here is
//! display state.

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::sim::event::GameEvent;
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::{PlayerId, World};

use super::super::scene::{Lively, Pose, Scene};
use super::super::shroud::Shroud;
use super::super::travel::Travels;
use super::effects::Effects;
use super::floaters::Floaters;
use super::selection::Selection;
use super::view::View;
use super::{debris, markers, particles, rubble, sounds, wrecks};

/// Modes the next click completes, and the press of a drag in progress.
#[derive(Clone, Debug, Default)]
pub(super) struct Pending {
    /// The structure being placed: the next left click puts it down.
    pub placing: Option<TemplateId>,
    /// The next left click gives an attack-move order (after the attack-move key).
    pub attack_move: bool,
    /// Where the left button went down, while it is held.
    pub press: Option<Vec2>,
    /// The mixed selection whose builder's build menu the control bar shows (Build pressed);
    /// any other selection closes it.
    pub build_menu: Option<Vec<ObjectId>>,
}

/// The picture part of a battle.
pub struct Picture {
    /// Camera, screen and picking.
    pub(super) view: View,
    /// What is shown selected, and the control groups.
    pub(super) selection: Selection,
    /// A structure being placed, an armed attack-move, a drag.
    pub(super) pending: Pending,
    /// Tracers and rings from the tick's events.
    pub(super) effects: Effects,
    /// Money brought in and promotions, rising and fading where they happened.
    pub(super) floaters: Floaters,
    /// Flashes, explosions, smoke and dust.
    pub(super) particles: particles::Particles,
    /// Guns that just fired: how hard each still kicks back (1 at the shot, fading to 0).
    pub(super) recoil: BTreeMap<ObjectId, f32>,
    /// Where recent orders went, and whether target lines show.
    pub(super) markers: markers::Markers,
    /// The mouse is over an interface window (the game draws no cursor of its own).
    pub(super) cursor_over_ui: bool,
    /// What destroyed structures left behind.
    pub(super) rubble: rubble::Rubble,
    /// What the player hears (display state).
    pub(super) sounds: sounds::Sounds,
    /// Destroyed vehicles' hulks and fallen soldiers.
    pub(super) wrecks: wrecks::Wrecks,
    /// Parts thrown by what was destroyed.
    pub(super) debris: debris::Debris,
    /// What the local player's team sees.
    pub(super) shroud: Shroud,
    /// A replay watcher chose to see everything (no shroud).
    pub(super) see_all: bool,
    /// Enemy structures as last seen, drawn under the fog.
    pub(super) memory: super::memory::Memory,
    /// Every object's pose before the last frame, for interpolation.
    pub(super) previous: BTreeMap<ObjectId, Pose>,
    /// How each object has been moving (legs, wheels, a helicopter's lean).
    pub(super) travel: Travels,
    /// Shells in flight the player sees (drawn as glowing slugs).
    pub(super) shells: Vec<Vec3>,
}

impl Picture {
    /// Objects shown as selected.
    pub fn selection(&self) -> &[ObjectId] {
        &self.selection.ids
    }

    /// True while Shift is held (a click then adds to or drops from the selection).
    pub fn shift_held(&self) -> bool {
        self.selection.shift
    }

    /// The structure being placed, if any.
    pub fn placing(&self) -> Option<TemplateId> {
        self.pending.placing
    }

    /// True while the next left click gives an attack-move order.
    pub fn attack_move_armed(&self) -> bool {
        self.pending.attack_move
    }

    /// The screen's size in pixels, as the camera sees it.
    pub fn screen(&self) -> glam::Vec2 {
        self.view.screen
    }

    /// The camera.
    pub fn camera(&self) -> &super::super::camera::Camera {
        &self.view.camera
    }

    /// The markers of recent orders: where, and what kind.
    pub fn order_markers(&self) -> Vec<(glam::Vec2, markers::Intent)> {
        self.markers.list()
    }

    /// The view-projection matrix for the current screen.
    pub fn view_proj(&self) -> glam::Mat4 {
        self.view.view_proj()
    }

    /// The particles, tracers and shells in flight to draw this frame, as world sprites.
    pub fn sprites(&self) -> Vec<crate::render::world::SpriteInstance> {
        use crate::render::world::SpriteInstance;
        let mut out = self.particles.sprites();
        let fx = self.particles.settings();
        self.effects.sprites(&fx.tracer, &mut out);
        let [r, g, b] = fx.tracer.colour.map(|c| particles::linear(c) * fx.tracer.glow);
        for at in &self.shells {
            out.push(SpriteInstance::new(at.to_array(), fx.tracer.width * 2.5, [r, g, b, -1.0], SpriteInstance::PUFF));
        }
        out
    }

    /// The parts thrown by what was destroyed, as model instances added to `out` (grouped by
    /// mesh, as the world pass draws them).
    pub fn debris_instances(&self, out: &mut [Vec<crate::render::ObjectInstance>]) {
        self.debris.instances(out);
    }

    /// How much fighting the player hears, 0–1 (for the music).
    pub fn intensity(&self) -> f32 {
        self.sounds.intensity()
    }

    /// What the local player's team sees.
    pub fn shroud(&self) -> &Shroud {
        &self.shroud
    }

    /// A picture of `scene` from its first start on a `screen` of that size, with the team's
    /// `shroud` and the objects' poses now.
    pub(super) fn new(scene: &Scene, screen: Vec2, shroud: Shroud, previous: BTreeMap<ObjectId, Pose>) -> Picture {
        Picture {
            view: View::new(scene.start_camera(0), screen),
            selection: Selection::default(),
            pending: Pending::default(),
            effects: Effects::default(),
            floaters: Floaters::default(),
            particles: particles::Particles::new(scene.effects.clone()),
            recoil: BTreeMap::new(),
            markers: markers::Markers::default(),
            cursor_over_ui: false,
            rubble: rubble::Rubble::default(),
            sounds: sounds::Sounds::default(),
            wrecks: wrecks::Wrecks::default(),
            debris: debris::Debris::default(),
            shroud,
            see_all: false,
            memory: super::memory::Memory::default(),
            previous,
            travel: Travels::default(),
            shells: Vec::new(),
        }
    }

    /// Shows `events` as the tick reported them — tracers, floaters, particles, recoil, rubble,
    /// wrecks — as `local` may see them.
    pub(super) fn note(&mut self, events: &[GameEvent], scene: &Scene, world: &World, local: PlayerId) {
        self.effects.note(events, scene, world, local, &self.shroud);
        self.floaters.note(events, scene, local);
        self.particles.note(events, scene, world, local, &self.shroud);
        for e in events {
            if let GameEvent::WeaponFired { shooter, .. } = e {
                self.recoil.insert(*shooter, 1.0);
            }
        }
        let cell = scene.map.file.cell_size as f32;
        let look = |template: crate::sim::TemplateId, owner: PlayerId| {
            let (scale, color, team) = scene.model_look(world.rules(), template, owner)?;
            let parts = scene.library.parts.get(template.0 as usize).cloned().unwrap_or_else(|| [].into());
            Some(rubble::Look { parts, scale, color, team })
        };
        self.rubble.note(events, world, cell, &self.shroud, look, |p| scene.height(p));
        self.wrecks.note(events, world, &self.previous, &self.shroud);
        self.debris.note(events, scene, world, &self.previous, &self.shroud, &mut self.particles);
    }

    /// The fog of war as `local`'s team sees `world` now (everything, when a replay's watcher
    /// chose to), and the enemy structures remembered under it.
    pub(super) fn refresh_sight(&mut self, world: &World, local: PlayerId) {
        self.shroud.update(world, local);
        if self.see_all {
            self.shroud.reveal_all();
        }
        self.memory.update(world, local, &self.shroud);
    }

    /// What to draw of `world` as `local` sees it, interpolated `alpha` of the way from the
    /// poses before the last frame: the objects (recoil kicking), the structures remembered
    /// under the fog, rubble and wrecks.
    pub(super) fn instances(
        &self,
        scene: &Scene,
        world: &World,
        local: PlayerId,
        alpha: f32,
    ) -> Vec<Vec<crate::render::ObjectInstance>> {
        let shroud = Some((local, &self.shroud));
        let live = Lively { recoil: &self.recoil, travel: &self.travel };
        let mut out = scene.instances_lively(world, Some(&self.previous), alpha, shroud, live);
        self.memory.instances(scene, world, local, &self.shroud, &mut out);
        self.rubble.instances(&mut out);
        self.wrecks.instances(scene, world, &mut out);
        self.debris.instances(&mut out);
        out
    }

    /// Shows a shot from a gun's mouth at `from` to `to`, `flown` seconds after it left (its
    /// muzzle flash while that lasts): for stills of a fight made without the game (the
    /// gallery).
    pub(super) fn show_shot(&mut self, from: Vec3, to: Vec3, flown: f32) {
        self.effects.shots.push(super::effects::Shot { from, to, age: flown });
        if flown < self.particles.settings().muzzle.seconds {
            self.particles.muzzle_flash(from, false);
        }
    }

    /// Lets `seconds` of smoke, fire and sparks rise from `hurt` structures alone (each: where
    /// it stands, what it is, its health as a share of its most), as a still's warm-up: the
    /// gallery's damage sheets show what a player sees over a damaged base after a while.
    pub(super) fn warm_damage(
        &mut self,
        scene: &Scene,
        rules: &crate::sim::Rules,
        hurt: &[(Vec2, TemplateId, f32)],
        seconds: f32,
    ) {
        let cell = scene.map.file.cell_size as f32;
        let smokers: Vec<particles::Smoker> = hurt
            .iter()
            .filter_map(|&(at, template, health)| {
                let t = rules.template(template);
                let burn = rules.factions.get(t.faction as usize).map_or(25, |f| f.upkeep.burn_below) as f32;
                let harm = if health * 100.0 < burn {
                    particles::Harm::Burning
                } else if health < 0.5 {
                    particles::Harm::Damaged
                } else {
                    return None;
                };
                let (half, top) = (t.footprint.0.max(1) as f32 * cell * 0.3, scene.model_height(template) * 0.85);
                Some(particles::Smoker { at: at.extend(scene.height(at)), half, top, harm })
            })
            .collect();
        self.particles.warm(&smokers, seconds);
    }

    /// Lets `seconds` of display time pass without running the game; the wrecks smoke as
    /// they would (in twentieths of a second, while any smokes), on `scene`'s ground.
    pub(super) fn age(&mut self, seconds: f32, scene: &Scene) {
        self.effects.age(seconds, &self.particles.settings().tracer);
        self.floaters.age(seconds);
        let mut left = seconds;
        while left > 0.0 && self.wrecks.smoking().next().is_some() {
            let dt = left.min(0.05);
            let smoke = self.wrecks.smoking().map(|(p, k)| (p.extend(scene.height(p)), k));
            let smoke: Vec<_> = smoke.collect();
            self.particles.smoke_from(dt, smoke.into_iter());
            self.particles.age(dt);
            self.wrecks.age(dt);
            self.debris.age(dt, &self.particles);
            left -= dt;
        }
        self.particles.age(left.max(0.0));
        self.wrecks.age(left.max(0.0));
        self.debris.age(left.max(0.0), &self.particles);
    }

    /// Shows `template` of `owner` destroyed at `at` facing `yaw` as the local player saw it
    /// (its wreck, the parts it throws, its explosion): for stills made without the game (the
    /// gallery).
    pub(super) fn show_destroyed(
        &mut self,
        scene: &Scene,
        world: &World,
        local: PlayerId,
        killed: (TemplateId, PlayerId),
        at: Vec2,
        yaw: f32,
    ) {
        let (template, owner) = killed;
        let object = ObjectId::from_bits(3_000_000 + self.previous.len() as u64);
        self.previous.insert(object, Pose { pos: at, yaw, owner });
        let event = GameEvent::Killed { object, template, owner, at: super::super::display::to_point(at).to_vec2() };
        self.note(&[event], scene, world, local);
        self.previous.remove(&object);
    }

    /// The wrecks as model instances added to `out` (grouped by mesh): for stills drawn
    /// without the game's objects (the gallery).
    pub(super) fn wreck_instances(&self, scene: &Scene, world: &World, out: &mut [Vec<crate::render::ObjectInstance>]) {
        self.wrecks.instances(scene, world, out);
    }

    /// Drops what was drawn from the frames played so far (a watched replay jumped): effects,
    /// floaters, particles, recoil, markers, rubble, wrecks and remembered structures.
    pub(super) fn forget_the_moment(&mut self) {
        self.effects = Default::default();
        self.floaters = Default::default();
        self.particles = self.particles.cleared();
        self.recoil.clear();
        self.markers = Default::default();
        self.rubble = Default::default();
        self.wrecks = Default::default();
        self.debris = Default::default();
        self.memory = Default::default();
        self.shells.clear();
    }

    /// A drawn frame passes: `dt` seconds of display time and `game_dt` of game time (particles,
    /// wrecks and recoil live in game time: a pause freezes them, a faster game speeds them);
    /// `shells` in flight leave trails; the selection forgets the dead.
    pub(super) fn pass_time(
        &mut self,
        dt: f32,
        game_dt: f32,
        scene: &Scene,
        world: &World,
        local: PlayerId,
        shells: &[Vec3],
    ) {
        self.effects.age(game_dt, &self.particles.settings().tracer);
        self.floaters.age(dt);
        self.markers.age(game_dt);
        self.shells = shells.to_vec();
        self.particles.emit(game_dt, scene, world, local, &self.shroud);
        self.particles.trails(game_dt, shells);
        self.particles.smoke_from(game_dt, self.wrecks.smoking().map(|(p, k)| (p.extend(scene.height(p)), k)));
        self.particles.age(game_dt);
        self.wrecks.age(game_dt);
        self.debris.age(game_dt, &self.particles);
        // A kick lasts a fifth of a second.
        self.recoil.retain(|_, k| {
            *k -= game_dt * 5.0;
            *k > 0.0
        });
        self.selection.retain_live(world);
    }
}
