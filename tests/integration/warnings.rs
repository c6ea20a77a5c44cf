//! The battle's warnings as a player meets them: a scripted enemy wave crossing the map is
//! announced several seconds before its first shot, and a spectator's "Everything" view names
//! whose units are hit instead of speaking for one player.

use crate::common;

use ridgeline::game::battle::{AlertKind, Battle};
use ridgeline::session::script::{CommandScript, ScriptEntry};
use ridgeline::session::{MatchSetup, SlotKind, SlotSetup};
use ridgeline::sim::command::Command;
use ridgeline::sim::{ObjectId, PlayerId, Point};

use common::{SCREEN, roots};

/// Proving Grounds: the tester (Coalition) against a scripted Dominion, whose script is `script`.
fn scripted(script: &CommandScript) -> Battle {
    let mut human = SlotSetup::new(SlotKind::Human);
    human.faction = Some("Coalition".into());
    let mut enemy = SlotSetup::new(SlotKind::Scripted);
    enemy.faction = Some("Dominion".into());
    let setup = MatchSetup {
        map: "proving_grounds".into(),
        seed: 2,
        slots: vec![human, enemy],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    };
    let game = ridgeline::session::start::start_local(&roots(), &setup, script).expect("match starts");
    Battle::from_match(&roots(), game, SCREEN).expect("battle starts")
}

/// The enemy's starting fighters, and the tester's Command Post (where it stands).
fn wave_and_target() -> (Vec<ObjectId>, Point) {
    let b = scripted(&CommandScript::default());
    let w = b.world();
    let rules = w.rules();
    let wave = w
        .objects()
        .filter(|o| o.owner == PlayerId(1) && rules.template(o.template).is_mobile())
        .filter(|o| rules.template(o.template).is_armed())
        .map(|o| o.id)
        .collect();
    let post = w.objects().find(|o| o.owner == PlayerId(0) && o.kind.blocks_ground()).expect("a command post");
    (wave, Point { x: post.pos.x.round_int() as i32, y: post.pos.y.round_int() as i32 })
}

/// The frame of the first alert of `kind` told to the tester, running at most `frames` frames.
fn first(b: &mut Battle, kind: AlertKind, frames: u32) -> Option<u32> {
    while b.world().frame().0 < frames {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
        if let Some(a) = b.alerts().log().find(|a| a.kind == kind) {
            return Some(a.clock * ridgeline::sim::FRAMES_PER_SECOND);
        }
    }
    None
}

/// The enemy's whole starting army attack-moves on the tester's Command Post from its own
/// base across the map, while the tester's army withdraws to the corner behind its base.
fn wave() -> Battle {
    let (wave, post) = wave_and_target();
    assert!(wave.len() >= 8, "the enemy's starting army: {wave:?}");
    let script = CommandScript {
        commands: vec![
            ScriptEntry { frame: 30, player: 1, command: Command::Select { objects: wave, add: false } },
            ScriptEntry { frame: 30, player: 1, command: Command::AttackMove { to: post } },
        ],
    };
    let mut b = scripted(&script);
    // The tester's own army withdraws to the corner behind the base: only the base watches
    // the road the wave comes by.
    let rules = b.world().rules();
    let army: Vec<ObjectId> = b
        .world()
        .objects()
        .filter(|o| {
            o.owner == b.local() && rules.template(o.template).is_armed() && rules.template(o.template).is_mobile()
        })
        .map(|o| o.id)
        .collect();
    b.controls().select(army);
    b.controls().move_selection_to(glam::Vec2::new(40.0, 1240.0));
    b
}

#[test]
fn a_wave_crossing_the_map_is_announced_seconds_before_its_first_shot() {
    let mut b = wave();
    let warned = first(&mut b, AlertKind::Approaching, 6_000).expect("warned of the wave");
    let hit = first(&mut b, AlertKind::UnderAttack, 6_000).expect("the wave attacked");
    let warning = b.alerts().log().find(|a| a.kind == AlertKind::Approaching).unwrap().clone();
    assert!(warning.text.starts_with("Enemy forces approaching ("), "{}", warning.text);
    // Several seconds' notice: at least ten (alert clocks are whole seconds, so the lead is
    // measured in frames of whole seconds). Raised only when the base's own sight met the wave,
    // it came 150 frames (5 s) ahead, the wave already at the Command Post's door.
    let lead = hit - warned;
    eprintln!("warned at frame {warned}, first hit at frame {hit}: {lead} frames' notice");
    assert!(lead >= 10 * ridgeline::sim::FRAMES_PER_SECOND, "warned at {warned}, hit at {hit}: {lead} frames");
}

#[test]
fn a_replay_seen_whole_names_whose_units_are_attacked_and_never_says_our() {
    let mut b = wave();
    first(&mut b, AlertKind::UnderAttack, 6_000).expect("the wave attacked");
    common::run_for(&mut b, 3.0);
    let end = b.world().frame().0;
    let mut w = Battle::watch(&roots(), &b.play().replay(), "wave.ron", SCREEN).unwrap();
    // The tester's view, the enemy's, then everything.
    w.cycle_view();
    w.cycle_view();
    assert_eq!(w.view_label(), "Everything");
    while w.world().frame().0 < end {
        w.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let tester = w.play().player_name(PlayerId(0));
    let told: Vec<String> = w.alerts().log().map(|a| a.text.clone()).collect();
    assert!(told.iter().all(|t| !t.starts_with("Our ")), "no alert speaks as one player: {told:?}");
    assert!(told.contains(&format!("{tester}'s units are under attack")), "{told:?}");
    let warned = format!("Enemy forces approaching {tester}'s base (");
    assert!(told.iter().any(|t| t.starts_with(&warned)), "{told:?}");
    // A player's routine news is not a spectator's: no unit ready or idle gatherer lines.
    let kinds: Vec<AlertKind> = w.alerts().log().map(|a| a.kind).collect();
    assert!(
        kinds.iter().all(|k| matches!(k, AlertKind::UnderAttack | AlertKind::Approaching | AlertKind::Critical)),
        "{kinds:?}"
    );
    // The tester's own view of the same replay speaks as the tester.
    w.cycle_view();
    assert_eq!(w.view_label(), tester);
}
