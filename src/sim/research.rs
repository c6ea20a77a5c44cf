//! Research: structures that list `researches` work on one upgrade at a time; a finished
//! upgrade belongs to its player for the rest of the game and changes numbers (damage, armour,
//! speed, sight) of all the player's objects of the kinds it names, through
//! [`World::upgraded`].
//!
//! An upgrade is paid for when research starts and refunded if it is cancelled or its
//! structure is sold. Research follows production's rules for power: low power slows it to the
//! faction's `low_power_speed`, a powered-down structure does not research.
//! Must not: iterate anything but in id order, or change objects (effects are read where the
//! numbers are used, so nothing needs rewriting when an upgrade lands).

use std::collections::BTreeMap;

use super::command::RejectReason;
use super::event::GameEvent;
use super::fixed::Fixed;
use super::hash::StateHasher;
use super::ids::{ObjectId, PlayerId, UpgradeId};
use super::rules::{ObjectKind, Stat};
use super::world::World;

/// One upgrade being researched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResearchJob {
    /// What.
    pub upgrade: UpgradeId,
    /// Frames of work left.
    pub remaining: u32,
}

/// Every structure's research in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Research {
    jobs: BTreeMap<ObjectId, ResearchJob>,
}

impl Research {
    /// What `structure` is researching, if anything.
    pub fn job(&self, structure: ObjectId) -> Option<ResearchJob> {
        self.jobs.get(&structure).copied()
    }

    /// Stops `structure`'s research, returning it.
    pub(crate) fn cancel(&mut self, structure: ObjectId) -> Option<ResearchJob> {
        self.jobs.remove(&structure)
    }

    /// Feeds the synchronized state to the hasher, in id order.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here.
        let Research { jobs } = self;
        h.write_u64(jobs.len() as u64);
        for (id, ResearchJob { upgrade, remaining }) in jobs {
            h.write_words(&[id.to_bits(), upgrade.0 as u64 | (*remaining as u64) << 16]);
        }
    }
}

/// `base` at `percent` of itself (unchanged at 100).
pub(crate) fn scaled(base: Fixed, percent: u32) -> Fixed {
    if percent == 100 { base } else { base.mul_int(percent as i64).div_int(100) }
}

/// Structures work on their research; finished upgrades go to their owners.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn step(world: &mut World) {
    if world.research.jobs.is_empty() {
        return;
    }
    let power = world.frame_power();
    let ids: Vec<ObjectId> = world.research.jobs.keys().copied().collect();
    for structure in ids {
        let Some(s) = world.objects.get(structure) else {
            world.research.jobs.remove(&structure);
            continue;
        };
        let owner = s.owner;
        if s.powered_down || !world.works_now(&power, owner) {
            continue;
        }
        let Some(job) = world.research.jobs.get_mut(&structure) else { continue };
        job.remaining = job.remaining.saturating_sub(1);
        if job.remaining > 0 {
            continue;
        }
        let upgrade = job.upgrade;
        world.research.jobs.remove(&structure);
        if let Some(p) = world.players.get_mut(owner.index()) {
            p.upgrades |= 1 << upgrade.0;
        }
        world.events.push(GameEvent::UpgradeResearched { structure, owner, upgrade });
    }
}

impl World {
    /// What research is going on.
    pub fn research(&self) -> &Research {
        &self.research
    }

    /// True once `player` has finished researching `upgrade`.
    pub fn has_upgrade(&self, player: PlayerId, upgrade: UpgradeId) -> bool {
        self.players.get(player.index()).is_some_and(|p| p.upgrades & (1 << upgrade.0) != 0)
    }

    /// `stat` of `owner`'s objects of `kind` after its upgrades, in percent of normal.
    pub fn upgraded(&self, owner: PlayerId, kind: ObjectKind, stat: Stat) -> u32 {
        match self.players.get(owner.index()) {
            Some(p) if p.upgrades != 0 => self.rules.upgraded(p.upgrades, kind, stat),
            _ => 100,
        }
    }

