//! The skirmish AI: guard the base, answer attacks on it with the whole army, and from the
//! plan's attack time on gather part of the army at a rally point toward the enemy, then send
//! it at the nearest enemy units (then at what is left of the base), falling back to regroup
//! when the group has shrunk. Harder plans think more often, attack sooner with more, and
//! focus fire on the weakest enemy in reach.
//!
//! It plays under the shroud: enemies are known only from its team's vision and its
//! [`Memory`] of what it saw. Until it knows where an enemy base is, one unit scouts the start
//! positions and the attack goes to the nearest one not yet looked at.
//!
//! This file holds the player's state, the order of a decision (`think`) and what the parts
//! share (where home is, whether it is safe or threatened, the enemy it assumes); `build.rs`
//! raises structures, `train.rs` trains units and sends gatherers, `army.rs` commands the army.
//!
//! Must not: read anything but the world it is given and its own memory, or any enemy object
//! its team cannot see; decisions depend only on them (ties broken by id), so every machine
//! running the AI decides the same.

use crate::sim::Relation;
use crate::sim::command::{Command, MAX_SELECTION, Point, RejectReason};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
use crate::sim::object::Object;
use crate::sim::vector::Vec2;
use crate::sim::world::World;

use super::AiPlan;
use super::AiStyle;
use super::memory::{Memory, Sighting};

mod army;
mod build;
mod first_wave;
mod march;
mod saved;
mod train;
use super::{base, counters};
pub use first_wave::FirstWave;
pub use saved::AiState;

/// What the AI is doing with its army.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Phase {
    /// Guarding the base until the first attack.
    Guarding,
    /// Attackers walk to the rally point; since this frame.
    Gathering(u32),
    /// Attackers fight their way to the enemy; the group had this many units.
    Attacking(usize),
}

/// What the army was last told.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Orders {
    None,
    Guard,
    Defend(Point),
    Rally(Point),
    Attack(Point),
    Focus(ObjectId),
    /// Search parties (the attackers split by [`army::search_parties`]), each to its point.
    Hunt(Vec<Point>),
}

/// One computer player.
#[derive(Clone, Debug)]
pub struct SkirmishAi {
    player: PlayerId,
    plan: AiPlan,
    phase: Phase,
    last: Orders,
    last_frame: u32,
    /// Decisions taken so far (to rotate through what factories make).
    decisions: u32,
    /// What it has seen of the enemy.
    memory: Memory,
    /// The unit looking for the enemy, while one is.
    scout: Option<ObjectId>,
    /// The worth the next attack waits for.
    wave_worth: i64,
    /// Money kept back from training for the structure or research it wants next.
    reserve: i64,
    /// The enemy player its attacks go for, once chosen.
    foe: Option<PlayerId>,
    /// Its phase within the thinking interval, drawn from the seed on its first look.
    stagger: Option<u32>,
    /// The frame of its first attack (the plan's, plus a part of its spread drawn from the
    /// seed on its first look).
    first_attack: Option<u32>,
    /// The style it plays this game, drawn from the seed on its first look.
    style: Option<AiStyle>,
    /// Its own objects as of this decision, in the world's order: gathered once a decision,
    /// so its many questions about them do not each walk every object of the game.
    own: Vec<ObjectId>,
    /// The supply piles of the map (found on its first question about them), and what the
    /// decision under way found of them (its depots, its best source).
    piles: base::Piles,
    /// While hunting, each search party's point and the frame it was given (kept until the
    /// point is in sight or the party has had the tuning's `hunt_give_up_frames` to get there).
    hunt: Vec<(Vec2, u32)>,
    /// What its first attack set out with, once it has.
    first_wave: Option<FirstWave>,
}

impl SkirmishAi {
    /// An AI for `player` playing by `plan`.
    pub fn new(player: PlayerId, plan: AiPlan) -> SkirmishAi {
        SkirmishAi {
            player,
            phase: Phase::Guarding,
            last: Orders::None,
            last_frame: 0,
            decisions: 0,
            memory: Memory::default(),
            scout: None,
            wave_worth: plan.first_wave,
            reserve: 0,
            foe: None,
            stagger: None,
            first_attack: None,
            style: None,
            own: Vec::new(),
            piles: base::Piles::default(),
            hunt: Vec::new(),
            first_wave: None,
            plan,
        }
    }

