//! What is drawn over the world: the placement outline (green where the simulation would
//! accept the structure, red where it would not), health bars with veterancy marks and structures' repair and
//! power-off marks (their fire and smoke are particles), selection marks on the ground, the
//! drag box, and the result's banner when the game is over.
//!
//! Must not: decide whether a structure fits (the simulation's placement query does).

use glam::{Vec2, Vec3};

use crate::sim::PlayerId;
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;

use super::super::display::{to_display, to_f32};
use super::look::Look;
use super::markers;
use super::selection::DRAG_PX;
use super::status::{health_color, health_of};

/// Order markers and target lines, drawn over the world.
fn order_feedback(look: &Look, out: &mut Vec<DrawCmd>) {
    look.pic.markers.draw(&look.pic.view, look.scene, look.world(), out);
    if look.pic.markers.lines {
        let (world, local) = (look.world(), look.play.local);
        markers::target_lines(world, local, &look.pic.selection.ids, &look.pic.view, look.scene, out);
    }
}

/// The game's cursor at the mouse, shaped by what a click would do (drawn last, over all).
pub(super) fn cursor(look: &Look) -> Vec<DrawCmd> {
    if !look.draws_cursor() {
        return Vec::new();
    }
    markers::cursor_shape(look.cursor_intent(), look.pic.view.cursor)
}

/// Health bars, selection marks and the drag box, drawn over the world (tracers, shells and
/// particles are drawn in the world pass: `Picture::sprites`).
pub(super) fn overlay(look: &Look) -> Vec<DrawCmd> {
    let mut out = Vec::new();
    if let Some((fits, corners)) = look.placement_preview() {
        let color = if fits { [90, 240, 90, 255] } else { [240, 70, 60, 255] };
        look.pic.view.ground_loop(look.scene, &mut out, corners.into_iter(), color, 2.0);
    }
    look.pic.floaters.draw(&look.pic.view, &mut out);
    order_feedback(look, &mut out);
    health_bars(look, &mut out);
    selection_marks(look, &mut out);
    queued_orders(look, &mut out);
    let screen = look.pic.view.screen;
    if let Some(names) = look.play.waiting_for() {
        let text = look.labels.say("Pace:WaitingFor", &[("names", &names)]);
        super::online::waiting_overlay(&text, screen, &mut out);
    }
    if let Some(o) = look.play.online() {
        o.chat_overlay(screen, &mut out);
    }
    if let Some(outcome) = look.result_banner() {
        result_banner(&outcome, &look.labels.say("Outcome:Continue", &[]), screen, &mut out);
    }
    if let Some(from) = look.pic.pending.press {
        let cursor = look.pic.view.cursor;
        if (cursor - from).length() >= DRAG_PX {
            let (min, max) = (from.min(cursor), from.max(cursor));
            out.push(DrawCmd::Frame {
                rect: Rect::new(min.x, min.y, max.x - min.x, max.y - min.y),
                color: [120, 240, 120, 255],
                width: 1.0,
            });
        }
    }
    out
}

/// The result's banner over the battle's last seconds: `outcome` large across a dark band a
/// third of the way down a `screen`, and under it how to go on (`hint`).
fn result_banner(outcome: &str, hint: &str, screen: Vec2, out: &mut Vec<DrawCmd>) {
    const BIG: f32 = 44.0;
    const SMALL: f32 = 15.0;
    let band = Rect::new(0.0, screen.y * 0.3, screen.x, BIG + SMALL + 40.0);
    out.push(DrawCmd::Fill { rect: band, color: [8, 10, 12, 170] });
    // About half its size a character wide (the overlay has no font to measure with).
    let width = |text: &str, px: f32| text.chars().count() as f32 * px * 0.55;
    out.push(DrawCmd::Text {
        x: ((screen.x - width(outcome, BIG)) / 2.0).round(),
        y: band.y + 12.0,
        text: outcome.to_string(),
        px: BIG,
        bold: true,
        color: [245, 215, 120, 255],
        shadow: Some([0, 0, 0, 255]),
    });
    out.push(DrawCmd::Text {
        x: ((screen.x - width(hint, SMALL)) / 2.0).round(),
        y: band.y + BIG + 22.0,
        text: hint.to_string(),
        px: SMALL,
        bold: false,
        color: [225, 220, 205, 230],
        shadow: Some([0, 0, 0, 255]),
    });
}

