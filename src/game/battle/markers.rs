//! Order feedback: a marker where a move, attack, gather, rally or guard order lands (a ring closing
//! in, in the order's colour, as game time passes; a guard order rings the whole group for
//! longer: an order given while the game is paused
//! keeps its ring, and a line from each unit it was given to, until the game runs it; a
//! structure placed while paused shows its ghost outline there until then too), the
//! selection's target lines while Alt is held (from each unit
//! to where it is going or what it is attacking), and the game's own cursor over the
//! battlefield, whose shape says what a click will do — select, move, attack, gather, build
//! here, set a rally point, or cannot.
//!
//! Must not: decide what a click does (`input.rs` does, and the cursor asks it), or change
//! the world.

use glam::Vec2;

use crate::sim::object::Order;
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;

use crate::sim::command::Point;
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::{PlayerId, World};

use super::super::display::to_display;
use super::super::scene::Scene;
use super::view::View;

/// Seconds an order's marker shows.
const MARKER_SECONDS: f32 = 0.7;
/// Seconds a guard order's rings show: the post held is worth a longer look.
const GUARD_SECONDS: f32 = 2.5;
/// Most markers kept.
const MAX_MARKERS: usize = 16;

/// What a click would do (or did), shown by the cursor and the order's marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Select what is under the cursor (or nothing: clear the selection).
    Select,
    /// Move the selection there.
    Move,
    /// Attack what is under the cursor (or attack-move there).
    Attack,
    /// Gather from the supply pile under the cursor.
    Gather,
    /// Build there (placing a structure that fits), or resume building a site.
    Build,
    /// Set the selected structures' rally point there.
    Rally,
    /// Guard there (the Guard button or key: where the selection stands).
    Guard,
    /// Nothing can be done there (a structure that does not fit, no ground).
    Cannot,
}

impl Intent {
    /// The colour of its cursor and marker.
    fn color(self) -> [u8; 4] {
        match self {
            Intent::Select => [235, 235, 225, 255],
            Intent::Move | Intent::Build => [110, 240, 110, 255],
            Intent::Attack | Intent::Cannot => [250, 70, 55, 255],
            Intent::Gather => [250, 205, 70, 255],
            Intent::Rally => [240, 220, 90, 255],
            Intent::Guard => [110, 185, 250, 255],
        }
    }

    /// Seconds of game time its marker shows.
    fn marker_seconds(self) -> f32 {
        if self == Intent::Guard { GUARD_SECONDS } else { MARKER_SECONDS }
    }
}

/// A recent order: where it went, its kind, the game seconds since, the units given it, and
/// for a structure placed the structure and the point it was placed at.
#[derive(Clone, Debug)]
struct Marker {
    at: Vec2,
    intent: Intent,
    age: f32,
    units: Vec<ObjectId>,
    structure: Option<(TemplateId, Point)>,
}

/// Where recent orders went.
#[derive(Clone, Debug, Default)]
pub(super) struct Markers {
    list: Vec<Marker>,
    /// Alt is held: the selection's target lines show.
    pub lines: bool,
}

impl Markers {
    /// An order of `intent` given to `units` went to ground point `at`.
    pub fn mark(&mut self, at: Vec2, intent: Intent, units: &[ObjectId]) {
        if self.list.len() >= MAX_MARKERS {
            self.list.remove(0);
        }
        self.list.push(Marker { at, intent, age: 0.0, units: units.to_vec(), structure: None });
    }

    /// A structure `template` was placed at `at` (queued or not) for the builders `units`:
    /// marked as a build order, whose ghost outline shows while no game time has passed (the
    /// game is paused), until the builder's queue shows it.
    pub fn mark_structure(&mut self, template: TemplateId, at: Point, units: &[ObjectId]) {
        self.mark(Vec2::new(at.x as f32, at.y as f32), Intent::Build, units);
        if let Some(m) = self.list.last_mut() {
            m.structure = Some((template, at));
        }
    }

    /// Lets `game_dt` seconds of game time pass (none while the game is paused).
    pub fn age(&mut self, game_dt: f32) {
        for m in &mut self.list {
            m.age += game_dt;
        }
        self.list.retain(|m| m.age < m.intent.marker_seconds());
    }