    /// `base` (a template's number: speed, sight) for `owner`'s objects of `kind` after its
    /// upgrades of `stat`.
    pub fn upgraded_value(&self, owner: PlayerId, kind: ObjectKind, stat: Stat, base: Fixed) -> Fixed {
        scaled(base, self.upgraded(owner, kind, stat))
    }

    /// [`World::upgraded`] of `stat` for every player and kind, worked out once: for a system
    /// that asks it of every object in a frame.
    pub(crate) fn upgrade_table(&self, stat: Stat) -> UpgradeTable {
        let percents = (0..self.players.len())
            .map(|i| ObjectKind::ALL.map(|k| self.upgraded(PlayerId(i as u8), k, stat)))
            .collect();
        UpgradeTable { percents }
    }

    /// The price if `player` may start researching `upgrade` at `structure` now, as `Research`
    /// would: the structure is theirs, finished, powered and idle, it researches that upgrade,
    /// the player has neither got it nor started it elsewhere, and can pay for it.
    pub fn can_research(&self, player: PlayerId, structure: ObjectId, upgrade: UpgradeId) -> Result<i64, RejectReason> {
        self.own_complete_structure(player, structure)?;
        let s = self.objects.get(structure).ok_or(RejectReason::UnknownObject(structure))?;
        if !self.rules.template(s.template).researches.contains(&upgrade) {
            return Err(RejectReason::CannotResearch(structure, upgrade));
        }
        if s.powered_down {
            return Err(RejectReason::PoweredDown(structure));
        }
        let started = self
            .research
            .jobs
            .iter()
            .any(|(id, j)| j.upgrade == upgrade && self.objects.get(*id).is_some_and(|o| o.owner == player));
        if self.has_upgrade(player, upgrade) || started {
            return Err(RejectReason::AlreadyResearched(upgrade));
        }
        if self.research.jobs.contains_key(&structure) {
            return Err(RejectReason::QueueFull(structure));
        }
        let cost = self.rules.upgrade(upgrade).cost;
        let money = self.players.get(player.index()).ok_or(RejectReason::NoSuchPlayer)?.money;
        if money < cost {
            return Err(RejectReason::NotEnoughMoney { cost, money });
        }
        Ok(cost)
    }

    /// Executes `Research`: pays and starts.
    pub(crate) fn start_research(
        &mut self,
        player: PlayerId,
        structure: ObjectId,
        upgrade: UpgradeId,
    ) -> Result<(), RejectReason> {
        let cost = self.can_research(player, structure, upgrade)?;
        self.players[player.index()].money -= cost;
        let remaining = self.rules.upgrade(upgrade).research_frames.max(1);
        self.research.jobs.insert(structure, ResearchJob { upgrade, remaining });
        Ok(())
    }

    /// What cancelling (or selling) `structure`'s research pays back.
    pub(crate) fn research_refund(&self, structure: ObjectId) -> i64 {
        self.research.job(structure).map_or(0, |j| self.rules.upgrade(j.upgrade).cost)
    }
}

/// One stat's upgrade percentages by player and kind, as they stand this frame.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct UpgradeTable {
    percents: Vec<[u32; ObjectKind::ALL.len()]>,
}

impl UpgradeTable {
    /// `base` for `owner`'s objects of `kind` after its upgrades (as
    /// [`World::upgraded_value`]).
    pub(crate) fn value(&self, owner: PlayerId, kind: ObjectKind, base: Fixed) -> Fixed {
        scaled(base, self.percents.get(owner.index()).map_or(100, |p| p[kind as usize]))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::sim::command::{Command, RejectReason, StampedCommand};
    use crate::sim::event::GameEvent;
    use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId, TemplateId, UpgradeId};
    use crate::sim::rules::{Effect, ObjectKind, Rules, Stat, UpgradeTemplate};
    use crate::sim::test_support;
    use crate::sim::vector::Vec2;
    use crate::sim::world::World;