/// A bar over every damaged or selected object the player sees, with a gold mark per
/// veterancy rank beside it.
fn health_bars(look: &Look, out: &mut Vec<DrawCmd>) {
    let world = look.world();
    let rules = world.rules();
    for o in world.objects() {
        let rank = rules.rank(o.template, o.xp);
        let (max, frac) = health_of(world, o);
        let selected = look.pic.selection.ids.contains(&o.id);
        let marked = o.repairing || o.powered_down;
        if o.owner == PlayerId::NEUTRAL || (o.health >= max && !selected && !marked) || !look.sees(o.id) {
            continue;
        }
        let p = to_display(o.pos);
        let lift = look.scene.model_height(o.template) + 3.0 + super::super::display::altitude(o.kind);
        let top = Vec3::new(p.x, p.y, look.scene.height(p) + lift);
        let Some(px) = look.pic.view.project(top) else { continue };
        let w = (if o.kind.blocks_ground() { 48.0 } else { 20.0 }) * look.pic.view.camera.zoom.sqrt();
        let color = health_color(frac);
        let bar = Rect::new(px.x - w / 2.0, px.y - 4.0, w, 4.0);
        out.push(DrawCmd::Fill { rect: bar, color: [0, 0, 0, 180] });
        out.push(DrawCmd::Fill { rect: Rect::new(bar.x + 1.0, bar.y + 1.0, (w - 2.0) * frac, 2.0), color });
        for r in 0..rank {
            let mark = Rect::new(bar.x - 5.0 - 5.0 * r as f32, bar.y - 1.0, 4.0, 6.0);
            out.push(DrawCmd::Fill { rect: mark, color: [240, 200, 60, 255] });
        }
        structure_marks(out, o, bar);
    }
}

/// Over a structure's health bar: flickering flames while it burns, a green cross while it
/// is repaired, a dark bar while it is powered off (the simulation's own tests of each).
fn structure_marks(out: &mut Vec<DrawCmd>, o: &crate::sim::object::Object, bar: Rect) {
    if !o.kind.blocks_ground() {
        return;
    }
    let right = bar.x + bar.w + 4.0;
    if o.repairing {
        out.push(DrawCmd::Fill { rect: Rect::new(right, bar.y, 9.0, 3.0), color: [90, 240, 90, 255] });
        out.push(DrawCmd::Fill { rect: Rect::new(right + 3.0, bar.y - 3.0, 3.0, 9.0), color: [90, 240, 90, 255] });
    }
    if o.powered_down {
        out.push(DrawCmd::Frame {
            rect: Rect::new(right, bar.y - 3.0, 9.0, 9.0),
            color: [200, 200, 200, 255],
            width: 1.0,
        });
        out.push(DrawCmd::Fill { rect: Rect::new(right + 2.0, bar.y, 5.0, 3.0), color: [60, 60, 60, 255] });
    }
}

/// A ring on the ground under each selected unit, an outline around each selected structure.
fn selection_marks(look: &Look, out: &mut Vec<DrawCmd>) {
    let world = look.world();
    for &id in &look.pic.selection.ids {
        let Some(o) = world.object(id) else { continue };
        let t = world.rules().template(o.template);
        let centre = to_display(o.pos);
        if o.kind.blocks_ground() {
            let cell = look.scene.map.file.cell_size as f32;
            let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0 + 2.0;
            let corners = [-half, Vec2::new(half.x, -half.y), half, Vec2::new(-half.x, half.y)];
            look.pic.view.ground_loop(look.scene, out, corners.iter().map(|&c| centre + c), [90, 230, 90, 255], 1.5);
        } else {
            let r = to_f32(t.radius) + 2.5;
            let ring = (0..16).map(|k| {
                let a = k as f32 / 16.0 * std::f32::consts::TAU;
                centre + Vec2::new(a.cos(), a.sin()) * r
            });
            look.pic.view.ground_loop(look.scene, out, ring, [90, 230, 90, 255], 1.5);
        }
        if o.owner == look.play.local
            && let Some(rally) = world.factories().rally(id)
        {
            rally_flag(look, out, centre, to_display(rally));
        }
    }
}

