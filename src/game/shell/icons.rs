//! Object icons for the HUD: one per template the player may meet, drawn from its model when
//! the shell starts and kept among the dynamic images under [`icon_name`].
//!
//! Must not: draw anything itself (the renderer's `icons.rs` rasterises; the battle places).

use std::collections::BTreeMap;

use image::RgbaImage;

use crate::defs::Definitions;

/// Pixels a side of an object icon.
const ICON_PX: u32 = 64;

/// The name of `template`'s icon among the dynamic images.
pub fn icon_name(template: &str) -> String {
    format!("@icon/{template}")
}

/// An icon for every object the player may meet (scenery has none), drawn from its model.
pub(super) fn icons(defs: &Definitions) -> BTreeMap<String, RgbaImage> {
    let lib = crate::render::world::models::ModelLibrary::build();
    defs.rules
        .templates
        .iter()
        .zip(&defs.models)
        .filter(|(t, _)| t.kind != crate::sim::rules::ObjectKind::Prop)
        .map(|(t, m)| {
            let proportions = if t.kind.blocks_ground() {
                [t.footprint.0.max(1) as f32, t.footprint.1.max(1) as f32, m.height / 10.0]
            } else {
                [1.0; 3]
            };
            let color = [m.color.0, m.color.1, m.color.2];
            (icon_name(&t.name), crate::render::icons::icon(&lib, m.shape, color, proportions, ICON_PX))
        })
        .collect()
}
