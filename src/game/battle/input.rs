//! Order translation: the local player's mouse and keys become commands. A click or a box
//! selects; a right click attacks, gathers, sets a rally point or moves; hotkeys stop, guard,
//! arm an attack-move, and store or recall control groups; a pending structure is placed with
//! the next left click. What the player sees selected changes at once; the world changes when
//! the commands execute.
//!
//! Must not: change the world, or draw (overlay and radar read the pending modes).

use glam::Vec2;

use crate::sim::command::{Command, MAX_SELECTION};
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::{OrderKind, OrderTarget, PlayerId, Relation};
use crate::ui::{Key, MouseButton};

use super::super::display::{to_display, to_point};
use super::Battle;
use super::control_bar::{Action, SHIFT_QUEUES};
use super::markers::Intent;
use super::selection::DRAG_PX;

/// Pixels within which a click picks an object.
const PICK_PX: f32 = 18.0;

/// Modes the next click completes, and the press of a drag in progress.
#[derive(Clone, Debug, Default)]
pub(super) struct Pending {
    /// The structure being placed: the next left click puts it down.
    pub placing: Option<TemplateId>,
    /// The next left click gives an attack-move order (after the attack-move key).
    pub attack_move: bool,
    /// Where the left button went down, while it is held.
    pub press: Option<Vec2>,
}

impl Battle {
    /// A key went down or up; arrows scroll the camera while held; Space jumps to the place
    /// of the last alert.
    pub fn key(&mut self, key: Key, down: bool) {
        if key == Key::Space && down {
            self.jump_to_alert();
            return;
        }
        self.pic.view.arrow(key, down);
    }

    /// The wheel turned (positive: away from the player, zoom in).
    pub fn wheel(&mut self, delta: f32) {
        self.pic.view.zoom_by(1.12f32.powf(delta));
    }

    /// The mouse moved. A position outside the window (the system reports one while a button
    /// is held, or as focus moves between windows) does not scroll the camera.
    pub fn mouse_move(&mut self, at: Vec2) {
        let s = self.pic.view.screen;
        self.pic.view.cursor = at;
        self.pic.view.inside = at.x >= 0.0 && at.y >= 0.0 && at.x < s.x && at.y < s.y;
    }

    /// The mouse left the window: the screen's edges stop scrolling until it comes back.
    pub fn mouse_left(&mut self) {
        self.pic.view.inside = false;
    }

    /// Whether Shift is held (it adds clicks and boxes to the selection).
    pub fn set_shift(&mut self, held: bool) {
        self.pic.selection.shift = held;
    }

    /// Objects shown as selected.
    pub fn selection(&self) -> &[ObjectId] {
        &self.pic.selection.ids
    }

    /// Centres the camera on a ground point (the radar, alerts).
    pub fn look_at(&mut self, p: Vec2) {
        self.pic.view.look_at(p, &self.scene);
    }

    /// The screen's size in pixels, as the camera sees it.
    pub fn screen(&self) -> Vec2 {
        self.pic.view.screen
    }

    /// Orders the selection to move to a ground point (a right click on the radar); nothing
    /// when nothing is selected.
    pub fn move_selection_to(&mut self, p: Vec2) {
        if !self.pic.selection.ids.is_empty() {
            self.send(Command::Move { to: to_point(p) });
        }
    }

    /// The local player's selected objects that the player sees, in selection order.
    pub fn selected_shown(&self) -> Vec<&crate::sim::object::Object> {
        let world = self.world();
        self.pic.selection.ids.iter().filter_map(|id| world.object(*id)).filter(|o| self.sees(o.id)).collect()
    }

    /// Shows `ids` as selected without ordering anything (tools and watched games).
    pub fn show_selected(&mut self, ids: Vec<ObjectId>) {
        self.pic.selection.ids = ids;
    }

    /// Selects `ids` (shown at once, and as the synchronized selection through the stream).
    pub fn select(&mut self, ids: Vec<ObjectId>) {
        self.pic.selection.ids.clone_from(&ids);
        self.send(Command::Select { objects: ids, add: false });
    }

    /// Cancels the last unit queued at `factory` (refunded).
    pub fn cancel_production(&mut self, factory: ObjectId) {
        self.send(Command::CancelProduction { factory });
    }

    /// True while Shift is held (a click then adds to or drops from the selection).
    pub fn shift_held(&self) -> bool {
        self.pic.selection.shift
    }

