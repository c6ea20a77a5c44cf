//! `ridgeline bench render`: the cost of one drawn frame of a battle, offscreen at 1280×720,
//! seen whole (no shroud) from above the map's centre: building the object instances and the
//! overlay (CPU), and the world and UI passes through
//! the adapter wgpu finds (on machines without a GPU that is a software renderer, so the GPU
//! figure measures the CPU doing a GPU's work).
//!
//! Must not: be used as a test (timings are never asserted).

use std::time::Instant;

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::game::screenshot::{ScreenshotError, WorldShot, battle_for};
use crate::render::offscreen::{FORMAT, Offscreen};
use crate::render::{Gpu, UiPass, WorldPass};

/// Frames measured.
const FRAMES: usize = 31;
/// Image size.
const SIZE: (u32, u32) = (1280, 720);

/// Runs the benchmark: a four-player AI game on Four Corners, one minute in.
pub fn run(roots: &ContentRoots) -> Result<Value, ScreenshotError> {
    let shot = WorldShot {
        map: "four_corners".into(),
        players: Some("ai:hard,ai:hard,ai:hard,ai:hard".into()),
        frames: 3600,
        seed: 1,
        camera: Some((128.0, 128.0, 0.45)),
        size: SIZE,
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    let (battle, mut shell) = battle_for(roots, &shot)?;
    let gpu = Gpu::headless()?;
    let info = gpu.adapter.get_info();
    let target = Offscreen::new(&gpu, SIZE);
    let mut world_pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &battle.scene.statics());
    let atlas = crate::game::screenshot::load_atlas(&shell)?;
    let mut ui_pass = UiPass::new(&gpu.device, &gpu.queue, FORMAT, &atlas, shell.images.clone(), shell.fonts.clone());
    for (name, img) in &shell.dynamic_images {
        ui_pass.set_image(&gpu.device, &gpu.queue, name, img);
    }
    shell.open(crate::game::shell::Screen::InGame);
    let (mut cpu, mut gpu_ms) = (Vec::new(), Vec::new());
    let mut objects = 0;
    for _ in 0..FRAMES {
        let t0 = Instant::now();
        // Everything on the map, as a spectator sees it (the shroud would hide most of it).
        let instances = battle.scene.instances(battle.world(), None, 1.0, None);
        objects = instances.iter().map(Vec::len).sum();
        let mut cmds = battle.overlay();
        shell.set_hud(battle.money(), battle.clock(), &battle.pace_label());
        shell.set_power(battle.power());
        cmds.extend(crate::ui::draw::draw_list(&shell.ui, shell.fonts.as_ref(), &|w, out| shell.custom_draw(w, out)));
        let t1 = Instant::now();
        world_pass.render(&gpu.device, &gpu.queue, &target.view, SIZE, battle.view_proj(), &instances);
        ui_pass.render(&gpu.device, &gpu.queue, &target.view, SIZE, &cmds, None);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| ScreenshotError::Content(e.to_string()))?;
        let t2 = Instant::now();
        cpu.push((t1 - t0).as_secs_f64() * 1e3);
        gpu_ms.push((t2 - t1).as_secs_f64() * 1e3);
    }
    let round = |x: f64| (x * 100.0).round() / 100.0;
    Ok(json!({
        "bench": "render",
        "adapter": format!("{} ({:?})", info.name, info.device_type),
        "size": [SIZE.0, SIZE.1],
        "frames": FRAMES,
        "objects_drawn": objects,
        "cpu_ms_median": round(super::median(cpu)),
        "passes_ms_median": round(super::median(gpu_ms)),
    }))
}