    /// test_support's rules, where the post (template 1) researches "Guns" (vehicles deal
    /// 150 %, costs 100, 60 frames) and "Plates" (vehicles take 50 %, costs 300, 30 frames).
    fn rules() -> Arc<Rules> {
        let mut r = (*test_support::rules()).clone();
        let vehicles = 1 << ObjectKind::Vehicle as u8;
        r.upgrades = vec![
            UpgradeTemplate {
                name: "Guns".into(),
                faction: 0,
                cost: 100,
                research_frames: 60,
                effects: vec![Effect { kinds: vehicles, stat: Stat::Damage, percent: 150 }],
            },
            UpgradeTemplate {
                name: "Plates".into(),
                faction: 0,
                cost: 300,
                research_frames: 30,
                effects: vec![Effect { kinds: vehicles, stat: Stat::Armor, percent: 50 }],
            },
        ];
        r.templates[1].researches = vec![UpgradeId(0), UpgradeId(1)];
        Arc::new(r)
    }

    fn cmd(player: u8, id: u32, command: Command) -> StampedCommand {
        StampedCommand { frame: Frame(0), player: PlayerId(player), id: CommandId(id), command }
    }

    fn post_of(w: &World, player: u8) -> ObjectId {
        w.objects().find(|o| o.owner == PlayerId(player) && o.template == TemplateId(1)).map(|o| o.id).unwrap()
    }

    /// Damage of the hits `attacker` lands in `frames` frames.
    fn hits_by(w: &mut World, attacker: ObjectId, frames: u32) -> Vec<i32> {
        let mut hits = Vec::new();
        for _ in 0..frames {
            for e in w.tick(&[]).events {
                if let GameEvent::Hit { attacker: a, damage, .. } = e
                    && a == attacker
                {
                    hits.push(damage);
                }
            }
        }
        hits
    }

    #[test]
    fn research_is_paid_takes_its_time_then_changes_damage_dealt_and_taken() {
        // Two units ten apart, out of each other's range (40) until they are moved.
        let mut w = test_support::world_with(
            rules(),
            64,
            vec![(TemplateId(0), 0, Vec2::from_int(300, 300)), (TemplateId(0), 1, Vec2::from_int(400, 300))],
        );
        w.players[0].money = 1000;
        let post = post_of(&w, 0);
        let report = w.tick(&[cmd(0, 1, Command::Research { structure: post, upgrade: UpgradeId(0) })]);
        assert!(report.rejections.is_empty(), "{:?}", report.rejections);
        assert_eq!(w.players[0].money, 900, "paid when research starts");
        assert_eq!(w.research().job(post).map(|j| j.remaining), Some(59), "one frame of 60 worked");
        let mut done_at = None;
        for _ in 0..80 {
            let report = w.tick(&[]);
            if report.events.iter().any(|e| matches!(e, GameEvent::UpgradeResearched { upgrade: UpgradeId(0), .. })) {
                done_at = Some(w.frame().0);
            }
        }
        assert_eq!(done_at, Some(60), "researched on its 60th frame");
        assert!(w.has_upgrade(PlayerId(0), UpgradeId(0)) && !w.has_upgrade(PlayerId(1), UpgradeId(0)));
        assert_eq!(w.research().job(post), None);
        // Bring the units into range: player 0's gun (10) now hits for 15, player 1's for 10.
        let (mine, theirs) = (
            w.objects().find(|o| o.owner == PlayerId(0) && o.template == TemplateId(0)).unwrap().id,
            w.objects().find(|o| o.owner == PlayerId(1) && o.template == TemplateId(0)).unwrap().id,
        );
        w.objects.get_mut(theirs).unwrap().set_pos(Vec2::from_int(330, 300));
        let (a, b) = (hits_by(&mut w.clone(), mine, 30), hits_by(&mut w.clone(), theirs, 30));
        assert!(!a.is_empty() && a.iter().all(|&d| d == 15), "{a:?}");
        assert!(!b.is_empty() && b.iter().all(|&d| d == 10), "{b:?}");
        // Plates halve what player 0's vehicles take: player 1's gun hits it for 5.
        w.tick(&[cmd(0, 2, Command::Research { structure: post, upgrade: UpgradeId(1) })]);
        for _ in 0..30 {
            w.tick(&[]);
        }
        assert!(w.has_upgrade(PlayerId(0), UpgradeId(1)));
        let b = hits_by(&mut w, theirs, 30);
        assert!(!b.is_empty() && b.iter().all(|&d| d == 5), "{b:?}");
    }

