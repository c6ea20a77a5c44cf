//! Command validation and execution: turns one stamped command into changes to the world, or
//! into a [`RejectReason`] that every machine records alike.
//!
//! Must not: panic on any command, however malformed; partially apply a rejected command.

use super::command::{Command, MAX_SELECTION, Point, Queued, RejectReason};
use super::event::GameEvent;
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId, TemplateId};
use super::movement;
use super::object::{MAX_QUEUED, Order};
use super::vector::Vec2;
use super::world::World;
use super::{economy, production};

impl World {
    /// Validates and executes one command for `player`.
    pub(crate) fn apply(&mut self, player: PlayerId, command: &Command) -> Result<(), RejectReason> {
        let live = self.players.get(player.index()).is_some_and(|p| !p.defeated);
        if !live {
            return Err(RejectReason::NoSuchPlayer);
        }
        let result = self.execute(player, command);
        // An order given without Shift replaces what the selection had queued (the formation
        // switch is a setting, not an order).
        let order = command.uses_selection() && !matches!(command, Command::Queue { .. } | Command::Formation { .. });
        if result.is_ok() && order {
            let selected = self.players[player.index()].selection.clone();
            for id in selected {
                if let Some(mut o) = self.objects.get_mut(id).filter(|o| !o.queue.is_empty()) {
                    o.set_queue(Vec::new());
                }
            }
        }
        result
    }

    /// Executes one command of a live player.
    fn execute(&mut self, player: PlayerId, command: &Command) -> Result<(), RejectReason> {
        match command {
            Command::Select { objects, add } => self.select(player, objects, *add),
            Command::Queue { order } => self.queue_order(player, *order),
            Command::Move { to } => {
                let goal = self.point_on_map(*to)?;
                self.order_formation(player, goal, |goal| Order::Move { goal })
            }
            Command::AttackMove { to } => {
                let goal = self.point_on_map(*to)?;
                self.order_formation(player, goal, |goal| Order::AttackMove { goal })
            }
            Command::Attack { target } => self.attack(player, *target),
            Command::Stop => self.stop(player),
            Command::Produce { factory, template } => self.produce(player, *factory, *template),
            Command::CancelProduction { factory } => self.cancel_production(player, *factory),
            Command::Repair { structure } => self.toggle_repair(player, *structure),
            Command::PowerDown { structure } => self.toggle_power(player, *structure),
            Command::Research { structure, upgrade } => self.start_research(player, *structure, *upgrade),
            Command::SetRally { factory, at } => {
                self.own_complete_structure(player, *factory)?;
                let at = self.point_on_map(*at)?;
                self.factories.set_rally(*factory, at);
                Ok(())
            }
            Command::Resume { site } => self.resume(player, *site),
            Command::Build { template, at } => self.build(player, *template, *at),
            Command::Surrender => {
                self.surrender(player);
                Ok(())
            }
            Command::Sell { structure } => self.sell(player, *structure),
            Command::Gather { pile } => self.gather(player, *pile),
            Command::Guard { at } => self.guard(player, *at),
            Command::Scatter => self.scatter(player),
            Command::Formation { on } => self.set_formation(player, *on),
        }
    }

