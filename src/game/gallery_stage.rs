//! The gallery's stages: the pieces one picture shows (an object as the picture would draw
//! it) and where its camera looks, shared by the gallery's sets (`gallery.rs`,
//! `gallery_ground.rs`).
//!
//! Must not: render, or know which sets there are.

use glam::{Vec2, Vec3};

use crate::sim::PlayerId;
use crate::sim::ids::TemplateId;

use super::scene::Shown;

/// One piece on a gallery stage: an object as the picture would show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// What it is.
    pub template: TemplateId,
    /// Where, relative to the stage's centre (world units).
    pub at: Vec2,
    /// Facing, radians counter-clockwise from east.
    pub yaw: f32,
    /// Whose (player 1 blue, player 2 red).
    pub owner: PlayerId,
    /// A structure being built: the share done.
    pub built: Option<f32>,
    /// Where its turret points, if at a target.
    pub aim: Option<f32>,
    /// Its gun's kick (1: the moment it fired).
    pub recoil: f32,
    /// Its health, 0..1 of its most.
    pub health: f32,
    /// False for a structure without power (dimmed).
    pub powered: bool,
    /// How far it has travelled (world units; wheels, tracks and legs follow it).
    pub travelled: f32,
    /// Whether it is under way (legs swing, a helicopter dips its nose).
    pub moving: bool,
    /// How fast it turns while under way (radians a second; a helicopter leans into it).
    pub turning: f32,
}

impl Piece {
    /// `template` standing at `at`, owned by `owner`, whole, at rest, facing the camera's right.
    pub fn new(template: TemplateId, at: Vec2, owner: PlayerId) -> Piece {
        Piece {
            template,
            at,
            yaw: -0.5,
            owner,
            built: None,
            aim: None,
            recoil: 0.0,
            health: 1.0,
            powered: true,
            travelled: 0.0,
            moving: false,
            turning: 0.0,
        }
    }

    /// The piece as the scene draws it, with the stage's centre at `centre`.
    pub(super) fn shown(&self, centre: Vec2) -> Shown {
        Shown {
            built: self.built,
            aim: self.aim,
            recoil: self.recoil,
            health: self.health,
            powered: self.powered,
            travelled: self.travelled,
            stride: if self.moving { 1.0 } else { 0.0 },
            turning: if self.moving { self.turning } else { 0.0 },
            ..Shown::standing(self.template, centre + self.at, self.yaw, self.owner)
        }
    }
}

/// One picture of the gallery: pieces, explosions among them, and where the camera looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The file's name (without `.png`).
    pub name: String,
    /// What stands on it.
    pub pieces: Vec<Piece>,
    /// Explosions going off (relative places, and how long ago in seconds).
    pub blasts: Vec<(Vec2, f32)>,
    /// The camera's distance from the centre (world units).
    pub distance: f32,
    /// Where the camera looks, relative to the centre (world units, and a height above ground).
    pub look: Vec3,
}
