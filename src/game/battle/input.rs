//! Order translation (`Controls`, the battle's parts borrowed to act): the local player's mouse
//! and keys become commands. A click or a box selects; a right click attacks, gathers, sets a
//! rally point or moves; keys give the commands the player's key map puts on them (stop, guard,
//! arm an attack-move, the bar's slots, idle workers, control groups, the camera, pause); a
//! pending structure is placed with the next left click. What the
//! player sees selected changes at once; the world changes when the commands execute.
//!
//! Must not: change the world, or draw (overlay and radar read the pending modes).

use glam::Vec2;

use crate::sim::OrderTiming;
use crate::sim::command::{Command, MAX_SELECTION};
use crate::sim::ids::ObjectId;
use crate::ui::{Key, MouseButton};

use super::super::display::{to_display, to_point};
use super::super::keys::{Chord, KeyCommand};
use super::super::scene::Scene;
use super::BattleError;
use super::alerts::AlertKind;
use super::control_bar::{Action, SHIFT_QUEUES};
use super::hud_state::HudState;
use super::look::Look;
use super::markers::Intent;
use super::picture::Picture;
use super::play::Play;
use super::selection::DRAG_PX;

/// The battle's parts, borrowed to act on the player's input: the match (orders go into its
/// stream), the picture (camera, selection, pending modes, markers) and the HUD's state (what
/// the player is told).
pub struct Controls<'a> {
    pub(super) play: &'a mut Play,
    pub(super) pic: &'a mut Picture,
    pub(super) hud: &'a mut HudState,
    pub(super) scene: &'a Scene,
}

