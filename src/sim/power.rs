//! Power: finished structures make it (`power` > 0) or use it (`power` < 0). A player using
//! more than it makes is low on power: its construction and production run at the faction's
//! `low_power_speed` percent of normal, and its structures that use power and carry weapons
//! (powered defences) hold their fire. A structure its owner powered down uses none. The balance
//! is derived from the objects, so it is covered by their hash; the world keeps the last one
//! found as a cache ([`PowerCache`]) while no object comes or goes and no structure is finished
//! or switched, the only changes it reads, and debug builds check the kept one on every use.
//!
//! Must not: keep state of its own, or read anything but the world.

use super::ids::PlayerId;
use super::world::World;

/// A player's power: what its finished structures make and use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PowerBalance {
    /// Made by power plants (and whatever else makes power).
    pub produced: i32,
    /// Used by the other structures.
    pub used: i32,
}

impl PowerBalance {
    /// True when the structures use more than is made.
    pub fn low(self) -> bool {
        self.used > self.produced
    }
}

/// Every player's balance as last found, with what it was found from: kept between frames
/// while the store's census and power marks stand (see [`super::store::ObjectStore::power_marks`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct PowerCache {
    census: u64,
    marks: u64,
    balances: Vec<PowerBalance>,
}

/// Every player's balance, by player index, from one pass over the objects.
pub(crate) fn balances(world: &World) -> Vec<PowerBalance> {
    let mut out = vec![PowerBalance::default(); world.players.len()];
    // Only objects whose template makes or uses power are looked at.
    for o in world.objects.of_set(&world.scans.powered) {
        let power = world.rules.template(o.template).power;
        if !o.is_complete() || (power < 0 && o.powered_down) {
            continue;
        }
        if let Some(b) = out.get_mut(o.owner.index()) {
            if power > 0 {
                b.produced = b.produced.saturating_add(power);
            } else {
                b.used = b.used.saturating_add(power.saturating_neg());
            }
        }
    }
    out
}

/// Whether work at `percent` of normal speed happens on `frame`: spread evenly, so over any
/// 100 frames exactly `percent` of them work (100 or more: every frame).
pub fn works_on(frame: u32, percent: u32) -> bool {
    let p = percent.min(100) as u64;
    let f = frame as u64;
    (f + 1) * p / 100 > f * p / 100
}

impl World {
    /// `player`'s power balance now.
    pub fn power(&self, player: PlayerId) -> PowerBalance {
        let get = |b: &[PowerBalance]| b.get(player.index()).copied().unwrap_or_default();
        match self.kept_power() {
            Some(b) => get(b),
            None => get(&balances(self)),
        }
    }

    /// Every player's balance now: the kept one while it holds, else found afresh (and not
    /// kept: for a caller that reads the world while it holds part of it).
    pub(crate) fn power_now(&self) -> Vec<PowerBalance> {
        self.kept_power().map_or_else(|| balances(self), <[PowerBalance]>::to_vec)
    }

    /// Every player's balance now, kept for later frames while it holds.
    pub(crate) fn frame_power(&mut self) -> Vec<PowerBalance> {
        if let Some(b) = self.kept_power() {
            return b.to_vec();
        }
        let b = balances(self);
        let (census, marks) = (self.objects.census(), self.objects.power_marks());
        self.caches.power = Some(PowerCache { census, marks, balances: b.clone() });
        b
    }

    /// The kept balances, while no object came or went and no structure was finished or
    /// switched since they were found (checked against a fresh count in debug builds).
    fn kept_power(&self) -> Option<&[PowerBalance]> {
        let c = self.caches.power.as_ref()?;
        let holds = c.census == self.objects.census()
            && c.marks == self.objects.power_marks()
            && c.balances.len() == self.players.len();
        if !holds {
            return None;
        }
        debug_assert_eq!(c.balances, balances(self), "frame {}: the kept power balance went stale", self.frame);
        Some(&c.balances)
    }

    /// Whether `player`'s construction and production work on this frame (always, unless it
    /// is low on power; then at its faction's `low_power_speed`).
    pub(crate) fn works_now(&self, balances: &[PowerBalance], player: PlayerId) -> bool {
        let Some(b) = balances.get(player.index()) else { return true };
        if !b.low() {
            return true;
        }
        let faction = self.players.get(player.index()).map_or(0, |p| p.faction);
        let percent = self.rules.factions.get(faction as usize).map_or(100, |f| f.low_power_speed);
        works_on(self.frame.0, percent as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_at_a_percentage_is_spread_evenly_over_the_frames() {
        for percent in [0, 1, 25, 50, 73, 100, 150] {
            let worked = (0..1000).filter(|&f| works_on(f, percent)).count();
            assert_eq!(worked, 10 * percent.min(100) as usize, "{percent} %");
            // Never two idle frames in a row at 50 %.
            if percent == 50 {
                assert!((0..999).all(|f| works_on(f, 50) || works_on(f + 1, 50)));
            }
        }
    }
}
