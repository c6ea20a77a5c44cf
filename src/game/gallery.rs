//! `ridgeline gallery`: a fixed set of close-ups rendered to PNGs for review side by side —
//! every unit and structure of each faction (a sheet per faction and kind, and one close-up
//! per object), each damage stage, construction in stages, units in motion and firing,
//! aircraft in flight leaning into turns, a base and a battle, wrecks, and the ground set (`gallery_ground.rs`: grass, a cliff, a road junction,
//! a shore). The pieces are made up (`Shown` values placed on the open middle of
//! Proving Grounds), so the same command gives the same pictures on every build: run it on
//! two builds and compare.
//!
//! Must not: run a game (the world is only the map's ground) or change what a battle draws.

use std::path::{Path, PathBuf};

use glam::{Vec2, Vec3};

use crate::content::ContentRoots;
use crate::render::offscreen::{FORMAT, Offscreen};
use crate::render::{Gpu, WorldPass};
use crate::sim::PlayerId;
use crate::sim::event::GameEvent;
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::rules::{ObjectKind, Rules};

use super::battle::Battle;
use super::camera::Camera;
use super::display::to_point;
use super::gallery_stage::{Piece, Stage};
use super::screenshot::{ScreenshotError, WorldShot, battle_for};

/// The map the gallery stands on (its open middle).
const MAP: &str = "proving_grounds";
/// The camera's angle below the horizon (the game's).
const PITCH: f32 = 0.95;
/// The camera's vertical field of view (the game's).
const FOV_Y: f32 = 0.7;

/// Every stage of the gallery for `rules`, in a fixed order; `heights` gives each template's
/// model height (world units), for framing close-ups.
pub fn stages(rules: &Rules, heights: &[f32]) -> Vec<Stage> {
    let mut out = Vec::new();
    let playable: Vec<u16> = (0..rules.factions.len() as u16).filter(|&f| is_playable(rules, f)).collect();
    for (n, &faction) in playable.iter().enumerate() {
        let owner = PlayerId((n % 2) as u8);
        let fname = rules.factions.get(faction as usize).map_or("faction".to_string(), |f| f.name.to_lowercase());
        let of_kind = |structures: bool| -> Vec<TemplateId> {
            (0..rules.templates.len())
                .map(|i| TemplateId(i as u16))
                .filter(|&t| {
                    let tt = rules.template(t);
                    tt.faction == faction && tt.kind != ObjectKind::Prop && tt.kind.blocks_ground() == structures
                })
                .collect()
        };
        let structures = of_kind(true);
        let units = of_kind(false);
        out.push(sheet(&format!("{fname}-structures"), rules, &structures, owner, 4, 60.0));
        out.push(sheet(&format!("{fname}-units"), rules, &units, owner, 5, 34.0));
        for &t in structures.iter().chain(&units) {
            out.push(close_up(rules, t, owner, heights.get(t.0 as usize).copied().unwrap_or(10.0)));
        }
        out.push(damage(&format!("{fname}-damage"), rules, &structures, &units, owner));
        out.push(construction(&format!("{fname}-construction"), rules, &structures, owner));
        out.push(motion(&format!("{fname}-motion"), rules, &units, owner));
        let aircraft: Vec<TemplateId> = units.iter().copied().filter(|&t| rules.template(t).kind.is_air()).collect();
        if !aircraft.is_empty() {
            out.push(air(&format!("{fname}-air"), &aircraft, owner));
        }
    }
    out.push(base(rules, &playable));
    let fight = battle(rules, &playable);
    // The same fight up close, looking over the front line.
    out.push(Stage { name: "battle-close".into(), distance: 95.0, look: Vec3::new(-10.0, 0.0, 2.0), ..fight.clone() });
    out.push(fight);
    for (k, &ago) in EXPLOSION_MOMENTS.iter().enumerate() {
        out.push(explosion(rules, &playable, k, ago));
    }
    out.push(wrecks(rules, &playable));
    out
}