impl Controls<'_> {
    /// The battle as the player looks at it now.
    fn look(&self) -> Look<'_> {
        Look {
            play: self.play,
            pic: self.pic,
            scene: self.scene,
            labels: &self.hud.labels,
            keys: &self.hud.keys,
            army: &self.hud.army,
        }
    }

    /// Submits one of the local player's orders to the stream, now, with a unit's radio chirp
    /// for it.
    pub(super) fn send(&mut self, command: Command) {
        if self.play.game.human.is_some() {
            let selected = self.pic.selection.ids.first().copied();
            let defs = &self.play.game.content.defs;
            self.pic.sounds.acknowledge(&command, selected, self.play.world(), defs, self.play.elapsed);
        }
        self.play.submit(command);
    }

    /// Moves the camera to the newest alert's place (Space); false if no alert has one.
    pub fn jump_to_alert(&mut self) -> bool {
        let Some(p) = self.hud.alerts.last_place() else { return false };
        self.look_at(p);
        true
    }

    /// Moves the camera to the place of the alert `newest_first` places back in the match's log
    /// (0: the newest); false when that alert has no place.
    pub fn jump_to_logged_alert(&mut self, newest_first: usize) -> bool {
        let Some(p) = self.hud.alerts.log().rev().nth(newest_first).and_then(|a| a.at) else { return false };
        self.look_at(p);
        true
    }

    /// P or Pause (see [`Play::toggle_pause`]); the player is told when nothing could be done.
    pub fn toggle_pause(&mut self) -> Result<(), BattleError> {
        if let Some(label) = self.play.toggle_pause()? {
            let clock = self.play.clock();
            let line = self.hud.labels.say(label, &[]);
            self.hud.alerts.notice(AlertKind::Pace, line, clock, self.play.elapsed);
        }
        self.hud.follow_pace(self.play);
        Ok(())
    }

    /// + : the next faster speed (a replay's own; a skirmish's through the stream).
    pub fn faster(&mut self) -> Result<(), BattleError> {
        self.play.faster()?;
        self.hud.follow_pace(self.play);
        Ok(())
    }

    /// − : the next slower speed.
    pub fn slower(&mut self) -> Result<(), BattleError> {
        self.play.slower()?;
        self.hud.follow_pace(self.play);
        Ok(())
    }

    /// Replaces the camera (tools place it by hand); it stays over the map.
    pub fn set_camera(&mut self, camera: super::super::camera::Camera) {
        self.pic.view.set_camera(camera, self.scene);
    }

    /// The HUD covers the bottom `px` pixels of the screen: the camera may bring the map's near
    /// edge up above them (it settles at once).
    pub fn set_covered_bottom(&mut self, px: f32) {
        if (self.pic.view.covered - px).abs() > 0.5 {
            self.pic.view.covered = px.max(0.0);
            self.pic.view.settle(self.scene);
        }
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

    /// A named key went down or up without Ctrl (see [`Controls::press`]).
    pub fn key(&mut self, key: Key, down: bool) {
        match Chord::named(key, false) {
            Some(chord) if down => {
                self.press(chord);
            }
            Some(chord) => self.release(chord),
            None => {}
        }
    }

    /// Tab: the next of the player's objects under the last click (Shift+Tab: the previous),
    /// when one of them alone is selected — a dozer hidden behind a tank is a Tab away.
    fn next_under_click(&mut self) {
        let back = self.pic.selection.shift;
        if let Some(id) = self.pic.selection.next_under_click(self.play.world(), back) {
            self.send(Command::Select { objects: vec![id], add: false });
        }
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

    /// Whether Shift is held (it adds clicks and boxes to the selection, and queues orders).
    pub fn set_shift(&mut self, held: bool) {
        self.pic.selection.shift = held;
    }

    /// When an order given now starts, as Shift says (the simulation's [`OrderTiming`] rule).
    fn timing(&self) -> OrderTiming {
        OrderTiming::from_shift(self.pic.selection.shift)
    }

    /// Centres the camera on a ground point (the radar, alerts).
    pub fn look_at(&mut self, p: Vec2) {
        self.pic.view.look_at(p, self.scene);
    }

    /// Orders the selection to move to a ground point (a right click on the radar); nothing
    /// when nothing is selected.
    pub fn move_selection_to(&mut self, p: Vec2) {
        if !self.pic.selection.ids.is_empty() {
            self.send(Command::Move { to: to_point(p) });
        }
    }

    /// Gives the armed attack-move to a ground point (a left click on the radar after A); false,
    /// and nothing happens, when none is armed or nothing is selected.
    pub fn attack_move_to(&mut self, p: Vec2) -> bool {
        if !self.pic.pending.attack_move || self.pic.selection.ids.is_empty() || self.play.watches() {
            return false;
        }
        self.pic.pending.attack_move = false;
        self.send(Command::AttackMove { to: to_point(p) });
        self.pic.markers.mark(p, Intent::Attack, &self.pic.selection.ids);
        true
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

    /// A control-bar button was clicked (with Shift, a unit is queued five times).
    pub fn command_button(&mut self, index: usize) {
        let Some(button) = self.look().commands().into_iter().nth(index) else { return };
        match button.action {
            Action::Produce { factory, template } => {
                // Shift queues five.
                for _ in 0..if self.pic.selection.shift { SHIFT_QUEUES } else { 1 } {
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
            Action::Resume(site) => self.send(Command::Resume { site }),
            Action::Stop => self.send(Command::Stop),
            Action::Guard => self.guard(),
            Action::AttackMove => {
                self.pic.pending.placing = None;
                self.pic.pending.attack_move = true;
            }
            Action::Scatter => self.send(Command::Scatter),
            Action::Formation(on) => self.send(Command::Formation { on }),
            Action::BuildMenu(open) => {
                self.pic.pending.build_menu = open.then(|| self.pic.selection.ids.clone());
            }
        }
    }

    /// Leaves a pending mode (placing, attack-move), else closes a mixed selection's build
    /// menu; false if there was neither.
    pub fn cancel_mode(&mut self) -> bool {
        let menu = self.look().bar().build_menu;
        let p = &mut self.pic.pending;
        if p.placing.is_some() || p.attack_move {
            p.placing = None;
            p.attack_move = false;
            return true;
        }
        p.build_menu = None;
        menu
    }

    /// A mouse button went down (under the result's banner: on to the score screen).
    pub fn mouse_down(&mut self, button: MouseButton, at: Vec2) {
        self.pic.view.cursor = at;
        if self.play.finished() {
            self.play.result_skipped = true; // under the result's banner: on to the score
            return;
        }
        if self.play.watches() {
            return; // a watcher gives no orders and selects nothing
        }
        match button {
            MouseButton::Left if self.pic.pending.placing.is_some() => {
                let ground = self.look().ground_under(at);
                if let (Some(template), Some(p)) = (self.pic.pending.placing.take(), ground) {
                    let timing = self.timing();
                    // A red outline is not queued (Shift): the player is told why at once.
                    let refusal = self.look().placement_refusal(template, p);
                    if let (OrderTiming::Queued, Some(why)) = (timing, refusal) {
                        let line = super::control_bar::describe(&why, &self.play.game.content.defs, &self.hud.labels);
                        self.hud.control_bar.say(line, self.play.elapsed);
                        self.pic.pending.placing = Some(template);
                        return;
                    }
                    self.send(timing.apply(Command::Build { template, at: to_point(p) }));
                    self.pic.markers.mark_structure(template, to_point(p), &self.pic.selection.ids);
                    if timing == OrderTiming::Queued {
                        // Queued after what the builder is doing: the next one may be placed at once.
                        self.pic.pending.placing = Some(template);
                    }
                }
            }
            MouseButton::Right if self.pic.pending.placing.is_some() => self.pic.pending.placing = None,
            MouseButton::Left if self.pic.pending.attack_move => {
                self.pic.pending.attack_move = false;
                if let Some(p) = self.look().ground_under(at).filter(|_| !self.pic.selection.ids.is_empty()) {
                    let order = self.timing().apply(Command::AttackMove { to: to_point(p) });
                    self.send(order);
                    self.pic.markers.mark(p, Intent::Attack, &self.pic.selection.ids);
                }
            }
            MouseButton::Left => self.pic.pending.press = Some(at),
            MouseButton::Right => {
                self.pic.pending.attack_move = false;
                self.order_at(at);
            }
        }
    }

    /// A key that types `c` went down, Ctrl held or not (see [`Controls::press`]).
    pub fn hotkey(&mut self, c: char, ctrl: bool) {
        if let Some(chord) = Chord::character(c, ctrl) {
            self.press(chord);
        }
    }

    /// A key went down: what the player's keys ([`KeyMap`](super::super::keys::KeyMap)) give
    /// on it. A key a button on the control bar shows presses that button; otherwise its
    /// command runs (the army's orders when something is selected, a slot's key the button in
    /// that place, groups, the camera, alerts, pause and speed); under the result's banner, any
    /// key goes on to the score screen. A watcher has only the pace,
    /// the camera and the alerts. Returns the command the key gave, if any; the alert log's is
    /// left to the client (the log is the shell's window).
    pub fn press(&mut self, chord: Chord) -> Option<KeyCommand> {
        if self.play.finished() {
            self.play.result_skipped = true; // under the result's banner: on to the score
            return None;
        }
        let watcher = self.play.watches();
        let shown = self.look().commands().iter().position(|b| b.key == Some(chord));
        let commands: Vec<KeyCommand> = self.hud.keys.commands(chord).collect();
        if let (false, Some(i)) = (watcher, shown) {
            self.command_button(i);
            return commands.first().copied();
        }
        let command = commands.into_iter().find(|c| !watcher || c.for_watchers())?;
        self.run_key(command);
        Some(command)
    }

    /// Gives `command` as its key would (a button in a layout declaring `battle:stop`); a
    /// watcher has only the pace, the camera and the alerts.
    pub fn give(&mut self, command: KeyCommand) {
        if !self.play.watches() || command.for_watchers() {
            self.run_key(command);
        }
    }

    /// A key went up: a scrolling key stops scrolling (whatever Ctrl did meanwhile).
    pub fn release(&mut self, chord: Chord) {
        let held: Vec<KeyCommand> =
            self.hud.keys.entries().iter().filter(|(_, k)| k.key == chord.key).map(|(c, _)| *c).collect();
        for c in held {
            if let Some(direction) = scroll_direction(c) {
                self.pic.view.scroll_key(direction, false);
            }
        }
    }

    /// Guard where the selection stands, marked at the middle of its units.
    fn guard(&mut self) {
        self.send(Command::Guard { at: None });
        let world = self.play.world();
        let units: Vec<glam::Vec2> = self
            .pic
            .selection
            .ids
            .iter()
            .filter_map(|&id| world.object(id))
            .filter(|o| o.owner == self.play.local && world.rules().template(o.template).is_mobile())
            .map(|o| super::super::display::to_display(o.pos))
            .collect();
        if !units.is_empty() {
            let middle = units.iter().sum::<glam::Vec2>() / units.len() as f32;
            self.pic.markers.mark(middle, Intent::Guard, &self.pic.selection.ids);
        }
    }

    /// Runs the command a key gave.
    fn run_key(&mut self, command: KeyCommand) {
        let selected = !self.pic.selection.ids.is_empty();
        match command {
            KeyCommand::Stop if selected => self.send(Command::Stop),
            KeyCommand::Guard if selected => self.guard(),
            KeyCommand::AttackMove if selected => self.pic.pending.attack_move = true,
            KeyCommand::Scatter if selected => self.send(Command::Scatter),
            KeyCommand::Formation if selected => {
                let on = self.look().bar().formation_on();
                self.send(Command::Formation { on: !on });
            }
            // Nothing in that place: nothing happens.
            KeyCommand::Slot(n) => self.command_button(usize::from(n).saturating_sub(1)),
            KeyCommand::SelectArmy => self.select_army(),
            KeyCommand::IdleWorker => self.next_idle_worker(),
            KeyCommand::NextUnderClick => self.next_under_click(),
            KeyCommand::StoreGroup(n) => self.pic.selection.store(usize::from(n)),
            KeyCommand::RecallGroup(n) => self.recall_group(usize::from(n)),
            KeyCommand::AlertJump => {
                self.jump_to_alert();
            }
            KeyCommand::Pause => self.report_pace(Self::toggle_pause),
            KeyCommand::Faster => self.report_pace(Self::faster),
            KeyCommand::Slower => self.report_pace(Self::slower),
            scroll => {
                if let Some(direction) = scroll_direction(scroll) {
                    self.pic.view.scroll_key(direction, true);
                }
            }
        }
    }

    /// Selects every fighting unit of the player's (no builders or gatherers), as many as a
    /// selection holds; nothing when there is none.
    fn select_army(&mut self) {
        let world = self.play.world();
        let rules = world.rules();
        let army: Vec<ObjectId> = world
            .objects()
            .filter(|o| o.owner == self.play.local && o.is_complete())
            .filter(|o| rules.template(o.template).is_mobile() && !rules.template(o.template).is_worker())
            .map(|o| o.id)
            .take(MAX_SELECTION)
            .collect();
        if !army.is_empty() {
            self.select(army);
        }
    }

    /// `.`: selects the next idle builder or gatherer (after the one selected, in id order,
    /// round to the first) and brings the camera to it; nothing when every worker is at work.
    fn next_idle_worker(&mut self) {
        let world = self.play.world();
        let idle: Vec<ObjectId> = world
            .objects()
            .filter(|o| o.owner == self.play.local && o.order == crate::sim::object::Order::Idle && o.is_complete())
            .filter(|o| world.rules().template(o.template).is_worker())
            .map(|o| o.id)
            .collect();
        let after = self.pic.selection.ids.first().copied();
        let Some(&next) = idle.iter().find(|&&id| after.is_some_and(|a| id > a)).or(idle.first()) else { return };
        if let Some(o) = world.object(next) {
            let p = to_display(o.pos);
            self.pic.view.look_at(p, self.scene);
        }
        self.select(vec![next]);
    }

    /// Runs a pause or speed key; a stream that refuses it (it never should) is logged.
    fn report_pace(&mut self, f: fn(&mut Self) -> Result<(), BattleError>) {
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
            self.pic.view.look_at(centre, self.scene);
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
            let under = self.look().picks(at, |o| o == self.play.local);
            let first = under.first().copied();
            self.pic.selection.note_under_click(under);
            first.into_iter().collect()
        } else {
            let (min, max) = (from.min(at), from.max(at));
            let boxed: Vec<&crate::sim::object::Object> = world
                .objects()
                .filter(|o| o.owner == self.play.local && world.rules().template(o.template).is_mobile())
                .filter(|o| {
                    self.pic
                        .view
                        .screen_pos(world, o.id, self.scene)
                        .is_some_and(|p| p.cmpge(min).all() && p.cmple(max).all())
                })
                .collect();
            // A box over the army and its workers takes the army only (builders and gatherers
            // stay at work); a box over workers alone takes them.
            let worker = |o: &&crate::sim::object::Object| world.rules().template(o.template).is_worker();
            let army = boxed.iter().any(|o| !worker(o));
            boxed.iter().filter(|o| !army || !worker(o)).map(|o| o.id).take(MAX_SELECTION).collect()
        };
        // A double click selects every unit of that kind on screen.
        if let (true, Some(kind)) = (double, picked.first().and_then(|&one| world.object(one)).map(|o| o.template)) {
            picked = world
                .objects()
                .filter(|o| o.owner == self.play.local && o.template == kind)
                .filter(|o| {
                    self.pic.view.screen_pos(world, o.id, self.scene).is_some_and(|p| self.pic.view.on_screen(p))
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
    /// With Shift a move to the ground is queued after what the units are doing (a waypoint):
    /// the simulation's rule ([`crate::sim::World::order_for`]) says so.
    fn order_at(&mut self, at: Vec2) {
        let (intent, commands, place) = self.look().right_click(at);
        for c in commands {
            self.send(c);
        }
        if let Some(p) = place {
            self.pic.markers.mark(p, intent, &self.pic.selection.ids);
        }
    }
}

/// The scrolling direction a command holds (0 left, 1 right, 2 up, 3 down), if it scrolls.
fn scroll_direction(command: KeyCommand) -> Option<usize> {
    match command {
        KeyCommand::ScrollLeft => Some(0),
        KeyCommand::ScrollRight => Some(1),
        KeyCommand::ScrollUp => Some(2),
        KeyCommand::ScrollDown => Some(3),
        _ => None,
    }
}
