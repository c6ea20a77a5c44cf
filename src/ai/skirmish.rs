//! The skirmish AI: guard the base, answer attacks on it with the whole army, and from the
//! plan's attack time on gather part of the army at a rally point toward the enemy, then send
//! it at the nearest enemy units (then at what is left of the base), falling back to regroup
//! when the group has shrunk. Harder plans think more often, attack sooner with more, and
//! focus fire on the weakest enemy in reach.
//!
//! Must not: read anything but the world it is given and its own memory; decisions depend
//! only on them (ties broken by id), so every machine running the AI decides the same.

use crate::sim::command::{Command, MAX_SELECTION, Point};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
use crate::sim::object::Object;
use crate::sim::vector::Vec2;
use crate::sim::world::World;

use super::plan::AiPlan;

/// Distance around the attackers' centre in which a focusing AI looks for a victim.
const FOCUS_RADIUS: i64 = 160;
/// Power the AI keeps to spare: it raises a plant before a structure would leave less.
const POWER_MARGIN: i32 = 2;
/// Attackers count as gathered when all stand this close to their centre.
const GATHERED_RADIUS: i64 = 90;
/// Distance from the base, toward the enemy, of the point where attackers gather.
const RALLY_DISTANCE: i64 = 160;
/// Frames an AI waits for stragglers before attacking anyway.
const GATHER_PATIENCE: u32 = 30 * 30;
/// Frames an AI waits for its advantage before attacking anyway (two equal turtles would
/// otherwise wait for ever).
const ADVANTAGE_PATIENCE: u32 = 30 * 180;
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
}

impl SkirmishAi {
    /// An AI for `player` playing by `plan`.
    pub fn new(player: PlayerId, plan: AiPlan) -> SkirmishAi {
        SkirmishAi { player, plan, phase: Phase::Guarding, last: Orders::None, last_frame: 0, decisions: 0 }
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
        // Building a structure needs the builder selected; so does every army order, and a
        // frame's selections all run before its orders: a frame does one or the other.
        if let Some(build) = self.expand(world) {
            return build;
        }
        if let Some(gather) = self.employ_gatherers(world) {
            return gather;
        }
        let mut out = self.train(world);
        out.extend(self.command_army(world));
        out
    }

    /// A builder raises a unit factory when the AI has none (finished or rising), and a power
    /// plant first when that factory (or what stands already) would use more power than is
    /// made; one plant rises at a time.
    fn expand(&self, world: &World) -> Option<Vec<Command>> {
        let rules = world.rules();
        let mine = || world.objects().filter(|o| o.owner == self.player);
        let makes_army = |t: TemplateId| {
            rules.template(t).builds.iter().any(|&u| rules.template(u).is_mobile() && rules.template(u).is_armed())
        };
        let has_factory = mine().any(|o| o.kind.blocks_ground() && makes_army(o.template));
        let plant_rising = mine().any(|o| !o.is_complete() && rules.template(o.template).power > 0);
        let builder = mine().find(|o| {
            rules.template(o.template).is_mobile() && !matches!(o.order, crate::sim::object::Order::Construct { .. })
        })?;
        let options = &rules.template(builder.template).builds;
        let buildable = |t: TemplateId| world.can_build(self.player, builder.id, t).is_ok();
        let factory =
            (!has_factory).then(|| options.iter().copied().find(|&t| makes_army(t) && buildable(t))).flatten();
        let power = world.power(self.player);
        let wanted = factory.map_or(0, |t| rules.template(t).power.min(0).saturating_neg());
        let short = power.produced - power.used - wanted < POWER_MARGIN;
        let template = if short && !plant_rising {
            // The plant that makes the most of what this builder can raise.
            options
                .iter()
                .copied()
                .filter(|&t| rules.template(t).power > 0 && buildable(t))
                .max_by_key(|&t| (rules.template(t).power, std::cmp::Reverse(t)))?
        } else if short {
            return None; // the plant rising comes first
        } else {
            factory?
        };
        let home = mine().find(|o| o.kind.blocks_ground()).map_or(builder.pos, |o| o.pos);
        let at = self.site_near(world, template, home)?;
        Some(vec![Command::Select { objects: vec![builder.id], add: false }, Command::Build { template, at }])
    }

