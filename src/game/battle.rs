//! A battle on this machine: the local session (world, stream, controllers), the scene and the
//! camera, the local player's selection as shown, and the translation of mouse and keys into
//! commands. Logic runs at 30 frames a second; the picture is interpolated in between.
//!
//! Must not: change the world; every order goes through the stream as a command.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::Sender;

use glam::{Mat4, Vec2, Vec3};
use thiserror::Error;

use crate::ai::SkirmishAi;
use crate::content::ContentRoots;
use crate::defs::{AiPlans, Definitions};
use crate::map::{Map, MapContent};
use crate::net::MemoryEndpoint;
use crate::render::ObjectInstance;
use crate::session::players::Difficulty;
use crate::session::replay::{CommandLog, REPLAY_VERSION};
use crate::session::setup::game_setup;
use crate::session::{Controller, Idle, PlayersSpec, Queued, Recording, Replay, Session, Step, local_session};
use crate::sim::command::{Command, MAX_SELECTION, Point, RejectReason};
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::object::Object;
use crate::sim::{FRAMES_PER_SECOND, PlayerId, World};
use crate::sim::{Fixed, Vec2 as SimVec2};
use crate::ui::draw::DrawCmd;
use crate::ui::{Key, MouseButton, Rect};

use super::camera::Camera;
use super::scene::{PLAYER_COLORS, Pose, Scene, poses, shown_to, to_display};
use super::shell::{SkirmishConfig, SlotChoice};
use super::shroud::{self, Shroud};

/// Seconds of one logic frame.
const FRAME: f32 = 1.0 / FRAMES_PER_SECOND as f32;
/// Most logic frames run for one drawn frame (after a stall the game slows, never spirals).
const MAX_CATCH_UP: u32 = 4;
/// Pixels within which a click picks an object.
const PICK_PX: f32 = 18.0;
/// Pixels the mouse must move with the button down to draw a selection box.
const DRAG_PX: f32 = 5.0;
/// Seconds between the clicks of a double click.
const DOUBLE_CLICK: f32 = 0.4;

/// Seconds a refused order's reason stays in the control bar.
const NOTICE_SECONDS: f32 = 3.0;

/// Seconds a destruction ring stays on screen.
const BLAST_SECONDS: f32 = 0.6;

/// Where something was destroyed, drawn as a widening, fading ring (display state only).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Blast {
    at: Vec3,
    size: f32,
    age: f32,
}

/// Seconds a shot's tracer stays on screen.
const SHOT_SECONDS: f32 = 0.15;

/// What a control-bar button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Queue a unit at a structure.
    Produce {
        /// The structure.
        factory: ObjectId,
        /// The unit.
        template: TemplateId,
    },
    /// Choose where a selected builder puts a structure.
    Place(TemplateId),
}

/// One control-bar button for the current selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandButton {
    /// Its text: name and price.
    pub label: String,
    /// What it does.
    pub action: Action,
    /// False while the player cannot afford it or lacks a structure it needs (the button
    /// greys out; the simulation would refuse it anyway).
    pub available: bool,
}

/// A shot just fired, drawn as a fading tracer (display state only).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shot {
    from: Vec3,
    to: Vec3,
    age: f32,
}

/// Camera pan speed at zoom 1, world units a second.
const PAN_SPEED: f32 = 420.0;
/// Pixels from the screen edge that scroll the camera.
const EDGE_PX: f32 = 3.0;

/// Why a battle could not start or go on.
#[derive(Debug, Error)]
pub enum BattleError {
    /// Content (map, definitions) is broken, or the setup is impossible.
    #[error("{0}")]
    Setup(String),
    /// The session stopped.
    #[error(transparent)]
    Session(#[from] crate::session::SessionError),
}

/// What a replay needs besides the commands: the setup, as the battle began.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Recorded {
    map: String,
    players: String,
    colors: Vec<usize>,
    seed: u64,
}

/// A running battle.
pub struct Battle {
    session: Session<MemoryEndpoint>,
    /// Every command issued, for the replay.
    log: CommandLog,
    /// The setup, for the replay.
    recorded: Recorded,
    /// When watching a replay: its length and final hash.
    watching: Option<(u32, String)>,
    /// What is drawn.
    pub scene: Scene,
    /// The local player's view.
    pub camera: Camera,
    orders: Sender<Command>,
    local: PlayerId,
    previous: BTreeMap<ObjectId, Pose>,
    /// Objects lost, per player slot.
    lost: Vec<u32>,
    /// Seconds since the game ended.
    ended_for: f32,
    /// Tracers of recent shots.
    shots: Vec<Shot>,
    /// Rings where objects were destroyed.
    blasts: Vec<Blast>,
    since_tick: f32,
    selection: Vec<ObjectId>,
    press: Option<Vec2>,
    /// The next left click gives an attack-move order (after the attack-move key).
    attack_move_armed: bool,
    /// The structure being placed: the next left click puts it down.
    placing: Option<TemplateId>,
    /// Control groups 0–9 (display state: recalling one sends a Select).
    groups: [Vec<ObjectId>; 10],
    /// The group last recalled and when (seconds of battle time), for double taps.
    last_recall: Option<(usize, f32)>,
    /// Seconds since the battle began, wall time as the battle saw it.
    elapsed: f32,
    cursor: Vec2,
    screen: Vec2,
    /// Arrow keys held: left, right, up, down.
    arrows: [bool; 4],
    /// What the local player's team sees.
    shroud: Shroud,
    /// The last refusal of one of the local player's orders, and when (battle seconds).
    notice: Option<(String, f32)>,
    /// Where and when (battle seconds) the last single click was, for double clicks.
    last_click: Option<(Vec2, f32)>,
    /// Shift is held.
    shift: bool,
}

