//! How an object looks: the renderer's description, loaded with the object but kept out of the
//! simulation's tables.

use serde::Deserialize;

/// The procedural model family the renderer builds the mesh from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Shape {
    /// A soldier.
    Soldier,
    /// A wheeled vehicle.
    Wheeled,
    /// A tracked vehicle with a turret.
    Tank,
    /// A building.
    Building,
    /// A tree, rock or other scenery.
    Prop,
    /// A helicopter (drawn in the air above its position).
    Helicopter,
}

/// Renderer-only description of an object.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelDef {
    /// Model family.
    pub shape: Shape,
    /// Base colour as displayed (sRGB, 0–1); the owner's colour tints it.
    #[serde(default = "grey")]
    pub color: (f32, f32, f32),
    /// Height in world units.
    pub height: f32,
    /// A kit of parts from `data/models.ron` drawn instead of the shape's built-in mesh (the
    /// shape still says how it stands: structures stretch to their footprint).
    #[serde(default)]
    pub kit: Option<String>,
}

fn grey() -> (f32, f32, f32) {
    (0.5, 0.5, 0.5)
}
