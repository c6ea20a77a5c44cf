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
//! Must not: read anything but the world it is given and its own memory, or any enemy object
//! its team cannot see; decisions depend only on them (ties broken by id), so every machine
//! running the AI decides the same.

use crate::sim::command::{Command, MAX_SELECTION, Point, RejectReason};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
use crate::sim::object::Object;
use crate::sim::vector::Vec2;
use crate::sim::world::World;

use super::memory::{Memory, Sighting};
use super::plan::AiPlan;
use super::{base, counters};

/// Distance around the attackers' centre in which a focusing AI looks for a victim.
const FOCUS_RADIUS: i64 = 160;
/// Power the AI keeps to spare: it raises a plant before a structure would leave less.
const POWER_MARGIN: i32 = 2;
/// Attackers count as gathered when all stand this close to their centre.
const GATHERED_RADIUS: i64 = 90;
/// Distance from the base, toward the enemy, of the point where attackers gather.
const RALLY_DISTANCE: i64 = 160;
/// Distance from the base centre, toward the enemy, around which defences are placed.
const DEFENCE_DISTANCE: i64 = 110;
/// An order to a point this close to the last one's is not given again (world units).
const REISSUE_DISTANCE: i64 = 120;
/// Its army must be worth this percent of the enemy's before it spends on economy.
const SAFE_PERCENT: i64 = 90;
/// A factory trains only if its best unit scores at least this percent of the best any of its
/// factories could make.
const WORTH_MAKING_PERCENT: i64 = 40;
/// Units scoring at least this percent of the best against the enemy it knows are trained.
const GOOD_ENOUGH_PERCENT: i64 = 70;
/// Frames an AI waits for stragglers before attacking anyway.
const GATHER_PATIENCE: u32 = 30 * 30;
/// Frames an AI waits for its advantage before attacking anyway (two equal turtles would
/// otherwise wait for ever).
const ADVANTAGE_PATIENCE: u32 = 30 * 180;
/// It raises its tech structure from this frame on: the opening is about armies.
const TECH_AFTER: u32 = 30 * 60 * 6;
/// An attack whose group has shrunk below this percent of its size falls back to regroup.
const FALL_BACK_PERCENT: usize = 30;

/// What the AI is doing with its army.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Guarding the base until the first attack.
    Guarding,
    /// Attackers walk to the rally point; since this frame.
    Gathering(u32),
    /// Attackers fight their way to the enemy; the group had this many units.
    Attacking(usize),
}