    /// A control-bar button was clicked (with Shift, a unit is queued five times).
    pub fn command_button(&mut self, index: usize) {
        let Some(button) = self.commands().into_iter().nth(index) else { return };
        match button.action {
            Action::Produce { factory, template } => {
                // Shift queues five.
                for _ in 0..if self.shift_held() { SHIFT_QUEUES } else { 1 } {
                    self.send(Command::Produce { factory, template });
                }
            }
            Action::Place(template) => {
                self.pic.pending.attack_move = false;
                self.pic.pending.placing = Some(template);
            }
            Action::Research { structure, upgrade } => self.send(Command::Research { structure, upgrade }),
            Action::Repair(structure) => self.send(Command::Repair { structure }),
            Action::PowerDown(structure) => self.send(Command::PowerDown { structure }),
            Action::Sell(structure) => self.send(Command::Sell { structure }),
        }
    }

    /// The structure being placed, if any.
    pub fn placing(&self) -> Option<TemplateId> {
        self.pic.pending.placing
    }

    /// True while the next left click gives an attack-move order.
    pub fn attack_move_armed(&self) -> bool {
        self.pic.pending.attack_move
    }

    /// Leaves a pending mode (placing, attack-move); false if there was none.
    pub fn cancel_mode(&mut self) -> bool {
        let had = self.pic.pending.placing.is_some() || self.pic.pending.attack_move;
        self.pic.pending.placing = None;
        self.pic.pending.attack_move = false;
        had
    }

    /// The ground point under a pixel, following the terrain's height.
    pub fn ground_under(&self, at: Vec2) -> Option<Vec2> {
        self.pic.view.ground_under(at, &self.scene)
    }

    /// A mouse button went down.
    pub fn mouse_down(&mut self, button: MouseButton, at: Vec2) {
        self.pic.view.cursor = at;
        if self.is_replay() {
            return; // a watcher gives no orders and selects nothing
        }
        match button {
            MouseButton::Left if self.pic.pending.placing.is_some() => {
                if let (Some(template), Some(p)) = (self.pic.pending.placing.take(), self.ground_under(at)) {
                    self.send(Command::Build { template, at: to_point(p) });
                }
            }
            MouseButton::Right if self.pic.pending.placing.is_some() => self.pic.pending.placing = None,
            MouseButton::Left if self.pic.pending.attack_move => {
                self.pic.pending.attack_move = false;
                if let Some(p) = self.ground_under(at).filter(|_| !self.pic.selection.ids.is_empty()) {
                    self.send(Command::AttackMove { to: to_point(p) });
                    self.pic.markers.mark(p, Intent::Attack);
                }
            }
            MouseButton::Left => self.pic.pending.press = Some(at),
            MouseButton::Right => {
                self.pic.pending.attack_move = false;
                self.order_at(at);
            }
        }
    }

    /// A letter or digit key in the battle: S stops, G guards where the units stand, A arms an
    /// attack-move for the next left click; P pauses, + and − change the game speed;
    /// Ctrl+digit stores the selection as a control group, a digit selects the group again
    /// (twice quickly: the camera goes to it).
    pub fn hotkey(&mut self, c: char, ctrl: bool) {
        let selected = !self.pic.selection.ids.is_empty();
        let c = c.to_ascii_lowercase();
        if self.is_replay() && !matches!(c, 'p' | '+' | '=' | '-' | '_') {
            return; // a watcher has only the pace keys
        }
        match c {
            's' if selected => self.send(Command::Stop),
            'g' if selected => self.send(Command::Guard { at: None }),
            'a' if selected => self.pic.pending.attack_move = true,
            k if !ctrl && super::control_bar::BUTTON_KEYS.contains(&k) => {
                if let Some(i) = super::control_bar::BUTTON_KEYS.iter().position(|&b| b == k) {
                    self.command_button(i); // nothing there: nothing happens
                }
            }
            'p' if !ctrl => self.report_pace(Battle::toggle_pause),
            '+' | '=' => self.report_pace(Battle::faster),
            '-' | '_' => self.report_pace(Battle::slower),
            d @ '0'..='9' => {
                let n = d as usize - '0' as usize;
                if ctrl {
                    self.pic.selection.store(n);
                } else {
                    self.recall_group(n);
                }
            }
            _ => {}
        }
    }

    /// Runs a pause or speed key; a stream that refuses it (it never should) is logged.
    fn report_pace(&mut self, f: fn(&mut Battle) -> Result<(), super::BattleError>) {
        if let Err(e) = f(self) {
            log::warn!("pace: {e}");
        }
    }

    fn recall_group(&mut self, n: usize) {
        let world = self.play.game.session.world();
        let Some((members, double)) = self.pic.selection.recall(n, self.play.elapsed, world) else { return };
        if double {
            let pts: Vec<Vec2> = members.iter().filter_map(|id| world.object(*id)).map(|o| to_display(o.pos)).collect();
            let centre = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as f32;
            self.pic.view.look_at(centre, &self.scene);
        }
        self.send(Command::Select { objects: members, add: false });
    }

