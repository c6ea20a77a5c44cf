//! Stills: a battle's picture driven without the game, for pictures tools make (the gallery,
//! the renderer's tests): a shot in flight, damaged structures' smoke warmed up, things
//! destroyed a moment ago, and their wrecks drawn beside made-up objects.
//!
//! Must not: run the game or change the world (it only feeds the picture display state).

use glam::{Vec2, Vec3};

use crate::render::ObjectInstance;
use crate::sim::ids::TemplateId;
use crate::sim::{PlayerId, World};

use super::super::scene::Scene;
use super::picture::Picture;

/// The picture of a battle with what it draws from, borrowed for a still.
pub struct Stills<'a> {
    pub(super) pic: &'a mut Picture,
    pub(super) scene: &'a Scene,
    pub(super) world: &'a World,
    pub(super) local: PlayerId,
}

impl Stills<'_> {
    /// Shows a shot from `from` to `to`, `flown` seconds out (`Picture::show_shot`).
    pub fn show_shot(&mut self, from: Vec3, to: Vec3, flown: f32) {
        self.pic.show_shot(from, to, flown);
    }

    /// `seconds` of smoke and fire from `hurt` structures alone (`Picture::warm_damage`).
    pub fn warm_damage(&mut self, hurt: &[(Vec2, TemplateId, f32)], seconds: f32) {
        self.pic.warm_damage(self.scene, self.world.rules(), hurt, seconds);
    }

    /// Shows `template` of `owner` destroyed at `at` facing `yaw`: its wreck, the parts it
    /// throws, its explosion (`Picture::show_destroyed`).
    pub fn show_destroyed(&mut self, template: TemplateId, owner: PlayerId, at: Vec2, yaw: f32) {
        self.pic.show_destroyed(self.scene, self.world, self.local, (template, owner), at, yaw);
    }

    /// The wrecks as model instances added to `out` (grouped by mesh).
    pub fn wreck_instances(&self, out: &mut [Vec<ObjectInstance>]) {
        self.pic.wreck_instances(self.scene, self.world, out);
    }
}
