//! The skirmish AI's army: the scout, guarding, gathering attack waves at a rally point,
//! marching a far attack as one group (when the plan says so), attacking what it knows or
//! hunting in search parties, falling back when outmatched, defending the base, focus fire
//! on what all its attackers can hit, and not repeating an order it has just given.
//!
//! Must not: read enemy objects except through the AI's memory.

use super::*;
use crate::defs::AiTuning;

impl SkirmishAi {
    /// The fastest armed unit goes to the nearest start position not yet looked at, while no
    /// enemy structure is known; a new scout goes when the last one is lost.
    pub(super) fn send_scout(&mut self, world: &World) -> Vec<Command> {
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
                let Some(o) = self
                    .mine(world)
                    .filter(|o| is_army(rules, o.template))
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

    /// Each search party's point while the army hunts: a party keeps its point until the
    /// point is in sight or it has had the tuning's `hunt_give_up_frames` to get there (then the point
    /// counts as looked at); a new one comes from the memory, apart from the other parties'.
    /// `fallback` serves a party with nowhere left to look.
    fn hunt_goals(&mut self, world: &World, attackers: &[&Object], fallback: Vec2) -> Vec<Point> {
        let frame = world.frame().0;
        let parties = search_parties(&self.plan.tuning, attackers);
        if self.hunt.len() != parties.len() {
            self.hunt.clear();
        }
        self.hunt.resize(parties.len(), (fallback, 0));
        for (i, party) in parties.iter().enumerate() {
            let (goal, since) = self.hunt[i];
            let reached = since == 0 || world.visible_to(self.player, goal);
            let overdue = frame.saturating_sub(since) >= self.plan.tuning.hunt_give_up_frames;
            if !reached && !overdue {
                continue;
            }
            if overdue && !reached {
                self.memory.give_up_hunt_point(goal);
            }
            let from = centre(party.iter().map(|o| o.pos)).unwrap_or(fallback);
            let others: Vec<Vec2> =
                self.hunt.iter().enumerate().filter(|&(j, &(_, s))| j != i && s != 0).map(|(_, &(g, _))| g).collect();
            let next = self.memory.hunt_point_apart(world, self.player, from, &others).unwrap_or(fallback);
            self.hunt[i] = (next, frame.max(1));
        }
        self.hunt.iter().map(|&(g, _)| point(g)).collect()
    }

    /// The enemy player its attacks go for: kept while it lives; otherwise one of the living
    /// enemies whose start position is nearest its own (any within a quarter more of the
    /// nearest distance counts as near), picked by the game's seed, so a free-for-all does not
    /// always pit the same corners against each other. None without a living enemy.
    fn choose_foe(&mut self, world: &World) -> Option<PlayerId> {
        let players = world.players();
        let me = players.get(self.player.index())?;
        if let Some(f) = self.foe
            && players.get(f.index()).is_some_and(|p| !p.defeated)
        {
            return Some(f);
        }
        let mine = world.start_of(self.player).unwrap_or(Vec2::ZERO);
        let enemies: Vec<(PlayerId, Fixed)> = players
            .iter()
            .filter(|p| me.is_enemy(p) && !p.defeated)
            .map(|p| (p.id, world.start_of(p.id).map_or(Fixed::ZERO, |s| (s - mine).length())))
            .collect();
        let nearest = enemies.iter().map(|&(_, d)| d).min()?;
        let near: Vec<PlayerId> =
            enemies.iter().filter(|&&(_, d)| d <= nearest + nearest.div_int(4)).map(|&(p, _)| p).collect();
        // Each player's own draw, so the players' picks are independent: opposite corners do
        // not tend to go for the same neighbour.
        let draw = seed_draw(world, self.player, 0x8EBC_6AF0_9C88_C6E3) >> 33;
        self.foe = near.get(draw as usize % near.len().max(1)).copied();
        self.foe
    }

    /// Guards, gathers, attacks or defends with the army: the wave and its goal, the phase
    /// brought up to date, the orders for the phase, and the commands that give them.
    pub(super) fn command_army(&mut self, world: &World) -> Vec<Command> {
        let rules = world.rules();
        let scout = self.scout;
        let army: Vec<&Object> =
            self.mine(world).filter(|o| Some(o.id) != scout && is_army(rules, o.template)).collect();
        if army.is_empty() {
            return Vec::new();
        }
        // Against several enemies, the one it chose to fight first.
        let foe = self.choose_foe(world);
        let home = self.home(world, centre(army.iter().map(|o| o.pos)).unwrap_or(Vec2::ZERO));
        let intruder = self.intruder(world, &army, home);
        let attackers = &army[..self.wave_size(army.len())];
        let at = centre(attackers.iter().map(|o| o.pos)).unwrap_or(home);
        let wave = Wave { attackers, home, at };
        let target = self.attack_goal(world, foe, &wave);
        // Nothing known anywhere: the attack turns into a hunt.
        let hunting = target.is_none();
        if !hunting {
            self.hunt.clear();
        }
        let target = target.or_else(|| self.memory.hunt_point(world, self.player, at));
        self.update_phase(world, &wave);
        let (units, orders) = if let Some(enemy) = intruder {
            (ids(&army), Orders::Defend(point(enemy)))
        } else {
            match (self.phase.clone(), target) {
                (Phase::Guarding, _) | (_, None) => (ids(&army), Orders::Guard),
                (Phase::Gathering(since), Some(t)) => (ids(attackers), self.gather(world, &wave, since, t)),
                (Phase::Attacking(_), Some(t)) => (ids(attackers), self.attack(world, &wave, t, hunting)),
            }
        };
        self.give(world, home, units, orders)
    }

    /// Where the nearest enemy unit near the base stands that some of the army can fire at. An intruder
    /// none of it can fire at (an aircraft over an army without anti-air) is not worth calling
    /// everyone home for: they would stand under it.
    fn intruder(&self, world: &World, army: &[&Object], home: Vec2) -> Option<Vec2> {
        let (rules, radius) = (world.rules(), self.plan.defend_radius);
        let hurtable = |s: &&Sighting| army.iter().any(|o| can_hit(rules, o.template, s.template));
        nearest_seen(self.memory.units_in_sight().filter(hurtable), home)
            .filter(|s| (s.pos - home).length_squared() <= radius * radius)
            .map(|s| s.pos)
    }

    /// How many of an army of `n_units` attack: the plan's share, at most its wave size.
    fn wave_size(&self, n_units: usize) -> usize {
        let share = self.plan.attack_share_percent.clamp(1, 100) as usize;
        let mut n = (n_units * share).div_ceil(100).clamp(1, n_units);
        if self.plan.wave_size > 0 {
            n = n.min(self.plan.wave_size as usize);
        }
        n
    }

    /// Where an attack goes: the enemy's army first (it shoots back), then its base, then to
    /// look for it where it may be; None when nothing is known anywhere.
    fn attack_goal(&self, world: &World, foe: Option<PlayerId>, wave: &Wave<'_>) -> Option<Vec2> {
        let (rules, at) = (world.rules(), wave.at);
        let of_foe = |s: &&Sighting| foe.is_none_or(|f| s.owner == f);
        let foe_start = foe
            .and_then(|f| world.players().get(f.index()))
            .filter(|f| !self.memory.is_cleared(f.start as usize))
            .and_then(|f| world.start_of(f.id));
        // An AI that spares workers marches on what can shoot back, and on structures.
        let spare = self.plan.spare_workers;
        let marked = |s: &&Sighting| !spare || rules.template(s.template).is_armed();
        // Units none of the attackers can fire at are no goal: an air fleet sent after enemy
        // aircraft it cannot hit would hover beside them for the rest of the game.
        let hittable = |s: &&Sighting| wave.attackers.iter().any(|o| can_hit(rules, o.template, s.template));
        nearest_seen(self.memory.units().filter(of_foe).filter(marked).filter(hittable), at)
            .or_else(|| nearest_seen(self.memory.structures().filter(of_foe), at))
            .map(|s| s.pos)
            .or(foe_start)
            .or_else(|| {
                nearest_seen(self.memory.units().filter(marked).filter(hittable), at)
                    .or_else(|| nearest_seen(self.memory.structures(), at))
                    .map(|s| s.pos)
            })
            .or_else(|| self.memory.unscouted_start(world, wave.home, at))
    }

    /// The phase brought up to date: guarding turns to gathering at the attack time, and an
    /// attack falls back to gathering when it has lost most of its units or is outmatched by
    /// the armed enemies in sight around it (the next wave then waits for a quarter more).
    fn update_phase(&mut self, world: &World, wave: &Wave<'_>) {
        let (frame, rules) = (world.frame().0, world.rules());
        if frame >= self.first_attack.unwrap_or(self.plan.first_attack_frame) && self.phase == Phase::Guarding {
            self.phase = Phase::Gathering(frame);
        }
        let Phase::Attacking(size) = self.phase else { return };
        let worth = |t: TemplateId| rules.template(t).cost;
        let mine: i64 = wave.attackers.iter().map(|o| worth(o.template)).sum();
        let reach = Fixed::from_int(self.plan.tuning.focus_radius * 2);
        let facing: i64 = self
            .memory
            .units_in_sight()
            .filter(|s| rules.template(s.template).is_armed() && (s.pos - wave.at).length_squared() <= sq(reach))
            .map(|s| worth(s.template))
            .sum();
        let outmatched = mine * 100 < facing * self.plan.retreat_below_percent as i64;
        if wave.attackers.len() * 100 < size * self.plan.tuning.fall_back_percent || outmatched {
            self.phase = Phase::Gathering(frame);
            self.wave_worth = self.wave_worth.saturating_add(self.wave_worth / 4);
        }
    }

    /// Gathering since frame `since` at the rally point on the way to `t`: the wave sets out
    /// when it is strong enough and gathered (or has waited long), else it waits there.
    fn gather(&mut self, world: &World, wave: &Wave<'_>, since: u32, t: Vec2) -> Orders {
        let (frame, rules, attackers) = (world.frame().0, world.rules(), wave.attackers);
        let toward = (t - wave.home).normalize().scale(Fixed::from_int(self.plan.tuning.rally_distance));
        let rally = wave.home + toward;
        let widest = attackers.iter().map(|o| rules.template(o.template).radius).max().unwrap_or(Fixed::ONE);
        let positions: Vec<Vec2> = attackers.iter().map(|o| o.pos).collect();
        let gathered = march::gathered(&self.plan.tuning, &positions, wave.at, rally, widest);
        let mine: i64 = attackers.iter().map(|o| rules.template(o.template).cost).sum();
        let theirs = self.enemy_strength(world);
        let waited = frame.saturating_sub(since);
        // Waiting has its limit: with the money gone an army may never grow, and two
        // careful sides would wait for ever.
        let strong = (mine >= self.wave_worth && mine * 100 >= theirs * self.plan.attack_advantage_percent as i64)
            || waited >= self.plan.tuning.advantage_patience;
        if strong && (gathered || waited >= self.plan.tuning.gather_patience) {
            self.phase = Phase::Attacking(attackers.len());
            let units = u32::try_from(attackers.len()).unwrap_or(u32::MAX);
            self.first_wave.get_or_insert(FirstWave { frame, units, worth: mine });
            Orders::Attack(point(t))
        } else {
            Orders::Rally(point(rally))
        }
    }

    /// Attacking toward `t`: focus fire where the plan says so, search parties while
    /// `hunting`, else on toward `t` (a step ahead of the group's centre when it marches
    /// together).
    fn attack(&mut self, world: &World, wave: &Wave<'_>, t: Vec2, hunting: bool) -> Orders {
        let attackers = wave.attackers;
        let victim = if self.plan.focus_fire { self.focus_target(world, wave) } else { None };
        match victim {
            Some(v) => Orders::Focus(v),
            None if hunting => Orders::Hunt(self.hunt_goals(world, attackers, t)),
            None => {
                let goal = if self.plan.march_together {
                    march::goal(&self.plan.tuning, &attackers.iter().map(|o| o.pos).collect::<Vec<_>>(), t)
                } else {
                    t
                };
                Orders::Attack(point(goal))
            }
        }
    }

    /// Focus fire: the living focus target kept while in reach and seen; otherwise the
    /// weakest enemy near the attackers. Only what every attacker can fire at: one told to
    /// attack what it cannot hit stands idle.
    fn focus_target(&self, world: &World, wave: &Wave<'_>) -> Option<ObjectId> {
        let (rules, at, attackers) = (world.rules(), wave.at, wave.attackers);
        let reach = Fixed::from_int(self.plan.tuning.focus_radius);
        let current = match self.last {
            Orders::Focus(id) => world.object(id).filter(|o| (o.pos - at).length_squared() <= sq(reach)),
            _ => None,
        };
        let current = current
            .filter(|o| world.can_see(self.player, o))
            .filter(|o| attackers.iter().all(|a| can_hit(rules, a.template, o.template)))
            .map(|o| o.id);
        current.or_else(|| {
            self.memory
                .units_in_sight()
                .filter(|s| (s.pos - at).length_squared() <= sq(reach))
                .filter(|s| attackers.iter().all(|o| can_hit(rules, o.template, s.template)))
                .min_by_key(|s| (s.health, s.id))
                .map(|s| s.id)
        })
    }

    /// The commands that give `orders` to `units`: none when the same order was just given
    /// (an order toward nearly the same place, unless it has gone stale), and to hunting
    /// parties only those with a new point.
    fn give(&mut self, world: &World, home: Vec2, units: Vec<ObjectId>, orders: Orders) -> Vec<Command> {
        let frame = world.frame().0;
        let stale = frame.saturating_sub(self.last_frame) >= self.plan.reissue_frames;
        // An order toward nearly the same place is not given again: every new order makes
        // the units drop their targets and search new paths.
        if orders.same_as(&self.last, self.plan.tuning.reissue_distance) && !stale {
            return Vec::new();
        }
        let previous = std::mem::replace(&mut self.last, orders.clone());
        self.last_frame = frame;
        let order = match orders {
            Orders::None => return Vec::new(),
            Orders::Hunt(goals) => {
                // Only parties with a new point are told (all of them when the order is stale):
                // a new order makes units drop what they were doing and search new paths.
                let before = match previous {
                    Orders::Hunt(before) if !stale && before.len() == goals.len() => before,
                    _ => Vec::new(),
                };
                let mut commands = Vec::new();
                for (i, (party, goal)) in search_parties(&self.plan.tuning, &units).into_iter().zip(goals).enumerate() {
                    if before.get(i) != Some(&goal) {
                        commands.push(Command::Select { objects: party, add: false });
                        commands.push(Command::AttackMove { to: goal });
                    }
                }
                return commands;
            }
            Orders::Guard => {
                // The guard stands out on the side the enemy comes from, where the defences
                // are, not among the structures where the gatherers come and go.
                let toward = self.enemy_direction(world, home).normalize();
                Command::Guard {
                    at: Some(point(home + toward.scale(Fixed::from_int(self.plan.tuning.guard_distance)))),
                }
            }
            // Gathering units guard the rally point: they answer what comes near instead of
            // standing idle (or walking on without firing) while an enemy attack arrives.
            Orders::Rally(p) => Command::Guard { at: Some(p) },
            Orders::Defend(p) | Orders::Attack(p) => Command::AttackMove { to: p },
            Orders::Focus(id) => Command::Attack { target: id },
        };
        vec![Command::Select { objects: units, add: false }, order]
    }
}

/// The army's attack wave as one decision sees it: its units (the army's first), the base and
/// the wave's centre.
struct Wave<'a> {
    attackers: &'a [&'a Object],
    home: Vec2,
    at: Vec2,
}