    /// The markers as rings closing in on where each order went; an order no game time has
    /// passed since (given while paused) also draws a line from each of its units.
    pub fn draw(&self, view: &View, scene: &Scene, world: &World, out: &mut Vec<DrawCmd>) {
        for m in &self.list {
            let (at, intent, age) = (m.at, m.intent, m.age);
            if age == 0.0 {
                if let Some((template, point)) = m.structure {
                    structure_ghost(view, scene, world, template, point, out);
                }
                let mut color = intent.color();
                color[3] = 170;
                for o in m.units.iter().filter_map(|&id| world.object(id)) {
                    let (a, b) =
                        (view.project_ground(to_display(o.pos), 1.0, scene), view.project_ground(at, 1.0, scene));
                    if let (Some(a), Some(b)) = (a, b) {
                        out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.0 });
                    }
                }
            }
            let k = age / intent.marker_seconds();
            let mut color = intent.color();
            color[3] = (255.0 * (1.0 - k * k)) as u8;
            let ring = |r: f32| {
                (0..24).map(move |i| {
                    let a = i as f32 / 24.0 * std::f32::consts::TAU;
                    at + Vec2::new(a.cos(), a.sin()) * r
                })
            };
            if intent == Intent::Guard {
                // The post: a ring around the whole group that stays, and one pulsing inside.
                let units = m.units.iter().filter_map(|&id| world.object(id));
                let reach = units.map(|o| to_display(o.pos).distance(at)).fold(0.0, f32::max);
                let outer = reach + 3.0;
                view.ground_loop(scene, out, ring(outer), color, 3.0);
                let pulse = (age * 3.0).fract();
                view.ground_loop(scene, out, ring(outer * (0.35 + 0.55 * pulse)), color, 1.5);
            } else {
                view.ground_loop(scene, out, ring(9.0 * (1.0 - k) + 2.0), color, 2.0);
            }
        }
    }

    /// Where recent orders went, and what kind.
    pub fn list(&self) -> Vec<(Vec2, Intent)> {
        self.list.iter().map(|m| (m.at, m.intent)).collect()
    }
}

/// The outline of structure `template` on the ground where a builder placing it at `at` will
/// put it (snapped to the cells as the simulation snaps it).
pub(super) fn structure_ghost(
    view: &View,
    scene: &Scene,
    world: &World,
    template: TemplateId,
    at: Point,
    out: &mut Vec<DrawCmd>,
) {
    let t = world.rules().template(template);
    let cell = scene.map.file.cell_size as f32;
    let c = to_display(world.snap_structure(at.to_vec2(), t.footprint));
    let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0;
    let corners = [c - half, Vec2::new(c.x + half.x, c.y - half.y), c + half, Vec2::new(c.x - half.x, c.y + half.y)];
    view.ground_loop(scene, out, corners.into_iter(), [200, 220, 255, 170], 1.5);
}

/// From each selected unit of the player's to where it is going (green) or what it attacks
/// (red).
pub(super) fn target_lines(
    world: &World,
    local: PlayerId,
    selection: &[ObjectId],
    view: &View,
    scene: &Scene,
    out: &mut Vec<DrawCmd>,
) {
    for &id in selection {
        let Some(o) = world.object(id).filter(|o| o.owner == local) else { continue };
        let from = to_display(o.pos);
        let (to, intent) = match (&o.order, o.target.and_then(|t| world.object(t))) {
            (_, Some(t)) => (to_display(t.pos), Intent::Attack),
            (Order::Idle, None) => continue,
            _ => match o.nav.goal {
                Some(goal) => (to_display(goal), Intent::Move),
                None => continue,
            },
        };
        let (Some(a), Some(b)) = (view.project_ground(from, 1.0, scene), view.project_ground(to, 1.0, scene)) else {
            continue;
        };
        let mut color = intent.color();
        color[3] = 200;
        out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.0 });
        out.push(DrawCmd::Fill { rect: Rect::new(b.x - 2.0, b.y - 2.0, 4.0, 4.0), color });
    }
}

