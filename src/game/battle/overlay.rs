//! What is drawn over the world: the placement outline (green where the simulation would
//! accept the structure, red where it would not), shot tracers, particles (`particles.rs`),
//! shells in flight, health bars with veterancy marks and structures' repair and
//! power-off marks (their fire and smoke are particles), selection marks on the ground, and the
//! drag box.
//!
//! Must not: decide whether a structure fits (the simulation's placement query does).

use glam::{Vec2, Vec3};

use crate::sim::PlayerId;
use crate::sim::Relation;
use crate::sim::ids::ObjectId;
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;

use super::super::display::{to_display, to_f32, to_point};
use super::Battle;
use super::effects::SHOT_SECONDS;
use super::markers::{self, Intent};
use super::selection::DRAG_PX;
use super::status::{health_color, health_of};

impl Battle {
    /// The markers of recent orders: where, and what kind.
    pub fn order_markers(&self) -> Vec<(Vec2, Intent)> {
        self.pic.markers.list()
    }

    /// Alt held or released: the selection's target lines show while it is held.
    pub fn set_show_orders(&mut self, held: bool) {
        self.pic.markers.lines = held;
    }

    /// The cursor is over an interface window (the system's cursor shows) or the battlefield
    /// (the game draws its own).
    pub fn set_cursor_over_ui(&mut self, over: bool) {
        self.pic.cursor_over_ui = over;
    }

    /// True when the game draws its own cursor (over the battlefield, in the window).
    pub fn draws_cursor(&self) -> bool {
        !self.pic.cursor_over_ui && self.pic.view.inside
    }

    /// Order markers and target lines, drawn over the world.
    fn order_feedback(&self, out: &mut Vec<DrawCmd>) {
        self.pic.markers.draw(&self.pic.view, &self.scene, out);
        if self.pic.markers.lines {
            let (world, local) = (self.world(), self.play.local);
            markers::target_lines(world, local, &self.pic.selection.ids, &self.pic.view, &self.scene, out);
        }
    }

    /// The game's cursor at the mouse, shaped by what a click would do (drawn last, over all).
    pub fn cursor(&self) -> Vec<DrawCmd> {
        if !self.draws_cursor() {
            return Vec::new();
        }
        markers::cursor_shape(self.cursor_intent(), self.pic.view.cursor)
    }

    /// The builder the simulation would use for `Build`: the first selected mobile unit of
    /// the local player that builds the structure.
    fn builder_for(&self, template: crate::sim::TemplateId) -> Option<ObjectId> {
        let world = self.world();
        let mut ids = self.pic.selection.ids.clone();
        ids.sort();
        ids.into_iter().find(|id| {
            world.object(*id).is_some_and(|o| {
                let t = world.rules().template(o.template);
                o.owner == self.play.local && t.is_mobile() && t.builds.contains(&template)
            })
        })
    }

    /// Whether the structure being placed would be accepted under the cursor, and its outline
    /// there: the simulation's own placement query on the very point a click would send.
    pub fn placement_preview(&self) -> Option<(bool, [Vec2; 4])> {
        let (template, at) = (self.pic.pending.placing?, self.ground_under(self.pic.view.cursor)?);
        let world = self.world();
        let t = world.rules().template(template);
        let point = to_point(at);
        let fits = world.placement(template, point, self.builder_for(template));
        let centre = match fits {
            Ok(c) => c,
            Err(_) => world.snap_structure(world.point_on_map(point).ok()?, t.footprint),
        };
        let c = to_display(centre);
        let cell = self.scene.map.file.cell_size as f32;
        let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0;
        let corners =
            [c - half, Vec2::new(c.x + half.x, c.y - half.y), c + half, Vec2::new(c.x - half.x, c.y + half.y)];
        Some((fits.is_ok(), corners))
    }

