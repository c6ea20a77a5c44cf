//! The skirmish AI's training: gatherers up to the plan's number, a lost builder replaced, a
//! share of top units once its tech allows, and the armed unit each factory should make against
//! the enemy it has seen (weighed by its style), within what it is not saving for; idle
//! gatherers sent to work.
//!
//! Must not: read enemy objects except through the AI's memory.

use super::*;
use crate::sim::rules::Rules;

/// A factory's army options scored against the enemy, with the best score among them.
type Offer = (ObjectId, Vec<(TemplateId, i64)>, i64);

impl SkirmishAi {
    /// Idle gatherers go to the supply source with the shortest trip to a depot; a working one
    /// whose trip is much longer than that moves there. Above the plan's bank limit, working
    /// gatherers with nothing carried walk home instead, and idle ones stay there until the
    /// money drops below half the limit.
    pub(super) fn employ_gatherers(&self, world: &World) -> Option<Vec<Command>> {
        let rules = world.rules();
        let home = self.home(world, Vec2::ZERO);
        let (resting, rest_now) = self.banked(world);
        if rest_now {
            // A gatherer on its way back with a load delivers it first; the next decision
            // sends it home once its hands are empty.
            let working: Vec<ObjectId> = self
                .mine(world)
                .filter(|o| rules.template(o.template).gather.is_some() && o.cargo == 0)
                .filter(|o| matches!(o.order, crate::sim::object::Order::Gather { .. }))
                .map(|o| o.id)
                .collect();
            return (!working.is_empty())
                .then(|| vec![Command::Select { objects: working, add: false }, Command::Move { to: point(home) }]);
        }
        let idle: Vec<&Object> = self
            .mine(world)
            .filter(|o| rules.template(o.template).gather.is_some() && o.order == crate::sim::object::Order::Idle)
            .filter(|_| !resting)
            .collect();
        let Some(first) = idle.first() else {
            // Working gatherers move to a source much nearer a depot (a new depot stands).
            let (gatherer, source) = base::better_source(world, &self.piles, &self.own, home)?;
            return Some(vec![
                Command::Select { objects: vec![gatherer], add: false },
                Command::Gather { pile: source },
            ]);
        };
        let pile = match base::best_source(world, &self.piles, &self.own, home) {
            Some((s, _)) => s,
            None => nearest(self.piles.of(world), first.pos)?,
        };
        Some(vec![
            Command::Select { objects: idle.iter().map(|o| o.id).collect(), add: false },
            Command::Gather { pile: pile.id },
        ])
    }

    /// Whether its bank is full by the plan's bank limit, as (idle gatherers stay idle, working
    /// ones go home): above the limit both; from half of it up to it only the first, so a
    /// gatherer sent back to work makes some trips rather than turning back at once.
    fn banked(&self, world: &World) -> (bool, bool) {
        let limit = self.plan.bank_limit;
        let money = world.players().get(self.player.index()).map_or(0, |p| p.money);
        (limit > 0 && money * 2 >= limit, limit > 0 && money > limit)
    }

    /// Structures that make gatherers keep the plan's number working; finished factories with
    /// short queues train the next armed unit they can afford. In order: a lost builder, a top
    /// unit, gatherers, then each factory's army unit, each paid from (or kept back out of)
    /// what is left.
    pub(super) fn train(&self, world: &World) -> Vec<Command> {
        let rules = world.rules();
        let Some(me) = world.players().get(self.player.index()) else { return Vec::new() };
        // What it saves for stays unspent, unless the base must be defended now by an army
        // that does not hold its own (an enemy in sight of a strong army is no emergency: a
        // player always fighting near home would otherwise never tech).
        let safe = self.safe(world);
        let threatened = self.threatened(world) && !safe;
        let money = if threatened { me.money } else { me.money - self.reserve };
        let mut scores = Scores { enemy_mix: self.enemy_mix(world), scored: Vec::new() };
        let tally = Tally::of(self, world);
        // The best unit any of its factories could make against that enemy: a factory whose
        // own best is far below it waits rather than spend on units that do not count.
        let overall = tally
            .factories
            .iter()
            .flat_map(|f| rules.template(f.template).builds.iter().copied())
            .filter(|&u| rules.template(u).is_armed())
            .filter_map(|u| scores.score(self, world, u))
            .max()
            .unwrap_or(0);
        let mut t = Training { world, tally, money, out: Vec::new(), threatened, safe };
        self.replace_builder(&mut t);
        // An army worth the plan's cap (counting what is queued) trains no more armed units.
        let capped = self.plan.army_cap_at(world.frame().0).is_some_and(|cap| t.tally.army_worth >= cap);
        if !capped {
            self.train_top(&mut t);
        }
        let busy = self.train_gatherers(&mut t);
        if !capped {
            self.train_army(&mut t, &mut scores, &busy, overall);
        }
        t.out
    }