impl Battle {
    /// Starts the skirmish `cfg` on the map in `map_dir`. Computer slots are skirmish AIs of
    /// their difficulty; the human's orders go through the same stream as everyone's.
    pub fn start(
        roots: &ContentRoots,
        cfg: &SkirmishConfig,
        map_dir: &Path,
        factions: &[String],
        screen: Vec2,
    ) -> Result<Battle, BattleError> {
        let setup_err = |e: &dyn std::fmt::Display| BattleError::Setup(e.to_string());
        let defs = Definitions::load(roots).map_err(|e| setup_err(&e))?;
        let content = MapContent::load(roots).map_err(|e| setup_err(&e))?;
        let map = Map::load(map_dir).map_err(|e| setup_err(&e))?;
        if let Some(first) = map.check(&content, &defs.rules).first() {
            return Err(setup_err(first));
        }
        let slots: Vec<_> = cfg.slots.iter().filter(|s| s.who != SlotChoice::Closed).collect();
        // The same slots as a players spec: idle here (controllers are set below), scripted
        // in the replay.
        let spec_as = |kind: &str| {
            slots
                .iter()
                .map(|s| factions.get(s.faction).map_or(kind.to_string(), |f| format!("{kind}@{f}")))
                .collect::<Vec<_>>()
                .join(",")
        };
        let spec_text = spec_as("idle");
        let spec: PlayersSpec = spec_text.parse().map_err(|e| setup_err(&e))?;
        let setup = game_setup(&defs, &map, &content, &spec, cfg_seed(cfg)).map_err(|e| setup_err(&e))?;
        let world = World::new(setup).map_err(|e| setup_err(&e))?;
        let local = PlayerId(slots.iter().position(|s| s.who == SlotChoice::Human).unwrap_or(0) as u8);
        let (human, orders) = Queued::new(local);
        let plans = AiPlans::load(roots).map_err(|e| setup_err(&e))?;
        let mut controllers: Vec<Box<dyn Controller>> = Vec::new();
        for (i, slot) in slots.iter().enumerate() {
            let id = PlayerId(i as u8);
            match slot.who {
                SlotChoice::Computer(level) => {
                    let difficulty = Difficulty::ALL[(level as usize).min(Difficulty::ALL.len() - 1)];
                    let plan = plans.get(difficulty.name()).ok_or_else(|| {
                        BattleError::Setup(format!("data/ai.ron has no plan \"{}\"", difficulty.name()))
                    })?;
                    controllers.push(Box::new(SkirmishAi::new(id, plan.clone())));
                }
                _ if id != local => controllers.push(Box::new(Idle(id))),
                _ => {}
            }
        }
        controllers.push(Box::new(human));
        let log = CommandLog::default();
        let controllers: Vec<Box<dyn Controller>> =
            controllers.into_iter().map(|c| Box::new(Recording::new(c, log.clone())) as Box<dyn Controller>).collect();
        let session = local_session(world, controllers)?;
        let mut scene = Scene::new(roots, map, &content, &defs).map_err(|e| setup_err(&e))?;
        scene.colors = slots.iter().map(|s| s.color).collect();
        let mut battle = Battle::new(session, scene, local, orders, screen);
        battle.log = log;
        battle.recorded = Recorded {
            map: map_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            players: spec_as("scripted"),
            colors: slots.iter().map(|s| s.color).collect(),
            seed: cfg_seed(cfg),
        };
        Ok(battle)
    }

    /// Plays a replay: every player is driven by the recorded commands, through the same
    /// stream; the view is the recording player's.
    pub fn watch(roots: &ContentRoots, replay: &Replay, screen: Vec2) -> Result<Battle, BattleError> {
        let setup_err = |e: &dyn std::fmt::Display| BattleError::Setup(e.to_string());
        let defs = Definitions::load(roots).map_err(|e| setup_err(&e))?;
        let content = MapContent::load(roots).map_err(|e| setup_err(&e))?;
        let map = Map::find_and_load(roots, &replay.map).map_err(|e| setup_err(&e))?;
        let spec: PlayersSpec = replay.players.parse().map_err(|e| setup_err(&e))?;
        let setup = game_setup(&defs, &map, &content, &spec, replay.seed).map_err(|e| setup_err(&e))?;
        let world = World::new(setup).map_err(|e| setup_err(&e))?;
        let plans = AiPlans::load(roots).map_err(|e| setup_err(&e))?;
        let controllers =
            crate::session::setup::controllers(&spec, &replay.script(), &plans).map_err(|e| setup_err(&e))?;
        let session = local_session(world, controllers)?;
        let mut scene = Scene::new(roots, map, &content, &defs).map_err(|e| setup_err(&e))?;
        scene.colors = replay.colors.clone();
        // Nobody gives orders in a replay.
        let (_, orders) = Queued::new(PlayerId(replay.local));
        let mut battle = Battle::new(session, scene, PlayerId(replay.local), orders, screen);
        battle.watching = Some((replay.frames, replay.final_hash.clone()));
        Ok(battle)
    }

    /// True once the game is over, or a watched replay has reached its recorded end.
    fn finished(&self) -> bool {
        let frame = self.session.world().frame().0;
        self.session.world().is_over() || self.watching.as_ref().is_some_and(|(frames, _)| frame >= *frames)
    }

    /// True when this battle is a replay being watched.
    pub fn is_replay(&self) -> bool {
        self.watching.is_some()
    }