/// Seconds after they were destroyed that the wrecks' still shows them: the parts thrown
/// have landed, the hulks smoke.
const WRECK_AGO: f32 = 2.5;

/// Wrecks: each playable faction's vehicles and aircraft destroyed a moment ago (pieces at no
/// health are shown destroyed), a row each, beside one of each still whole.
fn wrecks(rules: &Rules, playable: &[u16]) -> Stage {
    let mut pieces = Vec::new();
    for (n, &faction) in playable.iter().take(2).enumerate() {
        let owner = PlayerId(n as u8);
        let machines = (0..rules.templates.len()).map(|i| TemplateId(i as u16)).filter(|&t| {
            let tt = rules.template(t);
            tt.faction == faction && matches!(tt.kind, ObjectKind::Vehicle | ObjectKind::Aircraft)
        });
        for (k, t) in machines.take(5).enumerate() {
            let at = Vec2::new(-48.0 + k as f32 * 26.0, 24.0 - n as f32 * 40.0);
            let mut dead = Piece::new(t, at, owner);
            dead.yaw = 0.3 + k as f32 * 0.9;
            dead.health = 0.0;
            pieces.push(dead);
        }
        let whole = pieces.last().map(|p: &Piece| p.template);
        if let Some(t) = whole {
            pieces.push(Piece::new(t, Vec2::new(84.0, 24.0 - n as f32 * 40.0), owner));
        }
    }
    Stage { name: "wrecks".into(), pieces, blasts: Vec::new(), distance: 130.0, look: Vec3::new(10.0, -8.0, 2.0) }
}

/// Seconds of smoke, fire and sparks a still of damaged structures warms up with.
const WARM_SECONDS: f32 = 3.0;

/// The explosion sequence's moments: seconds after the blast.
const EXPLOSION_MOMENTS: [f32; 5] = [0.03, 0.15, 0.4, 1.0, 2.5];

/// Moment `k` of an explosion among a few vehicles, `ago` seconds after it: the light flash
/// and fireball, the shock ring, the smoke drifting with the wind, the debris.
fn explosion(rules: &Rules, playable: &[u16], k: usize, ago: f32) -> Stage {
    let owner = PlayerId(0);
    let vehicles: Vec<TemplateId> = (0..rules.templates.len())
        .map(|i| TemplateId(i as u16))
        .filter(|&t| {
            let tt = rules.template(t);
            playable.contains(&tt.faction) && tt.kind == ObjectKind::Vehicle && !tt.weapons.is_empty()
        })
        .take(3)
        .collect();
    let pieces = vehicles
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let mut p = Piece::new(t, Vec2::new(-28.0 + i as f32 * 28.0, 22.0 - (i % 2) as f32 * 8.0), owner);
            p.yaw = std::f32::consts::FRAC_PI_2 + i as f32 * 0.4;
            p
        })
        .collect();
    Stage {
        name: format!("explosion-{k}"),
        pieces,
        blasts: vec![(Vec2::new(0.0, -4.0), ago)],
        distance: 110.0,
        look: Vec3::new(0.0, 0.0, 4.0),
    }
}

fn is_playable(rules: &Rules, faction: u16) -> bool {
    rules.factions.get(faction as usize).is_some_and(|f| f.playable)
}

/// How big a template stands (world units): its footprint for structures, else a unit's size.
fn size_of(rules: &Rules, t: TemplateId) -> f32 {
    let tt = rules.template(t);
    if tt.kind.blocks_ground() { tt.footprint.0.max(tt.footprint.1).max(1) as f32 * 10.0 } else { 14.0 }
}