    /// The player it plays.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// The plan it plays by.
    pub fn plan(&self) -> &AiPlan {
        &self.plan
    }

    /// The frame its first attack sets out from (drawn on its first look; None before).
    pub fn first_attack(&self) -> Option<u32> {
        self.first_attack
    }

    /// What its first attack set out with (None until it has set out).
    pub fn first_wave(&self) -> Option<FirstWave> {
        self.first_wave
    }

    /// Decides this frame's commands.
    pub fn think(&mut self, world: &World) -> Vec<Command> {
        let frame = world.frame().0;
        let every = self.plan.think_frames.max(1);
        // Each AI thinks on its own phase of the interval, drawn from the game's seed when it
        // first looks: several AIs do not all think on one frame, and which of them sees the
        // others' moves sooner changes from game to game instead of favouring one slot.
        let player = self.player;
        let stagger =
            *self.stagger.get_or_insert_with(|| (seed_draw(world, player, 0xD6E8_FEB8_6659_FD93) >> 32) as u32 % every);
        if self.first_attack.is_none() {
            // When it first sets out, drawn the same way: of two equal AIs, which goes first
            // (and meets the other's army at its door) changes with the seed.
            let draw = (seed_draw(world, player, 0x2D35_8DCC_AA6C_78A5) >> 32) as u32;
            let spread = self.plan.first_attack_spread;
            self.first_attack = Some(self.plan.first_attack_frame.saturating_add(draw % spread.saturating_add(1)));
        }
        if self.style.is_none() {
            // Its style, drawn the same way: which opponent it is changes with the seed.
            let draw = seed_draw(world, player, 0xA076_1D64_78BD_642F) >> 33;
            let style = AiStyle::pick(&self.plan.styles, draw).followed(self.plan.follow_style);
            self.wave_worth = self.wave_worth.saturating_mul(style.wave as i64) / 100;
            self.style = Some(style);
        }
        if !(frame + stagger).is_multiple_of(every) {
            return Vec::new();
        }
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        if me.defeated {
            return Vec::new();
        }
        self.decisions = self.decisions.wrapping_add(1);
        self.own.clear();
        self.own.extend(world.objects_of(self.player).map(|o| o.id));
        self.memory.observe(world, self.player);
        // Building a structure needs the builder selected; so does every army order. A think
        // gives one selection and its order (a second pair would run in a round of its own,
        // `sim::frame_order`), so it does one or the other.
        if let Some(build) = self.expand(world) {
            return build;
        }
        if let Some(gather) = self.employ_gatherers(world) {
            return gather;
        }
        if let Some(sell) = self.raise_funds(world) {
            return vec![sell];
        }
        let mut out = Vec::new();
        if let Some((structure, upgrade, cost)) = base::next_research(world, self.player, &self.own, &self.plan)
            && self.reserve == 0
        {
            if world.players()[self.player.index()].money >= cost {
                out.push(Command::Research { structure, upgrade });
            }
            self.reserve = cost; // training leaves this much for it (paid when the order runs)
        }
        out.extend(self.train(world));
        // Repairs wait until the base is clear: mending under fire only feeds the enemy.
        if self.plan.repair
            && !self.threatened(world)
            && let Some(repair) = base::repair(world, self.player, &self.own)
        {
            out.push(repair);
        }
        let army = self.command_army(world);
        if army.is_empty() {
            out.extend(self.send_scout(world));
        } else {
            out.extend(army);
        }
        out
    }

    /// The style it plays this game, once it has looked at the world.
    pub fn style(&self) -> Option<&AiStyle> {
        self.style.as_ref()
    }

    /// A counters score weighed by its style's leaning toward `unit`'s kind.
    fn leaning(&self, rules: &crate::sim::rules::Rules, unit: TemplateId, score: i64) -> i64 {
        match &self.style {
            Some(style) => style.weigh(rules.template(unit).kind, score),
            None => score,
        }
    }

