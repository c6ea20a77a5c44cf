//! Small hand-built rule sets and worlds for the simulation's own unit tests.

use std::sync::Arc;

use super::angle::Angle;
use super::fixed::Fixed;
use super::ids::{ArmorId, PlayerId, TemplateId, WeaponId};
use super::rules::{ArmorTemplate, Faction, ObjectKind, ObjectTemplate, Rules, WeaponTemplate};
use super::terrain::Terrain;
use super::vector::Vec2;
use super::world::{GameSetup, InitialObject, PlayerSetup, World};

/// Template 0: a tank-like unit; 1: a post (structure, 1×1, no weapon); 2: a 3×3 block.
pub fn rules() -> Arc<Rules> {
    let unit = ObjectTemplate {
        name: "Unit".into(),
        faction: 0,
        kind: ObjectKind::Vehicle,
        cost: 100,
        build_frames: 30,
        footprint: (1, 1),
        max_health: 100,
        armor: ArmorId(0),
        speed: Fixed::from_int(1),
        acceleration: Fixed::from_ratio(1, 4),
        turn_rate: Angle::from_degrees(12),
        vision: Fixed::from_int(60),
        radius: Fixed::from_int(4),
        weapons: vec![WeaponId(0)],
        builds: vec![],
        prerequisites: vec![],
        gather: None,
        supply_depot: false,
        power: 0,
        researches: vec![],
    };
    let post = ObjectTemplate {
        name: "Post".into(),
        kind: ObjectKind::Structure,
        speed: Fixed::ZERO,
        weapons: vec![],
        max_health: 50,
        ..unit.clone()
    };
    let block = ObjectTemplate { name: "Block".into(), footprint: (3, 3), ..post.clone() };
    let mut r = Rules {
        templates: vec![unit, post, block],
        weapons: vec![WeaponTemplate {
            name: "Gun".into(),
            range: Fixed::from_int(40),
            damage: 10,
            damage_type: 0,
            reload_frames: 10,
            spread: 0,
            projectile_speed: Fixed::ZERO,
            min_range: Fixed::ZERO,
            area: Fixed::ZERO,
            targets: crate::sim::rules::Targets::Both,
        }],
        armors: vec![ArmorTemplate { name: "Plain".into(), percent: vec![100] }],
        damage_types: vec!["Plain".into()],
        factions: vec![Faction {
            name: "F".into(),
            starting_money: 0,
            playable: true,
            starting_objects: vec![(TemplateId(1), 1)],
            low_power_speed: 50,
            sell_refund: 50,
            veterancy: vec![crate::sim::rules::Rank { worth_percent: 100, damage_percent: 150, health_percent: 120 }],
            upkeep: crate::sim::rules::Upkeep {
                burn_below: 25,
                burn_per_mille: 10,
                repair_frames: 300,
                repair_cost: 50,
            },
        }],
        template_names: Default::default(),
        upgrades: vec![],
    };
    r.template_names = r.templates.iter().enumerate().map(|(i, t)| (t.name.clone(), TemplateId(i as u16))).collect();
    Arc::new(r)
}

/// A world on an open `size × size`-cell field (10 units a cell), two players on two teams,
/// each with a post in a corner, plus `objects`.
pub fn world(size: u32, objects: Vec<(TemplateId, u8, Vec2)>) -> World {
    world_with(rules(), size, objects)
}

/// [`world`] under other rules (built from [`rules`], with templates 0 and 1 as there).
pub fn world_with(rules: Arc<Rules>, size: u32, objects: Vec<(TemplateId, u8, Vec2)>) -> World {
    let edge = size as i64 * 10 - 15;
    let terrain =
        Terrain::open(size, size, Fixed::from_int(10), vec![Vec2::from_int(15, 15), Vec2::from_int(edge, edge)]);
    let players =
        vec![PlayerSetup::with_faction_money(&rules, 0, 0, 0), PlayerSetup::with_faction_money(&rules, 0, 1, 1)];
    let setup = GameSetup {
        rules,
        terrain,
        players,
        seed: 1,
        objects: objects
            .into_iter()
            .map(|(template, owner, pos)| InitialObject { template, owner: PlayerId(owner), pos, supply: 0 })
            .collect(),
    };
    match World::new(setup) {
        Ok(w) => w,
        Err(e) => panic!("test world: {e}"),
    }
}

/// Sixty of player 0's units on a 64-cell field and the commands, for its first frame, that
/// march them across it in one crowd.
pub fn crowd_on_the_march() -> (World, Vec<super::command::StampedCommand>) {
    use super::command::{Command, Point, StampedCommand};
    use super::ids::CommandId;
    let objects = (0..60).map(|i| (TemplateId(0), 0, Vec2::from_int(40 + (i % 10) * 9, 60 + (i / 10) * 9))).collect();
    let w = world(64, objects);
    let ids = w.objects().filter(|o| o.template == TemplateId(0)).map(|o| o.id).collect();
    let order = |id: u32, command: Command| StampedCommand {
        frame: w.frame(),
        player: PlayerId(0),
        id: CommandId(id),
        command,
    };
    let commands = vec![
        order(0, Command::Select { objects: ids, add: false }),
        order(1, Command::Move { to: Point { x: 560, y: 300 } }),
    ];
    (w, commands)
}

/// On every seventh frame of a [`crowd_on_the_march`], the crowd's unit with the lowest id
/// falls, and a new unit of player 0 arrives on top of the one with the highest (so it is
/// pushed, and sees, from its first frame).
pub fn churn(w: &mut World, frame: u32) {
    if frame == 0 || !frame.is_multiple_of(7) {
        return;
    }
    let crowd: Vec<(super::ids::ObjectId, Vec2)> =
        w.objects().filter(|o| o.template == TemplateId(0) && o.owner == PlayerId(0)).map(|o| (o.id, o.pos)).collect();
    if let (Some(&(first, _)), Some(&(_, at))) = (crowd.first(), crowd.last()) {
        if let Some(mut o) = w.objects.get_mut(first) {
            o.set_health(0);
        }
        w.create_object(TemplateId(0), PlayerId(0), at, Angle::ZERO);
    }
}

/// Plays a [`crowd_on_the_march`] with [`churn`] for `frames` frames in two copies side by
/// side: `forget` runs on the second before each frame (to empty a cache it keeps), and
/// `check` compares the two after each. Returns how many frames no object came or went on.
pub fn march_twice(frames: u32, forget: impl Fn(&mut World), check: impl Fn(u32, &World, &World)) -> u32 {
    let (mut kept, first) = crowd_on_the_march();
    let mut fresh = kept.clone();
    let mut still = 0;
    for frame in 0..frames {
        for w in [&mut kept, &mut fresh] {
            churn(w, frame);
        }
        forget(&mut fresh);
        let census = kept.objects.census();
        let commands = if frame == 0 { first.clone() } else { Vec::new() };
        kept.tick(&commands);
        fresh.tick(&commands);
        still += u32::from(kept.objects.census() == census);
        check(frame, &kept, &fresh);
    }
    still
}
