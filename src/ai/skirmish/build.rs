//! The skirmish AI's building: which structure its builder raises next (factories, a depot by
//! fresh supply, its tech structure, defences, power first), where it fits, and the sale of a
//! spare structure when it is broke without an army.
//!
//! Must not: read enemy objects except through the AI's memory.

use super::*;
use crate::sim::rules::Rules;

impl SkirmishAi {
    /// With no army, nothing in training and too little money for any unit it can make, it
    /// sells a structure it can spare (the dearest; never its depot or its last factory of
    /// armed units) to pay for one: a broke player without an army would otherwise sit out the
    /// game.
    pub(super) fn raise_funds(&self, world: &World) -> Option<Command> {
        let rules = world.rules();
        let me = world.players().get(self.player.index())?;
        let mine = || self.mine(world);
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

    /// A free builder raises the next structure the plan wants: unit factories up to the
    /// plan's count (taking turns among the kinds it can make), a supply depot by a fresh
    /// source when its gatherers' trips grow long, its tech structure, then defences toward
    /// the enemy; a power plant first whenever that structure (or what stands already) would
    /// leave less than a small margin. One structure rises at a time. What it cannot pay for
    /// yet, it saves for: training keeps that much back unless the base is threatened.
    pub(super) fn expand(&mut self, world: &World) -> Option<Vec<Command>> {
        self.reserve = 0;
        let rules = world.rules();
        let builder = self
            .mine(world)
            .filter(|o| rules.template(o.template).is_mobile() && !rules.template(o.template).builds.is_empty())
            .find(|o| !matches!(o.order, crate::sim::object::Order::Construct { .. }))?;
        if let Some(site) = self.mine(world).find(|o| o.kind.blocks_ground() && !o.is_complete()) {
            // One structure at a time; a site nobody works on gets a builder back.
            let worked = self.mine(world).any(|o| o.order == crate::sim::object::Order::Construct { site: site.id });
            return (!worked && rules.template(builder.template).builds.contains(&site.template)).then(|| {
                vec![Command::Select { objects: vec![builder.id], add: false }, Command::Resume { site: site.id }]
            });
        }
        let home = self.home(world, builder.pos);
        let wants = self.next_structure(world, builder, home);
        let power = world.power(self.player);
        let wanted = wants.next.or(wants.ahead).map_or(0, |t| rules.template(t).power.min(0).saturating_neg());
        let short = power.produced - power.used - wanted < self.plan.tuning.power_margin;
        let template = if short {
            // The plant that makes the most of what this builder can raise.
            rules
                .template(builder.template)
                .builds
                .iter()
                .copied()
                .filter(|&t| rules.template(t).power > 0 && self.buildable(world, builder, t))
                .max_by_key(|&t| (rules.template(t).power, std::cmp::Reverse(t)))?
        } else if let Some(next) = wants.next {
            next
        } else {
            // Nothing to raise: an idle builder left out by the last site walks home, where
            // it is safe and near the next one.
            let far = (builder.pos - home).length_squared() > sq(Fixed::from_int(self.plan.tuning.builder_leash));
            return (far && builder.order == crate::sim::object::Order::Idle).then(|| {
                vec![Command::Select { objects: vec![builder.id], add: false }, Command::Move { to: point(home) }]
            });
        };
        // Defences stand on the side the enemy comes from; a new depot by its fresh source.
        let around = if let (Some(source), true) = (wants.expansion, rules.template(template).supply_depot) {
            source
        } else if is_defence(rules, template) {
            let toward = self.enemy_direction(world, home);
            home + toward.normalize().scale(Fixed::from_int(self.plan.tuning.defence_distance))
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

    /// What `builder` should raise next, power aside: unit factories up to the plan's count
    /// (beyond the first only while the army holds its own), a depot by a fresh source, the
    /// tech structure, ground defences, then anti-air ones once it has seen enemy aircraft.
    fn next_structure(&self, world: &World, builder: &Object, home: Vec2) -> Wants {
        let rules = world.rules();
        let mine = || self.mine(world);
        let options = &rules.template(builder.template).builds;
        let buildable = |t: TemplateId| self.buildable(world, builder, t);
        let count = |t: TemplateId| mine().filter(|o| o.template == t).count();
        let factories = mine().filter(|o| o.kind.blocks_ground() && makes_army(rules, o.template)).count();
        let defences = mine().filter(|o| is_ground_defence(rules, o.template)).count();
        let air_defences = mine().filter(|o| is_air_defence(rules, o.template)).count();
        let seen_air = self.memory.units().any(|s| rules.template(s.template).kind.is_air());
        let safe = self.safe(world);
        let more_factories = factories < self.plan.factories as usize && (factories == 0 || safe);
        let depot = options.iter().copied().find(|&t| rules.template(t).supply_depot && buildable(t));
        // Where a depot should rise, looked for only when one could be next.
        let expansion = match depot {
            Some(_) if self.plan.expand && factories > 0 && !more_factories => {
                base::expansion(world, &self.piles, &self.own, home, &self.memory)
            }
            _ => None,
        };
        let has_tech = mine().any(|o| base::is_tech(world, o.template));
        let next = if more_factories {
            // The kind with the fewest standing; the first such on the builder's list.
            let kinds = options.iter().copied().filter(|&t| makes_army(rules, t));
            kinds.min_by_key(|&t| count(t)).filter(|&t| buildable(t))
        } else if let (Some(_), Some(depot)) = (expansion, depot) {
            Some(depot)
        } else if self.plan.tech && !has_tech && factories > 0 && world.frame().0 >= self.plan.tuning.tech_after {
            options.iter().copied().find(|&t| base::is_tech(world, t) && buildable(t))
        } else if defences < self.plan.defences as usize {
            options.iter().copied().find(|&t| is_ground_defence(rules, t) && buildable(t))
        } else if seen_air && air_defences < self.plan.defences.max(1) as usize {
            options.iter().copied().find(|&t| is_air_defence(rules, t) && buildable(t))
        } else {
            None
        };
        // With nothing else to raise, the power its tech structure will need is raised ahead
        // (while the army holds its own), so the tech does not wait on a plant later, when
        // every coin goes to the fight.
        let ahead = match next {
            None if self.plan.tech && !has_tech && factories > 0 && safe => {
                options.iter().copied().find(|&t| base::is_tech(world, t))
            }
            _ => None,
        };
        Wants { next, ahead, expansion }
    }

    /// Whether `builder` may raise `t` now, or once the money is there.
    fn buildable(&self, world: &World, builder: &Object, t: TemplateId) -> bool {
        matches!(world.can_build(self.player, builder.id, t), Ok(_) | Err(RejectReason::NotEnoughMoney { .. }))
    }

    /// The first place around `home` where a structure fits: rings of eight directions, the
    /// first toward the middle of the map. The directions are mirrored by the quarter of the
    /// map `home` lies in, so every start position lays out its base alike; each candidate is
    /// nudged a quarter cell the same way, so one on a cell border snaps to the mirrored cell
    /// rather than always to the cell on its high side.
    pub(super) fn site_near(&self, world: &World, template: TemplateId, home: Vec2) -> Option<Point> {
        let t = world.rules().template(template);
        let terrain = world.terrain();
        let cell = terrain.cell_size();
        let (w, h) = (cell.mul_int(t.footprint.0 as i64), cell.mul_int(t.footprint.1 as i64));
        let (sx, sy) = terrain.toward_middle(home);
        let (sx, sy) = (sx as i64, sy as i64);
        let quarter = cell.div_int(4);
        // Keep the gatherers' lanes clear (a depot belongs by its source, lane or not).
        let lanes = if t.supply_depot { Vec::new() } else { super::base::supply_lanes(world, &self.piles, &self.own) };
        let berth = w.max(h).div_int(2) + cell.mul_int(3);
        for ring in 1..=10i64 {
            let d = Fixed::from_int(40 + 20 * ring);
            for (dx, dy) in [(1, 0), (0, -1), (1, -1), (-1, 0), (0, 1), (-1, -1), (1, 1), (-1, 1)] {
                let (dx, dy) = (dx * sx, dy * sy);
                let p = home + Vec2::new(d.mul_int(dx) + quarter.mul_int(sx), d.mul_int(dy) + quarter.mul_int(sy));
                if !terrain.contains(p) {
                    continue;
                }
                // The sim's own placement rule, then the AI's wider berth: no unit within a
                // cell of the footprint, so its own army never blocks the site.
                let at = point(world.snap_structure(p, t.footprint));
                let Ok(centre) = world.placement(template, at, None) else { continue };
                if lanes.iter().any(|&lane| centre.distance_to_segment(lane) < berth) {
                    continue;
                }
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
}

/// What a builder should raise next, as [`SkirmishAi::expand`] weighs it against power.
struct Wants {
    /// The structure it wants next, if any.
    next: Option<TemplateId>,
    /// The tech structure whose power is raised ahead when nothing else is wanted.
    ahead: Option<TemplateId>,
    /// Where a new depot should rise, by a fresh supply source.
    expansion: Option<Vec2>,
}

/// Whether structures of `t` make armed units.
fn makes_army(rules: &Rules, t: TemplateId) -> bool {
    rules.template(t).builds.iter().any(|&u| is_army(rules, u))
}

/// Defences: armed structures that are nothing else (an armed headquarters is not one).
fn is_defence(rules: &Rules, t: TemplateId) -> bool {
    let t = rules.template(t);
    !t.is_mobile() && t.is_armed() && t.builds.is_empty()
}

/// Ground defences.
fn is_ground_defence(rules: &Rules, t: TemplateId) -> bool {
    is_defence(rules, t) && rules.template(t).can_hit(rules, false)
}

/// Anti-air defences (raised once it has seen enemy aircraft).
fn is_air_defence(rules: &Rules, t: TemplateId) -> bool {
    is_defence(rules, t) && !rules.template(t).can_hit(rules, false)
}
