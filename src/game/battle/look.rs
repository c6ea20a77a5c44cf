//! The battle as the local player looks at it, read-only: what they may see, what lies under a
//! pixel (picking by the model's box, else by distance on screen), what a right click there
//! would order (the simulation's `order_for` asked about what the cursor points at), the
//! cursor's intent, where a structure being placed would go, and the shells in flight in
//! sight. The overlay draws from it; the controls ask it before they order.
//!
//! Must not: change anything (it borrows the battle's parts shared), or decide a game rule (the
//! simulation's queries do).

use glam::{Vec2, Vec3};

use crate::sim::command::{Command, RejectReason};
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::{OrderKind, OrderTarget, OrderTiming, PlayerId, Relation, World};

use super::super::display::{to_display, to_f32, to_point};
use super::super::scene::{Scene, shown_to};
use super::control_bar::{self, CommandButton};
use super::markers::Intent;
use super::picture::Picture;
use super::play::Play;
use crate::game::keys::KeyMap;
use crate::ui::labels::Labels;

/// Pixels within which a click picks an object.
const PICK_PX: f32 = 18.0;

/// The battle's match, picture and scene, borrowed to look at.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    pub(super) play: &'a Play,
    pub(super) pic: &'a Picture,
    pub(super) scene: &'a Scene,
    /// The string table the battle's texts are worded from.
    pub(super) labels: &'a Labels,
    /// Which key gives which command.
    pub(super) keys: &'a KeyMap,
    /// The army's buttons, in order (the command sets in data).
    pub(super) army: &'a [crate::game::keys::KeyCommand],
}