    #[test]
    fn research_is_refused_when_taken_busy_or_unaffordable_and_cancelling_refunds_it() {
        let mut w = test_support::world_with(rules(), 64, vec![]);
        w.players[0].money = 350;
        let (post, theirs) = (post_of(&w, 0), post_of(&w, 1));
        let refusals = |w: &mut World, commands: Vec<Command>| -> Vec<RejectReason> {
            let stamped: Vec<StampedCommand> =
                commands.into_iter().enumerate().map(|(i, c)| cmd(0, w.frame().0 * 10 + i as u32, c)).collect();
            w.tick(&stamped).rejections.into_iter().map(|r| r.reason).collect()
        };
        let guns = |structure| Command::Research { structure, upgrade: UpgradeId(0) };
        let plates = |structure| Command::Research { structure, upgrade: UpgradeId(1) };
        assert_eq!(refusals(&mut w, vec![guns(theirs)]), vec![RejectReason::NotOwner(theirs)]);
        let unknown = Command::Research { structure: post, upgrade: UpgradeId(9) };
        assert_eq!(refusals(&mut w, vec![unknown]), vec![RejectReason::CannotResearch(post, UpgradeId(9))]);
        assert_eq!(refusals(&mut w, vec![guns(post)]), vec![]);
        assert_eq!(w.players[0].money, 250);
        assert_eq!(refusals(&mut w, vec![guns(post)]), vec![RejectReason::AlreadyResearched(UpgradeId(0))]);
        assert_eq!(refusals(&mut w, vec![plates(post)]), vec![RejectReason::QueueFull(post)]);
        // Cancelling pays it all back (350 again); plates (300) then leave 50.
        assert_eq!(refusals(&mut w, vec![Command::CancelProduction { factory: post }]), vec![]);
        assert_eq!((w.players[0].money, w.research().job(post)), (350, None));
        assert_eq!(refusals(&mut w, vec![plates(post)]), vec![]);
        assert_eq!(w.players[0].money, 50);
        // Selling the structure refunds the research under way with the sale.
        let price = w.rules().template(TemplateId(1)).cost;
        assert_eq!(w.can_sell(PlayerId(0), post), Ok(price / 2 + 300));
    }

    #[test]
    fn a_speed_upgrade_raises_top_speed_of_the_kinds_it_names_only() {
        let mut r = (*rules()).clone();
        r.upgrades[0].effects = vec![Effect { kinds: 1 << ObjectKind::Vehicle as u8, stat: Stat::Speed, percent: 120 }];
        let w0 = test_support::world_with(Arc::new(r), 64, vec![(TemplateId(0), 0, Vec2::from_int(300, 300))]);
        let mut w = w0.clone();
        w.players[0].upgrades = 1;
        let unit = |w: &World| w.objects().find(|o| o.template == TemplateId(0)).unwrap().clone();
        let base = w.rules().template(TemplateId(0)).speed;
        assert_eq!(w0.top_speed(&unit(&w0)), base);
        assert_eq!(w.top_speed(&unit(&w)), base.mul_int(6).div_int(5));
        assert_eq!(w.upgraded(PlayerId(0), ObjectKind::Infantry, Stat::Speed), 100, "infantry are not named");
        assert_eq!(w.upgraded(PlayerId(1), ObjectKind::Vehicle, Stat::Speed), 100, "nor is the other player");
    }
}