/// `templates` in rows of `across`, `spacing` apart.
fn sheet(name: &str, rules: &Rules, templates: &[TemplateId], owner: PlayerId, across: usize, spacing: f32) -> Stage {
    let rows = templates.len().div_ceil(across).max(1);
    let pieces: Vec<Piece> = templates
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (x, y) = ((i % across) as f32, (i / across) as f32);
            let at = Vec2::new((x - (across as f32 - 1.0) / 2.0) * spacing, ((rows as f32 - 1.0) / 2.0 - y) * spacing);
            Piece::new(t, at, owner)
        })
        .collect();
    let largest = templates.iter().map(|&t| size_of(rules, t)).fold(0.0, f32::max);
    let wide = across.min(templates.len()).max(1) as f32 * spacing;
    Stage {
        name: name.to_string(),
        pieces,
        blasts: Vec::new(),
        distance: wide.max(rows as f32 * spacing * 1.6) * 0.85 + largest,
        look: Vec3::new(0.0, 0.0, 4.0),
    }
}

/// One object alone, close.
fn close_up(rules: &Rules, t: TemplateId, owner: PlayerId, height: f32) -> Stage {
    let size = if rules.template(t).kind.blocks_ground() { size_of(rules, t) } else { height * 1.2 };
    let mut piece = Piece::new(t, Vec2::ZERO, owner);
    piece.aim = Some(-0.2);
    Stage {
        name: format!("object-{}", rules.template(t).name),
        pieces: vec![piece],
        blasts: Vec::new(),
        distance: size * 2.2 + 6.0,
        // Aircraft are drawn in the air: look up at them.
        look: Vec3::new(0.0, 0.0, height * 0.4 + super::display::altitude(rules.template(t).kind)),
    }
}

/// Each damage stage: whole, below half, below a quarter (three structures and three units),
/// and each structure whole without power.
fn damage(name: &str, rules: &Rules, structures: &[TemplateId], units: &[TemplateId], owner: PlayerId) -> Stage {
    let mut pieces = Vec::new();
    let healths = [1.0, 0.45, 0.2];
    for (row, &t) in structures.iter().take(3).enumerate() {
        for (col, &h) in healths.iter().enumerate() {
            let mut p = Piece::new(t, Vec2::new((col as f32 - 1.5) * 60.0, (1.0 - row as f32) * 55.0 + 20.0), owner);
            p.health = h;
            pieces.push(p);
        }
        let mut off = Piece::new(t, Vec2::new(1.5 * 60.0, (1.0 - row as f32) * 55.0 + 20.0), owner);
        off.powered = false;
        pieces.push(off);
    }
    let vehicles: Vec<TemplateId> =
        units.iter().copied().filter(|&u| rules.template(u).kind == ObjectKind::Vehicle).take(3).collect();
    for (row, &t) in vehicles.iter().enumerate() {
        for (col, &h) in healths.iter().enumerate() {
            let at = Vec2::new((col as f32 - 1.5) * 60.0 + (row as f32 - 1.0) * 17.0, -80.0);
            let mut p = Piece::new(t, at, owner);
            p.health = h;
            pieces.push(p);
        }
    }
    Stage { name: name.to_string(), pieces, blasts: Vec::new(), distance: 330.0, look: Vec3::ZERO }
}

/// Structures being built: a tenth, a third, two thirds, nine tenths done, and finished.
fn construction(name: &str, rules: &Rules, structures: &[TemplateId], owner: PlayerId) -> Stage {
    let stages = [Some(0.1), Some(0.35), Some(0.65), Some(0.9), None];
    let mut pieces = Vec::new();
    for (row, &t) in structures.iter().take(2).enumerate() {
        for (col, &built) in stages.iter().enumerate() {
            let mut p = Piece::new(t, Vec2::new((col as f32 - 2.0) * 55.0, (0.5 - row as f32) * 60.0), owner);
            p.built = built;
            pieces.push(p);
        }
    }
    let _ = rules;
    Stage { name: name.to_string(), pieces, blasts: Vec::new(), distance: 330.0, look: Vec3::ZERO }
}

