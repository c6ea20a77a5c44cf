//! The ground's depth offscreen (software adapters are fine): above Low a sky fills what the
//! map does not cover and the scatter adds a fixed number of draw calls; Low keeps the plain
//! clear colour and draws no scatter.

use glam::Vec3;

use crate::common;

use ridgeline::game::screenshot::{WorldShot, battle_for};
use ridgeline::render::offscreen::{FORMAT, Offscreen};
use ridgeline::render::{Gpu, Quality, WorldPass};

const SIZE: (u32, u32) = (320, 200);

/// Proving Grounds seen from its south-west corner, low over the ground and looking across it
/// toward the horizon (the game's camera never looks this way; the sky is behind the map).
fn horizon_pictures() -> (Vec<(Quality, image::RgbaImage, u32)>, usize) {
    let shot =
        WorldShot { players: Some("idle,idle".into()), frames: 1, size: SIZE, ..WorldShot::new("proving_grounds") };
    let (battle, _shell) = battle_for(&common::roots(), &shot).expect("battle");
    let gpu = Gpu::headless().expect("adapter");
    let target = Offscreen::new(&gpu, SIZE);
    let scene = &battle.scene;
    let kinds = scene.scatter.groups.len();
    let mut pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &scene.statics());
    let eye = Vec3::new(-200.0, -200.0, 260.0);
    let view = glam::camera::rh::view::look_at_mat4(eye, Vec3::new(600.0, 600.0, 60.0), Vec3::Z);
    let proj = glam::camera::rh::proj::directx::perspective(0.9, SIZE.0 as f32 / SIZE.1 as f32, 5.0, 20_000.0);
    let instances = vec![Vec::new(); scene.library.len()];
    let mut out = Vec::new();
    for q in Quality::ALL {
        pass.set_quality(q);
        pass.set_view(eye, 0.0);
        pass.render(&gpu.device, &gpu.queue, &target.view, SIZE, proj * view, &instances);
        out.push((q, target.read(&gpu).expect("read back"), pass.draw_calls()));
    }
    (out, kinds)
}

#[test]
fn above_low_a_sky_fills_the_view_past_the_map_and_low_keeps_its_clear_colour() {
    let (pictures, kinds) = horizon_pictures();
    if let Some(dir) = std::env::var_os("RIDGELINE_SHOTS") {
        for (q, img, _) in &pictures {
            img.save(std::path::Path::new(&dir).join(format!("horizon-{q}.png"))).expect("save");
        }
    }
    // The clear colour (0.32, 0.42, 0.55) as the sRGB target stores it.
    let clear = [152u8, 173, 195];
    let near = |p: [u8; 4], c: [u8; 3]| (0..3).all(|i| (p[i] as i32 - c[i] as i32).abs() <= 2);
    for (q, img, _) in &pictures {
        let top = img.get_pixel(SIZE.0 / 2, 2).0;
        let lower = img.get_pixel(SIZE.0 / 2, SIZE.1 / 5).0;
        if *q == Quality::Low {
            assert!(near(top, clear), "Low shows the clear colour above the map: {top:?}");
            assert!(near(lower, clear), "{lower:?}");
        } else {
            assert!(!near(top, clear), "{q}: a sky above the map, not the clear colour: {top:?}");
            // Deeper blue toward the zenith than at the horizon.
            assert!(top[2] as i32 - top[0] as i32 > lower[2] as i32 - lower[0] as i32, "{q}: {top:?} over {lower:?}");
        }
    }
    // The scatter: one draw per kind above Low, none at Low; the sky one more above Low
    // (Medium and Low both scale their smaller picture up; High draws at full size).
    let calls = |q: Quality| pictures.iter().find(|p| p.0 == q).map_or(0, |p| p.2);
    assert!(kinds >= 3, "tufts, stones and bushes: {kinds} kinds");
    assert_eq!(calls(Quality::Medium), calls(Quality::Low) + kinds as u32 + 1);
    assert_eq!(calls(Quality::High) + 1, calls(Quality::Medium));
}
