//! The skirmish AI's training: gatherers up to the plan's number, a lost builder replaced, a
//! share of top units once its tech allows, and the armed unit each factory should make against
//! the enemy it has seen (weighed by its style), within what it is not saving for; idle
//! gatherers sent to work.
//!
//! Must not: read enemy objects except through the AI's memory.

use super::*;

/// A factory's army options scored against the enemy, with the best score among them.
type Offer = (ObjectId, Vec<(TemplateId, i64)>, i64);

impl SkirmishAi {
    /// Idle gatherers go to the supply source with the shortest trip to a depot; a working one
    /// whose trip is much longer than that moves there.
    pub(super) fn employ_gatherers(&self, world: &World) -> Option<Vec<Command>> {
        let rules = world.rules();
        let idle: Vec<&Object> = self
            .mine(world)
            .filter(|o| rules.template(o.template).gather.is_some() && o.order == crate::sim::object::Order::Idle)
            .collect();
        let home = self.home(world, Vec2::ZERO);
        let Some(first) = idle.first() else {
            // Working gatherers move to a source much nearer a depot (a new depot stands).
            let (gatherer, source) = base::better_source(world, &self.piles, self.player, home)?;
            return Some(vec![
                Command::Select { objects: vec![gatherer], add: false },
                Command::Gather { pile: source },
            ]);
        };
        let pile = match base::best_source(world, &self.piles, self.player, home) {
            Some((s, _)) => s,
            None => nearest(self.piles.of(world), first.pos)?,
        };
        Some(vec![
            Command::Select { objects: idle.iter().map(|o| o.id).collect(), add: false },
            Command::Gather { pile: pile.id },
        ])
    }