    /// For a replay that has played to its end: whether it reached the recorded final state.
    pub fn replay_verdict(&self) -> Option<bool> {
        let (frames, hash) = self.watching.as_ref()?;
        let world = self.session.world();
        (world.frame().0 >= *frames).then(|| format!("{:016x}", world.state_hash().total) == *hash)
    }

    /// The game so far as a replay (played back, it gives this very game).
    pub fn replay(&self) -> Replay {
        let world = self.session.world();
        Replay {
            version: REPLAY_VERSION,
            map: self.recorded.map.clone(),
            players: self.recorded.players.clone(),
            colors: self.recorded.colors.clone(),
            seed: self.recorded.seed,
            local: self.local.0,
            frames: world.frame().0,
            final_hash: format!("{:016x}", world.state_hash().total),
            commands: self.log.borrow().clone(),
        }
    }

    /// A battle over a running session, seen by `local`, whose orders go to `orders` (the
    /// sender of that player's [`Queued`] controller).
    pub fn new(
        session: Session<MemoryEndpoint>,
        scene: Scene,
        local: PlayerId,
        orders: Sender<Command>,
        screen: Vec2,
    ) -> Battle {
        let camera = scene.start_camera(local);
        let previous = poses(session.world());
        let (w, h) = scene.map.file.size;
        let mut shroud = Shroud::new(w, h, scene.map.file.cell_size as f32);
        shroud.update(session.world(), local);
        let lost = vec![0; session.world().players().len()];
        Battle {
            session,
            log: CommandLog::default(),
            recorded: Recorded::default(),
            watching: None,
            scene,
            camera,
            orders,
            local,
            previous,
            lost,
            ended_for: 0.0,
            shots: Vec::new(),
            blasts: Vec::new(),
            since_tick: 0.0,
            selection: Vec::new(),
            press: None,
            attack_move_armed: false,
            placing: None,
            groups: Default::default(),
            last_recall: None,
            elapsed: 0.0,
            cursor: screen / 2.0,
            screen,
            arrows: [false; 4],
            shroud,
            notice: None,
            last_click: None,
            shift: false,
        }
    }

    /// What the local player's team sees.
    pub fn shroud(&self) -> &Shroud {
        &self.shroud
    }

    /// True if the local player may see `id` now.
    fn sees(&self, id: ObjectId) -> bool {
        let world = self.session.world();
        world.object(id).is_some_and(|o| shown_to(world, o, self.local, &self.shroud))
    }

    /// The world as of the last executed frame.
    pub fn world(&self) -> &World {
        self.session.world()
    }

    /// The local player.
    pub fn local(&self) -> PlayerId {
        self.local
    }

    /// Objects shown as selected.
    pub fn selection(&self) -> &[ObjectId] {
        &self.selection
    }

    /// Lets `dt` seconds pass: the camera moves, and logic frames run as they fall due.
    pub fn advance(&mut self, dt: f32) -> Result<(), BattleError> {
        let dt = dt.clamp(0.0, 0.25);
        self.elapsed += dt;
        self.scroll(dt);
        self.since_tick += dt;
        let mut ran = 0;
        if self.finished() {
            self.ended_for += dt;
        }
        while self.since_tick >= FRAME && ran < MAX_CATCH_UP && !self.finished() {
            self.previous = poses(self.session.world());
            if let Step::Ticked { report, .. } = self.session.step()? {
                if let Some(r) = report.rejections.iter().rev().find(|r| r.player == self.local) {
                    self.notice = Some((describe(&r.reason, self.session.world()), self.elapsed));
                }
                for id in &report.destroyed {
                    // The poses from before the frame still hold what was destroyed in it.
                    let Some(pose) = self.previous.get(id) else { continue };
                    if let Some(n) = self.lost.get_mut(pose.owner.index()) {
                        *n += 1;
                    }
                    // A ring where it fell, if the player could see it.
                    if self.shroud.at(pose.pos) == shroud::VISIBLE {
                        let at = pose.pos.extend(self.scene.height(pose.pos));
                        self.blasts.push(Blast { at, size: 8.0, age: 0.0 });
                    }
                }
                self.shroud.update(self.session.world(), self.local);
                self.note_shots();
            }
            self.since_tick -= FRAME;
            ran += 1;
        }
        if ran == MAX_CATCH_UP {
            self.since_tick = self.since_tick.min(FRAME);
        }
        for s in &mut self.shots {
            s.age += dt;
        }
        self.shots.retain(|s| s.age < SHOT_SECONDS);
        for b in &mut self.blasts {
            b.age += dt;
        }
        self.blasts.retain(|b| b.age < BLAST_SECONDS);
        let world = self.session.world();
        self.selection.retain(|id| world.object(*id).is_some());
        Ok(())
    }

    /// Remembers the shots fired in the frame just executed: a weapon whose cooldown was just
    /// reset to its full reload fired at the object's target.
    fn note_shots(&mut self) {
        let world = self.session.world();
        let rules = world.rules();
        for o in world.objects() {
            let Some(target) = o.target.and_then(|t| world.object(t)) else { continue };
            let Some(&weapon) = rules.template(o.template).weapons.first() else { continue };
            if o.cooldown == 0 || o.cooldown != rules.weapon(weapon).reload_frames {
                continue;
            }
            if !self.sees(o.id) && !self.sees(target.id) {
                continue; // a fight in the dark stays dark
            }
            let at = |p: Vec2, h: f32| Vec3::new(p.x, p.y, self.scene.height(p) + h);
            let (from, to) = (to_display(o.pos), to_display(target.pos));
            self.shots.push(Shot {
                from: at(from, self.scene.model_height(o.template) * 0.7),
                to: at(to, self.scene.model_height(target.template) * 0.5),
                age: 0.0,
            });
        }
    }