/// What the army was last told.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Orders {
    None,
    Guard,
    Defend(Point),
    Rally(Point),
    Attack(Point),
    Focus(ObjectId),
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

    /// Decides this frame's commands.
    pub fn think(&mut self, world: &World) -> Vec<Command> {
        let frame = world.frame().0;
        let every = self.plan.think_frames.max(1);
        // Stagger players so several AIs do not all think on one frame.
        if !(frame + self.player.0 as u32 * 7).is_multiple_of(every) {
            return Vec::new();
        }
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        if me.defeated {
            return Vec::new();
        }
        self.decisions = self.decisions.wrapping_add(1);
        self.memory.observe(world, self.player);
        // Building a structure needs the builder selected; so does every army order, and a
        // frame's selections all run before its orders: a frame does one or the other.
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
        if let Some((structure, upgrade, cost)) = base::next_research(world, self.player, &self.plan)
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
            && let Some(repair) = base::repair(world, self.player)
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

    /// With no army, nothing in training and too little money for any unit it can make, it
    /// sells a structure it can spare (the dearest; never its depot or its last factory of
    /// armed units) to pay for one: a broke player without an army would otherwise sit out the
    /// game.
    fn raise_funds(&self, world: &World) -> Option<Command> {
        let rules = world.rules();
        let me = world.players().get(self.player.index())?;
        let mine = || world.objects().filter(|o| o.owner == self.player);
        let armed_unit = |t: TemplateId| is_army(rules, t);
        if mine().any(|o| armed_unit(o.template)) || mine().any(|o| !world.factories().queue(o.id).is_empty()) {
            return None;
        }
        let makes_army = |t: TemplateId| rules.template(t).builds.iter().any(|&u| armed_unit(u));
        let cheapest = mine()
            .filter(|o| o.is_complete())
            .flat_map(|f| rules.template(f.template).builds.iter().copied())
            .filter(|&u| armed_unit(u) && world.prerequisites_met(self.player, u).is_ok())
            .map(|u| rules.template(u).cost)
            .min()?;
        if me.money >= cheapest {
            return None;
        }
        let factories = mine().filter(|o| o.is_complete() && makes_army(o.template)).count();
        let spare = mine().filter(|o| {
            let t = rules.template(o.template);
            o.kind.blocks_ground() && !t.supply_depot && !(makes_army(o.template) && factories <= 1)
        });
        let pick = spare
            .filter(|o| world.can_sell(self.player, o.id).is_ok())
            .max_by_key(|o| (rules.template(o.template).cost, std::cmp::Reverse(o.id)))?;
        Some(Command::Sell { structure: pick.id })
    }

    /// What it has seen of the enemy.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The fastest armed unit goes to the nearest start position not yet looked at, while no
    /// enemy structure is known; a new scout goes when the last one is lost.
    fn send_scout(&mut self, world: &World) -> Vec<Command> {
        if self.memory.structures().next().is_some() {
            self.scout = None;
            return Vec::new();
        }
        let rules = world.rules();
        let alive = self.scout.and_then(|id| world.object(id)).filter(|o| o.owner == self.player);
        let scout = match alive {
            Some(o) if o.nav.is_active() || o.order != crate::sim::object::Order::Idle => return Vec::new(),
            Some(o) => o,
            None => {
                let Some(o) = world
                    .objects()
                    .filter(|o| o.owner == self.player && is_army(rules, o.template))
                    .max_by_key(|o| (rules.template(o.template).speed, std::cmp::Reverse(o.id)))
                else {
                    return Vec::new();
                };
                o
            }
        };
        let home = self.home(world, scout.pos);
        let Some(goal) = self.memory.unscouted_start(world, home, scout.pos) else {
            self.scout = None; // nowhere left to look: back to the army
            return Vec::new();
        };
        self.scout = Some(scout.id);
        vec![Command::Select { objects: vec![scout.id], add: false }, Command::Move { to: point(goal) }]
    }

    /// The centre of its structures, else its start position, else `fallback`.
    fn home(&self, world: &World, fallback: Vec2) -> Vec2 {
        centre(world.objects().filter(|o| o.owner == self.player && o.kind.blocks_ground()).map(|o| o.pos))
            .or_else(|| world.terrain().start_positions().get(self.player.index()).copied())
            .unwrap_or(fallback)
    }

    /// A free builder raises the next structure the plan wants: unit factories up to the
    /// plan's count (taking turns among the kinds it can make), a supply depot by a fresh
    /// source when its gatherers' trips grow long, its tech structure, then defences toward
    /// the enemy; a power plant first whenever that structure (or what stands already) would
    /// leave less than a small margin. One structure rises at a time. What it cannot pay for
    /// yet, it saves for: training keeps that much back unless the base is threatened.
    fn expand(&mut self, world: &World) -> Option<Vec<Command>> {
        self.reserve = 0;
        let rules = world.rules();
        let mine = || world.objects().filter(|o| o.owner == self.player);
        let makes_army = |t: TemplateId| rules.template(t).builds.iter().any(|&u| is_army(rules, u));
        let is_defence = |t: TemplateId| !rules.template(t).is_mobile() && rules.template(t).is_armed();
        // Ground defences, and anti-air ones (raised once it has seen enemy aircraft).
        let is_ground_defence = |t: TemplateId| is_defence(t) && rules.template(t).can_hit(rules, false);
        let is_air_defence = |t: TemplateId| is_defence(t) && !rules.template(t).can_hit(rules, false);
        let seen_air = self.memory.units().any(|s| rules.template(s.template).kind.is_air());
        let builder = mine()
            .filter(|o| rules.template(o.template).is_mobile() && !rules.template(o.template).builds.is_empty())
            .find(|o| !matches!(o.order, crate::sim::object::Order::Construct { .. }))?;
        if let Some(site) = mine().find(|o| o.kind.blocks_ground() && !o.is_complete()) {
            // One structure at a time; a site nobody works on gets a builder back.
            let worked = mine().any(|o| o.order == crate::sim::object::Order::Construct { site: site.id });
            return (!worked && rules.template(builder.template).builds.contains(&site.template)).then(|| {
                vec![Command::Select { objects: vec![builder.id], add: false }, Command::Resume { site: site.id }]
            });
        }
        let options = &rules.template(builder.template).builds;
        // Allowed now, or once the money is there.
        let buildable = |t: TemplateId| {
            matches!(world.can_build(self.player, builder.id, t), Ok(_) | Err(RejectReason::NotEnoughMoney { .. }))
        };
        let count = |t: TemplateId| mine().filter(|o| o.template == t).count();
        let factories = mine().filter(|o| o.kind.blocks_ground() && makes_army(o.template)).count();
        let defences = mine().filter(|o| is_ground_defence(o.template)).count();
        let air_defences = mine().filter(|o| is_air_defence(o.template)).count();
        let home = self.home(world, builder.pos);
        let safe = self.safe(world);
        let expansion = if self.plan.expand && factories > 0 {
            base::expansion(world, self.player, home, &self.memory)
        } else {
            None
        };
        let depot = options.iter().copied().find(|&t| rules.template(t).supply_depot && buildable(t));
        let has_tech = mine().any(|o| base::is_tech(world, o.template));
        // Beyond the first factory, more only while the army holds its own.
        let next = if factories < self.plan.factories as usize && (factories == 0 || safe) {
            // The kind with the fewest standing; the first such on the builder's list.
            let kinds = options.iter().copied().filter(|&t| makes_army(t));
            kinds.min_by_key(|&t| count(t)).filter(|&t| buildable(t))
        } else if let (Some(_), Some(depot)) = (expansion, depot) {
            Some(depot)
        } else if self.plan.tech && !has_tech && factories > 0 && world.frame().0 >= TECH_AFTER {
            options.iter().copied().find(|&t| base::is_tech(world, t) && buildable(t))
        } else if defences < self.plan.defences as usize {
            options.iter().copied().find(|&t| is_ground_defence(t) && buildable(t))
        } else if seen_air && air_defences < self.plan.defences.max(1) as usize {
            options.iter().copied().find(|&t| is_air_defence(t) && buildable(t))
        } else {
            None
        };
        let power = world.power(self.player);
        let wanted = next.map_or(0, |t| rules.template(t).power.min(0).saturating_neg());
        let short = power.produced - power.used - wanted < POWER_MARGIN;
        let template = if short {
            // The plant that makes the most of what this builder can raise.
            options
                .iter()
                .copied()
                .filter(|&t| rules.template(t).power > 0 && buildable(t))
                .max_by_key(|&t| (rules.template(t).power, std::cmp::Reverse(t)))?
        } else {
            next?
        };
        // Defences stand on the side the enemy comes from; a new depot by its fresh source.
        let around = if let (Some(source), true) = (expansion, rules.template(template).supply_depot) {
            source
        } else if is_defence(template) {
            let toward = self.enemy_direction(world, home);
            home + toward.normalize().scale(Fixed::from_int(DEFENCE_DISTANCE))
        } else {
            home
        };
        if world.can_build(self.player, builder.id, template).is_err() {
            self.reserve = rules.template(template).cost;
            return None;
        }
        let at = self.site_near(world, template, around)?;
        Some(vec![Command::Select { objects: vec![builder.id], add: false }, Command::Build { template, at }])
    }

    /// True while its army is worth at least [`SAFE_PERCENT`] of the enemy army it assumes
    /// (what it saw lately, or at least what the enemy started with): then it may spend on its
    /// economy rather than on more units.
    fn safe(&self, world: &World) -> bool {
        let rules = world.rules();
        let worth = |t: TemplateId| rules.template(t).cost;
        let mine: i64 = world
            .objects()
            .filter(|o| o.owner == self.player && is_army(rules, o.template))
            .map(|o| worth(o.template))
            .sum();
        let seen: i64 =
            self.memory.units().filter(|s| rules.template(s.template).is_armed()).map(|s| worth(s.template)).sum();
        mine * 100 >= seen.max(self.enemy_starting_armies(world)) * SAFE_PERCENT
    }

    /// The armed enemy units it has seen lately, by kind; before it has seen any, the armies
    /// its living enemies started with.
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
        mix.into_iter().collect()
    }

    /// The armed units its living enemies' factions start with (known to everyone), by kind
    /// and count, one entry per enemy and kind.
    fn enemy_starting_units<'w>(&self, world: &'w World) -> impl Iterator<Item = (TemplateId, u32)> + 'w {
        let rules = world.rules();
        let team = world.players().get(self.player.index()).map(|p| p.team);
        world
            .players()
            .iter()
            .filter(move |p| Some(p.team) != team && !p.defeated)
            .filter_map(|p| rules.factions.get(p.faction as usize))
            .flat_map(|f| f.starting_objects.iter().copied())
            .filter(|&(t, _)| is_army(rules, t))
    }

    /// The worth of the armies its living enemies started with: what it assumes it faces
    /// before it has seen more.
    fn enemy_starting_armies(&self, world: &World) -> i64 {
        let rules = world.rules();
        self.enemy_starting_units(world).map(|(t, n)| rules.template(t).cost * n as i64).sum()
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

    /// Idle gatherers go to the supply source with the shortest trip to a depot; a working one
    /// whose trip is much longer than that moves there.
    fn employ_gatherers(&self, world: &World) -> Option<Vec<Command>> {
        let rules = world.rules();
        let idle: Vec<&Object> = world
            .objects()
            .filter(|o| {
                o.owner == self.player
                    && rules.template(o.template).gather.is_some()
                    && o.order == crate::sim::object::Order::Idle
            })
            .collect();
        let home = self.home(world, Vec2::ZERO);
        let Some(first) = idle.first() else {
            // Working gatherers move to a source much nearer a depot (a new depot stands).
            let (gatherer, source) = base::better_source(world, self.player, home)?;
            return Some(vec![
                Command::Select { objects: vec![gatherer], add: false },
                Command::Gather { pile: source },
            ]);
        };
        let pile = match base::best_source(world, self.player, home) {
            Some((s, _)) => s,
            None => nearest(world.objects().filter(|o| o.supply > 0), first.pos)?,
        };
        Some(vec![
            Command::Select { objects: idle.iter().map(|o| o.id).collect(), add: false },
            Command::Gather { pile: pile.id },
        ])
    }

    /// The first place around `home` where a structure fits: rings of eight directions.
    fn site_near(&self, world: &World, template: TemplateId, home: Vec2) -> Option<Point> {
        let t = world.rules().template(template);
        let terrain = world.terrain();
        let cell = terrain.cell_size();
        let (w, h) = (cell.mul_int(t.footprint.0 as i64), cell.mul_int(t.footprint.1 as i64));
        for ring in 1..=10i64 {
            let d = Fixed::from_int(40 + 20 * ring);
            for (dx, dy) in [(1, 0), (0, -1), (1, -1), (-1, 0), (0, 1), (-1, -1), (1, 1), (-1, 1)] {
                let p = home + Vec2::new(d.mul_int(dx), d.mul_int(dy));
                if !terrain.contains(p) {
                    continue;
                }
                // The sim's own placement rule, then the AI's wider berth: no unit within a
                // cell of the footprint, so its own army never blocks the site.
                let at = point(world.snap_structure(p, t.footprint));
                let Ok(centre) = world.placement(template, at, None) else { continue };
                let (hw, hh) = (w.div_int(2) + cell, h.div_int(2) + cell);
                let crowded = world.objects().any(|o| {
                    !o.kind.blocks_ground() && (o.pos.x - centre.x).abs() < hw && (o.pos.y - centre.y).abs() < hh
                });
                if !crowded {
                    return Some(point(centre));
                }
            }
        }
        None
    }

    /// Structures that make gatherers keep the plan's number working; finished factories with
    /// short queues train the next armed unit they can afford.
    fn train(&self, world: &World) -> Vec<Command> {
        let rules = world.rules();
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        // What it saves for stays unspent, unless the base must be defended now.
        let mut money = if self.threatened(world) { me.money } else { me.money - self.reserve };
        let mut out = Vec::new();
        let is_gatherer = |t: TemplateId| rules.template(t).gather.is_some();
        let enemy_mix = self.enemy_mix(world);
        let safe = self.safe(world);
        let mut gatherers = world.objects().filter(|o| o.owner == self.player && is_gatherer(o.template)).count()
            + world
                .objects()
                .filter(|o| o.owner == self.player)
                .flat_map(|o| world.factories().queue(o.id))
                .filter(|job| is_gatherer(job.template))
                .count();
        // The best unit any of its factories could make against that enemy: a factory whose
        // own best is far below it waits rather than spend on units that do not count.
        let overall = world
            .objects()
            .filter(|o| o.owner == self.player && o.kind.blocks_ground() && o.is_complete())
            .flat_map(|f| rules.template(f.template).builds.iter().copied())
            .filter(|&u| rules.template(u).is_armed() && world.prerequisites_met(self.player, u).is_ok())
            .map(|u| counters::score(rules, u, &enemy_mix))
            .max()
            .unwrap_or(0);
        // A builder lost is replaced first: without one no structure can rise again.
        let is_builder = |t: TemplateId| rules.template(t).is_mobile() && !rules.template(t).builds.is_empty();
        let mine = || world.objects().filter(|o| o.owner == self.player);
        let builders = mine().filter(|o| is_builder(o.template)).count()
            + mine().flat_map(|o| world.factories().queue(o.id)).filter(|j| is_builder(j.template)).count();
        if builders == 0
            && let Some((f, b)) = mine().filter(|o| o.kind.blocks_ground() && o.is_complete()).find_map(|f| {
                let b = rules.template(f.template).builds.iter().copied().find(|&b| is_builder(b))?;
                world.can_produce(self.player, f.id, b).is_ok().then_some((f.id, b))
            })
        {
            money -= rules.template(b).cost;
            out.push(Command::Produce { factory: f, template: b });
        }
        for f in world.objects().filter(|o| o.owner == self.player && o.kind.blocks_ground() && o.is_complete()) {
            let queue = world.factories().queue(f.id).len();
            let builds = &rules.template(f.template).builds;
            if let Some(&g) = builds.iter().find(|&&u| is_gatherer(u))
                && gatherers < self.plan.gatherers as usize
                && (gatherers < 1 || safe)
                && queue == 0
                && rules.template(g).cost <= money
                && world.prerequisites_met(self.player, g).is_ok()
            {
                money -= rules.template(g).cost;
                gatherers += 1;
                out.push(Command::Produce { factory: f.id, template: g });
                continue;
            }
            if queue >= self.plan.queue as usize {
                continue;
            }
            let options: Vec<TemplateId> = builds
                .iter()
                .copied()
                .filter(|&u| is_army(rules, u) && world.prerequisites_met(self.player, u).is_ok())
                .collect();
            if options.is_empty() {
                continue;
            }
            // The units that fight the enemy it knows best (within a margin of the best), and
            // among those a choice that depends on the game's seed.
            let scores: Vec<i64> = options.iter().map(|&u| counters::score(rules, u, &enemy_mix)).collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            if best * 100 < overall * WORTH_MAKING_PERCENT {
                continue;
            }
            let good: Vec<TemplateId> = options
                .iter()
                .zip(&scores)
                .filter(|&(_, &s)| s * 100 >= best * GOOD_ENOUGH_PERCENT)
                .map(|(&u, _)| u)
                .collect();
            let salt = (world.rng_state() ^ self.player.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let pick = good[(self.decisions as usize).wrapping_add(salt as usize) % good.len().max(1)];
            let cost = rules.template(pick).cost;
            if cost <= money {
                money -= cost;
                out.push(Command::Produce { factory: f.id, template: pick });
            }
        }
        out
    }

    /// True while an enemy unit in sight stands within the plan's defence radius of the base.
    fn threatened(&self, world: &World) -> bool {
        let home = self.home(world, Vec2::ZERO);
        let radius = self.plan.defend_radius;
        nearest_seen(self.memory.units_in_sight(), home)
            .is_some_and(|s| (s.pos - home).length_squared() <= radius * radius)
    }

    /// Guards, gathers, attacks or defends with the army.
    fn command_army(&mut self, world: &World) -> Vec<Command> {
        let frame = world.frame().0;
        let rules = world.rules();
        let scout = self.scout;
        let army: Vec<&Object> = world
            .objects()
            .filter(|o| o.owner == self.player && Some(o.id) != scout && is_army(rules, o.template))
            .collect();
        if army.is_empty() {
            return Vec::new();
        }
        let home = self.home(world, centre(army.iter().map(|o| o.pos)).unwrap_or(Vec2::ZERO));
        let radius = self.plan.defend_radius;
        let intruder = nearest_seen(self.memory.units_in_sight(), home)
            .filter(|s| (s.pos - home).length_squared() <= radius * radius);
        let ids = |units: &[&Object]| units.iter().take(MAX_SELECTION).map(|o| o.id).collect::<Vec<_>>();
        let share = self.plan.attack_share_percent.clamp(1, 100) as usize;
        let n = (army.len() * share).div_ceil(100).clamp(1, army.len());
        let attackers = &army[..n];
        let at = centre(attackers.iter().map(|o| o.pos)).unwrap_or(home);
        // Go for the enemy's army first (it shoots back), then for its base, then to look for
        // it where it may be.
        let target = nearest_seen(self.memory.units(), at)
            .or_else(|| nearest_seen(self.memory.structures(), at))
            .map(|s| s.pos)
            .or_else(|| self.memory.unscouted_start(world, home, at))
            .or_else(|| self.memory.hunt_point(world, self.player, at));
        if frame >= self.plan.first_attack_frame && self.phase == Phase::Guarding {
            self.phase = Phase::Gathering(frame);
        }
        let worth = |t: TemplateId| rules.template(t).cost;
        if let Phase::Attacking(size) = self.phase {
            let mine: i64 = attackers.iter().map(|o| worth(o.template)).sum();
            let reach = Fixed::from_int(FOCUS_RADIUS * 2);
            let facing: i64 = self
                .memory
                .units_in_sight()
                .filter(|s| rules.template(s.template).is_armed() && (s.pos - at).length_squared() <= sq(reach))
                .map(|s| worth(s.template))
                .sum();
            let outmatched = mine * 100 < facing * self.plan.retreat_below_percent as i64;
            if attackers.len() * 100 < size * FALL_BACK_PERCENT || outmatched {
                self.phase = Phase::Gathering(frame);
                self.wave_worth = self.wave_worth.saturating_add(self.wave_worth / 4);
            }
        }
        let (units, orders) = if let Some(enemy) = intruder {
            (ids(&army), Orders::Defend(point(enemy.pos)))
        } else {
            match (self.phase.clone(), target) {
                (Phase::Guarding, _) | (_, None) => (ids(&army), Orders::Guard),
                (Phase::Gathering(since), Some(t)) => {
                    let toward = (t - home).normalize().scale(Fixed::from_int(RALLY_DISTANCE));
                    let rally = home + toward;
                    let gathered = (at - rally).length_squared() <= sq(Fixed::from_int(GATHERED_RADIUS * 2))
                        && attackers
                            .iter()
                            .all(|o| (o.pos - at).length_squared() <= sq(Fixed::from_int(GATHERED_RADIUS)));
                    let cost = |o: &Object| rules.template(o.template).cost;
                    let mine: i64 = attackers.iter().map(|o| cost(o)).sum();
                    let seen: i64 = self
                        .memory
                        .units()
                        .filter(|s| rules.template(s.template).is_armed())
                        .map(|s| rules.template(s.template).cost)
                        .sum();
                    let theirs = seen.max(self.enemy_starting_armies(world));
                    let waited = frame.saturating_sub(since);
                    // Waiting has its limit: with the money gone an army may never grow, and two
                    // careful sides would wait for ever.
                    let strong = (mine >= self.wave_worth
                        && mine * 100 >= theirs * self.plan.attack_advantage_percent as i64)
                        || waited >= ADVANTAGE_PATIENCE;
                    if strong && (gathered || waited >= GATHER_PATIENCE) {
                        self.phase = Phase::Attacking(attackers.len());
                        (ids(attackers), Orders::Attack(point(t)))
                    } else {
                        (ids(attackers), Orders::Rally(point(rally)))
                    }
                }
                (Phase::Attacking(_), Some(t)) => {
                    let reach = Fixed::from_int(FOCUS_RADIUS);
                    let victim = self
                        .plan
                        .focus_fire
                        .then(|| {
                            // Keep a living focus target in reach; otherwise the weakest near.
                            let current = match self.last {
                                Orders::Focus(id) => {
                                    world.object(id).filter(|o| (o.pos - at).length_squared() <= sq(reach))
                                }
                                _ => None,
                            };
                            let current = current.filter(|o| world.can_see(self.player, o)).map(|o| o.id);
                            current.or_else(|| {
                                self.memory
                                    .units_in_sight()
                                    .filter(|s| (s.pos - at).length_squared() <= sq(reach))
                                    .min_by_key(|s| (s.health, s.id))
                                    .map(|s| s.id)
                            })
                        })
                        .flatten();
                    match victim {
                        Some(v) => (ids(attackers), Orders::Focus(v)),
                        None => (ids(attackers), Orders::Attack(point(t))),
                    }
                }
            }
        };
        let stale = frame.saturating_sub(self.last_frame) >= self.plan.reissue_frames;
        // An order toward nearly the same place is not given again: every new order makes
        // the units drop their targets and search new paths.
        if orders.same_as(&self.last) && !stale {
            return Vec::new();
        }
        self.last = orders.clone();
        self.last_frame = frame;
        let order = match orders {
            Orders::None => return Vec::new(),
            Orders::Guard => Command::Guard { at: Some(point(home)) },
            Orders::Rally(p) => Command::Move { to: p },
            Orders::Defend(p) | Orders::Attack(p) => Command::AttackMove { to: p },
            Orders::Focus(id) => Command::Attack { target: id },
        };
        vec![Command::Select { objects: units, add: false }, order]
    }
}

impl Orders {
    /// True if `self` and `other` are the same kind of order to the same object, or to points
    /// within [`REISSUE_DISTANCE`] of each other.
    fn same_as(&self, other: &Orders) -> bool {
        let near = |a: &Point, b: &Point| {
            let (dx, dy) = ((a.x - b.x) as i64, (a.y - b.y) as i64);
            dx * dx + dy * dy <= REISSUE_DISTANCE * REISSUE_DISTANCE
        };
        match (self, other) {
            (Orders::Defend(a), Orders::Defend(b))
            | (Orders::Rally(a), Orders::Rally(b))
            | (Orders::Attack(a), Orders::Attack(b)) => near(a, b),
            _ => self == other,
        }
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

/// True if `t` is an army unit: mobile and armed.
fn is_army(rules: &crate::sim::rules::Rules, t: TemplateId) -> bool {
    rules.template(t).is_mobile() && rules.template(t).is_armed()
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