    /// Tracers, health bars, selection marks and the drag box, drawn over the world.
    pub fn overlay(&self) -> Vec<DrawCmd> {
        let mut out = Vec::new();
        if let Some((fits, corners)) = self.placement_preview() {
            let color = if fits { [90, 240, 90, 255] } else { [240, 70, 60, 255] };
            self.pic.view.ground_loop(&self.scene, &mut out, corners.into_iter(), color, 2.0);
        }
        for s in &self.pic.effects.shots {
            if let (Some(a), Some(b)) = (self.pic.view.project(s.from), self.pic.view.project(s.to)) {
                let fade = 1.0 - s.age / SHOT_SECONDS;
                out.push(DrawCmd::Line {
                    from: (a.x, a.y),
                    to: (b.x, b.y),
                    color: [255, 230, 140, (230.0 * fade) as u8],
                    width: 1.5,
                });
            }
        }
        self.pic.particles.draw(&self.pic.view, &mut out);
        self.pic.floaters.draw(&self.pic.view, &mut out);
        self.order_feedback(&mut out);
        self.shells(&mut out);
        self.health_bars(&mut out);
        self.selection_marks(&mut out);
        self.waiting_overlay(&mut out);
        self.chat_overlay(&mut out);
        if let Some(from) = self.pic.pending.press {
            let cursor = self.pic.view.cursor;
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

    /// Where each shell in flight that the player's team can see is now (world units),
    /// between where it was fired and where it lands; blast shells (artillery) fly in a lob.
    pub(super) fn shells_in_sight(&self) -> Vec<Vec3> {
        let world = self.world();
        let rules = world.rules();
        let mut out = Vec::new();
        for p in world.projectiles() {
            let w = rules.weapon(p.weapon);
            let (from, aim) = (to_display(p.from), to_display(p.aim));
            let speed = to_f32(w.projectile_speed).max(0.001);
            let total = ((aim - from).length() / speed).floor() + 1.0;
            let t = (p.frames_left as f32 / total).clamp(0.0, 1.0);
            let at = aim + (from - aim) * t;
            let friendly = matches!(world.relation(self.play.local, p.owner), Relation::Own | Relation::Ally);
            let seen = friendly || world.visible_to(self.play.local, to_point(at).to_vec2());
            if !seen {
                continue;
            }
            let lob = if w.area > crate::sim::fixed::Fixed::ZERO { (aim - from).length() * 0.2 } else { 0.0 };
            let arc = lob * (std::f32::consts::PI * t).sin();
            out.push(Vec3::new(at.x, at.y, self.scene.height(at) + 4.0 + arc));
        }
        out
    }

    /// A bright dot for each shell in flight the player's team can see (their smoke trails
    /// are particles).
    fn shells(&self, out: &mut Vec<DrawCmd>) {
        for at in self.shells_in_sight() {
            let Some(px) = self.pic.view.project(at) else { continue };
            out.push(DrawCmd::Fill { rect: Rect::new(px.x - 2.0, px.y - 2.0, 4.0, 4.0), color: [255, 235, 150, 255] });
        }
    }

    /// A bar over every damaged or selected object the player sees, with a gold mark per
    /// veterancy rank beside it.
    fn health_bars(&self, out: &mut Vec<DrawCmd>) {
        let world = self.world();
        let rules = world.rules();
        for o in world.objects() {
            let rank = rules.rank(o.template, o.xp);
            let (max, frac) = health_of(world, o);
            let selected = self.pic.selection.ids.contains(&o.id);
            let marked = o.repairing || o.powered_down;
            if o.owner == PlayerId::NEUTRAL || (o.health >= max && !selected && !marked) || !self.sees(o.id) {
                continue;
            }
            let p = to_display(o.pos);
            let lift = self.scene.model_height(o.template) + 3.0 + super::super::display::altitude(o.kind);
            let top = Vec3::new(p.x, p.y, self.scene.height(p) + lift);
            let Some(px) = self.pic.view.project(top) else { continue };
            let w = (if o.kind.blocks_ground() { 48.0 } else { 20.0 }) * self.pic.view.camera.zoom.sqrt();
            let color = health_color(frac);
            let bar = Rect::new(px.x - w / 2.0, px.y - 4.0, w, 4.0);
            out.push(DrawCmd::Fill { rect: bar, color: [0, 0, 0, 180] });
            out.push(DrawCmd::Fill { rect: Rect::new(bar.x + 1.0, bar.y + 1.0, (w - 2.0) * frac, 2.0), color });
            for r in 0..rank {
                let mark = Rect::new(bar.x - 5.0 - 5.0 * r as f32, bar.y - 1.0, 4.0, 6.0);
                out.push(DrawCmd::Fill { rect: mark, color: [240, 200, 60, 255] });
            }
            self.structure_marks(out, o, bar);
        }
    }

    /// Over a structure's health bar: flickering flames while it burns, a green cross while it
    /// is repaired, a dark bar while it is powered off (the simulation's own tests of each).
    fn structure_marks(&self, out: &mut Vec<DrawCmd>, o: &crate::sim::object::Object, bar: Rect) {
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
    fn selection_marks(&self, out: &mut Vec<DrawCmd>) {
        let world = self.world();
        for &id in &self.pic.selection.ids {
            let Some(o) = world.object(id) else { continue };
            let t = world.rules().template(o.template);
            let centre = to_display(o.pos);
            if o.kind.blocks_ground() {
                let cell = self.scene.map.file.cell_size as f32;
                let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0 + 2.0;
                let corners = [-half, Vec2::new(half.x, -half.y), half, Vec2::new(-half.x, half.y)];
                self.pic.view.ground_loop(
                    &self.scene,
                    out,
                    corners.iter().map(|&c| centre + c),
                    [90, 230, 90, 255],
                    1.5,
                );
            } else {
                let r = to_f32(t.radius) + 2.5;
                let ring = (0..16).map(|k| {
                    let a = k as f32 / 16.0 * std::f32::consts::TAU;
                    centre + Vec2::new(a.cos(), a.sin()) * r
                });
                self.pic.view.ground_loop(&self.scene, out, ring, [90, 230, 90, 255], 1.5);
            }
            if o.owner == self.play.local
                && let Some(rally) = world.factories().rally(id)
            {
                self.rally_flag(out, centre, to_display(rally));
            }
        }
    }

    /// A selected factory's rally point: a dotted line along the ground from the factory and a
    /// flag on a pole where its new units go.
    fn rally_flag(&self, out: &mut Vec<DrawCmd>, from: Vec2, to: Vec2) {
        let color = [240, 220, 90, 230];
        let steps = ((to - from).length() / 12.0).ceil().max(1.0) as usize;
        for k in (0..steps).step_by(2) {
            let a = from.lerp(to, k as f32 / steps as f32);
            let b = from.lerp(to, ((k + 1) as f32 / steps as f32).min(1.0));
            if let (Some(a), Some(b)) =
                (self.pic.view.project_ground(a, 0.5, &self.scene), self.pic.view.project_ground(b, 0.5, &self.scene))
            {
                out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.5 });
            }
        }
        let (Some(foot), Some(top)) =
            (self.pic.view.project_ground(to, 0.0, &self.scene), self.pic.view.project_ground(to, 16.0, &self.scene))
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
}