/// Units in motion: each at rest, walking or driving (three points in a stride), and firing.
fn motion(name: &str, rules: &Rules, units: &[TemplateId], owner: PlayerId) -> Stage {
    let mut pieces = Vec::new();
    for (row, &t) in units.iter().take(6).enumerate() {
        let y = (2.5 - row as f32) * 18.0;
        let mut rest = Piece::new(t, Vec2::new(-54.0, y), owner);
        rest.yaw = 0.0;
        pieces.push(rest);
        for (k, d) in [1.5f32, 4.0, 6.5].into_iter().enumerate() {
            let mut p = Piece::new(t, Vec2::new(-27.0 + k as f32 * 22.0, y), owner);
            p.yaw = 0.0;
            p.moving = true;
            p.travelled = d;
            pieces.push(p);
        }
        let mut firing = Piece::new(t, Vec2::new(54.0, y), owner);
        firing.yaw = 0.0;
        firing.aim = Some(0.0);
        firing.recoil = 0.9;
        pieces.push(firing);
    }
    let _ = rules;
    Stage { name: name.to_string(), pieces, blasts: Vec::new(), distance: 135.0, look: Vec3::new(0.0, 0.0, 4.0) }
}

/// How fast the gallery's aircraft turn (radians a second): enough to lean them fully.
const AIR_TURN: f32 = 1.4;

/// Aircraft in flight, a row each: hovering, flying straight (the nose dipped), and leaning
/// into a left and a right turn, their rotors spinning (blades and blurred discs).
fn air(name: &str, aircraft: &[TemplateId], owner: PlayerId) -> Stage {
    let mut pieces = Vec::new();
    for (row, &t) in aircraft.iter().enumerate() {
        let y = row as f32 * -30.0;
        for (k, (moving, turning)) in
            [(false, 0.0), (true, 0.0), (true, AIR_TURN), (true, -AIR_TURN)].into_iter().enumerate()
        {
            let mut p = Piece::new(t, Vec2::new(-39.0 + k as f32 * 26.0, y), owner);
            // Three-quarters toward the camera, so a lean tips the rotor across the picture.
            p.yaw = -1.1;
            p.moving = moving;
            p.turning = turning;
            p.travelled = k as f32 * 3.0;
            pieces.push(p);
        }
    }
    let height = super::display::altitude(ObjectKind::Aircraft);
    let across = (aircraft.len() as f32 - 1.0) * -15.0;
    Stage {
        name: name.to_string(),
        pieces,
        blasts: Vec::new(),
        distance: 74.0,
        look: Vec3::new(0.0, across, height + 3.0),
    }
}

/// A base: each playable faction's structures laid out on its side, a few units among them.
fn base(rules: &Rules, playable: &[u16]) -> Stage {
    let mut pieces = Vec::new();
    for (n, &faction) in playable.iter().take(2).enumerate() {
        let side = if n == 0 { -1.0 } else { 1.0 };
        let owner = PlayerId(n as u8);
        let mine: Vec<TemplateId> = (0..rules.templates.len())
            .map(|i| TemplateId(i as u16))
            .filter(|&t| rules.template(t).faction == faction && rules.template(t).kind != ObjectKind::Prop)
            .collect();
        let (structures, units): (Vec<TemplateId>, Vec<TemplateId>) =
            mine.iter().partition(|&&t| rules.template(t).kind.blocks_ground());
        for (i, &t) in structures.iter().enumerate() {
            let (x, y) = ((i % 3) as f32, (i / 3) as f32);
            let at = Vec2::new(side * (40.0 + x * 50.0), 60.0 - y * 50.0);
            let mut p = Piece::new(t, at, owner);
            if i == 4 {
                p.built = Some(0.5);
            }
            pieces.push(p);
        }
        for (i, &t) in units.iter().enumerate() {
            let at = Vec2::new(side * (25.0 + (i % 3) as f32 * 14.0), -95.0 - (i / 3) as f32 * 14.0);
            let mut p = Piece::new(t, at, owner);
            p.yaw = if n == 0 { 0.4 } else { 2.7 };
            pieces.push(p);
        }
    }
    Stage { name: "base".into(), pieces, blasts: Vec::new(), distance: 420.0, look: Vec3::new(0.0, -10.0, 0.0) }
}

