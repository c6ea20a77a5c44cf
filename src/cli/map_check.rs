//! `ridgeline map-check`: validate a map (every reference, the roads) and print its statistics,
//! optionally a top-view preview.
//!
//! Must not: change the map.

use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::content::limits::MAX_PREVIEW_SIDE;
use ridgeline::defs::Definitions;
use ridgeline::map::preview::StartMarks;
use ridgeline::map::{Map, MapContent};
use ridgeline::session::match_setup::COLOUR_SRGB;

/// `map-check`'s arguments.
#[derive(clap::Args)]
pub struct MapCheckArgs {
    /// Map name (under maps/) or folder.
    map: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Write a top-view picture of the map and its roads to this PNG.
    #[arg(long, value_name = "PNG")]
    preview: Option<PathBuf>,
    /// Pixels per cell in the preview (1–16, and at most 4,096 pixels across the picture).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
    preview_scale: u32,
}

/// Loads a map and checks its references; every problem is listed.
fn load_checked_map(roots: &ContentRoots, name: &str, defs: &Definitions, content: &MapContent) -> Result<Map> {
    let map = Map::find_and_load(roots, name)?;
    let problems = map.check(content, &defs.rules);
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        bail!("{} problem(s) in map {}:\n{}", list.len(), map.dir.display(), list.join("\n"));
    }
    Ok(map)
}

/// Runs `map-check`.
pub fn run(roots: &ContentRoots, args: MapCheckArgs) -> Result<()> {
    let defs = Definitions::load(roots)?;
    let content = MapContent::load(roots)?;
    let map = load_checked_map(roots, &args.map, &defs, &content)?;
    let (w, h) = map.file.size;
    let side = w.max(h).saturating_mul(args.preview_scale);
    if args.preview.is_some() && side > MAX_PREVIEW_SIDE {
        bail!(
            "--preview-scale {}: a {w}×{h}-cell map would be {side} pixels across; the limit is {MAX_PREVIEW_SIDE} (scale {} at most for this map)",
            args.preview_scale,
            (MAX_PREVIEW_SIDE / w.max(h).max(1)).max(1)
        );
    }
    let mesh = map.road_mesh(&content.roads)?;
    let stats = mesh.stats();
    let blocked = map.blocked_cells(&content.classes);
    let n_blocked = blocked.iter().filter(|b| **b).count();
    if let Some(path) = &args.preview {
        let preview = ridgeline::map::preview::render(
            &map,
            &content.classes,
            &mesh,
            args.preview_scale,
            StartMarks::Colours(&COLOUR_SRGB),
        );
        ridgeline::content::write_image(path, &preview)?;
    }
    for warning in &mesh.warnings {
        eprintln!("warning: {}: {warning}", map.dir.join("map.ron").display());
    }
    if args.json {
        let out = serde_json::json!({
            "name": map.file.name,
            "size": [w, h],
            "players": map.file.players,
            "start_positions": map.file.start_positions.len(),
            "supplies": map.file.supplies.len(),
            "objects": map.file.objects.len(),
            "blocked_share": (n_blocked as f64 / (w as f64 * h as f64) * 1000.0).round() / 1000.0,
            "road_segments": map.file.roads.len(),
            "road_vertices": stats.vertices,
            "road_triangles": stats.triangles,
            "road_pieces": stats.pieces,
            "road_batches": mesh.batches.len(),
            "road_warnings": mesh.warnings,
        });
        println!("{out}");
    } else {
        let pieces: Vec<String> =
            stats.pieces.iter().filter(|(_, n)| **n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        println!(
            "{}: ok — {w}×{h} cells, {} players, {:.1}% impassable, {} supply sources, {} objects, {} road segments → {} ({} vertices, {} triangles)",
            map.file.name,
            map.file.players,
            100.0 * n_blocked as f64 / (w * h) as f64,
            map.file.supplies.len(),
            map.file.objects.len(),
            map.file.roads.len(),
            pieces.join(", "),
            stats.vertices,
            stats.triangles
        );
    }
    Ok(())
}
