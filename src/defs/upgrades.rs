//! The upgrade table: `data/upgrades.ron` checked and turned into the sim's
//! [`UpgradeTemplate`]s (frames, a kind set per effect), every problem named with its line.
//!
//! Must not: resolve which structures research what (objects do that, once this table stands).

use crate::sim::rules::{Effect, MAX_UPGRADES, UpgradeTemplate};

use super::Builder;
use super::frames;
use super::schema::UpgradeDef;

impl Builder<'_> {
    /// Builds the upgrade table; `factions` are the faction names in file order.
    pub(super) fn upgrades(&mut self, defs: &[UpgradeDef], factions: &[String]) {
        let src = &self.src.upgrades;
        if defs.len() > MAX_UPGRADES {
            let first_over = defs.get(MAX_UPGRADES).map_or("", |u| u.name.as_str());
            let m = format!("{} upgrades; the limit is {MAX_UPGRADES}", defs.len());
            self.errors.push(src.invalid("upgrade", first_over, "name", m));
            return;
        }
        for u in defs {
            let n = u.name.as_str();
            if self.rules.upgrades.iter().any(|x| x.name == u.name) {
                self.errors.push(src.invalid("upgrade", n, "name", "defined twice"));
            }
            let faction = factions.iter().position(|f| *f == u.faction);
            if faction.is_none() {
                self.errors.push(src.invalid("upgrade", n, "faction", format!("unknown faction \"{}\"", u.faction)));
            }
            if !(0..=crate::content::limits::MAX_PRICE).contains(&u.cost) {
                let max = crate::content::limits::MAX_PRICE;
                self.errors.push(src.invalid(
                    "upgrade",
                    n,
                    "cost",
                    format!("{} is outside 0..={max} (the limit)", u.cost),
                ));
            }
            let research = self.check(frames(u.research_time), src, "upgrade", n, "research_time");
            if u.effects.is_empty() {
                self.errors.push(src.invalid("upgrade", n, "effects", "an upgrade needs at least one effect"));
            }
            let mut effects = Vec::new();
            for e in &u.effects {
                if !(10..=500).contains(&e.percent) {
                    let m = format!("{}% is outside 10..=500", e.percent);
                    self.errors.push(src.invalid("upgrade", n, "effects", m));
                }
                if e.kinds.is_empty() {
                    self.errors.push(src.invalid("upgrade", n, "effects", "name the kinds of object it applies to"));
                }
                let kinds = e.kinds.iter().fold(0u8, |k, kind| k | 1 << *kind as u8);
                effects.push(Effect { kinds, stat: e.stat, percent: e.percent.clamp(10, 500) });
            }
            self.rules.upgrades.push(UpgradeTemplate {
                name: u.name.clone(),
                faction: faction.unwrap_or(0) as u16,
                cost: u.cost,
                research_frames: research.unwrap_or(1).max(1),
                effects,
            });
        }
    }
}