    /// The enemy player its attacks go for, once it has chosen one.
    pub fn foe(&self) -> Option<PlayerId> {
        self.foe
    }

    /// What it has seen of the enemy.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Its own objects, in the world's order (as of this decision: nothing changes the world
    /// while it thinks).
    fn mine<'a, 'w: 'a>(&'a self, world: &'w World) -> impl Iterator<Item = &'w Object> + 'a {
        self.own.iter().filter_map(move |&id| world.object(id))
    }

    /// The centre of its structures, else its start position, else `fallback`.
    fn home(&self, world: &World, fallback: Vec2) -> Vec2 {
        centre(self.mine(world).filter(|o| o.kind.blocks_ground()).map(|o| o.pos))
            .or_else(|| world.start_of(self.player))
            .unwrap_or(fallback)
    }

    /// True while its army is worth at least the tuning's `safe_percent` of the enemy army it assumes
    /// ([`Self::enemy_strength`]): then it may spend on its economy rather than on more units.
    fn safe(&self, world: &World) -> bool {
        self.army_worth(world) * 100 >= self.enemy_strength(world) * self.plan.tuning.safe_percent
    }

    /// Its army units' summed prices.
    fn army_worth(&self, world: &World) -> i64 {
        let rules = world.rules();
        self.mine(world).filter(|o| is_army(rules, o.template)).map(|o| rules.template(o.template).cost).sum()
    }

    /// The enemy army it assumes it faces: the strongest enemy team's, by what it saw of each
    /// team lately or at least what the strongest started with. Against one team that is the
    /// whole enemy; in a free-for-all it is the strongest single enemy, not all of them summed
    /// (they fight each other too: summed, seven enemies outweigh any army, and an AI that
    /// never feels safe never grows its economy).
    fn enemy_strength(&self, world: &World) -> i64 {
        let rules = world.rules();
        let team = |p: PlayerId| world.players().get(p.index()).map_or(u8::MAX, |p| p.team);
        let mut seen: std::collections::BTreeMap<u8, i64> = std::collections::BTreeMap::new();
        for s in self.memory.units().filter(|s| rules.template(s.template).is_armed()) {
            *seen.entry(team(s.owner)).or_default() += rules.template(s.template).cost;
        }
        let mut started: std::collections::BTreeMap<u8, i64> = std::collections::BTreeMap::new();
        for p in self.living_enemies(world) {
            let army = rules.factions.get(p.faction as usize).map_or(0, |f| {
                f.starting_objects
                    .iter()
                    .filter(|&&(t, _)| is_army(rules, t))
                    .map(|&(t, n)| rules.template(t).cost * n as i64)
                    .sum()
            });
            *started.entry(p.team).or_default() += army;
        }
        let strongest = |m: &std::collections::BTreeMap<u8, i64>| m.values().copied().max().unwrap_or(0);
        strongest(&seen).max(strongest(&started))
    }

    /// Its enemies still in the game.
    fn living_enemies<'w>(&self, world: &'w World) -> impl Iterator<Item = &'w crate::sim::player::Player> + 'w {
        let me = self.player;
        world.players().iter().filter(move |p| world.relation(me, p.id) == Relation::Enemy && !p.defeated)
    }

    /// The armed enemy units it has seen lately, by kind; before it has seen any, the armies
    /// its living enemies started with. If its plan says so, while it attacks with an army
    /// that far outweighs those units, the enemy structures it knows join the mix, one each:
    /// what stands in its way is a base, and an army of riflemen would chip at a gun-armed
    /// headquarters for ever (two Easy Dominion AIs drew a quarter of their games so). Not
    /// before it attacks: an army it has not seen yet may be anywhere, and a Hard AI training
    /// against structures in its third minute lost the next fight.
    fn enemy_mix(&self, world: &World) -> Vec<(TemplateId, u32)> {
        let rules = world.rules();
        let mut mix: std::collections::BTreeMap<TemplateId, u32> = std::collections::BTreeMap::new();
        for s in self.memory.units().filter(|s| rules.template(s.template).is_armed()) {
            *mix.entry(s.template).or_default() += 1;
        }
        if mix.is_empty() {
            for (t, n) in self.enemy_starting_units(world) {
                *mix.entry(t).or_default() += n;
            }
        }
        let theirs: i64 = mix.iter().map(|(&t, &n)| rules.template(t).cost * i64::from(n)).sum();
        let attacking = matches!(self.phase, Phase::Attacking(_));
        if self.plan.siege && attacking && self.army_worth(world) * 100 >= theirs * self.plan.tuning.siege_percent {
            for s in self.memory.structures() {
                *mix.entry(s.template).or_default() += 1;
            }
        }
        mix.into_iter().collect()
    }

    /// The armed units its living enemies' factions start with (known to everyone), by kind
    /// and count, one entry per enemy and kind.
    fn enemy_starting_units<'w>(&self, world: &'w World) -> impl Iterator<Item = (TemplateId, u32)> + 'w {
        let rules = world.rules();
        self.living_enemies(world)
            .filter_map(|p| rules.factions.get(p.faction as usize))
            .flat_map(|f| f.starting_objects.iter().copied())
            .filter(|&(t, _)| is_army(rules, t))
    }

    /// From `home` toward the enemy as far as it knows: its nearest known structure, else the
    /// nearest start position not looked at, else the middle of the map.
    fn enemy_direction(&self, world: &World, home: Vec2) -> Vec2 {
        let there = nearest_seen(self.memory.structures(), home)
            .map(|s| s.pos)
            .or_else(|| self.memory.unscouted_start(world, home, home))
            .unwrap_or_else(|| world.terrain().world_size().scale(Fixed::HALF));
        there - home
    }

    /// True while an enemy unit in sight stands within the plan's defence radius of the base.
    fn threatened(&self, world: &World) -> bool {
        let home = self.home(world, Vec2::ZERO);
        let radius = self.plan.defend_radius;
        nearest_seen(self.memory.units_in_sight(), home)
            .is_some_and(|s| (s.pos - home).length_squared() <= radius * radius)
    }
}

