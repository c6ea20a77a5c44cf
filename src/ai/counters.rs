//! Which unit to train against the enemy it has seen: each candidate is scored by how hard it
//! hits that enemy and how long it survives its fire, per price, straight from the weapon and
//! armour tables in `data/`. So "anti-tank infantry beat tanks" is read from the data, not
//! written here.
//!
//! Must not: know any unit by name, or use floating point (scores are integers, ties broken by
//! template id by the caller).

use crate::sim::ids::TemplateId;
use crate::sim::rules::Rules;

/// Damage per minute that `attacker`'s first weapon does to `target` through its armour (none
/// if the weapon cannot reach it, in the air or on the ground).
fn damage_per_minute(rules: &Rules, attacker: TemplateId, target: TemplateId) -> i64 {
    let a = rules.template(attacker);
    let Some(&w) = a.weapons.first() else { return 0 };
    if !rules.weapon(w).targets.hits(rules.template(target).kind.is_air()) {
        return 0;
    }
    let per_shot = rules.damage_after_armor(w, rules.template(target).armor) as i64;
    per_shot * 1800 / rules.weapon(w).reload_frames.max(1) as i64
}

/// How well `candidate` fights the enemy mix `enemies` (template, how many), per price: its
/// damage to them times its health over their damage to it, divided by its price squared (a
/// group's strength grows with numbers times staying power). Higher is better; zero for a
/// unit that cannot hurt them.
pub fn score(rules: &Rules, candidate: TemplateId, enemies: &[(TemplateId, u32)]) -> i64 {
    let c = rules.template(candidate);
    let cost = c.cost.max(1);
    let (mut dealt, mut taken, mut n) = (0i64, 0i64, 0i64);
    for &(e, count) in enemies {
        let count = count as i64;
        dealt += damage_per_minute(rules, candidate, e) * count;
        taken += damage_per_minute(rules, e, candidate) * count;
        n += count;
    }
    if n == 0 {
        return 0;
    }
    // Per enemy unit: damage dealt a minute, and minutes to die to one of them.
    let dealt = dealt / n;
    let taken = (taken / n).max(1);
    dealt * c.max_health as i64 * 1_000_000 / taken / (cost * cost)
}