    fn scroll(&mut self, dt: f32) {
        let held = |i: usize| if self.arrows[i] { 1.0 } else { 0.0 };
        let mut dir = Vec2::new(held(1) - held(0), held(2) - held(3));
        let (c, s) = (self.cursor, self.screen);
        if s.x > 0.0 && s.y > 0.0 {
            if c.x <= EDGE_PX {
                dir.x -= 1.0;
            } else if c.x >= s.x - 1.0 - EDGE_PX {
                dir.x += 1.0;
            }
            if c.y <= EDGE_PX {
                dir.y += 1.0;
            } else if c.y >= s.y - 1.0 - EDGE_PX {
                dir.y -= 1.0;
            }
        }
        if dir != Vec2::ZERO {
            self.camera.pan(dir.normalize() * PAN_SPEED / self.camera.zoom * dt);
            self.camera.clamp_to(self.scene.size());
            let t = self.camera.target.truncate();
            self.camera.target.z = self.scene.height(t);
        }
    }

    /// Seconds of play so far.
    pub fn clock(&self) -> u32 {
        self.session.world().frame().0 / FRAMES_PER_SECOND
    }

    /// The local player's money.
    pub fn money(&self) -> i64 {
        self.session.world().players().get(self.local.index()).map_or(0, |p| p.money)
    }

    /// Seconds since the game ended (0 while it goes on).
    pub fn ended_for(&self) -> f32 {
        self.ended_for
    }

    /// The outcome for the local player and a score row per player: name, units lost, enemy
    /// units destroyed, structures standing, score.
    pub fn summary(&self) -> (String, Vec<Vec<String>>) {
        let world = self.session.world();
        let players = world.players();
        let team = |p: PlayerId| players.get(p.index()).map(|x| x.team);
        let outcome = match world.winner() {
            Some(w) if team(w) == team(self.local) => "Victory",
            Some(_) => "Defeat",
            None if world.is_over() => "Draw",
            None => "Battle left",
        };
        let rows = players
            .iter()
            .map(|p| {
                let destroyed: u32 = players
                    .iter()
                    .filter(|q| q.team != p.team)
                    .map(|q| self.lost.get(q.id.index()).copied().unwrap_or(0))
                    .sum();
                let lost = self.lost.get(p.id.index()).copied().unwrap_or(0);
                let structures = world
                    .objects()
                    .filter(|o| o.owner == p.id && world.rules().template(o.template).kind.blocks_ground())
                    .count();
                let name = if p.id == self.local { "You".to_string() } else { format!("Computer {}", p.id.0 + 1) };
                let score = (100 * destroyed as i64 + 50 * structures as i64 - 25 * lost as i64).max(0);
                vec![name, lost.to_string(), destroyed.to_string(), structures.to_string(), score.to_string()]
            })
            .collect();
        (outcome.to_string(), rows)
    }

    /// How far the picture is between the last two logic frames (0..1).
    pub fn alpha(&self) -> f32 {
        (self.since_tick / FRAME).clamp(0.0, 1.0)
    }

    /// The view-projection matrix for the current screen.
    pub fn view_proj(&self) -> Mat4 {
        self.camera.view_proj(self.screen.x / self.screen.y.max(1.0))
    }

    /// What to draw, interpolated between the last two frames.
    pub fn instances(&self) -> Vec<Vec<ObjectInstance>> {
        self.scene.instances(self.session.world(), Some(&self.previous), self.alpha(), Some((self.local, &self.shroud)))
    }

    /// The screen size changed.
    pub fn resize(&mut self, screen: Vec2) {
        self.screen = screen;
    }

    /// A key went down or up; arrows scroll the camera while held.
    pub fn key(&mut self, key: Key, down: bool) {
        let i = match key {
            Key::Left => 0,
            Key::Right => 1,
            Key::Up => 2,
            Key::Down => 3,
            _ => return,
        };
        self.arrows[i] = down;
    }

    /// The wheel turned (positive: away from the player, zoom in).
    pub fn wheel(&mut self, delta: f32) {
        self.camera.zoom_by(1.12f32.powf(delta));
    }

    /// The mouse moved.
    pub fn mouse_move(&mut self, at: Vec2) {
        self.cursor = at;
    }

    /// A mouse button went down.
    pub fn mouse_down(&mut self, button: MouseButton, at: Vec2) {
        self.cursor = at;
        match button {
            MouseButton::Left if self.placing.is_some() => {
                if let (Some(template), Some(p)) = (self.placing.take(), self.ground_under(at)) {
                    self.send(Command::Build { template, at: point(p) });
                }
            }
            MouseButton::Right if self.placing.is_some() => self.placing = None,
            MouseButton::Left if self.attack_move_armed => {
                self.attack_move_armed = false;
                if let Some(p) = self.ground_under(at).filter(|_| !self.selection.is_empty()) {
                    self.send(Command::AttackMove { to: point(p) });
                }
            }
            MouseButton::Left => self.press = Some(at),
            MouseButton::Right => {
                self.attack_move_armed = false;
                self.order_at(at);
            }
        }
    }

    /// A letter or digit key in the battle: S stops, G guards where the units stand, A arms an
    /// attack-move for the next left click; Ctrl+digit stores the selection as a control
    /// group, a digit selects the group again (twice quickly: the camera goes to it).
    pub fn hotkey(&mut self, c: char, ctrl: bool) {
        match c.to_ascii_lowercase() {
            's' if !self.selection.is_empty() => self.send(Command::Stop),
            'g' if !self.selection.is_empty() => self.send(Command::Guard { at: None }),
            'a' if !self.selection.is_empty() => self.attack_move_armed = true,
            d @ '0'..='9' => {
                let n = d as usize - '0' as usize;
                if ctrl {
                    self.groups[n] = self.selection.clone();
                } else {
                    self.recall_group(n);
                }
            }
            _ => {}
        }
    }

