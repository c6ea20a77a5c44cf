//! Object icons for the HUD: one per template the player may meet, drawn from its model when
//! the shell starts and kept among the dynamic images under [`ImageKey::Icon`].
//!
//! Must not: draw anything itself (the renderer's `icons.rs` rasterises; the battle places).

use std::collections::BTreeMap;

use image::RgbaImage;

use crate::content::ContentRoots;
use crate::defs::Definitions;
use crate::game::images::ImageKey;
use crate::game::scene::{SceneError, model_library};

/// Pixels a side of an object icon.
const ICON_PX: u32 = 64;

/// The colour an icon's team parts wear (a neutral steel blue: icons are made once, for
/// every player).
const ICON_TEAM: [f32; 3] = [0.35, 0.5, 0.75];

/// An icon for every object the player may meet (scenery has none), drawn from its model.
pub(super) fn icons(roots: &ContentRoots, defs: &Definitions) -> Result<BTreeMap<String, RgbaImage>, SceneError> {
    let lib = model_library(roots, defs)?;
    Ok(defs
        .rules
        .templates
        .iter()
        .zip(&defs.models)
        .enumerate()
        .filter(|(_, (t, _))| t.kind != crate::sim::rules::ObjectKind::Prop)
        .map(|(i, (t, m))| {
            let proportions = if t.kind.blocks_ground() {
                [t.footprint.0.max(1) as f32, t.footprint.1.max(1) as f32, m.height / 10.0]
            } else {
                [1.0; 3]
            };
            let color = [m.color.0, m.color.1, m.color.2];
            let meshes = lib.of(i);
            (
                ImageKey::icon(&t.name).name(),
                crate::render::icons::icon(&lib, meshes, color, ICON_TEAM, proportions, ICON_PX),
            )
        })
        .collect())
}