/// The ids of `units` an order can select (at most [`MAX_SELECTION`]).
fn ids(units: &[&Object]) -> Vec<ObjectId> {
    units.iter().take(MAX_SELECTION).map(|o| o.id).collect()
}

/// A hunting army split into search parties of about the tuning's `hunt_party_units` (at most
/// `hunt_parties`), taking its units in the order given (the army's id order), so the same
/// army splits the same way at every decision.
fn search_parties<T: Clone>(tuning: &AiTuning, units: &[T]) -> Vec<Vec<T>> {
    let n = (units.len() / tuning.hunt_party_units).clamp(1, tuning.hunt_parties);
    let per = units.len().div_ceil(n).max(1);
    units.chunks(per).map(|c| c.to_vec()).collect()
}

impl Orders {
    /// True if `self` and `other` are the same kind of order to the same object, or to points
    /// within `reissue_distance` of each other.
    fn same_as(&self, other: &Orders, reissue_distance: i64) -> bool {
        let near = |a: &Point, b: &Point| {
            let (dx, dy) = ((a.x - b.x) as i64, (a.y - b.y) as i64);
            dx * dx + dy * dy <= reissue_distance * reissue_distance
        };
        match (self, other) {
            (Orders::Defend(a), Orders::Defend(b))
            | (Orders::Rally(a), Orders::Rally(b))
            | (Orders::Attack(a), Orders::Attack(b)) => near(a, b),
            (Orders::Hunt(a), Orders::Hunt(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| near(a, b)),
            _ => self == other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::ai_plan::AiPlan;
    use crate::sim::rules::{ObjectKind, Rules, Targets};
    use crate::sim::test_support;
    use std::sync::Arc;

    /// A plan that guards until far in the future and calls the army home for intruders
    /// within 300 units.
    fn guarding_plan() -> AiPlan {
        AiPlan {
            name: "test".into(),
            think_frames: 1,
            first_attack_frame: 1_000_000,
            first_attack_spread: 0,
            attack_share_percent: 100,
            wave_size: 0,
            army_cap: 0,
            army_cap_per_minute: 0,
            army_cap_unit: 0,
            bank_limit: 0,
            spare_workers: false,
            march_together: false,
            siege: false,
            attack_advantage_percent: 100,
            defend_radius: Fixed::from_int(300),
            focus_fire: true,
            reissue_frames: 30,
            first_wave: 0,
            queue: 1,
            gatherers: 0,
            factories: 1,
            defences: 0,
            retreat_below_percent: 0,
            expand: false,
            tech: false,
            upgrades: 0,
            repair: false,
            styles: Vec::new(),
            follow_style: 100,
            tuning: crate::defs::test_support::shipped_plans().get("easy").expect("easy").tuning.clone(),
        }
    }

    /// Test rules plus template 3, an aircraft; the test unit's gun reaches `gun`.
    fn rules_with_aircraft(gun: Targets) -> Arc<Rules> {
        let mut r = (*test_support::rules()).clone();
        let aircraft = crate::sim::rules::ObjectTemplate {
            name: "Plane".into(),
            kind: ObjectKind::Aircraft,
            ..r.templates[0].clone()
        };
        r.templates.push(aircraft);
        r.template_names.insert("Plane".into(), TemplateId(3));
        r.weapons[0].targets = gun;
        Arc::new(r)
    }

    /// What player 0's army is told, in `phase` under `plan`, with three of its units around
    /// `(x, y)` and an enemy aircraft in sight 50 units east and south of them.
    fn orders_beside_an_aircraft(gun: Targets, plan: AiPlan, phase: Phase, x: i64, y: i64) -> Vec<Command> {
        let objects = vec![
            (TemplateId(0), 0, at(x, y)),
            (TemplateId(0), 0, at(x + 10, y)),
            (TemplateId(0), 0, at(x, y + 10)),
            (TemplateId(3), 1, at(x + 50, y + 50)),
        ];
        let mut w = test_support::world_with(rules_with_aircraft(gun), 64, objects);
        w.tick(&[]);
        let mut ai = SkirmishAi::new(PlayerId(0), plan);
        ai.phase = phase;
        ai.own.extend(w.objects_of(PlayerId(0)).map(|o| o.id));
        ai.memory.observe(&w, PlayerId(0));
        assert_eq!(ai.memory.units_in_sight().count(), 1, "the aircraft is in sight");
        ai.command_army(&w)
    }

    #[test]
    fn an_aircraft_over_the_base_calls_the_army_home_only_if_it_can_shoot_at_it() {
        // Three units guard at (60, 60), by their post at (15, 15); the aircraft circles 70
        // units from them. With guns that reach the air, the whole army goes for it.
        let orders = |gun| orders_beside_an_aircraft(gun, guarding_plan(), Phase::Guarding, 60, 60);
        assert_eq!(orders(Targets::Both).last(), Some(&Command::AttackMove { to: Point { x: 110, y: 110 } }));
        // With guns for the ground only they would stand under it for ever (two hard AIs did,
        // for forty minutes): they keep guarding instead.
        let ground = orders(Targets::Ground);
        assert!(matches!(ground.last(), Some(Command::Guard { .. })), "{ground:?}");
    }

    #[test]
    fn an_attack_goes_for_the_enemy_it_can_hit_not_for_aircraft_beyond_its_guns() {
        // Three units attack from (300, 300), far from their post, the aircraft 70 units on,
        // the enemy's start at the far corner. Guns that reach the air go for the aircraft.
        let plan = AiPlan { focus_fire: false, ..guarding_plan() };
        let orders = |gun| orders_beside_an_aircraft(gun, plan.clone(), Phase::Attacking(3), 300, 300);
        assert_eq!(orders(Targets::Both).last(), Some(&Command::AttackMove { to: Point { x: 350, y: 350 } }));
        // Guns for the ground only march on the enemy's start instead (an air fleet sent after
        // aircraft it could not hit hovered beside them for the last twenty minutes of a game).
        assert_eq!(orders(Targets::Ground).last(), Some(&Command::AttackMove { to: Point { x: 625, y: 625 } }));
    }

    fn at(x: i64, y: i64) -> Vec2 {
        Vec2::from_int(x, y)
    }

    /// What player 0's army is told while it gathers: 36 units of radius 12 in a six-by-six block
    /// `spacing` apart around (128, 128), the rally point on the way from its start (15, 15) to
    /// the enemy's (625, 625).
    fn gathering_block_orders(spacing: i64) -> Vec<Command> {
        let mut rules = (*test_support::rules()).clone();
        rules.templates[0].radius = Fixed::from_int(12);
        let objects = (0..36)
            .map(|i| (TemplateId(0), 0, at(128 + (i % 6 * 2 - 5) * spacing / 2, 128 + (i / 6 * 2 - 5) * spacing / 2)))
            .collect();
        let mut w = test_support::world_with(Arc::new(rules), 64, objects);
        w.tick(&[]);
        let mut ai = SkirmishAi::new(PlayerId(0), AiPlan { first_attack_frame: 0, ..guarding_plan() });
        ai.phase = Phase::Gathering(0);
        ai.own.extend(w.objects_of(PlayerId(0)).map(|o| o.id));
        ai.command_army(&w)
    }

    #[test]
    fn an_army_standing_in_its_formation_at_the_rally_point_sets_out_at_once() {
        // Spaced as a move order's formation spaces units of radius 12 (36 apart), the block's
        // corners stand 127 from its centre: gathered, it attacks the enemy's start now. Held
        // to a fixed 90, it waited out its patience (or set out at once where its slots happened
        // to fall inside, a seat's luck that decided whole mirrors).
        assert_eq!(gathering_block_orders(36).last(), Some(&Command::AttackMove { to: Point { x: 625, y: 625 } }));
        // Twice as spread, it is not gathered yet: it keeps gathering at the rally point.
        assert_eq!(gathering_block_orders(72).last(), Some(&Command::Guard { at: Some(Point { x: 128, y: 128 }) }));
    }
}