    /// The selected units' formation switch: on, a group they are ordered with keeps to its
    /// slowest member's pace; off, they go at their own.
    fn set_formation(&mut self, player: PlayerId, on: bool) -> Result<(), RejectReason> {
        let ids = self.selected_objects(player, |w, id| w.is_mobile(id))?;
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id).filter(|o| o.loose == on) {
                o.change(|o| o.loose = !on);
            }
        }
        Ok(())
    }

    /// The selection stops: idle, no target, no path.
    fn stop(&mut self, player: PlayerId) -> Result<(), RejectReason> {
        let ids = self.selected_objects(player, |_, _| true)?;
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Idle);
                o.set_target(None);
                o.clear_nav();
            }
        }
        Ok(())
    }

    /// The last unit queued at `factory` goes, refunded; with none queued, the research.
    fn cancel_production(&mut self, player: PlayerId, factory: ObjectId) -> Result<(), RejectReason> {
        self.own_complete_structure(player, factory)?;
        let refund = match self.factories.pop_last(factory) {
            Some(job) => self.rules.template(job.template).cost,
            None => {
                let refund = self.research_refund(factory);
                self.research.cancel(factory).ok_or(RejectReason::NothingQueued(factory))?;
                refund
            }
        };
        self.players[player.index()].money += refund;
        Ok(())
    }

    /// Everything of `player` is destroyed and it is defeated.
    fn surrender(&mut self, player: PlayerId) {
        let mine: Vec<ObjectId> = self.objects.iter().filter(|o| o.owner == player).map(|o| o.id).collect();
        for id in &mine {
            self.factories.forget(*id);
            self.objects.destroy(*id);
        }
        let p = &mut self.players[player.index()];
        p.selection.clear();
        p.defeated = true;
        self.events.push(GameEvent::Surrendered { player, objects: mine });
    }

    /// `structure` is sold: its refund paid, its queue and research dropped, and it goes.
    fn sell(&mut self, player: PlayerId, structure: ObjectId) -> Result<(), RejectReason> {
        let refund = self.can_sell(player, structure)?;
        self.players[player.index()].money += refund;
        self.factories.forget(structure);
        self.research.cancel(structure);
        if let Some(o) = self.objects.get(structure) {
            let (template, owner, at) = (o.template, o.owner, o.pos);
            self.events.push(GameEvent::StructureSold { object: structure, template, owner, at, refund });
        }
        self.objects.destroy(structure);
        Ok(())
    }

    /// The selection's gatherers work the supply pile `pile`.
    fn gather(&mut self, player: PlayerId, pile: ObjectId) -> Result<(), RejectReason> {
        if !economy::is_supply(self, pile) {
            return Err(RejectReason::InvalidTarget(pile));
        }
        let rules = std::sync::Arc::clone(&self.rules);
        let ids = self.selected_objects(player, |w, id| {
            w.objects.get(id).is_some_and(|o| rules.template(o.template).gather.is_some())
        })?;
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Gather { pile });
                o.set_target(None);
                o.set_work(0);
                o.clear_nav();
            }
        }
        Ok(())
    }

    /// The selection guards: units sent to a point stand in formation around it, each
    /// guarding its slot; the rest (and everyone, guarding where they stand) guard their own
    /// place.
    fn guard(&mut self, player: PlayerId, at: Option<Point>) -> Result<(), RejectReason> {
        let anchor = at.map(|p| self.point_on_map(p)).transpose()?;
        let ids = self.selected_objects(player, |w, id| w.is_mobile(id) || w.is_armed(id))?;
        let in_formation = anchor.is_some() && ids.iter().any(|&id| self.is_mobile(id));
        for &id in &ids {
            if in_formation && self.is_mobile(id) {
                continue;
            }
            if let Some(mut o) = self.objects.get_mut(id) {
                let anchor = o.pos;
                o.set_order(Order::Guard { anchor });
                o.set_target(None);
            }
        }
        match anchor {
            Some(goal) if in_formation => self.order_formation(player, goal, |anchor| Order::Guard { anchor }),
            _ => Ok(()),
        }
    }

    fn produce(&mut self, player: PlayerId, factory: ObjectId, template: TemplateId) -> Result<(), RejectReason> {
        let cost = self.can_produce(player, factory, template)?;
        self.players[player.index()].money -= cost;
        let frames = self.rules.template(template).build_frames.max(1);
        self.factories.push(factory, production::Job { template, remaining: frames });
        Ok(())
    }

    fn build(&mut self, player: PlayerId, template: TemplateId, at: Point) -> Result<(), RejectReason> {
        self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
        let builder = self.selected_builder(player, template)?;
        self.build_by(player, builder, template, at)
    }

    /// The first selected mobile unit of `player`'s that builds `template`.
    fn selected_builder(&self, player: PlayerId, template: TemplateId) -> Result<ObjectId, RejectReason> {
        self.selected_objects(player, |w, id| w.is_mobile(id))?
            .into_iter()
            .find(|&id| {
                self.objects.get(id).is_some_and(|o| self.rules.template(o.template).builds.contains(&template))
            })
            .ok_or(RejectReason::NothingSelected)
    }

    /// `builder` places `template` at `at` for `player` (paid now) and goes to build it.
    pub(crate) fn build_by(
        &mut self,
        player: PlayerId,
        builder: ObjectId,
        template: TemplateId,
        at: Point,
    ) -> Result<(), RejectReason> {
        let t = self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
        if !t.kind.blocks_ground() {
            return Err(RejectReason::CannotBuild(builder, template));
        }
        let centre = self.placement(template, at, Some(builder))?;
        let cost = self.can_purchase(player, template)?;
        self.players[player.index()].money -= cost;
        let (frames, footprint) = (t.build_frames.max(1), t.footprint);
        let site = self.create_site(template, player, centre, frames);
        self.events.push(GameEvent::ConstructionStarted { site, template, owner: player, at: centre });
        self.send_to_site(builder, site, centre, footprint);
        Ok(())
    }

    /// Shift: the selection follows `order` once it is done with what it is doing. Units at rest
    /// start at once (a group's move in formation, as without Shift); a build waits for the
    /// first selected builder of it, and is checked and paid when it starts.
    fn queue_order(&mut self, player: PlayerId, order: Queued) -> Result<(), RejectReason> {
        let ids = match order {
            Queued::Move { to } | Queued::AttackMove { to } => {
                let goal = self.point_on_map(to)?;
                let ids = self.selected_objects(player, |w, id| w.is_mobile(id))?;
                let at_rest = |w: &World, id: ObjectId| {
                    w.objects.get(id).is_some_and(|o| o.order == Order::Idle && o.queue.is_empty())
                };
                if ids.iter().all(|&id| at_rest(self, id)) {
                    return match order {
                        Queued::AttackMove { .. } => {
                            self.order_formation(player, goal, |goal| Order::AttackMove { goal })
                        }
                        _ => self.order_formation(player, goal, |goal| Order::Move { goal }),
                    };
                }
                ids
            }
            Queued::Build { template, at } => {
                let t = self.rules.templates.get(template.0 as usize).ok_or(RejectReason::UnknownTemplate(template))?;
                if !t.kind.blocks_ground() {
                    return Err(RejectReason::UnknownTemplate(template));
                }
                self.point_on_map(at)?;
                let builder = self.selected_builder(player, template)?;
                let idle = self.objects.get(builder).is_some_and(|o| o.order == Order::Idle && o.queue.is_empty());
                if idle {
                    return self.build_by(player, builder, template, at);
                }
                vec![builder]
            }
        };
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id).filter(|o| o.queue.len() < MAX_QUEUED) {
                let mut queue = o.queue.clone();
                queue.push(order);
                o.set_queue(queue);
            }
        }
        Ok(())
    }

    /// Selected builders that can raise `site`'s kind go back to work on it.
    fn resume(&mut self, player: PlayerId, site: ObjectId) -> Result<(), RejectReason> {
        let s = self.objects.get(site).ok_or(RejectReason::UnknownObject(site))?;
        if s.owner != player {
            return Err(RejectReason::NotOwner(site));
        }
        if s.is_complete() {
            return Err(RejectReason::InvalidTarget(site));
        }
        let (template, centre) = (s.template, s.pos);
        let footprint = self.rules.template(template).footprint;
        let selected = self.selected_objects(player, |w, id| {
            w.objects.get(id).is_some_and(|o| w.rules.template(o.template).builds.contains(&template))
        });
        // With the site itself selected (its panel's Resume), the nearest builder of it goes.
        let builders = match selected {
            Ok(builders) => builders,
            Err(RejectReason::NothingSelected) if self.players[player.index()].selection.contains(&site) => {
                let nearest = self
                    .objects
                    .iter()
                    .filter(|o| {
                        o.owner == player
                            && o.is_complete()
                            && self.rules.template(o.template).builds.contains(&template)
                    })
                    .filter(|o| self.rules.template(o.template).is_mobile())
                    .min_by_key(|o| ((o.pos - centre).length_squared(), o.id))
                    .map(|o| o.id);
                vec![nearest.ok_or(RejectReason::NothingSelected)?]
            }
            Err(e) => return Err(e),
        };
        for b in builders {
            self.send_to_site(b, site, centre, footprint);
        }
        Ok(())
    }

    /// Orders `builder` to work on `site` (of `footprint`, centred at `centre`; it may be
    /// placed this very frame), walking to the open side of it nearest to the builder that it
    /// can reach.
    fn send_to_site(&mut self, builder: ObjectId, site: ObjectId, centre: Vec2, footprint: (u8, u8)) {
        let Some(from) = self.objects.get(builder).map(|b| b.pos) else { return };
        self.pathfinder.refresh_regions(&self.terrain);
        let spot = self.approach(centre, footprint, from).unwrap_or(centre);
        if let Some(mut b) = self.objects.get_mut(builder) {
            b.set_order(Order::Construct { site });
            b.set_target(None);
            movement::set_goal(&mut b, spot, &mut self.pathfinder);
        }
    }

    fn select(&mut self, player: PlayerId, objects: &[ObjectId], add: bool) -> Result<(), RejectReason> {
        // Objects that died while the command was in flight are dropped quietly; naming only
        // the dead, or anything of another player's, is refused.
        let mut live = Vec::with_capacity(objects.len());
        for &id in objects {
            match self.objects.get(id) {
                None => {}
                Some(o) if o.owner != player => return Err(RejectReason::NotOwner(id)),
                Some(_) => live.push(id),
            }
        }
        if let (true, Some(&first)) = (live.is_empty(), objects.first()) {
            return Err(RejectReason::UnknownObject(first));
        }
        let p = &mut self.players[player.index()];
        let mut next = if add { p.selection.clone() } else { Vec::new() };
        next.extend_from_slice(&live);
        next.sort();
        next.dedup();
        if next.len() > MAX_SELECTION {
            return Err(RejectReason::SelectionTooLarge(next.len()));
        }
        p.selection = next;
        Ok(())
    }

    /// The player's selected objects that pass `keep`; an error if none do.
    pub(super) fn selected_objects(
        &self,
        player: PlayerId,
        keep: impl Fn(&World, ObjectId) -> bool,
    ) -> Result<Vec<ObjectId>, RejectReason> {
        let ids: Vec<ObjectId> = self.players[player.index()]
            .selection
            .iter()
            .copied()
            .filter(|&id| self.objects.get(id).is_some() && keep(self, id))
            .collect();
        if ids.is_empty() { Err(RejectReason::NothingSelected) } else { Ok(ids) }
    }

    pub(crate) fn is_mobile(&self, id: ObjectId) -> bool {
        self.objects.get(id).is_some_and(|o| self.rules.template(o.template).is_mobile())
    }

    pub(crate) fn is_armed(&self, id: ObjectId) -> bool {
        self.objects.get(id).is_some_and(|o| !self.rules.template(o.template).weapons.is_empty())
    }

    /// Gives every selected mobile unit an order toward its own slot of a square formation
    /// centred on `goal` and facing the way the group goes ([`super::formation`]), so a group
    /// neither piles onto one point nor crosses itself on the way.
    fn order_formation(
        &mut self,
        player: PlayerId,
        goal: Vec2,
        make: impl Fn(Vec2) -> Order,
    ) -> Result<(), RejectReason> {
        let ids = self.selected_objects(player, |w, id| w.is_mobile(id))?;
        let units: Vec<(ObjectId, Vec2)> =
            ids.iter().filter_map(|&id| self.objects.get(id).map(|o| (id, o.pos))).collect();
        let widest = ids
            .iter()
            .filter_map(|&id| self.objects.get(id))
            .map(|o| self.rules.template(o.template).radius)
            .max()
            .unwrap_or(Fixed::ONE);
        let spacing = widest.mul_int(super::formation::SPACING_RADII);
        // A group keeps together: everyone in formation goes at the slowest such member's speed
        // (those with formation off at their own).
        let speeds = ids.iter().filter_map(|&id| self.objects.get(id)).filter(|o| !o.loose).map(|o| self.top_speed(o));
        let (slowest, fastest) = speeds.fold((Fixed::MAX, Fixed::ZERO), |(lo, hi), s| (lo.min(s), hi.max(s)));
        let group_pace = if slowest < fastest { slowest } else { Fixed::ZERO };
        let mut slots: Vec<(ObjectId, Vec2, Fixed)> = super::formation::slots(&units, goal, spacing)
            .into_iter()
            .map(|(id, offset)| {
                let slot = goal + offset;
                let radius = self.objects.get(id).map_or(Fixed::ZERO, |o| self.rules.template(o.template).radius);
                (id, if self.terrain.passable_at(slot) { slot } else { goal }, radius)
            })
            .collect();
        let ahead = super::formation::heading(&units, goal);
        self.free_spots(player, &ids, goal, spacing, ahead, &mut slots);
        for (id, slot, _) in slots {
            if let Some(mut o) = self.objects.get_mut(id) {
                // The target engaged is kept: an attack-move given again mid-fight fights on
                // (combat drops it for a plain move).
                o.set_order(make(slot));
                movement::set_goal(&mut o, slot, &mut self.pathfinder);
                let pace = if o.loose { Fixed::ZERO } else { group_pace };
                if o.nav.pace != pace {
                    o.change(|o| o.nav.pace = pace);
                }
            }
        }
        Ok(())
    }

    /// Moves formation `slots` off the spots `player`'s other ground units (not `ids`) stand on
    /// at rest or are headed for near `goal` ([`super::spots`]), ties going by the group's
    /// heading `ahead`. Aircraft keep their slots.
    fn free_spots(
        &self,
        player: PlayerId,
        ids: &[ObjectId],
        goal: Vec2,
        spacing: Fixed,
        ahead: Vec2,
        slots: &mut [(ObjectId, Vec2, Fixed)],
    ) {
        let Some(&(first, ..)) = slots.first() else { return };
        if self.objects.get(first).is_none_or(|o| o.kind.is_air()) {
            return;
        }
        // Far enough to hold the block (`side` slots a side, centred on the goal) and as many
        // blocks again around it: room for a crowd sent to one point, group after group.
        let side = (slots.len() as u64).isqrt() as i64 + 1;
        let reach = spacing.mul_int(side + 8);
        let widest = slots.iter().map(|s| s.2).max().unwrap_or(Fixed::ZERO);
        let mut group = ids.to_vec();
        group.sort_unstable();
        let mut held = super::spots::HeldSpots::new(goal, reach, spacing, widest);
        let outer = reach + spacing;
        // The player's own objects bound near the goal, found by the tags and places the store
        // keeps beside them (others' are never read), ground units only.
        let ground = &self.scans.ground_units;
        for o in self.objects.bound_near(player, goal, outer) {
            if ground.contains(o.template) && group.binary_search(&o.id).is_err() {
                held.hold(o.bound(), self.rules.template(o.template).radius);
            }
        }
        let terrain = &self.terrain;
        super::spots::place(&mut held, slots, ahead, |p| terrain.passable_at(p));
    }

    fn attack(&mut self, player: PlayerId, target: ObjectId) -> Result<(), RejectReason> {
        let Some(t) = self.objects.get(target) else {
            return Err(RejectReason::UnknownObject(target));
        };
        let owner = &self.players[player.index()];
        // Neutral objects (scenery, supply piles) cannot be attacked.
        let enemy = self.players.get(t.owner.index()).is_some_and(|victim| t.owner != player && owner.is_enemy(victim));
        if !enemy {
            return Err(RejectReason::InvalidTarget(target));
        }
        if !self.visible_to(player, t.pos) {
            return Err(RejectReason::NotVisible(target));
        }
        // Only units whose weapon reaches it (in the air or on the ground) take the order.
        let air = t.kind.is_air();
        let rules = std::sync::Arc::clone(&self.rules);
        let ids = self.selected_objects(player, |w, id| {
            w.objects.get(id).is_some_and(|o| rules.template(o.template).can_hit(&rules, air))
        })?;
        for id in ids {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Attack { target });
                o.set_target(Some(target));
            }
        }
        Ok(())
    }
}