    /// A builder lost is replaced first: without one no structure can rise again. Not
    /// affordable yet, its price is kept back from the army until it is.
    fn replace_builder(&self, t: &mut Training<'_>) {
        let (world, rules) = (t.world, t.world.rules());
        if t.tally.builders > 0 {
            return;
        }
        let factories = &t.tally.factories;
        if let Some((f, b)) = factories.iter().find_map(|f| {
            let b = rules.template(f.template).builds.iter().copied().find(|&b| is_builder(rules, b))?;
            world.can_produce(self.player, f.id, b).is_ok().then_some((f.id, b))
        }) {
            t.money -= rules.template(b).cost;
            t.out.push(Command::Produce { factory: f, template: b });
        } else {
            let price = factories
                .iter()
                .flat_map(|f| rules.template(f.template).builds.iter().copied())
                .filter(|&b| is_builder(rules, b))
                .map(|b| rules.template(b).cost)
                .min();
            t.money -= price.unwrap_or(0);
        }
    }

    /// Once it can have its top unit, one in the tuning's `top_share` of its army is one, saved for
    /// ahead of the rest (scored per price against what it has seen, massed basic units
    /// would always win the choice).
    fn train_top(&self, t: &mut Training<'_>) {
        let (world, rules) = (t.world, t.world.rules());
        if t.tally.tops * self.plan.tuning.top_share >= t.tally.army {
            return;
        }
        let Some((f, top)) = t.tally.factories.iter().find_map(|f| {
            let top = rules.template(f.template).builds.iter().copied().find(|&u| is_top(world, u))?;
            let room = world.factories().queue(f.id).len() < self.plan.queue as usize;
            (room && world.prerequisites_met(self.player, top).is_ok()).then_some((f.id, top))
        }) else {
            return;
        };
        let cost = rules.template(top).cost;
        if cost <= t.money {
            t.out.push(Command::Produce { factory: f, template: top });
        }
        if cost <= t.money || !t.threatened {
            t.money -= cost; // paid, or kept back for it
        }
    }

    /// Gatherers up to the plan's number (beyond the first only while safe), one at each
    /// factory that makes them and has nothing queued; returns the factories so served.
    fn train_gatherers(&self, t: &mut Training<'_>) -> Vec<ObjectId> {
        let (world, rules) = (t.world, t.world.rules());
        let mut gatherers = t.tally.gatherers;
        let mut busy = Vec::new();
        for f in &t.tally.factories {
            let builds = &rules.template(f.template).builds;
            if let Some(&g) = builds.iter().find(|&&u| is_gatherer(rules, u))
                && gatherers < self.plan.gatherers as usize
                && (gatherers < 1 || t.safe)
                && world.factories().queue(f.id).is_empty()
                && rules.template(g).cost <= t.money
                && world.prerequisites_met(self.player, g).is_ok()
            {
                t.money -= rules.template(g).cost;
                gatherers += 1;
                busy.push(f.id);
                t.out.push(Command::Produce { factory: f.id, template: g });
            }
        }
        busy
    }