/// The game's cursor at `c`, shaped by what a click would do.
pub(super) fn cursor_shape(intent: Intent, c: Vec2) -> Vec<DrawCmd> {
    let color = intent.color();
    let mut out = Vec::new();
    let line = |out: &mut Vec<DrawCmd>, a: Vec2, b: Vec2, width: f32, color: [u8; 4]| {
        out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width });
    };
    let circle = |out: &mut Vec<DrawCmd>, r: f32, color: [u8; 4]| {
        for i in 0..16 {
            let a = |k: i32| c + Vec2::from_angle(k as f32 / 16.0 * std::f32::consts::TAU) * r;
            line(out, a(i), a(i + 1), 2.0, color);
        }
    };
    let shadow = [0, 0, 0, 160];
    match intent {
        Intent::Select => {
            // An arrow pointing up-left, its tip at the cursor.
            let pts = [c, c + Vec2::new(0.0, 16.0), c + Vec2::new(4.5, 12.0), c + Vec2::new(11.0, 11.0)];
            for (w, col) in [(4.0, shadow), (2.0, color)] {
                for i in 0..pts.len() {
                    line(&mut out, pts[i], pts[(i + 1) % pts.len()], w, col);
                }
            }
        }
        Intent::Move | Intent::Rally => {
            // Four chevrons pointing in at the spot.
            for (w, col) in [(4.0, shadow), (2.0, color)] {
                for d in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
                    let side = d.perp() * 4.0;
                    line(&mut out, c + d * 12.0 + side, c + d * 6.0, w, col);
                    line(&mut out, c + d * 12.0 - side, c + d * 6.0, w, col);
                }
            }
        }
        Intent::Attack => {
            // Cross-hairs.
            circle(&mut out, 10.0, color);
            for d in [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y] {
                line(&mut out, c + d * 5.0, c + d * 15.0, 2.0, color);
            }
        }
        Intent::Gather => {
            circle(&mut out, 9.0, color);
            out.push(DrawCmd::Text {
                x: c.x - 4.0,
                y: c.y - 9.0,
                text: "$".into(),
                px: 14.0,
                bold: true,
                color,
                shadow: Some([0, 0, 0, 200]),
            });
        }
        Intent::Build => {
            for (w, col) in [(4.0, shadow), (2.0, color)] {
                out.push(DrawCmd::Frame { rect: Rect::new(c.x - 8.0, c.y - 8.0, 16.0, 16.0), color: col, width: w });
            }
            line(&mut out, c - Vec2::new(4.0, 0.0), c + Vec2::new(4.0, 0.0), 2.0, color);
            line(&mut out, c - Vec2::new(0.0, 4.0), c + Vec2::new(0.0, 4.0), 2.0, color);
        }
        Intent::Cannot => {
            circle(&mut out, 10.0, color);
            line(&mut out, c + Vec2::new(-7.0, 7.0), c + Vec2::new(7.0, -7.0), 2.5, color);
        }
        Intent::Guard => {
            // Two rings: a post held.
            circle(&mut out, 10.0, color);
            circle(&mut out, 4.0, color);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_fade_and_only_the_newest_are_kept() {
        let mut m = Markers::default();
        for i in 0..20 {
            m.mark(Vec2::splat(i as f32), Intent::Move, &[]);
        }
        assert_eq!(m.list.len(), MAX_MARKERS);
        assert_eq!(m.list[0].at, Vec2::splat(4.0), "the oldest went first");
        m.age(0.0);
        assert_eq!(m.list.len(), MAX_MARKERS, "paused: no game time passes, they stay");
        m.age(MARKER_SECONDS * 0.5);
        assert_eq!(m.list.len(), MAX_MARKERS);
        m.age(MARKER_SECONDS);
        assert!(m.list.is_empty());
    }

    #[test]
    fn a_guard_marker_outlasts_a_move_marker() {
        let mut m = Markers::default();
        m.mark(Vec2::ZERO, Intent::Move, &[]);
        m.mark(Vec2::ONE, Intent::Guard, &[]);
        m.age(1.0);
        assert_eq!(m.list(), vec![(Vec2::ONE, Intent::Guard)], "the move's marker went after 0.7 s");
        m.age(1.0);
        assert_eq!(m.list().len(), 1, "the guard's shows two seconds on");
        m.age(1.0);
        assert!(m.list().is_empty(), "and goes after 2.5 s");
    }
}