/// A battle: two armies facing each other, firing, with explosions among them.
fn battle(rules: &Rules, playable: &[u16]) -> Stage {
    let mut pieces = Vec::new();
    for (n, &faction) in playable.iter().take(2).enumerate() {
        let side = if n == 0 { -1.0 } else { 1.0 };
        let owner = PlayerId(n as u8);
        let units: Vec<TemplateId> = (0..rules.templates.len())
            .map(|i| TemplateId(i as u16))
            .filter(|&t| {
                let tt = rules.template(t);
                tt.faction == faction
                    && !tt.kind.blocks_ground()
                    && tt.kind != ObjectKind::Prop
                    && !tt.weapons.is_empty()
            })
            .collect();
        let facing = if n == 0 { 0.0 } else { std::f32::consts::PI };
        for k in 0..18usize {
            let Some(&t) = units.get(k % units.len().max(1)) else { break };
            let (row, col) = ((k / 6) as f32, (k % 6) as f32);
            let at = Vec2::new(side * (30.0 + row * 22.0 + col % 2.0 * 6.0), (col - 2.5) * 22.0);
            let mut p = Piece::new(t, at, owner);
            p.yaw = facing + (k as f32 * 0.37).sin() * 0.3;
            p.aim = Some(facing + (k as f32 * 0.51).cos() * 0.15);
            p.recoil = if k % 3 == 0 { 0.9 } else { 0.0 };
            p.moving = k % 4 == 1;
            p.travelled = k as f32 * 3.1;
            p.health = 1.0 - (k % 5) as f32 * 0.17;
            pieces.push(p);
        }
    }
    let blasts = vec![(Vec2::new(-12.0, 10.0), 0.15), (Vec2::new(20.0, -30.0), 0.4), (Vec2::new(48.0, 34.0), 0.8)];
    Stage { name: "battle".into(), pieces, blasts, distance: 230.0, look: Vec3::ZERO }
}

/// Renders every stage into `dir` as `<name>.png` at `size`; the files written.
pub fn render(roots: &ContentRoots, dir: &Path, size: (u32, u32)) -> Result<Vec<PathBuf>, ScreenshotError> {
    // Seen as an observer sees everything: explosions show wherever they are.
    let shot = WorldShot {
        players: Some("idle,idle".into()),
        frames: 1,
        size,
        observer: Some(super::screenshot::ObserverView::Everything),
        ..WorldShot::new(MAP)
    };
    let (mut battle, _shell) = battle_for(roots, &shot)?;
    let centre = battle.scene.size() / 2.0;
    let gpu = Gpu::headless()?;
    let target = Offscreen::new(&gpu, size);
    let mut pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &battle.scene.statics());
    let rules = battle.world().rules().clone();
    std::fs::create_dir_all(dir).map_err(|e| ScreenshotError::Content(format!("{}: {e}", dir.display())))?;
    let mut written = Vec::new();
    let heights: Vec<f32> =
        (0..rules.templates.len()).map(|i| battle.scene.model_height(TemplateId(i as u16))).collect();
    let mut all = stages(&rules, &heights);
    let scene = &battle.scene;
    let height = |p: Vec2| scene.height(p);
    let ground = super::gallery_ground::Ground {
        height: &height,
        size: scene.size(),
        water: scene.statics().terrain.water.first().map_or(0.0, |c| c[2]),
        roads: super::gallery_ground::roads(&scene.map),
        junction: super::gallery_ground::junction(&scene.map),
    };
    all.extend(super::gallery_ground::stages(&rules, &ground));
    // The vista: the game's own camera at its closest zoom, tilted toward the horizon over the
    // shore (the map's middle without one), the sky, the clouds and the haze in view.
    let shore = all.iter().find(|s| s.name == "ground-shore").map(|s| centre + s.look.truncate());
    let vista = vista_camera(shore.unwrap_or(centre), scene.height(shore.unwrap_or(centre)));
    for stage in all {
        let img = render_stage(&gpu, &mut pass, &target, &mut battle, &rules, &stage, centre, size)?;
        let path = dir.join(format!("{}.png", stage.name));
        crate::content::write_image(&path, &img).map_err(|e| ScreenshotError::Content(e.to_string()))?;
        written.push(path);
    }
    battle.age_display(60.0);
    let aspect = size.0 as f32 / size.1.max(1) as f32;
    pass.set_sprites(Vec::new());
    pass.set_view(vista.eye(), 1.3);
    let none = vec![Vec::new(); battle.scene.library.len()];
    pass.render(&gpu.device, &gpu.queue, &target.view, size, vista.view_proj(aspect), &none);
    let path = dir.join("vista.png");
    crate::content::write_image(&path, &target.read(&gpu)?).map_err(|e| ScreenshotError::Content(e.to_string()))?;
    written.push(path);
    Ok(written)
}