    /// Each factory not `busy` with a short queue trains an armed unit that fights the enemy
    /// it knows; the factory with the best unit is served first, so cheap units from one
    /// factory do not starve a better one at another. `overall` is the best score of all.
    fn train_army(&self, t: &mut Training<'_>, scores: &mut Scores, busy: &[ObjectId], overall: i64) {
        let (world, rules) = (t.world, t.world.rules());
        let mut offers: Vec<Offer> = t
            .tally
            .factories
            .iter()
            .filter(|f| !busy.contains(&f.id) && world.factories().queue(f.id).len() < self.plan.queue as usize)
            .filter_map(|f| {
                let options: Vec<(TemplateId, i64)> = rules
                    .template(f.template)
                    .builds
                    .iter()
                    .copied()
                    .filter(|&u| is_army(rules, u))
                    .filter_map(|u| Some((u, scores.score(self, world, u)?)))
                    .collect();
                let best = options.iter().map(|&(_, s)| s).max()?;
                Some((f.id, options, best))
            })
            .collect();
        offers.sort_by_key(|&(id, _, best)| (std::cmp::Reverse(best), id));
        for (factory, options, best) in offers {
            // A factory whose best is far below the best overall waits rather than spend on
            // units that do not count.
            if best * 100 < overall * self.plan.tuning.worth_making_percent {
                continue;
            }
            // The units that fight the enemy it knows best (within a margin of the best), and
            // among those a choice that depends on the game's seed.
            let good: Vec<TemplateId> = options
                .iter()
                .filter(|&&(_, s)| s * 100 >= best * self.plan.tuning.good_enough_percent)
                .map(|&(u, _)| u)
                .collect();
            let salt = (world.rng_state() ^ self.player.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let pick = good[(self.decisions as usize).wrapping_add(salt as usize) % good.len().max(1)];
            let cost = rules.template(pick).cost;
            if cost <= t.money {
                t.out.push(Command::Produce { factory, template: pick });
            }
            if cost <= t.money || (!t.threatened && best * 100 >= overall * self.plan.tuning.good_enough_percent) {
                t.money -= cost; // paid, or kept back for the best unit it can make
            }
        }
    }
}

/// One training decision as it goes: what it counted, the money left to spend, the commands
/// so far, and whether the base is threatened (saving stops) or safe (more gatherers).
struct Training<'w> {
    world: &'w World,
    tally: Tally<'w>,
    money: i64,
    out: Vec<Command>,
    threatened: bool,
    safe: bool,
}

/// What a unit scores against the enemy it has seen (weighed by its style), if it may be
/// trained now: asked once a decision per kind, however many factories offer it.
struct Scores {
    enemy_mix: Vec<(TemplateId, u32)>,
    scored: Vec<(TemplateId, Option<i64>)>,
}

impl Scores {
    fn score(&mut self, ai: &SkirmishAi, world: &World, u: TemplateId) -> Option<i64> {
        if let Some(&(_, s)) = self.scored.iter().find(|(t, _)| *t == u) {
            return s;
        }
        let rules = world.rules();
        let s = world
            .prerequisites_met(ai.player, u)
            .is_ok()
            .then(|| ai.leaning(rules, u, counters::score(rules, u, &self.enemy_mix)));
        self.scored.push((u, s));
        s
    }
}

/// Whether units of `t` gather.
fn is_gatherer(rules: &Rules, t: TemplateId) -> bool {
    rules.template(t).gather.is_some()
}

/// Whether units of `t` are builders (mobile, with structures to build).
fn is_builder(rules: &Rules, t: TemplateId) -> bool {
    rules.template(t).is_mobile() && !rules.template(t).builds.is_empty()
}

/// Whether `t` is a top unit: one its tech structure unlocks.
fn is_top(world: &World, t: TemplateId) -> bool {
    world.rules().template(t).prerequisites.iter().any(|&p| base::is_tech(world, p))
}