impl<'a> Look<'a> {
    /// The string table the battle's texts are worded from.
    pub fn labels(&self) -> &'a Labels {
        self.labels
    }

    /// Which key gives which command.
    pub fn keys(&self) -> &'a KeyMap {
        self.keys
    }

    /// The world as of the last executed frame.
    pub fn world(&self) -> &'a World {
        self.play.world()
    }

    /// True if the local player may see `id` now.
    pub fn sees(&self, id: ObjectId) -> bool {
        let world = self.world();
        world.object(id).is_some_and(|o| shown_to(world, o, self.play.local, &self.pic.shroud))
    }

    /// Enemy structures the player saw once and the fog hides now, as last seen.
    pub fn remembered(&self) -> impl Iterator<Item = &'a super::super::scene::Shown> + 'a {
        self.pic.memory.hidden(self.play.world(), self.play.local, &self.pic.shroud)
    }

    /// The local player's selected objects that the player sees, in selection order.
    pub fn selected_shown(&self) -> Vec<&'a crate::sim::object::Object> {
        let world = self.world();
        self.pic.selection.ids.iter().filter_map(|id| world.object(*id)).filter(|o| self.sees(o.id)).collect()
    }

    /// Where an object stands on the screen (pixels), if in front of the camera.
    pub fn screen_pos(&self, id: ObjectId) -> Option<Vec2> {
        self.pic.view.screen_pos(self.world(), id, self.scene)
    }

    /// The ground point under a pixel, following the terrain's height.
    pub fn ground_under(&self, at: Vec2) -> Option<Vec2> {
        self.pic.view.ground_under(at, self.scene)
    }

    /// The corners of the ground the view shows (see `View::outline`).
    pub fn view_outline(&self) -> [Vec2; 4] {
        self.pic.view.outline(self.scene)
    }

    /// What a right click at `at` would do: the intent the cursor shows, the commands it would
    /// send, and the ground point it is about. The rule is the simulation's
    /// ([`World::order_for`]); the client only says what the cursor points at, in the order
    /// the rule prefers: one of the player's own objects (a site to resume), a supply pile, an
    /// enemy, then the ground, and whether Shift is held (which the rule turns into queueing).
    pub fn right_click(&self, at: Vec2) -> (Intent, Vec<Command>, Option<Vec2>) {
        if self.pic.selection.ids.is_empty() || self.play.watches() {
            return (Intent::Select, Vec::new(), None);
        }
        let (world, local) = (self.world(), self.play.local);
        let timing = OrderTiming::from_shift(self.pic.selection.shift);
        let pointed = [
            self.pick(at, |owner| owner == local),
            self.pick_supply(at),
            self.pick(at, |owner| world.relation(local, owner) == Relation::Enemy),
        ];
        for id in pointed.into_iter().flatten() {
            if let Ok(orders) = world.order_for(local, &self.pic.selection.ids, OrderTarget::Object(id), timing) {
                return (intent_of(orders.kind), orders.commands, world.object(id).map(|o| to_display(o.pos)));
            }
        }
        let Some(p) = self.ground_under(at) else { return (Intent::Cannot, Vec::new(), None) };
        match world.order_for(local, &self.pic.selection.ids, OrderTarget::Ground(to_point(p)), timing) {
            Ok(orders) => (intent_of(orders.kind), orders.commands, Some(p)),
            Err(_) => (Intent::Cannot, Vec::new(), None),
        }
    }

    /// What a click at the cursor would do now, as its shape says: placing a structure (fits
    /// or not), an armed attack-move, or what a right click would order (over one of the
    /// player's own objects, or with nothing selected: select).
    pub fn cursor_intent(&self) -> Intent {
        if self.pic.pending.placing.is_some() {
            return match self.placement_preview() {
                Some((true, _)) => Intent::Build,
                _ => Intent::Cannot,
            };
        }
        if self.pic.pending.attack_move && !self.pic.selection.ids.is_empty() {
            return Intent::Attack;
        }
        let at = self.pic.view.cursor;
        let (intent, _, _) = self.right_click(at);
        let over_own = self.pick(at, |o| o == self.play.local).is_some();
        if over_own && matches!(intent, Intent::Move | Intent::Rally) { Intent::Select } else { intent }
    }

    /// What the control bar reads.
    pub(super) fn bar(&self) -> control_bar::Seen<'a> {
        control_bar::Seen {
            world: self.world(),
            defs: &self.play.game.content.defs,
            labels: self.labels,
            keys: self.keys,
            army: self.army,
            local: self.play.local,
            selection: &self.pic.selection.ids,
            build_menu: self.pic.pending.build_menu.as_deref() == Some(&self.pic.selection.ids[..]),
        }
    }

    /// The banner over the battle once the game is over: the score screen's outcome
    /// ("Victory", "Defeat", a watched replay's "Blue won"); none while it goes on.
    pub fn result_banner(&self) -> Option<String> {
        self.play.finished().then(|| super::summary::summary(self.play, self.labels).0)
    }

    /// The control bar's buttons for the current selection (none while watching a replay).
    pub fn commands(&self) -> Vec<CommandButton> {
        if self.play.watches() { Vec::new() } else { self.bar().buttons() }
    }

    /// True when the game draws its own cursor (over the battlefield, in the window).
    pub fn draws_cursor(&self) -> bool {
        !self.pic.cursor_over_ui && self.pic.view.inside
    }

    /// The supply pile with money left nearest to `at` on screen, within reach of a click.
    fn pick_supply(&self, at: Vec2) -> Option<ObjectId> {
        let world = self.world();
        world
            .objects()
            .filter(|o| o.supply > 0)
            .filter_map(|o| self.pic.view.screen_pos(world, o.id, self.scene).map(|p| (o.id, (p - at).length())))
            .filter(|&(_, d)| d <= PICK_PX * 1.5)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    /// The object under `at` that the player sees and whose owner passes `owner_ok`: the
    /// first of [`Look::picks`].
    pub fn pick(&self, at: Vec2, owner_ok: impl Fn(PlayerId) -> bool) -> Option<ObjectId> {
        self.picks(at, owner_ok).first().copied()
    }

    /// The objects under `at` that the player sees and whose owner passes `owner_ok`, best
    /// first: those whose model's box the click's ray meets, the one whose middle is nearest
    /// the cursor's tip first (a click on a dozer standing before a tank is the dozer's, though
    /// the ray meets the tank's taller box first), nearer along the ray on a tie; else (small
    /// units) those within reach on screen, nearest first. After the first, the units come
    /// before the structures: Tab goes through the units under a click, then the structures.
    pub fn picks(&self, at: Vec2, owner_ok: impl Fn(PlayerId) -> bool) -> Vec<ObjectId> {
        let world = self.world();
        let (camera, screen) = (&self.pic.view.camera, self.pic.view.screen);
        let candidates: Vec<_> =
            world.objects().filter(|o| owner_ok(o.owner) && o.owner != PlayerId::NEUTRAL && self.sees(o.id)).collect();
        // After the best, structures come behind the units (Tab goes through the units first).
        let structure = |id: ObjectId| world.object(id).is_some_and(|o| o.kind.blocks_ground());
        let mut hits: Vec<(ObjectId, f32, f32)> = candidates
            .iter()
            .filter_map(|o| {
                let (lo, hi) = self.scene.object_box(world, o)?;
                let t = camera.ray_hits_box(at, screen, lo, hi)?;
                let off = camera.project((lo + hi) * 0.5, screen).map_or(f32::MAX, |m| (m - at).length());
                Some((o.id, off, t))
            })
            .collect();
        if hits.is_empty() {
            hits = candidates
                .iter()
                .filter_map(|o| {
                    self.pic.view.screen_pos(world, o.id, self.scene).map(|p| (o.id, (p - at).length(), 0.0))
                })
                .filter(|&(_, d, _)| d <= PICK_PX)
                .collect();
        }
        hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
        let mut picks: Vec<ObjectId> = hits.into_iter().map(|(id, _, _)| id).collect();
        if let Some(rest) = picks.get_mut(1..) {
            rest.sort_by_key(|&id| structure(id));
        }
        picks
    }

    /// The builder the simulation would use for `Build`: the first selected mobile unit of
    /// the local player that builds the structure.
    fn builder_for(&self, template: TemplateId) -> Option<ObjectId> {
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

    /// Why the simulation would refuse `template` placed at ground point `at` by the
    /// selection's builder (what the red outline means); none where it fits.
    pub(super) fn placement_refusal(&self, template: TemplateId, at: Vec2) -> Option<RejectReason> {
        self.world().placement(template, to_point(at), self.builder_for(template)).err()
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

    /// Where each shell in flight that the player's team can see is now (world units),
    /// between where it was fired and where it lands; blast shells (artillery) fly in a lob.
    pub fn shells_in_sight(&self) -> Vec<Vec3> {
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
}

/// The cursor's shape for a kind of order.
fn intent_of(kind: OrderKind) -> Intent {
    match kind {
        OrderKind::Rally => Intent::Rally,
        OrderKind::Resume => Intent::Build,
        OrderKind::Gather => Intent::Gather,
        OrderKind::Attack => Intent::Attack,
        OrderKind::Move => Intent::Move,
    }
}