/// A distance squared, to compare with squared lengths.
fn sq(d: Fixed) -> Fixed {
    d * d
}

/// The mean of some positions.
fn centre(points: impl Iterator<Item = Vec2>) -> Option<Vec2> {
    let (mut sum, mut n) = (Vec2::ZERO, 0i64);
    for p in points {
        sum += p;
        n += 1;
    }
    (n > 0).then(|| Vec2::new(sum.x.div_int(n), sum.y.div_int(n)))
}

/// A number drawn for `player` from the game's seed (the state of the sim's RNG as the AI
/// first sees it), different for each `salt`: the same on every machine, different per game.
fn seed_draw(world: &World, player: PlayerId, salt: u64) -> u64 {
    (world.rng_state() ^ (player.0 as u64).wrapping_mul(salt)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// True if `t` is an army unit: mobile and armed.
fn is_army(rules: &crate::sim::rules::Rules, t: TemplateId) -> bool {
    rules.template(t).is_mobile() && rules.template(t).is_armed()
}

/// True if a unit of template `shooter` can fire at one of template `target` (in the air or
/// on the ground, as its weapon reaches).
fn can_hit(rules: &crate::sim::rules::Rules, shooter: TemplateId, target: TemplateId) -> bool {
    rules.template(shooter).can_hit(rules, rules.template(target).kind.is_air())
}

/// The sighting nearest to `to` (ties: lowest id).
fn nearest_seen<'a>(seen: impl Iterator<Item = &'a Sighting>, to: Vec2) -> Option<&'a Sighting> {
    seen.min_by_key(|s| ((s.pos - to).length_squared(), s.id))
}

/// The object nearest to `to` (ties: lowest id).
fn nearest<'a>(objects: impl Iterator<Item = &'a Object>, to: Vec2) -> Option<&'a Object> {
    objects.min_by_key(|o| ((o.pos - to).length_squared(), o.id))
}

/// A position as a command point in whole world units.
fn point(p: Vec2) -> Point {
    Point { x: p.x.round_int() as i32, y: p.y.round_int() as i32 }
}