/// The vista's camera: the game's at its closest zoom, looking north from just south of `at`
/// (a ground point at height `z`), so that point lies a little beyond the picture's middle.
fn vista_camera(at: Vec2, z: f32) -> Camera {
    let (_, closest) = super::camera::ZOOM_RANGE;
    Camera { zoom: closest, ..Camera::looking_at((at - Vec2::Y * 30.0).extend(z)) }
}

#[allow(clippy::too_many_arguments)]
fn render_stage(
    gpu: &Gpu,
    pass: &mut WorldPass,
    target: &Offscreen,
    battle: &mut Battle,
    rules: &Rules,
    stage: &Stage,
    centre: Vec2,
    size: (u32, u32),
) -> Result<image::RgbaImage, ScreenshotError> {
    // Explosions: the battle's own particles, aged to each blast's moment.
    battle.age_display(60.0);
    // What was destroyed a moment ago: its wreck, the parts it threw, the smoke.
    let destroyed: Vec<&Piece> = stage.pieces.iter().filter(|p| p.health <= 0.0).collect();
    for p in &destroyed {
        battle.stills().show_destroyed(p.template, p.owner, centre + p.at, p.yaw);
    }
    if !destroyed.is_empty() {
        battle.age_display(WRECK_AGO);
    }
    let mut blasts = stage.blasts.clone();
    blasts.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (k, &(at, ago)) in blasts.iter().enumerate() {
        let event = GameEvent::Killed {
            object: ObjectId::from_bits(2_000_000 + k as u64),
            template: stage
                .pieces
                .iter()
                .map(|p| p.template)
                .max_by_key(|t| rules.template(*t).max_health)
                .unwrap_or(TemplateId(0)),
            owner: PlayerId(1),
            at: to_point(centre + at).to_vec2(),
        };
        battle.display_events(&[event]);
        let next = blasts.get(k + 1).map_or(0.0, |b| b.1);
        battle.age_display((ago - next).max(0.0));
    }
    // Damaged structures: a few seconds of their smoke, fire and sparks, as a player sees them.
    let hurt: Vec<(Vec2, TemplateId, f32)> = stage
        .pieces
        .iter()
        .filter(|p| p.health < 0.5 && p.built.is_none() && rules.template(p.template).kind.blocks_ground())
        .map(|p| (centre + p.at, p.template, p.health))
        .collect();
    if !hurt.is_empty() {
        battle.stills().warm_damage(&hurt, WARM_SECONDS);
    }
    // Guns that just fired: a tracer on its way across the field and a flash at the muzzle.
    for (k, p) in stage.pieces.iter().enumerate() {
        let Some(aim) = p.aim.filter(|_| p.recoil > 0.5 && stage.name.starts_with("battle")) else { continue };
        let height = battle.scene.model_height(p.template);
        let (at, dir) = (centre + p.at, Vec2::from_angle(aim));
        let ground = |q: Vec2| battle.scene.height(q);
        let from = (at + dir * (height * 0.9).clamp(0.8, 5.0)).extend(ground(at) + height * 0.65);
        let end = at + dir * 70.0;
        let to = end.extend(ground(end) + 2.0);
        battle.stills().show_shot(from, to, 0.03 + (k % 4) as f32 * 0.035);
    }
    let mut instances = vec![Vec::new(); battle.scene.library.len()];
    for p in stage.pieces.iter().filter(|p| p.health > 0.0) {
        battle.scene.push_shown(&mut instances, rules, &p.shown(centre));
    }
    // The wrecks of what was destroyed (a blast alone leaves none: its stills compare with the
    // fight's), and the parts the blasts threw.
    if !destroyed.is_empty() {
        battle.stills().wreck_instances(&mut instances);
    }
    battle.picture().debris_instances(&mut instances);
    pass.set_sprites(battle.picture().sprites());
    let look = centre + stage.look.truncate();
    let look = look.extend(battle.scene.height(look) + stage.look.z);
    let back = Vec3::new(0.0, -PITCH.cos(), PITCH.sin());
    let eye = look + back * stage.distance;
    let view = glam::camera::rh::view::look_at_mat4(eye, look, Vec3::Z);
    let aspect = size.0 as f32 / size.1.max(1) as f32;
    let proj = glam::camera::rh::proj::directx::perspective(
        FOV_Y,
        aspect,
        (stage.distance * 0.05).max(1.0),
        stage.distance * 6.0,
    );
    pass.set_view(eye, 1.3);
    pass.render(&gpu.device, &gpu.queue, &target.view, size, proj * view, &instances);
    Ok(target.read(gpu)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gallery_shows_every_unit_and_structure_of_each_playable_faction() {
        let defs = crate::defs::test_support::shipped();
        let rules = &defs.rules;
        let all = stages(rules, &[]);
        let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
        for (i, t) in rules.templates.iter().enumerate() {
            if t.kind == ObjectKind::Prop || !is_playable(rules, t.faction) {
                continue;
            }
            let close = format!("object-{}", t.name);
            assert!(names.contains(&close.as_str()), "no close-up of {}", t.name);
            let sheets = all.iter().filter(|s| s.name.ends_with("-units") || s.name.ends_with("-structures"));
            assert!(sheets.flat_map(|s| &s.pieces).any(|p| p.template.0 as usize == i), "{} on no sheet", t.name);
        }
        for want in ["base", "battle", "battle-close", "explosion-0", "explosion-4", "wrecks"] {
            assert!(names.contains(&want), "no {want}");
        }
        // Each faction's aircraft in flight, leaning into a turn each way.
        let airs: Vec<&Stage> = all.iter().filter(|s| s.name.ends_with("-air")).collect();
        assert!(!airs.is_empty(), "no aircraft stage");
        for air in airs {
            let turning = |sign: f32| air.pieces.iter().any(|p| p.moving && p.turning * sign > 0.5);
            assert!(turning(1.0) && turning(-1.0), "{} shows no lean both ways", air.name);
            assert!(air.pieces.iter().all(|p| rules.template(p.template).kind.is_air()));
        }
        // Each damage sheet shows each stage: whole, below half, below a quarter.
        let damage = all.iter().find(|s| s.name.ends_with("-damage")).unwrap();
        for h in [1.0, 0.45, 0.2] {
            assert!(damage.pieces.iter().any(|p| p.health == h));
        }
        assert!(damage.pieces.iter().any(|p| !p.powered && p.health == 1.0), "a structure without power");
    }

    #[test]
    fn the_vista_looks_out_over_the_horizon_with_the_ground_below_the_middle() {
        let cam = vista_camera(Vec2::new(600.0, 600.0), 12.0);
        assert_eq!(cam.pitch(), super::super::camera::CLOSE_PITCH);
        let screen = Vec2::new(1280.0, 720.0);
        assert!(cam.ray(Vec2::new(640.0, 0.0), screen).1.z > 0.0, "the sky at the top");
        let shore = cam.project(Vec3::new(600.0, 600.0, 12.0), screen).unwrap();
        assert!(shore.y < 360.0 && shore.y > 100.0, "the shore beyond the middle, below the horizon: {shore}");
    }
}
