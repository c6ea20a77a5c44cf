//! Tests that the state hash sees every piece of state: changing any hashed field of an object,
//! or any hashed part of the world, changes the hash; changing a cache does not.
//!
//! With the exhaustive destructuring in `Object::hashed_fields` and `World::hash_with_objects`,
//! a new field cannot be left out silently: it does not compile until it is hashed (and then
//! [`set`] below needs a case for its [`Field`]) or named as derived.

use proptest::prelude::*;

use super::angle::Angle;
use super::fixed::Fixed;
use super::hash::{Field, ObjectKey};
use super::ids::WeaponId;
use super::ids::{Frame, ObjectId, PlayerId, TemplateId};
use super::object::{Object, Order};
use super::projectile::Projectile;
use super::test_support;
use super::vector::Vec2;

/// Sets the state behind `field` from `v` (no wildcard: a new field needs a case here).
fn set(o: &mut Object, field: Field, v: u32) {
    let fixed = Fixed::from_raw(v as i64 + 1);
    let point = Vec2::new(fixed, Fixed::from_raw(-(v as i64)));
    let id = ObjectId { index: v, generation: 1 };
    match field {
        Field::Identity => o.template = TemplateId(v as u16),
        Field::PosX => o.pos.x = fixed,
        Field::PosY => o.pos.y = fixed,
        Field::Facing => o.facing = Angle(v as u16),
        Field::Speed => o.speed = fixed,
        Field::Health => o.health = v as i32,
        Field::Cooldown => o.cooldown = v,
        Field::Order => o.order = Order::Move { goal: point },
        Field::Target => o.target = Some(id),
        Field::NavGoal => o.nav.goal = Some(point),
        Field::NavPath => o.nav.waypoints = vec![point; 1 + v as usize % 5],
        Field::NavRequest => o.nav.request = Some(v),
        Field::NavStuck => o.nav.stuck_frames = v,
        Field::NavBest => o.nav.best_distance = fixed,
        Field::NavRepaths => o.nav.repaths = v,
        Field::Construction => o.construction = Some(v),
        Field::Cargo => o.cargo = v,
        Field::Work => o.work = v,
        Field::Supply => o.supply = v,
        Field::NavPace => o.nav.pace = fixed,
        Field::Xp => o.xp = v,
        Field::Flags if v.is_multiple_of(2) => o.repairing = !o.repairing,
        Field::Flags => o.loose = !o.loose,
        Field::NavCruise => o.nav.cruise_until = Frame(v + 1),
        Field::Queue => o.queue.push(crate::sim::command::Queued::Move {
            to: crate::sim::command::Point { x: v as i32 + 1, y: -(v as i32) },
        }),
    }
}

/// An object of the test rules' first template with some state of its own.
fn object() -> Object {
    let w = test_support::world(8, vec![(TemplateId(0), 0, Vec2::from_int(20, 20))]);
    let mut o = w.objects().next().cloned().expect("the test world has an object");
    o.health = 77;
    o
}

#[test]
fn the_fields_are_listed_in_the_order_the_hash_lists_them() {
    let listed: Vec<Field> = object().hashed_fields().iter().map(|(f, _)| *f).collect();
    assert_eq!(listed, Field::ALL);
}

proptest! {
    #[test]
    fn changing_any_hashed_field_changes_the_objects_digest(field in 0..Field::ALL.len(), v in 0u32..100_000, key in any::<u64>()) {
        let field = Field::ALL[field];
        let before = object();
        let mut after = before.clone();
        set(&mut after, field, v);
        let (a, b) = (before.hashed_fields(), after.hashed_fields());
        // The setter changed that field's word and no other.
        for ((f, x), (_, y)) in a.iter().zip(b.iter()) {
            if *f != field {
                prop_assert_eq!(x, y, "{:?} moved when {:?} was set", f, field);
            }
        }
        let key = ObjectKey::of(key);
        if a != b {
            prop_assert_ne!(before.digest(key), after.digest(key), "{:?} changed but the digest did not", field);
        }
    }
}

#[test]
fn every_field_can_be_changed_by_its_setter() {
    for field in Field::ALL {
        let before = object();
        let mut after = before.clone();
        set(&mut after, field, 4321);
        assert_ne!(before.hashed_fields(), after.hashed_fields(), "{field:?}");
    }
}