    /// Idle gatherers go to the supply pile nearest to them.
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
        let first = idle.first()?;
        let pile = nearest(world.objects().filter(|o| o.supply > 0), first.pos)?;
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
        for ring in 1..=6i64 {
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

    /// Finished factories with short queues train the next armed unit they can afford.
    fn train(&self, world: &World) -> Vec<Command> {
        let rules = world.rules();
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        let mut money = me.money;
        let mut out = Vec::new();
        for f in world.objects().filter(|o| o.owner == self.player && o.kind.blocks_ground() && o.is_complete()) {
            if world.factories().queue(f.id).len() >= 2 {
                continue;
            }
            let options: Vec<TemplateId> = rules
                .template(f.template)
                .builds
                .iter()
                .copied()
                .filter(|&u| {
                    let t = rules.template(u);
                    t.is_mobile() && t.is_armed() && world.prerequisites_met(self.player, u).is_ok()
                })
                .collect();
            if options.is_empty() {
                continue;
            }
            // Among equal options, a choice that depends on the game's seed.
            let salt = (world.rng_state() ^ self.player.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let pick = options[(self.decisions as usize).wrapping_add(salt as usize) % options.len()];
            let cost = rules.template(pick).cost;
            if cost <= money {
                money -= cost;
                out.push(Command::Produce { factory: f.id, template: pick });
            }
        }
        out
    }

    /// Guards, gathers, attacks or defends with the army.
    fn command_army(&mut self, world: &World) -> Vec<Command> {
        let frame = world.frame().0;
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        let rules = world.rules();
        let is_enemy = |o: &Object| {
            o.owner != PlayerId::NEUTRAL
                && world.players().get(o.owner.index()).is_some_and(|p| p.team != me.team && !p.defeated)
        };
        let army: Vec<&Object> = world
            .objects()
            .filter(|o| {
                o.owner == self.player
                    && rules.template(o.template).is_mobile()
                    && rules.template(o.template).is_armed()
            })
            .collect();
        if army.is_empty() {
            return Vec::new();
        }
        let home = centre(world.objects().filter(|o| o.owner == self.player && o.kind.blocks_ground()).map(|o| o.pos))
            .or_else(|| world.terrain().start_positions().get(self.player.index()).copied())
            .unwrap_or_else(|| centre(army.iter().map(|o| o.pos)).unwrap_or(Vec2::ZERO));
        let radius = self.plan.defend_radius;
        let intruder = nearest(world.objects().filter(|o| is_enemy(o) && !o.kind.blocks_ground()), home)
            .filter(|o| (o.pos - home).length_squared() <= radius * radius);
        let ids = |units: &[&Object]| units.iter().take(MAX_SELECTION).map(|o| o.id).collect::<Vec<_>>();
        let share = self.plan.attack_share_percent.clamp(1, 100) as usize;
        let n = (army.len() * share).div_ceil(100).clamp(1, army.len());
        let attackers = &army[..n];
        let at = centre(attackers.iter().map(|o| o.pos)).unwrap_or(home);
        // Go for the enemy's army first (it shoots back), then for what is left of its base.
        let target = nearest(world.objects().filter(|o| is_enemy(o) && !o.kind.blocks_ground()), at)
            .or_else(|| nearest(world.objects().filter(|o| is_enemy(o)), at));
        if frame >= self.plan.first_attack_frame && self.phase == Phase::Guarding {
            self.phase = Phase::Gathering(frame);
        }
        if let Phase::Attacking(size) = self.phase
            && attackers.len() * 100 < size * FALL_BACK_PERCENT
        {
            self.phase = Phase::Gathering(frame);
        }
        let (units, orders) = if let Some(enemy) = intruder {
            (ids(&army), Orders::Defend(point(enemy.pos)))
        } else {
            match (self.phase.clone(), target) {
                (Phase::Guarding, _) | (_, None) => (ids(&army), Orders::Guard),
                (Phase::Gathering(since), Some(t)) => {
                    let toward = (t.pos - home).normalize().scale(Fixed::from_int(RALLY_DISTANCE));
                    let rally = home + toward;
                    let gathered = (at - rally).length_squared() <= sq(Fixed::from_int(GATHERED_RADIUS * 2))
                        && attackers
                            .iter()
                            .all(|o| (o.pos - at).length_squared() <= sq(Fixed::from_int(GATHERED_RADIUS)));
                    let cost = |o: &Object| rules.template(o.template).cost;
                    let mine: i64 = attackers.iter().map(|o| cost(o)).sum();
                    let theirs: i64 = world
                        .objects()
                        .filter(|o| {
                            is_enemy(o)
                                && rules.template(o.template).is_mobile()
                                && rules.template(o.template).is_armed()
                        })
                        .map(cost)
                        .sum();
                    let waited = frame.saturating_sub(since);
                    let strong = mine * 100 >= theirs * self.plan.attack_advantage_percent as i64
                        || waited >= ADVANTAGE_PATIENCE;
                    if strong && (gathered || waited >= GATHER_PATIENCE) {
                        self.phase = Phase::Attacking(attackers.len());
                        (ids(attackers), Orders::Attack(point(t.pos)))
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
                            current.or_else(|| {
                                world
                                    .objects()
                                    .filter(|o| is_enemy(o) && !o.kind.blocks_ground())
                                    .filter(|o| (o.pos - at).length_squared() <= sq(reach))
                                    .min_by_key(|o| (o.health, o.id))
                            })
                        })
                        .flatten();
                    match victim {
                        Some(v) => (ids(attackers), Orders::Focus(v.id)),
                        None => (ids(attackers), Orders::Attack(point(t.pos))),
                    }
                }
            }
        };
        let stale = frame.saturating_sub(self.last_frame) >= self.plan.reissue_frames;
        if orders == self.last && !stale {
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

/// The object nearest to `to` (ties: lowest id).
fn nearest<'a>(objects: impl Iterator<Item = &'a Object>, to: Vec2) -> Option<&'a Object> {
    objects.min_by_key(|o| ((o.pos - to).length_squared(), o.id))
}

/// A position as a command point in whole world units.
fn point(p: Vec2) -> Point {
    Point { x: p.x.round_int() as i32, y: p.y.round_int() as i32 }
}
