//! Terrain classes (`data/terrain.ron`): grass, dirt, rock, sand, pavement, rubble…, each with
//! a colour and a fine pattern (`detail`) for the renderer and whether ground units may cross
//! it.

use std::path::Path;

use serde::Deserialize;

use crate::defs::{DefsErrors, Source};

/// One terrain class.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainClass {
    /// Unique name.
    pub name: String,
    /// Base colour as displayed (sRGB, 0–1), as in the map preview.
    pub color: (f32, f32, f32),
    /// Whether ground units may enter.
    pub passable: bool,
    /// The fine pattern the renderer lays over the colour (display only).
    #[serde(default)]
    pub detail: Detail,
}

/// The ground's fine pattern, blended where classes meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Detail {
    /// Fine speckle of blades.
    #[default]
    Grass,
    /// Clumps of earth or sand.
    Soil,
    /// Cracked stone.
    Rock,
    /// Paving slabs with joints.
    Paved,
}

impl Detail {
    /// Its slot among the four weights a terrain vertex carries.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// All classes, indexed by the values in maps' terrain images.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TerrainClasses {
    /// By index.
    pub classes: Vec<TerrainClass>,
}

impl TerrainClasses {
    /// Reads and validates `terrain.ron`.
    pub fn load(path: &Path) -> Result<TerrainClasses, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        let classes: Vec<TerrainClass> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        for (i, c) in classes.iter().enumerate() {
            if classes[..i].iter().any(|o| o.name == c.name) {
                errors.push(src.invalid("terrain class", &c.name, "name", "defined twice"));
            }
            let (r, g, b) = c.color;
            if ![r, g, b].iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) {
                let m = format!("({r}, {g}, {b}): each channel is a number from 0 to 1");
                errors.push(src.invalid("terrain class", &c.name, "color", m));
            }
        }
        if classes.is_empty() || classes.len() > 256 {
            errors.push(src.invalid("terrain class", "", "classes", "there must be 1 to 256 classes"));
        }
        if errors.is_empty() { Ok(TerrainClasses { classes }) } else { Err(DefsErrors(errors)) }
    }

    /// The index of a class by name.
    pub fn index(&self, name: &str) -> Option<u8> {
        self.classes.iter().position(|c| c.name == name).map(|i| i as u8)
    }
}