    /// Leaves a pending mode (placing, attack-move); false if there was none.
    pub fn cancel_mode(&mut self) -> bool {
        let had = self.placing.is_some() || self.attack_move_armed;
        self.placing = None;
        self.attack_move_armed = false;
        had
    }

    /// The structure being placed, if any.
    pub fn placing(&self) -> Option<TemplateId> {
        self.placing
    }

    /// The selected object whose buttons the control bar shows: the first (by id) that can
    /// build or produce something.
    fn subject(&self) -> Option<&Object> {
        let world = self.session.world();
        self.selection
            .iter()
            .filter_map(|id| world.object(*id))
            .find(|o| o.owner == self.local && !world.rules().template(o.template).builds.is_empty())
    }

    /// The control bar's buttons for the current selection.
    pub fn commands(&self) -> Vec<CommandButton> {
        let world = self.session.world();
        let rules = world.rules();
        let Some(o) = self.subject() else { return Vec::new() };
        let structure = o.kind.blocks_ground();
        if structure && !o.is_complete() {
            return Vec::new();
        }
        let money = world.players().get(self.local.index()).map_or(0, |p| p.money);
        let has =
            |need: TemplateId| world.objects().any(|x| x.owner == self.local && x.template == need && x.is_complete());
        rules
            .template(o.template)
            .builds
            .iter()
            .map(|&template| {
                let t = rules.template(template);
                let action =
                    if structure { Action::Produce { factory: o.id, template } } else { Action::Place(template) };
                let available = t.cost <= money && t.prerequisites.iter().all(|&p| has(p));
                CommandButton { label: format!("{} ${}", t.name, t.cost), action, available }
            })
            .collect()
    }