/// What one pass over its objects and their queues finds: the counts `train` weighs.
struct Tally<'w> {
    /// Gatherers standing and queued.
    gatherers: usize,
    /// Builders standing and queued.
    builders: usize,
    /// Army units standing.
    army: usize,
    /// Top units standing and queued.
    tops: usize,
    /// The army's worth as the plan's cap counts it (price plus `army_cap_unit` a unit),
    /// standing and queued.
    army_worth: i64,
    /// Its finished structures, in the world's order.
    factories: Vec<&'w Object>,
}

impl<'w> Tally<'w> {
    fn of(ai: &SkirmishAi, world: &'w World) -> Tally<'w> {
        let rules = world.rules();
        let unit = ai.plan.army_cap_unit;
        let worth = |t: TemplateId| if is_army(rules, t) { rules.template(t).cost + unit } else { 0 };
        let mut tally = Tally { gatherers: 0, builders: 0, army: 0, tops: 0, army_worth: 0, factories: Vec::new() };
        for o in ai.mine(world) {
            let t = o.template;
            tally.gatherers += usize::from(is_gatherer(rules, t));
            tally.builders += usize::from(is_builder(rules, t));
            tally.army += usize::from(is_army(rules, t));
            tally.tops += usize::from(is_top(world, t));
            tally.army_worth += worth(t);
            if o.kind.blocks_ground() && o.is_complete() {
                tally.factories.push(o);
            }
            for job in world.factories().queue(o.id) {
                tally.gatherers += usize::from(is_gatherer(rules, job.template));
                tally.builders += usize::from(is_builder(rules, job.template));
                tally.tops += usize::from(is_top(world, job.template));
                tally.army_worth += worth(job.template);
            }
        }
        tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::test_support::{shipped, shipped_plans};
    use crate::sim::test_support;

    /// What player 0 trains (it keeps no gatherers and its army has no cap): it has a Camp and eight Conscripts besides
    /// the army it starts with (worth 4,054), and `enemies` enemy Conscripts stand in sight
    /// beside an enemy Headquarters, Reactor and Camp.
    fn trained_against(enemies: i64) -> Vec<String> {
        let rules = shipped().rules;
        let plans = shipped_plans();
        let id = |n: &str| rules.template_id(n).expect(n);
        let mut objects = vec![(id("Camp"), 0, Vec2::from_int(100, 100))];
        objects.extend((0..8).map(|i| (id("Conscript"), 0, Vec2::from_int(300 + 10 * i, 300))));
        objects.extend((0..enemies).map(|i| (id("Conscript"), 1, Vec2::from_int(300 + 10 * i, 360))));
        objects.extend([
            (id("Headquarters"), 1, Vec2::from_int(340, 420)),
            (id("Reactor"), 1, Vec2::from_int(260, 420)),
            (id("Camp"), 1, Vec2::from_int(420, 400)),
        ]);
        let mut w = test_support::world_with(rules.clone(), 64, objects);
        w.tick(&[]);
        let plan = AiPlan {
            styles: Vec::new(),
            gatherers: 0,
            army_cap: 0,
            siege: true,
            ..plans.get("easy").expect("easy").clone()
        };
        let mut ai = SkirmishAi::new(PlayerId(0), plan);
        ai.phase = Phase::Attacking(8);
        ai.own.extend(w.objects_of(PlayerId(0)).map(|o| o.id));
        ai.memory.observe(&w, PlayerId(0));
        assert_eq!(ai.memory.structures().count(), 3, "the enemy base is in sight");
        ai.train(&w)
            .into_iter()
            .filter_map(|c| match c {
                Command::Produce { template, .. } => Some(rules.template(template).name.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_army_far_stronger_than_the_enemy_units_it_knows_trains_against_their_base() {
        // Facing ten Conscripts with eight, the Camp trains Conscripts (rifles beat infantry).
        assert_eq!(trained_against(20), ["Conscript"]);
        // Facing one, the enemy's base is what stands in the way: Grenadiers, whose shells
        // break structures that rifles barely scratch.
        assert_eq!(trained_against(1), ["Grenadier"]);
    }
}