/// A selected factory's rally point: a dotted line along the ground from the factory and a
/// flag on a pole where its new units go.
fn rally_flag(look: &Look, out: &mut Vec<DrawCmd>, from: Vec2, to: Vec2) {
    let color = [240, 220, 90, 230];
    let steps = ((to - from).length() / 12.0).ceil().max(1.0) as usize;
    for k in (0..steps).step_by(2) {
        let a = from.lerp(to, k as f32 / steps as f32);
        let b = from.lerp(to, ((k + 1) as f32 / steps as f32).min(1.0));
        if let (Some(a), Some(b)) =
            (look.pic.view.project_ground(a, 0.5, look.scene), look.pic.view.project_ground(b, 0.5, look.scene))
        {
            out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.5 });
        }
    }
    let (Some(foot), Some(top)) =
        (look.pic.view.project_ground(to, 0.0, look.scene), look.pic.view.project_ground(to, 16.0, look.scene))
    else {
        return;
    };
    out.push(DrawCmd::Line { from: (foot.x, foot.y), to: (top.x, top.y), color: [230, 230, 220, 255], width: 2.0 });
    let h = (foot.y - top.y).abs().max(8.0) * 0.45;
    for row in 0..(h as i32) {
        let y = top.y + row as f32;
        let w = h * 1.2 * (1.0 - (row as f32 - h / 2.0).abs() / (h / 2.0)).max(0.0);
        out.push(DrawCmd::Fill { rect: Rect::new(top.x + 1.0, y, w, 1.0), color: [230, 70, 50, 255] });
    }
}

/// The selected units' queued orders (Shift): a path from each through its waypoints (green
/// for moves, red for attack-moves) with a dot at each, and the ghost outline of each queued
/// structure where its builder will place it.
fn queued_orders(look: &Look, out: &mut Vec<DrawCmd>) {
    use crate::sim::command::Queued;
    let world = look.world();
    let view = &look.pic.view;
    for &id in &look.pic.selection.ids {
        let Some(o) = world.object(id).filter(|o| o.owner == look.play.local && !o.queue.is_empty()) else { continue };
        // The leg the unit is on now, then each queued one.
        let here = to_display(o.pos);
        let now = match o.order {
            crate::sim::object::Order::Move { goal } => Some((to_display(goal), [110, 240, 110, 200])),
            crate::sim::object::Order::AttackMove { goal } => Some((to_display(goal), [250, 80, 60, 200])),
            _ => None,
        };
        let mut from = here;
        if let Some((goal, color)) = now {
            if let (Some(a), Some(b)) =
                (view.project_ground(here, 1.0, look.scene), view.project_ground(goal, 1.0, look.scene))
            {
                out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.5 });
            }
            from = goal;
        }
        for q in &o.queue {
            let (point, color) = match *q {
                Queued::Move { to } => (to, [110, 240, 110, 200]),
                Queued::AttackMove { to } => (to, [250, 80, 60, 200]),
                Queued::Build { at, .. } => (at, [200, 220, 255, 200]),
            };
            let to = to_display(point.to_vec2());
            if let (Some(a), Some(b)) =
                (view.project_ground(from, 1.0, look.scene), view.project_ground(to, 1.0, look.scene))
            {
                out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.5 });
                out.push(DrawCmd::Fill { rect: Rect::new(b.x - 2.5, b.y - 2.5, 5.0, 5.0), color });
            }
            if let Queued::Build { template, .. } = *q {
                markers::structure_ghost(view, look.scene, world, template, point, out);
            }
            from = to;
        }
    }
}