    /// The control bar's second line: a refused order for a few seconds, else the subject's
    /// queue or construction progress.
    pub fn queue_text(&self) -> String {
        if let Some((text, at)) = &self.notice {
            if self.elapsed - at < NOTICE_SECONDS {
                return text.clone();
            }
        }
        let world = self.session.world();
        let rules = world.rules();
        let Some(o) = self.subject() else { return String::new() };
        if let Some(left) = o.construction {
            let total = rules.template(o.template).build_frames.max(1);
            let done = 100 * (total - left.min(total)) / total;
            return format!("Under construction: {done}%");
        }
        let queue = world.factories().queue(o.id);
        if queue.is_empty() {
            return if o.kind.blocks_ground() {
                "Ready".to_string()
            } else {
                "Choose a structure to build".to_string()
            };
        }
        let items: Vec<String> = queue
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let name = &rules.template(j.template).name;
                if i == 0 { format!("{name} ({}s)", j.remaining.div_ceil(FRAMES_PER_SECOND)) } else { name.clone() }
            })
            .collect();
        format!("Building: {}", items.join(", "))
    }

    /// A control-bar button was clicked.
    pub fn command_button(&mut self, index: usize) {
        let Some(button) = self.commands().into_iter().nth(index) else { return };
        match button.action {
            Action::Produce { factory, template } => self.send(Command::Produce { factory, template }),
            Action::Place(template) => {
                self.attack_move_armed = false;
                self.placing = Some(template);
            }
        }
    }

    /// True while the next left click gives an attack-move order.
    pub fn attack_move_armed(&self) -> bool {
        self.attack_move_armed
    }

    fn recall_group(&mut self, n: usize) {
        let world = self.session.world();
        let members: Vec<ObjectId> = self.groups[n].iter().copied().filter(|id| world.object(*id).is_some()).collect();
        self.groups[n] = members.clone();
        if members.is_empty() {
            return;
        }
        let double = self.last_recall.is_some_and(|(g, t)| g == n && self.elapsed - t < 0.4);
        self.last_recall = Some((n, self.elapsed));
        if double {
            let pts: Vec<Vec2> = members.iter().filter_map(|id| world.object(*id)).map(|o| to_display(o.pos)).collect();
            let centre = pts.iter().copied().sum::<Vec2>() / pts.len().max(1) as f32;
            self.camera.target = centre.extend(self.scene.height(centre));
        }
        self.selection = members.clone();
        self.send(Command::Select { objects: members, add: false });
    }

    /// A mouse button went up: a click or a box selects.
    pub fn mouse_up(&mut self, button: MouseButton, at: Vec2) {
        self.cursor = at;
        if button != MouseButton::Left {
            return;
        }
        let Some(from) = self.press.take() else { return };
        let click = (at - from).length() < DRAG_PX;
        let double = click
            && self.last_click.is_some_and(|(p, t)| (p - at).length() < DRAG_PX && self.elapsed - t < DOUBLE_CLICK);
        self.last_click = click.then_some((at, self.elapsed));
        let mut picked: Vec<ObjectId> = if click {
            self.pick(at, |o| o == self.local).into_iter().collect()
        } else {
            let (min, max) = (from.min(at), from.max(at));
            self.session
                .world()
                .objects()
                .filter(|o| o.owner == self.local && self.world().rules().template(o.template).is_mobile())
                .filter(|o| self.screen_pos(o.id).is_some_and(|p| p.cmpge(min).all() && p.cmple(max).all()))
                .map(|o| o.id)
                .take(MAX_SELECTION)
                .collect()
        };
        // A double click selects every unit of that kind on screen.
        if let (true, Some(&one)) = (double, picked.first()) {
            let world = self.session.world();
            if let Some(kind) = world.object(one).map(|o| o.template) {
                let on_screen = |p: Vec2| p.x >= 0.0 && p.y >= 0.0 && p.x <= self.screen.x && p.y <= self.screen.y;
                picked = world
                    .objects()
                    .filter(|o| o.owner == self.local && o.template == kind)
                    .filter(|o| self.screen_pos(o.id).is_some_and(on_screen))
                    .map(|o| o.id)
                    .take(MAX_SELECTION)
                    .collect();
            }
        }
        // Shift adds to the selection.
        let add = self.shift && !picked.is_empty();
        if add {
            let mut all = self.selection.clone();
            all.extend(picked.iter().copied());
            all.sort();
            all.dedup();
            self.selection = all;
        } else {
            self.selection = picked.clone();
        }
        self.send(Command::Select { objects: picked, add });
    }

    /// Whether Shift is held (it adds clicks and boxes to the selection).
    pub fn set_shift(&mut self, held: bool) {
        self.shift = held;
    }

    /// Right click: attack an enemy under the cursor, or move there; with a structure
    /// selected alone, set its rally point.
    fn order_at(&mut self, at: Vec2) {
        if self.selection.is_empty() {
            return;
        }
        let world = self.session.world();
        let structures: Vec<ObjectId> = self
            .selection
            .iter()
            .copied()
            .filter(|id| world.object(*id).is_some_and(|o| o.kind.blocks_ground()))
            .collect();
        if structures.len() == self.selection.len() {
            if let Some(p) = self.ground_under(at) {
                let to = point(p);
                for factory in structures {
                    self.send(Command::SetRally { factory, at: to });
                }
            }
            return;
        }
        let local = self.local;
        let world = self.session.world();
        let enemy = self.pick(at, |owner| {
            owner != local
                && world.players().get(owner.index()).is_some_and(|p| p.team != world.players()[local.index()].team)
        });
        let world = self.session.world();
        let gatherers = self
            .selection
            .iter()
            .any(|id| world.object(*id).is_some_and(|o| world.rules().template(o.template).gather.is_some()));
        let pile = if gatherers { self.pick_supply(at) } else { None };
        match (enemy, pile) {
            (_, Some(pile)) => self.send(Command::Gather { pile }),
            (Some(target), None) => self.send(Command::Attack { target }),
            (None, None) => {
                if let Some(p) = self.ground_under(at) {
                    self.send(Command::Move { to: point(p) });
                }
            }
        }
    }

    /// The supply pile with money left nearest to `at` on screen, within reach of a click.
    fn pick_supply(&self, at: Vec2) -> Option<ObjectId> {
        let world = self.session.world();
        world
            .objects()
            .filter(|o| o.supply > 0)
            .filter_map(|o| self.screen_pos(o.id).map(|p| (o.id, (p - at).length())))
            .filter(|&(_, d)| d <= PICK_PX * 1.5)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    fn send(&self, command: Command) {
        // The receiver lives in the session's controller; it outlives the battle's input.
        let _ = self.orders.send(command);
    }

    /// The ground point under a pixel, following the terrain's height.
    pub fn ground_under(&self, at: Vec2) -> Option<Vec2> {
        let mut z = self.camera.target.z;
        let mut p = None;
        for _ in 0..3 {
            p = self.camera.ground_point(at, self.screen, z);
            z = self.scene.height(p?);
        }
        p
    }

    /// Where an object appears on the screen (its middle, a little above the ground).
    fn screen_pos(&self, id: ObjectId) -> Option<Vec2> {
        let o = self.session.world().object(id)?;
        let p = to_display(o.pos);
        self.camera.project(Vec3::new(p.x, p.y, self.scene.height(p) + 3.0), self.screen)
    }

    /// The nearest object on screen to `at` whose owner passes `owner_ok`.
    fn pick(&self, at: Vec2, owner_ok: impl Fn(PlayerId) -> bool) -> Option<ObjectId> {
        let world = self.session.world();
        world
            .objects()
            .filter(|o| owner_ok(o.owner) && o.owner != PlayerId::NEUTRAL && self.sees(o.id))
            .filter_map(|o| self.screen_pos(o.id).map(|p| (o.id, (p - at).length())))
            .filter(|&(_, d)| d <= PICK_PX)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    /// The square the radar's map occupies inside the radar window `rect`.
    fn radar_square(rect: Rect) -> Rect {
        let r = rect.inset(4.0);
        let side = r.w.min(r.h).max(1.0);
        Rect::new(r.x + (r.w - side) / 2.0, r.y + (r.h - side) / 2.0, side, side)
    }

    /// Where a ground point appears on the radar.
    fn to_radar(&self, sq: Rect, p: Vec2) -> Vec2 {
        let size = self.scene.size().max(Vec2::ONE);
        Vec2::new(sq.x + p.x / size.x * sq.w, sq.y + (1.0 - p.y / size.y) * sq.h)
    }

    /// The radar drawn into the radar window `rect`: the map's top view, every player's
    /// objects as dots in their colour, and the part of the ground the camera sees.
    pub fn radar(&self, rect: Rect, image: &str) -> Vec<DrawCmd> {
        let sq = Battle::radar_square(rect);
        let mut out = vec![DrawCmd::Image { rect: sq, name: image.to_string(), tint: [255; 4] }];
        // The shroud over the radar, in blocks of about 1/32 of the map.
        let (cw, ch) = self.shroud.size();
        let block = (cw.max(ch) / 32).max(1);
        let cell = self.scene.map.file.cell_size as f32;
        for by in (0..ch).step_by(block as usize) {
            for bx in (0..cw).step_by(block as usize) {
                let mut best = shroud::UNKNOWN;
                for y in by..(by + block).min(ch) {
                    for x in bx..(bx + block).min(cw) {
                        best = best.max(self.shroud.at(Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * cell));
                    }
                }
                let alpha = match best {
                    shroud::VISIBLE => continue,
                    shroud::UNKNOWN => 255,
                    _ => 110,
                };
                let (x0, y1) = (bx as f32 * cell, by as f32 * cell);
                let (x1, y0) = (((bx + block).min(cw)) as f32 * cell, ((by + block).min(ch)) as f32 * cell);
                let a = self.to_radar(sq, Vec2::new(x0, y0));
                let b = self.to_radar(sq, Vec2::new(x1, y1));
                out.push(DrawCmd::Fill { rect: Rect::new(a.x, a.y, b.x - a.x, b.y - a.y), color: [0, 0, 0, alpha] });
            }
        }
        let world = self.session.world();
        for o in world.objects() {
            if o.owner == PlayerId::NEUTRAL || !self.sees(o.id) {
                continue;
            }
            let color =
                self.scene.colors.get(o.owner.index()).and_then(|&c| PLAYER_COLORS.get(c)).copied().unwrap_or([1.0; 3]);
            let p = self.to_radar(sq, to_display(o.pos));
            let s = if o.kind.blocks_ground() { 5.0 } else { 3.0 };
            out.push(DrawCmd::Fill { rect: Rect::new(p.x - s / 2.0, p.y - s / 2.0, s, s), color: srgb8(color, 255) });
        }
        let corners = [Vec2::ZERO, Vec2::new(self.screen.x, 0.0), self.screen, Vec2::new(0.0, self.screen.y)];
        let ground: Vec<Vec2> = corners
            .iter()
            .filter_map(|&c| self.ground_under(c))
            .map(|g| self.to_radar(sq, g.clamp(Vec2::ZERO, self.scene.size())))
            .collect();
        if ground.len() == 4 {
            for i in 0..4 {
                let (a, b) = (ground[i], ground[(i + 1) % 4]);
                out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color: [240, 240, 230, 220], width: 1.0 });
            }
        }
        out.push(DrawCmd::Frame { rect: sq, color: [20, 20, 20, 255], width: 1.0 });
        out
    }

    /// A click (or drag) on the radar window `rect` centres the camera on that ground point.
    pub fn radar_click(&mut self, rect: Rect, at: Vec2) {
        let p = self.ground_on_radar(rect, at);
        self.camera.target = p.extend(self.scene.height(p));
    }

    /// The ground point under a pixel of the radar window `rect` (clamped to the map).
    fn ground_on_radar(&self, rect: Rect, at: Vec2) -> Vec2 {
        let sq = Battle::radar_square(rect);
        let size = self.scene.size();
        let u = ((at.x - sq.x) / sq.w).clamp(0.0, 1.0);
        let v = ((at.y - sq.y) / sq.h).clamp(0.0, 1.0);
        Vec2::new(u * size.x, (1.0 - v) * size.y)
    }

    /// A right click on the radar: the selection moves to that ground point.
    pub fn radar_order(&mut self, rect: Rect, at: Vec2) {
        if self.selection.is_empty() {
            return;
        }
        let p = self.ground_on_radar(rect, at);
        self.send(Command::Move { to: point(p) });
    }

    /// A closed outline through ground points, drawn over the world.
    fn ground_loop(&self, out: &mut Vec<DrawCmd>, points: impl Iterator<Item = Vec2>, color: [u8; 4]) {
        let px: Vec<Vec2> =
            points.filter_map(|g| self.camera.project(g.extend(self.scene.height(g) + 0.5), self.screen)).collect();
        for i in 0..px.len() {
            let (a, b) = (px[i], px[(i + 1) % px.len()]);
            out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 1.5 });
        }
    }

    /// The outline of the structure being placed, on the ground under the cursor: green where
    /// it fits, red where it does not.
    fn placement_outline(&self, out: &mut Vec<DrawCmd>) {
        let (Some(template), Some(at)) = (self.placing, self.ground_under(self.cursor)) else { return };
        let world = self.session.world();
        let t = world.rules().template(template);
        let terrain = world.terrain();
        let fixed = |v: f32| Fixed::from_raw((v * 65536.0) as i64);
        let centre = world.snap_structure(SimVec2::new(fixed(at.x), fixed(at.y)), t.footprint);
        let fits = terrain.footprint(centre, t.footprint).all(|c| terrain.passable(c));
        let c = to_display(centre);
        let cell = self.scene.map.file.cell_size as f32;
        let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0;
        let corners =
            [c - half, Vec2::new(c.x + half.x, c.y - half.y), c + half, Vec2::new(c.x - half.x, c.y + half.y)];
        let px: Vec<Vec2> = corners
            .iter()
            .filter_map(|&g| self.camera.project(g.extend(self.scene.height(g) + 0.5), self.screen))
            .collect();
        if px.len() == 4 {
            let color = if fits { [90, 240, 90, 255] } else { [240, 70, 60, 255] };
            for i in 0..4 {
                let (a, b) = (px[i], px[(i + 1) % 4]);
                out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color, width: 2.0 });
            }
        }
    }

    /// Tracers, health bars, selection marks and the drag box, drawn over the world.
    pub fn overlay(&self) -> Vec<DrawCmd> {
        let mut out = Vec::new();
        self.placement_outline(&mut out);
        for s in &self.shots {
            if let (Some(a), Some(b)) =
                (self.camera.project(s.from, self.screen), self.camera.project(s.to, self.screen))
            {
                let fade = 1.0 - s.age / SHOT_SECONDS;
                out.push(DrawCmd::Line {
                    from: (a.x, a.y),
                    to: (b.x, b.y),
                    color: [255, 230, 140, (230.0 * fade) as u8],
                    width: 1.5,
                });
            }
        }
        let world = self.session.world();
        let rules = world.rules();
        for o in world.objects() {
            let max = rules.template(o.template).max_health.max(1);
            let selected = self.selection.contains(&o.id);
            if o.owner == PlayerId::NEUTRAL || (o.health >= max && !selected) || !self.sees(o.id) {
                continue;
            }
            let p = to_display(o.pos);
            let top = Vec3::new(p.x, p.y, self.scene.height(p) + self.scene.model_height(o.template) + 3.0);
            let Some(px) = self.camera.project(top, self.screen) else { continue };
            let w = (if o.kind.blocks_ground() { 48.0 } else { 20.0 }) * self.camera.zoom.sqrt();
            let frac = (o.health.max(0) as f32 / max as f32).clamp(0.0, 1.0);
            let color = if frac > 0.6 {
                [70, 220, 70, 255]
            } else if frac > 0.3 {
                [230, 200, 50, 255]
            } else {
                [230, 60, 40, 255]
            };
            let bar = Rect::new(px.x - w / 2.0, px.y - 4.0, w, 4.0);
            out.push(DrawCmd::Fill { rect: bar, color: [0, 0, 0, 180] });
            out.push(DrawCmd::Fill { rect: Rect::new(bar.x + 1.0, bar.y + 1.0, (w - 2.0) * frac, 2.0), color });
        }
        let world = self.session.world();
        for &id in &self.selection {
            let Some(o) = world.object(id) else { continue };
            let t = world.rules().template(o.template);
            let centre = to_display(o.pos);
            if o.kind.blocks_ground() {
                let cell = self.scene.map.file.cell_size as f32;
                let half = Vec2::new(t.footprint.0 as f32, t.footprint.1 as f32) * cell / 2.0 + 2.0;
                let corners = [-half, Vec2::new(half.x, -half.y), half, Vec2::new(-half.x, half.y)];
                self.ground_loop(&mut out, corners.iter().map(|&c| centre + c), [90, 230, 90, 255]);
            } else {
                let r = t.radius.raw() as f32 / 65536.0 + 2.5;
                let ring = (0..16).map(|k| {
                    let a = k as f32 / 16.0 * std::f32::consts::TAU;
                    centre + Vec2::new(a.cos(), a.sin()) * r
                });
                self.ground_loop(&mut out, ring, [90, 230, 90, 255]);
            }
        }
        for blast in &self.blasts {
            let k = blast.age / BLAST_SECONDS;
            let r = blast.size * (0.4 + 1.2 * k);
            let alpha = (230.0 * (1.0 - k)).max(0.0) as u8;
            let ring = (0..12).map(|i| {
                let a = i as f32 / 12.0 * std::f32::consts::TAU;
                blast.at.truncate() + Vec2::new(a.cos(), a.sin()) * r
            });
            self.ground_loop(&mut out, ring, [255, 150, 40, alpha]);
        }
        if let Some(from) = self.press {
            if (self.cursor - from).length() >= DRAG_PX {
                let (min, max) = (from.min(self.cursor), from.max(self.cursor));
                out.push(DrawCmd::Frame {
                    rect: Rect::new(min.x, min.y, max.x - min.x, max.y - min.y),
                    color: [120, 240, 120, 255],
                    width: 1.0,
                });
            }
        }
        out
    }
}

