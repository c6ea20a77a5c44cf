//! `ridgeline bench render`: the cost of one drawn frame of a battle, offscreen at 1280×720,
//! with 100, 500 and 1,000 objects in view — units and structures of both factions, turrets
//! aimed, a few under construction — with explosions, smoke and debris in the air, at each
//! graphics quality asked for (High: sun shadows, every particle, the full resolution; Low:
//! none, a third, half each way). Each frame is the game window's own (`game/frame.rs`, the HUD filled and drawn with
//! its radar and selection panel). Per count: the CPU's part (the objects' instances, the HUD,
//! the overlay and particles), the whole frame (that plus the world and UI passes through the adapter wgpu finds; on machines
//! without a GPU that is a software renderer, so it measures the CPU doing a GPU's work), and
//! the draw calls (one per mesh in use and per sprite batch: flat as objects grow).
//!
//! Must not: be used as a test (timings are never asserted).

use std::time::Instant;

use glam::Vec2;
use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::game::camera::Camera;
use crate::game::display::to_point;
use crate::game::frame::{self, Sight};
use crate::game::hud;
use crate::game::scene::Shown;
use crate::game::screenshot::{ScreenshotError, WorldShot, battle_for};
use crate::render::offscreen::{FORMAT, Offscreen};
use crate::render::{Gpu, Quality, UiPass, WorldPass};
use crate::sim::PlayerId;
use crate::sim::event::GameEvent;
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::rules::ObjectKind;

/// Frames measured per count.
const FRAMES: usize = 31;
/// Image size.
const SIZE: (u32, u32) = (1280, 720);
/// Objects in view, per measurement.
const COUNTS: [usize; 3] = [100, 500, 1_000];

/// Runs the benchmark on Proving Grounds' open middle at each of `levels`.
pub fn run(roots: &ContentRoots, levels: &[Quality]) -> Result<Value, ScreenshotError> {
    let shot =
        WorldShot { players: Some("idle,idle".into()), frames: 1, size: SIZE, ..WorldShot::new("proving_grounds") };
    let (mut battle, mut shell) = battle_for(roots, &shot)?;
    let centre = battle.scene.size() / 2.0;
    let camera = Camera { zoom: 0.55, ..Camera::looking_at(centre.extend(battle.scene.height(centre))) };
    battle.controls().set_camera(camera);
    let centre = battle.picture().camera().target.truncate();
    let gpu = Gpu::headless()?;
    let info = gpu.adapter.get_info();
    let target = Offscreen::new(&gpu, SIZE);
    let mut world_pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &battle.scene.statics());
    let atlas = crate::game::screenshot::load_atlas(&shell)?;
    let mut ui_pass =
        UiPass::new(&gpu.device, &gpu.queue, FORMAT, &atlas, shell.content.images.clone(), shell.content.fonts.clone());
    for (name, img) in &shell.content.dynamic_images {
        ui_pass.set_image(&gpu.device, &gpu.queue, name, img);
    }
    shell.open(crate::game::shell::Screen::InGame);
    let rules = battle.world().rules().clone();
    // Every unit and structure a player may have, in template order.
    let kinds: Vec<(TemplateId, bool)> = (0..rules.templates.len())
        .map(|i| TemplateId(i as u16))
        .filter(|&t| rules.template(t).kind != ObjectKind::Prop)
        .map(|t| (t, rules.template(t).kind.blocks_ground()))
        .collect();
    let mut results = Vec::new();
    for (&quality, &count) in levels.iter().flat_map(|q| COUNTS.iter().map(move |c| (q, c))) {
        world_pass.set_quality(quality);
        battle.set_effects_quality(quality);
        // A grid of objects around the middle of the view; one in ten a structure.
        let side = (count as f32).sqrt().ceil() as usize;
        let spacing = 16.0;
        let shown: Vec<Shown> = (0..count)
            .map(|i| {
                let (gx, gy) = ((i % side) as f32, (i / side) as f32);
                let at = centre + (Vec2::new(gx, gy) - side as f32 / 2.0) * spacing;
                let structure = i % 10 == 0;
                let pick = kinds.iter().filter(|k| k.1 == structure).nth(i / 10 % 8).or(kinds.first());
                let template = pick.map_or(TemplateId(0), |k| k.0);
                Shown {
                    built: (i % 37 == 0).then_some(0.5),
                    aim: (i % 3 == 0).then_some(i as f32 * 1.3),
                    health: 1.0 - (i % 4) as f32 * 0.25,
                    travelled: i as f32 * 3.0,
                    stride: (i % 2) as f32,
                    ..Shown::standing(template, at, i as f32 * 0.7, PlayerId((i % 2) as u8))
                }
            })
            .collect();
        // Explosions among them, as a big fight would leave: one for every twenty-five objects.
        let blasts: Vec<GameEvent> = shown
            .iter()
            .step_by(25)
            .enumerate()
            .map(|(k, s)| GameEvent::Killed {
                object: ObjectId::from_bits(1_000_000 + k as u64),
                template: s.template,
                owner: s.owner,
                at: to_point(s.pos).to_vec2(),
            })
            .collect();
        battle.display_events(&blasts);
        battle.age_display(0.1);
        let (mut cpu, mut frame, mut calls) = (Vec::new(), Vec::new(), 0);
        for _ in 0..FRAMES {
            let t0 = Instant::now();
            let mut instances = vec![Vec::new(); battle.scene.library.len()];
            for s in &shown {
                battle.scene.push_shown(&mut instances, &rules, s);
            }
            // The game window's frame: the HUD filled, then the one client frame's UI and world.
            hud::sync(&mut shell, &battle);
            let cmds = frame::ui_commands(&shell, Some(&battle), true);
            let t1 = Instant::now();
            frame::draw_world(&gpu, &mut world_pass, &target.view, SIZE, &battle, Sight::Player, 0.0, &instances);
            ui_pass.render(&gpu.device, &gpu.queue, &target.view, SIZE, &cmds, None);
            gpu.device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| ScreenshotError::Content(e.to_string()))?;
            let t2 = Instant::now();
            cpu.push((t1 - t0).as_secs_f64() * 1e3);
            frame.push((t2 - t0).as_secs_f64() * 1e3);
            calls = world_pass.draw_calls() + ui_pass.draw_calls();
        }
        let round = |x: f64| (x * 100.0).round() / 100.0;
        results.push(json!({
            "quality": quality.name(),
            "objects": count,
            "frame_ms": round(super::median(frame)),
            "cpu_ms": round(super::median(cpu)),
            "draw_calls": calls,
        }));
        // The next count starts from a clear sky.
        battle.age_display(60.0);
    }
    Ok(json!({
        "bench": "render",
        "adapter": format!("{} ({:?})", info.name, info.device_type),
        "size": [SIZE.0, SIZE.1],
        "frames": FRAMES,
        "results": results,
    }))
}