    /// Structures that make gatherers keep the plan's number working; finished factories with
    /// short queues train the next armed unit they can afford.
    pub(super) fn train(&self, world: &World) -> Vec<Command> {
        let rules = world.rules();
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        // What it saves for stays unspent, unless the base must be defended now by an army
        // that does not hold its own (an enemy in sight of a strong army is no emergency: a
        // player always fighting near home would otherwise never tech).
        let safe = self.safe(world);
        let threatened = self.threatened(world) && !safe;
        let mut money = if threatened { me.money } else { me.money - self.reserve };
        let mut out = Vec::new();
        let is_gatherer = |t: TemplateId| rules.template(t).gather.is_some();
        let enemy_mix = self.enemy_mix(world);
        let mut gatherers = self.mine(world).filter(|o| is_gatherer(o.template)).count()
            + self
                .mine(world)
                .flat_map(|o| world.factories().queue(o.id))
                .filter(|job| is_gatherer(job.template))
                .count();
        // The best unit any of its factories could make against that enemy: a factory whose
        // own best is far below it waits rather than spend on units that do not count.
        let overall = self
            .mine(world)
            .filter(|o| o.kind.blocks_ground() && o.is_complete())
            .flat_map(|f| rules.template(f.template).builds.iter().copied())
            .filter(|&u| rules.template(u).is_armed() && world.prerequisites_met(self.player, u).is_ok())
            .map(|u| self.leaning(rules, u, counters::score(rules, u, &enemy_mix)))
            .max()
            .unwrap_or(0);
        // A builder lost is replaced first: without one no structure can rise again.
        let is_builder = |t: TemplateId| rules.template(t).is_mobile() && !rules.template(t).builds.is_empty();
        let mine = || self.mine(world);
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
        } else if builders == 0 {
            // Not affordable yet: its price is kept back from the army until it is.
            let price = mine()
                .filter(|o| o.kind.blocks_ground() && o.is_complete())
                .flat_map(|f| rules.template(f.template).builds.iter().copied())
                .filter(|&b| is_builder(b))
                .map(|b| rules.template(b).cost)
                .min();
            money -= price.unwrap_or(0);
        }
        // Its top units: those its tech structure unlocks.
        let is_top = |t: TemplateId| rules.template(t).prerequisites.iter().any(|&p| base::is_tech(world, p));
        let army = mine().filter(|o| is_army(rules, o.template)).count();
        // An army worth the plan's cap (counting what is queued) trains no more armed units.
        let capped = self.plan.army_cap_at(world.frame().0).is_some_and(|cap| {
            let unit = self.plan.army_cap_unit;
            let worth = |t: TemplateId| if is_army(rules, t) { rules.template(t).cost + unit } else { 0 };
            let standing: i64 = mine().map(|o| worth(o.template)).sum();
            let queued: i64 = mine().flat_map(|o| world.factories().queue(o.id)).map(|j| worth(j.template)).sum();
            standing + queued >= cap
        });
        let tops = mine().filter(|o| is_top(o.template)).count()
            + mine().flat_map(|o| world.factories().queue(o.id)).filter(|j| is_top(j.template)).count();
        // Once it can have its top unit, one in [`TOP_SHARE`] of its army is one, saved for
        // ahead of the rest (scored per price against what it has seen, massed basic units
        // would always win the choice).
        if !capped
            && tops * TOP_SHARE < army
            && let Some((f, top)) = mine().filter(|o| o.kind.blocks_ground() && o.is_complete()).find_map(|f| {
                let top = rules.template(f.template).builds.iter().copied().find(|&u| is_top(u))?;
                let room = world.factories().queue(f.id).len() < self.plan.queue as usize;
                (room && world.prerequisites_met(self.player, top).is_ok()).then_some((f.id, top))
            })
        {
            let cost = rules.template(top).cost;
            if cost <= money {
                out.push(Command::Produce { factory: f, template: top });
            }
            if cost <= money || !threatened {
                money -= cost; // paid, or kept back for it
            }
        }
        let factories: Vec<&Object> = self.mine(world).filter(|o| o.kind.blocks_ground() && o.is_complete()).collect();
        let mut busy = Vec::new();
        for f in &factories {
            let builds = &rules.template(f.template).builds;
            if let Some(&g) = builds.iter().find(|&&u| is_gatherer(u))
                && gatherers < self.plan.gatherers as usize
                && (gatherers < 1 || safe)
                && world.factories().queue(f.id).is_empty()
                && rules.template(g).cost <= money
                && world.prerequisites_met(self.player, g).is_ok()
            {
                money -= rules.template(g).cost;
                gatherers += 1;
                busy.push(f.id);
                out.push(Command::Produce { factory: f.id, template: g });
            }
        }
        // Each factory's army options and their scores against that enemy; the factory with
        // the best unit is served first, so cheap units from one factory do not starve a
        // better one at another.
        let mut offers: Vec<Offer> = factories
            .iter()
            .filter(|f| {
                !capped && !busy.contains(&f.id) && world.factories().queue(f.id).len() < self.plan.queue as usize
            })
            .filter_map(|f| {
                let options: Vec<(TemplateId, i64)> = rules
                    .template(f.template)
                    .builds
                    .iter()
                    .copied()
                    .filter(|&u| is_army(rules, u) && world.prerequisites_met(self.player, u).is_ok())
                    .map(|u| (u, self.leaning(rules, u, counters::score(rules, u, &enemy_mix))))
                    .collect();
                let best = options.iter().map(|&(_, s)| s).max()?;
                Some((f.id, options, best))
            })
            .collect();
        offers.sort_by_key(|&(id, _, best)| (std::cmp::Reverse(best), id));
        for (factory, options, best) in offers {
            // A factory whose best is far below the best overall waits rather than spend on
            // units that do not count.
            if best * 100 < overall * WORTH_MAKING_PERCENT {
                continue;
            }
            // The units that fight the enemy it knows best (within a margin of the best), and
            // among those a choice that depends on the game's seed.
            let good: Vec<TemplateId> =
                options.iter().filter(|&&(_, s)| s * 100 >= best * GOOD_ENOUGH_PERCENT).map(|&(u, _)| u).collect();
            let salt = (world.rng_state() ^ self.player.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let pick = good[(self.decisions as usize).wrapping_add(salt as usize) % good.len().max(1)];
            let cost = rules.template(pick).cost;
            if cost <= money {
                out.push(Command::Produce { factory, template: pick });
            }
            if cost <= money || (!threatened && best * 100 >= overall * GOOD_ENOUGH_PERCENT) {
                money -= cost; // paid, or kept back for the best unit it can make
            }
        }
        out
    }
}