/// A change to a world, named in the test's messages.
type Change = Box<dyn Fn(&mut super::World)>;

/// A world with two objects, and a change to each hashed part of it, named.
fn world_and_changes() -> (super::World, Vec<(&'static str, Change)>) {
    let base = test_support::world(
        16,
        vec![(TemplateId(0), 0, Vec2::from_int(40, 40)), (TemplateId(1), 1, Vec2::from_int(90, 90))],
    );
    let first = base.objects().next().map(|o| o.id).expect("an object");
    let changes: Vec<(&str, Change)> = vec![
        ("frame", Box::new(|w| w.frame = Frame(w.frame.0 + 1))),
        (
            "rng",
            Box::new(|w| {
                w.rng.next_u32();
            }),
        ),
        ("money", Box::new(|w| w.players[0].money += 1)),
        ("selection", Box::new(move |w| w.players[1].selection.push(first))),
        (
            "projectile",
            Box::new(move |w| {
                w.projectiles.push(Projectile {
                    owner: PlayerId(0),
                    shooter: first,
                    weapon: WeaponId(0),
                    target: first,
                    from: Vec2::from_int(1, 1),
                    aim: Vec2::from_int(2, 2),
                    frames_left: 3,
                    damage_percent: 100,
                })
            }),
        ),
        ("rally", Box::new(move |w| w.factories.set_rally(first, Vec2::from_int(5, 5)))),
        ("winner", Box::new(|w| w.winner = Some(PlayerId(1)))),
        ("game over", Box::new(|w| w.game_over = true)),
        ("content", Box::new(|w| w.content ^= 1)),
    ];
    (base, changes)
}

#[test]
fn each_hashed_part_of_the_world_changes_the_hash_and_caches_do_not() {
    let (base, changes) = world_and_changes();
    let h0 = base.state_hash().total;
    assert_eq!(base.recomputed_state_hash().total, h0);
    for (what, change) in &changes {
        let mut w = base.clone();
        change(&mut w);
        assert_ne!(w.state_hash().total, h0, "changing the {what} left the hash as it was");
    }
    let mut w = base.clone();
    w.caches = Default::default();
    w.caches.combat.answerers.push(7);
    w.events.clear();
    assert_eq!(w.state_hash().total, h0, "the caches are not state");
}

/// `w` through a saved game's state, written as RON and read back, over `base`.
fn through_a_save(w: &super::World, base: &super::World) -> super::World {
    let text = ron::to_string(&w.state()).expect("the state writes");
    let state: super::snapshot::WorldState = ron::from_str(&text).expect("the state reads");
    let mut base = base.clone();
    base.content = w.content;
    super::World::restored(base, state).expect("the state restores")
}

#[test]
fn every_hashed_part_of_the_world_survives_a_save() {
    // What the hash covers, a saved game keeps: a part the save left out would come back as
    // the base world's and the hash would differ.
    let (base, changes) = world_and_changes();
    for (what, change) in &changes {
        let mut w = base.clone();
        change(&mut w);
        let back = through_a_save(&w, &base);
        assert_eq!(back.state_hash(), w.state_hash(), "the {what} was lost through a save");
        assert_eq!(back.recomputed_state_hash(), w.state_hash(), "the {what}: the objects' sum does not add up");
    }
    // The identity (template) is fixed for an object's life: the write handle keeps it, so it
    // cannot be changed here; it travels in the same saved object as every other field.
    for field in Field::ALL.into_iter().filter(|f| *f != Field::Identity) {
        let mut w = base.clone();
        let id = w.objects().next().map(|o| o.id).expect("an object");
        if let Some(mut o) = w.objects.get_mut(id) {
            o.change(|o| set(o, field, 4321));
        }
        assert_ne!(w.state_hash(), base.state_hash(), "{field:?}");
        let back = through_a_save(&w, &base);
        assert_eq!(back.state_hash(), w.state_hash(), "object field {field:?} was lost through a save");
    }
}

#[test]
fn a_state_is_not_restored_over_a_world_of_other_content() {
    let (base, _) = world_and_changes();
    let mut other = base.clone();
    other.content ^= 1;
    let e = super::World::restored(other, base.state()).expect_err("refused");
    assert!(matches!(e, super::snapshot::RestoreError::Content { .. }), "{e}");
}