    /// A mouse button went up: a click or a box selects.
    pub fn mouse_up(&mut self, button: MouseButton, at: Vec2) {
        self.pic.view.cursor = at;
        if button != MouseButton::Left {
            return;
        }
        let Some(from) = self.pic.pending.press.take() else { return };
        let is_click = (at - from).length() < DRAG_PX;
        let double = self.pic.selection.click(at, self.play.elapsed, is_click);
        let world = self.play.game.session.world();
        let mut picked: Vec<ObjectId> = if is_click {
            self.pick(at, |o| o == self.play.local).into_iter().collect()
        } else {
            let (min, max) = (from.min(at), from.max(at));
            world
                .objects()
                .filter(|o| o.owner == self.play.local && world.rules().template(o.template).is_mobile())
                .filter(|o| {
                    self.pic
                        .view
                        .screen_pos(world, o.id, &self.scene)
                        .is_some_and(|p| p.cmpge(min).all() && p.cmple(max).all())
                })
                .map(|o| o.id)
                .take(MAX_SELECTION)
                .collect()
        };
        // A double click selects every unit of that kind on screen.
        if let (true, Some(kind)) = (double, picked.first().and_then(|&one| world.object(one)).map(|o| o.template)) {
            picked = world
                .objects()
                .filter(|o| o.owner == self.play.local && o.template == kind)
                .filter(|o| {
                    self.pic.view.screen_pos(world, o.id, &self.scene).is_some_and(|p| self.pic.view.on_screen(p))
                })
                .map(|o| o.id)
                .take(MAX_SELECTION)
                .collect();
        }
        let add = self.pic.selection.pick(&picked);
        self.send(Command::Select { objects: picked, add });
    }

    /// Right click: attack an enemy under the cursor, gather from a pile, or move there; with
    /// only structures selected, set their rally point. A marker shows where the order went.
    fn order_at(&mut self, at: Vec2) {
        let (intent, commands, place) = self.right_click(at);
        for c in commands {
            self.send(c);
        }
        if let Some(p) = place {
            self.pic.markers.mark(p, intent);
        }
    }

    /// What a right click at `at` would do: the intent the cursor shows, the commands it would
    /// send, and the ground point it is about. The rule is the simulation's
    /// ([`World::order_for`](crate::sim::World::order_for)); the client only says what the
    /// cursor points at, in the order the rule prefers: one of the player's own objects (a site
    /// to resume), a supply pile, an enemy, then the ground.
    pub(super) fn right_click(&self, at: Vec2) -> (Intent, Vec<Command>, Option<Vec2>) {
        if self.pic.selection.ids.is_empty() || self.is_replay() {
            return (Intent::Select, Vec::new(), None);
        }
        let world = self.play.game.session.world();
        let pointed = [
            self.pick(at, |owner| owner == self.play.local),
            self.pick_supply(at),
            self.pick(at, |owner| world.relation(self.play.local, owner) == Relation::Enemy),
        ];
        for id in pointed.into_iter().flatten() {
            if let Ok(orders) = world.order_for(self.play.local, &self.pic.selection.ids, OrderTarget::Object(id)) {
                return (intent_of(orders.kind), orders.commands, world.object(id).map(|o| to_display(o.pos)));
            }
        }
        let Some(p) = self.ground_under(at) else { return (Intent::Cannot, Vec::new(), None) };
        match world.order_for(self.play.local, &self.pic.selection.ids, OrderTarget::Ground(to_point(p))) {
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

    /// The supply pile with money left nearest to `at` on screen, within reach of a click.
    fn pick_supply(&self, at: Vec2) -> Option<ObjectId> {
        let world = self.play.game.session.world();
        world
            .objects()
            .filter(|o| o.supply > 0)
            .filter_map(|o| self.pic.view.screen_pos(world, o.id, &self.scene).map(|p| (o.id, (p - at).length())))
            .filter(|&(_, d)| d <= PICK_PX * 1.5)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    /// The object under `at` that the player sees and whose owner passes `owner_ok`: the
    /// nearest whose model's box the click's ray meets, else (small units) the nearest on
    /// screen within reach of the click.
    fn pick(&self, at: Vec2, owner_ok: impl Fn(PlayerId) -> bool) -> Option<ObjectId> {
        let world = self.play.game.session.world();
        let candidates: Vec<_> =
            world.objects().filter(|o| owner_ok(o.owner) && o.owner != PlayerId::NEUTRAL && self.sees(o.id)).collect();
        let hit = candidates
            .iter()
            .filter_map(|o| {
                let (lo, hi) = self.scene.object_box(world, o)?;
                self.pic.view.camera.ray_hits_box(at, self.pic.view.screen, lo, hi).map(|t| (o.id, t))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((id, _)) = hit {
            return Some(id);
        }
        candidates
            .iter()
            .filter_map(|o| self.pic.view.screen_pos(world, o.id, &self.scene).map(|p| (o.id, (p - at).length())))
            .filter(|&(_, d)| d <= PICK_PX)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
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
