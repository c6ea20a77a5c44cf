//! `ridgeline map-gen`: regenerate a map's heightmap and terrain classes from its `terrain.ron`.
//!
//! Must not: touch the map's other files.

use std::path::{Path, PathBuf};

use anyhow::Result;
use ridgeline::content::ContentRoots;
use ridgeline::map::generate::{self, TerrainSpec};
use ridgeline::map::{MapContent, MapFile};

/// `map-gen`'s arguments.
#[derive(clap::Args)]
pub struct MapGenArgs {
    /// Map folder.
    dir: PathBuf,
}

/// Runs `map-gen`.
pub fn run(roots: &ContentRoots, args: MapGenArgs) -> Result<()> {
    let dir: &Path = &args.dir;
    let spec_path = dir.join("terrain.ron");
    let text = ridgeline::content::read_text(&spec_path)?;
    let spec: TerrainSpec = ridgeline::content::parse_ron(&spec_path, &text)?;
    spec.check(&spec_path)?;
    let map_path = dir.join("map.ron");
    let water = match ridgeline::content::read_text(&map_path) {
        Ok(t) => ridgeline::content::parse_ron::<MapFile>(&map_path, &t)?.water_level,
        Err(_) => 0.0,
    };
    let content = MapContent::load(roots)?;
    let hm = generate::heightmap(&spec);
    let out = dir.join("heightmap.png");
    let classes = generate::classes(&spec, &hm, water, &content.classes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", spec_path.display()))?;
    let t_out = dir.join("terrain.png");
    // Both or neither: new heights over the old terrain would be a different map.
    generate::save_both(&hm, &out, (&t_out, spec.size, &classes))
        .map_err(|e| anyhow::anyhow!("{e} (neither {} nor {} was changed)", out.display(), t_out.display()))?;
    println!("wrote {} ({}×{} samples) and {}", out.display(), hm.width, hm.height, t_out.display());
    Ok(())
}