/// Why an order was refused, in the player's words (template names, not numbers).
fn describe(reason: &RejectReason, world: &World) -> String {
    let rules = world.rules();
    let name = |t: TemplateId| rules.templates.get(t.0 as usize).map_or("that".to_string(), |t| t.name.clone());
    match reason {
        RejectReason::NotEnoughMoney { cost, money } => {
            format!("Not enough money: it costs ${cost}, you have ${money}.")
        }
        RejectReason::MissingPrerequisite(t) => format!("Needs a finished {} first.", name(*t)),
        RejectReason::QueueFull(_) => "The queue is full.".to_string(),
        RejectReason::NotReady(_) => "Still under construction.".to_string(),
        RejectReason::BadPlacement(_) => "It does not fit there.".to_string(),
        RejectReason::CannotBuild(_, t) => format!("Cannot build {} here.", name(*t)),
        RejectReason::NothingQueued(_) => "Nothing to cancel.".to_string(),
        other => format!("Refused: {other}."),
    }
}

/// A linear colour as 8-bit sRGB.
fn srgb8(c: [f32; 3], alpha: u8) -> [u8; 4] {
    let f = |v: f32| {
        let v = v.clamp(0.0, 1.0);
        let s = if v <= 0.003_130_8 { v * 12.92 } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as u8
    };
    [f(c[0]), f(c[1]), f(c[2]), alpha]
}

/// A ground point as a command point in whole world units.
fn point(p: Vec2) -> Point {
    Point { x: p.x.round() as i32, y: p.y.round() as i32 }
}

/// The game seed: fixed per setup so a skirmish can be replayed (the lobby will agree on one).
fn cfg_seed(cfg: &SkirmishConfig) -> u64 {
    cfg.slots
        .iter()
        .fold(cfg.map as u64 + 1, |h, s| h.wrapping_mul(31).wrapping_add(s.color as u64 + 7 * s.faction as u64))
}
