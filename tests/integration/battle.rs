//! A skirmish battle without a window: the human's clicks become commands in the stream, the
//! world carries them out at 30 frames a second, and the camera scrolls and zooms.

use crate::common;

use glam::Vec2;
use ridgeline::game::battle::Battle;
use ridgeline::game::hud::{panel, radar};
use ridgeline::game::scene::to_display;
use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
use ridgeline::sim::object::Order;
use ridgeline::ui::draw::DrawCmd;
use ridgeline::ui::{Key, MouseButton};

const SCREEN: Vec2 = Vec2::new(1280.0, 720.0);

/// A skirmish on Proving Grounds as the skirmish screen would set it up.
fn start(cfg: &SkirmishConfig, factions: &[String]) -> Battle {
    let setup = cfg.to_match_setup("proving_grounds", 2, factions, "Tester", 1);
    Battle::start(&common::roots(), &setup, SCREEN).expect("battle starts")
}

/// The local player's first object of the template named `name`.
fn own_first(b: &Battle, name: &str) -> ridgeline::sim::ObjectId {
    let (me, t) = (b.local(), b.world().rules().template_id(name).unwrap());
    b.world().objects().find(|o| o.owner == me && o.template == t).unwrap().id
}

/// The first place on a coarse grid of the screen where the outline of the structure being
/// placed is green (away from `skip`, if given).
fn green_spot(b: &mut Battle, skip: Option<Vec2>) -> Vec2 {
    (2..14)
        .flat_map(|y| (2..20).map(move |x| Vec2::new(x as f32 * 60.0, y as f32 * 40.0)))
        .filter(|at| skip.is_none_or(|s| (s - *at).length() > 200.0))
        .find(|&at| {
            b.controls().mouse_move(at);
            b.look().placement_preview().is_some_and(|(fits, _)| fits)
        })
        .expect("somewhere to build")
}

fn battle() -> Battle {
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    start(&cfg, &["Coalition".to_string(), "Dominion".to_string()])
}

fn run(b: &mut Battle, seconds: f32) {
    for _ in 0..(seconds * 60.0) as u32 {
        b.advance(1.0 / 60.0).unwrap();
    }
}

#[test]
fn a_box_selection_and_a_right_click_move_the_players_units() {
    let mut b = battle();
    let me = b.local();
    let rules = b.world().rules().clone();
    let named = |name: &str| rules.template_id(name).unwrap();
    let (dozer, hauler) = (named("Dozer"), named("Hauler"));
    let mine = |b: &Battle, worker: bool| -> Vec<_> {
        b.world()
            .objects()
            .filter(|o| o.owner == me && b.world().rules().template(o.template).is_mobile())
            .filter(|o| (o.template == dozer || o.template == hauler) == worker)
            .map(|o| o.id)
            .collect()
    };
    let (units, workers) = (mine(&b, false), mine(&b, true));
    assert!(units.len() >= 5 && !workers.is_empty(), "{} soldiers, {} workers", units.len(), workers.len());
    // Drag a box over the whole screen: every soldier in view is selected; structures are not,
    // nor the dozer and haulers, which stay at work.
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_move(Vec2::new(640.0, 360.0));
    assert!(!b.overlay().is_empty(), "the drag box shows");
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    let mut picked = b.picture().selection().to_vec();
    picked.sort();
    assert_eq!(picked, units);
    // Right-click on open ground to the side of the base.
    let target_px = Vec2::new(1000.0, 500.0);
    let target = b.look().ground_under(target_px).expect("ground under the cursor");
    b.controls().mouse_down(MouseButton::Right, target_px);
    b.controls().mouse_up(MouseButton::Right, target_px);
    let start: Vec<Vec2> = units.iter().map(|id| to_display(b.world().object(*id).unwrap().pos)).collect();
    run(&mut b, 0.5);
    // The order went through the stream and executed a few frames later, for every unit.
    for id in &units {
        assert!(matches!(b.world().object(*id).unwrap().order, Order::Move { .. }), "{id} got the move");
    }
    // A group goes at its slowest member's pace (the rocketeers', 18 a second).
    run(&mut b, 10.0);
    let closer = units
        .iter()
        .zip(&start)
        .filter(|(id, s)| {
            let now = to_display(b.world().object(**id).unwrap().pos);
            (now - target).length() < (**s - target).length() - 20.0
        })
        .count();
    assert_eq!(closer, units.len(), "every unit headed for the click");
    assert!(b.world().frame().0 >= 310 && b.world().frame().0 <= 320, "30 frames a second");
}

#[test]
fn a_click_on_one_unit_selects_it_alone_and_clicks_on_nothing_clear() {
    let mut b = battle();
    let me = b.local();
    let cam = *b.picture().camera();
    let unit =
        b.world().objects().find(|o| o.owner == me && b.world().rules().template(o.template).is_mobile()).unwrap();
    let (id, p) = (unit.id, to_display(unit.pos));
    let px = cam.project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[id]);
    b.controls().mouse_down(MouseButton::Left, Vec2::new(5.0, 700.0));
    b.controls().mouse_up(MouseButton::Left, Vec2::new(5.0, 700.0));
    assert!(b.picture().selection().is_empty());
}

#[test]
fn arrows_scroll_and_the_wheel_zooms_within_the_map() {
    let mut b = battle();
    let before = *b.picture().camera();
    b.controls().key(Key::Right, true);
    run(&mut b, 0.5);
    b.controls().key(Key::Right, false);
    let moved = b.picture().camera().target.x - before.target.x;
    assert!(moved > 100.0, "scrolled east by {moved}");
    let after = b.picture().camera().target;
    run(&mut b, 0.5);
    assert_eq!(b.picture().camera().target, after, "releasing the key stops the scroll");
    b.controls().wheel(3.0);
    assert_eq!(b.picture().camera().zoom, before.zoom, "the zoom eases, it does not jump");
    run(&mut b, 0.05);
    assert!(b.picture().camera().zoom > before.zoom);
    run(&mut b, 0.5);
    assert!(
        (b.picture().camera().zoom - before.zoom * 1.12f32.powi(3)).abs() < 0.01,
        "the zoom eased to the wheel's goal"
    );
    b.controls().key(Key::Left, true);
    run(&mut b, 30.0);
    // The view stops at the map's west edge: its widest corner looks near the edge (within
    // the hills' height of it), never more than a sliver past it (zoomed in three steps the
    // view has tilted toward the horizon, and is kept where the untilted one would be: its far
    // corners may see the scenery past the edge, Camera::clamp_view, within a tenth of the
    // eye's distance).
    let cam = *b.picture().camera();
    let corner = cam.ground_point(Vec2::ZERO, SCREEN, cam.target.z).unwrap();
    let sliver = 0.1 * (cam.eye() - cam.target).length();
    assert!((-sliver..40.0).contains(&corner.x), "the top-left corner shows x = {}", corner.x);
}

#[test]
fn the_summary_names_the_outcome_and_counts_per_player() {
    let mut b = battle();
    run(&mut b, 1.0);
    let (outcome, rows) = b.summary();
    assert_eq!(outcome, "Battle left", "nobody has won yet");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "Tester", "the player's own name");
    // A computer is named by its slot and the style it drew this game (data/ai_styles.ron).
    let (name, style) = rows[1][0].split_once(" · ").expect("a computer's style is named");
    assert_eq!(name, "Computer 2");
    let styles = ridgeline::defs::ai_styles::load(&common::roots()).unwrap();
    assert!(styles.iter().any(|s| s.name == style), "{style} is one of ai_styles.ron's");
    assert_eq!(rows[0][1], "0", "nothing lost yet");
    assert_eq!(rows[0][3], "0", "what the player started with is not counted as built");
    assert_eq!(b.play().clock(), 1);
    assert!(b.play().money() > 0);
    assert_eq!(b.ended_for(), 0.0);
}

#[test]
fn fights_show_tracers_and_health_bars() {
    // A brutal computer's units soon fight the human's idle ones, which shoot back.
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let mut b = start(&cfg, &["Coalition".to_string(), "Coalition".to_string()]);
    let (mut tracer, mut bar) = (false, false);
    while b.world().frame().0 < 4_000 && !(tracer && bar) {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
        // Follow the fighting: look at the player's own units.
        let me = b.local();
        let fighter = b.world().objects().find(|o| o.owner == me && o.target.is_some()).map(|o| to_display(o.pos));
        if let Some(p) = fighter {
            b.camera_mut().target = p.extend(b.scene.height(p));
        }
        let cmds = b.overlay();
        // A tracer: a streak flying in the world (drawn by the world pass, with or without the
        // interface), never a line on the interface.
        use ridgeline::render::world::SpriteInstance;
        tracer |= b.picture().sprites().iter().any(|s| s.shape[3] == SpriteInstance::STREAK);
        assert!(!cmds.iter().any(|c| matches!(c, DrawCmd::Line { color, .. } if color[..3] == [255, 230, 140])));
        // A health bar: a translucent black bar 4 px high with the health, 2 px high, inside it.
        bar |= cmds.windows(2).any(|w| match (&w[0], &w[1]) {
            (DrawCmd::Fill { rect: back, color: [0, 0, 0, 180] }, DrawCmd::Fill { rect: health, .. }) => {
                back.h == 4.0 && health.h == 2.0 && health.x == back.x + 1.0 && health.w <= back.w - 2.0
            }
            _ => false,
        });
    }
    assert!(tracer, "shots are drawn");
    assert!(bar, "damaged units show health bars");
}

#[test]
fn the_radar_shows_the_map_units_and_view_and_moves_the_camera() {
    let mut b = battle();
    let rect = ridgeline::ui::Rect::new(10.0, 500.0, 200.0, 200.0);
    let cmds = radar::draw(&b, rect, "@preview/Proving Grounds");
    assert!(matches!(cmds.first(), Some(DrawCmd::Image { .. })), "the map's top view first");
    // The far side of the map is under the shroud: dark blocks, and no enemy dots there.
    let fills = cmds.iter().filter(|c| matches!(c, DrawCmd::Fill { .. })).count();
    let mine = b.world().objects().filter(|o| o.owner == b.local()).count();
    let enemies = b.world().objects().filter(|o| o.owner == ridgeline::sim::PlayerId(1)).count();
    assert!(fills > mine + 100, "own dots and shroud blocks ({fills})");
    // Ground never seen is darkened, not blacked out: the map stays readable on the radar.
    let shroud: Vec<u8> = cmds
        .iter()
        .filter_map(|c| match c {
            DrawCmd::Fill { color: [0, 0, 0, a], .. } => Some(*a),
            _ => None,
        })
        .collect();
    assert!(shroud.len() > 100 && shroud.iter().all(|&a| a < 230), "shroud blocks see-through: {shroud:?}");
    assert!(
        b.picture()
            .shroud()
            .at(to_display(b.world().objects().find(|o| o.owner == ridgeline::sim::PlayerId(1)).unwrap().pos))
            == 0
    );
    assert!(enemies > 0);
    let view = cmds.iter().filter(|c| matches!(c, DrawCmd::Line { .. })).count();
    assert_eq!(view, 4, "the camera's view is outlined");
    // A click at the radar's centre looks at the map's centre; the bottom-left corner is (0, 0).
    radar::click(&mut b, rect, Vec2::new(110.0, 600.0));
    let centre = b.scene.size() / 2.0;
    assert!((b.picture().camera().target.truncate() - centre).length() < 20.0, "{}", b.picture().camera().target);
    radar::click(&mut b, rect, Vec2::new(14.0, 696.0));
    // The south-west corner: as far as the view can go without showing past the edges.
    let cam = *b.picture().camera();
    let top_left = cam.ground_point(Vec2::ZERO, SCREEN, cam.target.z).unwrap();
    let bottom = cam.ground_point(Vec2::new(SCREEN.x / 2.0, SCREEN.y), SCREEN, cam.target.z).unwrap();
    assert!((-0.5..40.0).contains(&top_left.x) && (-0.5..40.0).contains(&bottom.y), "{top_left} {bottom}");
}

#[test]
fn hotkeys_stop_attack_move_and_recall_control_groups() {
    let mut b = battle();
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    let all = b.picture().selection().to_vec();
    assert!(all.len() >= 5);
    b.controls().hotkey('1', true);
    // Clicking empty ground clears the selection; 1 brings the group back.
    b.controls().mouse_down(MouseButton::Left, Vec2::new(5.0, 700.0));
    b.controls().mouse_up(MouseButton::Left, Vec2::new(5.0, 700.0));
    assert!(b.picture().selection().is_empty());
    b.controls().hotkey('1', false);
    assert_eq!(b.picture().selection(), &all[..]);
    // A, then a left click: an attack-move.
    b.controls().hotkey('a', false);
    assert!(b.picture().attack_move_armed());
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1000.0, 500.0));
    b.controls().mouse_up(MouseButton::Left, Vec2::new(1000.0, 500.0));
    assert!(!b.picture().attack_move_armed());
    run(&mut b, 0.5);
    assert!(all.iter().all(|id| matches!(b.world().object(*id).unwrap().order, Order::AttackMove { .. })));
    assert_eq!(b.picture().selection(), &all[..], "the order click does not change the selection");
    // S stops them.
    b.controls().hotkey('s', false);
    run(&mut b, 0.5);
    assert!(all.iter().all(|id| b.world().object(*id).unwrap().order == Order::Idle));
    // Double-tapping the group's key brings the camera to it.
    b.camera_mut().target = glam::Vec3::ZERO;
    b.controls().hotkey('1', false);
    b.controls().hotkey('1', false);
    assert!(b.picture().camera().target.length() > 100.0, "{}", b.picture().camera().target);
}

#[test]
fn the_control_bar_places_a_barracks_and_queues_riflemen() {
    use ridgeline::game::battle::Action;
    let mut b = battle();
    let me = b.local();
    // The hauler goes to work by itself; stopped (click, S), it stays put, so the purse below
    // moves only by what is bought and sold.
    let hauler_t = b.world().rules().template_id("Hauler").unwrap();
    let hauler = b.world().objects().find(|o| o.owner == me && o.template == hauler_t).unwrap();
    assert!(matches!(hauler.order, Order::Gather { .. }), "{:?}", hauler.order);
    let (hauler_id, p) = (hauler.id, to_display(hauler.pos));
    let px = b.picture().camera().project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[hauler_id]);
    b.controls().hotkey('s', false);
    run(&mut b, 0.3);
    assert_eq!(b.world().object(hauler_id).unwrap().order, Order::Idle);
    let dozer_t = b.world().rules().template_id("Dozer").unwrap();
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer_t).unwrap();
    let (dozer_id, p) = (dozer.id, to_display(dozer.pos));
    let px = b.picture().camera().project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[dozer_id]);
    let buttons = b.look().commands();
    let labels: Vec<&str> = buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            // Display names from objects.ron where they differ from the unique names.
            "Power Station\n$600",
            "Barracks\n$500",
            "Supply Depot\n$800",
            "War Factory\n$2000",
            "Bastion\n$800",
            "Skyguard\n$700",
            "Uplink\n$1500"
        ]
    );
    assert!(matches!(buttons[1].action, Action::Place(_)));
    assert!(buttons[1].available, "a barracks needs only the command post");
    assert!(!buttons[3].available, "a war factory needs a barracks first");
    assert_eq!(
        buttons[3].tooltip,
        "[R] War Factory: $2000, 30 s, uses 4 power. Builds Coalition vehicles and aircraft. Needs a finished Barracks first."
    );
    assert_eq!(buttons[0].tooltip, "[Q] Power Station: $600, 10 s, makes 10 power. Makes power for the base.");
    // A defence says what it is good against (from the weapon and armour tables).
    assert!(buttons[4].tooltip.starts_with(
        "[T] Bastion: $800, 14 s, uses 3 power. A machine-gun turret that guards the base against infantry. \
         Good against infantry."
    ));
    assert!(buttons[0].available && buttons[2].available, "so do a power station and a supply depot");
    assert!(!buttons[4].available, "a bastion needs a barracks");
    assert_eq!(
        buttons[6].tooltip,
        "[Z] Uplink: $1500, 30 s, uses 5 power. The Coalition's tech centre: unlocks the Paladin and researches \
         upgrades. Needs a finished War Factory first."
    );
    // Choose the barracks with its key (W, the second of the grid): the outline follows the
    // cursor; Escape-like cancel leaves the mode.
    b.controls().hotkey('w', false);
    assert_eq!(b.picture().placing(), Some(b.world().rules().template_id("Barracks").unwrap()));
    assert!(b.picture().placing().is_some());
    b.controls().mouse_move(Vec2::new(900.0, 300.0));
    assert!(b.overlay().iter().filter(|c| matches!(c, DrawCmd::Line { .. })).count() >= 4, "the outline shows");
    assert!(b.controls().cancel_mode());
    assert!(b.picture().placing().is_none());
    b.controls().command_button(1);
    b.controls().mouse_down(MouseButton::Left, Vec2::new(900.0, 300.0));
    b.controls().mouse_up(MouseButton::Left, Vec2::new(900.0, 300.0));
    assert!(b.picture().placing().is_none(), "one structure per choice");
    run(&mut b, 0.5);
    let barracks_t = b.world().rules().template_id("Barracks").unwrap();
    let site = b.world().objects().find(|o| o.owner == me && o.template == barracks_t).expect("the site is placed").id;
    assert_eq!(b.play().money(), 10_000 - 500);
    run(&mut b, 30.0);
    assert!(b.world().object(site).unwrap().is_complete(), "built within 30 s");
    // Select the barracks: its buttons queue units, and the bar shows the queue.
    let bp = to_display(b.world().object(site).unwrap().pos);
    let px = b.picture().camera().project(bp.extend(b.scene.height(bp) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[site]);
    assert!(b.queue_text().starts_with("Ready"));
    b.controls().command_button(0);
    b.controls().command_button(0);
    run(&mut b, 0.3);
    assert!(b.queue_text().starts_with("Building: Rifleman ("), "{}", b.queue_text());
    assert_eq!(b.play().money(), 10_000 - 500 - 450);
    // After its units: the power switch (it uses 2), then the sale, last.
    let labels: Vec<String> = b.look().commands().iter().map(|c| c.label.clone()).collect();
    assert_eq!(labels, ["Rifleman\n$225", "Rocketeer\n$300", "Power off", "Sell +$700"]);
    assert!(
        b.look().commands()[1].tooltip.contains("Good against light vehicles, tanks, aircraft."),
        "{}",
        b.look().commands()[1].tooltip
    );
    // The last button sells it: half its price and the two queued riflemen come back.
    let sell = b.look().commands().len() - 1;
    assert_eq!(b.look().commands()[sell].label, "Sell +$700");
    b.controls().command_button(sell);
    run(&mut b, 0.3);
    assert!(b.world().object(site).is_none(), "sold");
    assert_eq!(b.play().money(), 10_000 - 500 + 250);
}

#[test]
fn a_recorded_battle_replays_to_the_same_final_state() {
    use ridgeline::session::Replay;
    let mut b = battle(); // the human against a normal AI
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    b.controls().mouse_down(MouseButton::Right, Vec2::new(1000.0, 500.0));
    run(&mut b, 5.0);
    b.controls().hotkey('s', false);
    run(&mut b, 3.0);
    let replay = b.play().replay();
    assert!(replay.commands.len() >= 3, "the clicks and the AI's orders are recorded");
    assert_eq!(replay.frames, b.world().frame().0);
    // Saved and read back unchanged.
    let path = common::temp_dir("replay").join("game.ron");
    replay.save(&path).unwrap();
    let loaded = Replay::load(&path).unwrap();
    assert_eq!(loaded, replay);
    // Watched: the same game, to the same final hash.
    let mut watched = Battle::watch(&common::roots(), &loaded, "test.ron", SCREEN).unwrap();
    assert!(watched.play().is_replay());
    assert_eq!(watched.play().replay_verdict(), None, "not at its end yet");
    while watched.play().replay_verdict().is_none() {
        watched.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    assert_eq!(watched.play().replay_verdict(), Some(true));
    assert_eq!(watched.world().state_hash(), b.world().state_hash());
    // A tampered replay does not reach the recorded end.
    let mut bad = loaded.clone();
    bad.commands.retain(|e| !matches!(e.command, ridgeline::sim::Command::Stop));
    let mut w = Battle::watch(&common::roots(), &bad, "test.ron", SCREEN).unwrap();
    while w.play().replay_verdict().is_none() {
        w.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    assert_eq!(w.play().replay_verdict(), Some(false));
    // Bad files are refused with a reason.
    std::fs::write(&path, "(version: 99)").unwrap();
    assert!(Replay::load(&path).is_err());
}

#[test]
fn the_shroud_hides_enemies_until_they_are_seen() {
    let mut b = battle();
    let visible_enemies = |b: &Battle| {
        let n: usize = b.instances().iter().map(Vec::len).sum();
        let mine = b.world().objects().filter(|o| o.owner == b.local()).count();
        n as i64 - mine as i64
    };
    // At the start only the player's own base and the scenery around it show.
    let at_start = visible_enemies(&b);
    let theirs = b.world().objects().filter(|o| o.owner == ridgeline::sim::PlayerId(1)).count() as i64;
    let all: usize = b.scene.instances(b.world(), None, 1.0, None).iter().map(Vec::len).sum();
    let mine = b.world().objects().filter(|o| o.owner == b.local()).count() as i64;
    assert!(at_start < all as i64 - mine - theirs + 1, "enemy objects are hidden");
    // Send everything to the enemy start: the enemy base comes into sight.
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    let enemy_base =
        b.world().objects().find(|o| o.owner == ridgeline::sim::PlayerId(1) && o.kind.blocks_ground()).unwrap();
    let (target, enemy_template) = (to_display(enemy_base.pos), enemy_base.template);
    let size = b.scene.size();
    let on_radar = Vec2::new(4.0 + target.x / size.x * 200.0, 4.0 + (1.0 - target.y / size.y) * 200.0);
    radar::order(&mut b, ridgeline::ui::Rect::new(0.0, 0.0, 208.0, 208.0), on_radar);
    let seen = |b: &Battle| b.picture().shroud().at(target) == ridgeline::game::shroud::VISIBLE;
    let mut t = 0.0;
    while !seen(&b) && t < 120.0 {
        run(&mut b, 1.0);
        t += 1.0;
    }
    assert!(seen(&b), "the enemy base came into sight");
    assert!(visible_enemies(&b) > at_start);
    assert_eq!(b.look().remembered().count(), 0, "what is in sight is not a memory");
    // Back home: the base goes under the fog again, and stays drawn where it was seen, greyed.
    let home = to_display(b.world().objects().find(|o| o.owner == b.local() && o.kind.blocks_ground()).unwrap().pos);
    let on_radar = Vec2::new(4.0 + home.x / size.x * 200.0, 4.0 + (1.0 - home.y / size.y) * 200.0);
    radar::order(&mut b, ridgeline::ui::Rect::new(0.0, 0.0, 208.0, 208.0), on_radar);
    let mut t = 0.0;
    while seen(&b) && t < 120.0 {
        run(&mut b, 1.0);
        t += 1.0;
    }
    assert!(!seen(&b), "the enemy base went under the fog");
    let remembered: Vec<_> = b.look().remembered().map(|r| (r.template, r.pos)).collect();
    assert!(remembered.contains(&(enemy_template, target)), "{remembered:?}");
    let greyed = b.instances().into_iter().flatten().any(|i| {
        let at = Vec2::new(i.offset[0], i.offset[1]);
        let [r, g, bl] = i.color;
        (at - target).length() < 1.0 && (r - g).abs() < 0.05 && (g - bl).abs() < 0.05 && r < 0.5
    });
    assert!(greyed, "the remembered base is drawn greyed where it stood");
}

#[test]
fn a_refused_order_says_why_in_the_control_bar() {
    let mut b = battle();
    let me = b.local();
    let dozer_t = b.world().rules().template_id("Dozer").unwrap();
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer_t).unwrap();
    let post = b.world().objects().find(|o| o.owner == me && o.kind.blocks_ground()).unwrap();
    let (d, p) = (to_display(dozer.pos), to_display(post.pos));
    let px = b.picture().camera().project(d.extend(b.scene.height(d) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    b.controls().command_button(0);
    // Put the barracks on top of the command post.
    let on_post = b.picture().camera().project(p.extend(b.scene.height(p)), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, on_post);
    b.controls().mouse_up(MouseButton::Left, on_post);
    run(&mut b, 0.3);
    assert_eq!(b.queue_text(), "It does not fit there: a structure is in the way.");
    run(&mut b, 4.0);
    assert!(!b.queue_text().starts_with("It does not fit there"), "the notice fades");
}

#[test]
fn double_click_selects_the_kind_and_shift_adds() {
    let mut b = battle();
    let me = b.local();
    let rifle = b.world().rules().template_id("Rifleman").unwrap();
    let riflemen: Vec<_> = b.world().objects().filter(|o| o.owner == me && o.template == rifle).map(|o| o.id).collect();
    assert!(riflemen.len() >= 2);
    let at = |b: &Battle, id| {
        let p = to_display(b.world().object(id).unwrap().pos);
        b.picture().camera().project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap()
    };
    let px = at(&b, riflemen[0]);
    for _ in 0..2 {
        b.controls().mouse_down(MouseButton::Left, px);
        b.controls().mouse_up(MouseButton::Left, px);
    }
    let mut chosen = b.picture().selection().to_vec();
    chosen.sort();
    assert_eq!(chosen, riflemen, "every rifleman on screen");
    // Shift-click the tank: added, not replacing.
    let tank_t = b.world().rules().template_id("Bulwark").unwrap();
    let tank = b.world().objects().find(|o| o.owner == me && o.template == tank_t).unwrap().id;
    let tp = at(&b, tank);
    b.controls().set_shift(true);
    b.controls().mouse_down(MouseButton::Left, tp);
    b.controls().mouse_up(MouseButton::Left, tp);
    b.controls().set_shift(false);
    assert_eq!(b.picture().selection().len(), riflemen.len() + 1);
    run(&mut b, 0.3);
    let synced = &b.world().players()[me.index()].selection;
    assert_eq!(synced.len(), riflemen.len() + 1, "the sim's selection agrees");
}

#[test]
fn the_screen_edge_scrolls_only_while_the_cursor_is_in_the_window() {
    let mut b = battle();
    let middle = b.scene.size() / 2.0;
    let at = ridgeline::game::camera::Camera::looking_at(middle.extend(b.scene.height(middle)));
    b.controls().set_camera(at);
    let start = b.picture().camera().target;
    // The cursor rests on the left edge: the view scrolls west.
    b.controls().mouse_move(Vec2::new(0.0, 360.0));
    run(&mut b, 0.5);
    let moved = b.picture().camera().target;
    assert!(moved.x < start.x, "{start} → {moved}");
    // It leaves the window across that edge: the view stays put.
    b.controls().mouse_left();
    run(&mut b, 0.5);
    assert_eq!(b.picture().camera().target, moved);
    // A position reported beyond the window (a drag, focus moving to another window) is no
    // edge either.
    b.controls().mouse_move(Vec2::new(2176.0, 149.0));
    run(&mut b, 0.5);
    assert_eq!(b.picture().camera().target, moved);
}

#[test]
fn the_score_counts_a_barracks_the_player_built() {
    use ridgeline::game::battle::Action;
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(0);
    let mut b = start(&cfg, &["Coalition".to_string(), "Coalition".to_string()]);
    // Select the dozer; its structures fill the control bar.
    let (me, dozer) = (b.local(), b.world().rules().template_id("Dozer").unwrap());
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer).unwrap().id;
    b.controls().select(vec![dozer]);
    run(&mut b, 0.5);
    let barracks = b.world().rules().template_id("Barracks").unwrap();
    let button =
        b.look().commands().iter().position(|c| c.action == Action::Place(barracks)).expect("a barracks button");
    b.controls().command_button(button);
    let spot = green_spot(&mut b, None);
    b.controls().mouse_down(MouseButton::Left, spot);
    b.controls().mouse_up(MouseButton::Left, spot);
    let me = b.local();
    let standing = |b: &Battle| b.world().objects().any(|o| o.owner == me && o.template == barracks && o.is_complete());
    for _ in 0..60 {
        run(&mut b, 1.0);
        if standing(&b) {
            break;
        }
    }
    assert!(standing(&b), "the barracks was finished");
    let (_, rows) = b.summary();
    assert_eq!(rows[0][3], "1", "one structure built: {rows:?}");
    // The player was told, with the game time.
    let told = b.alerts().recent().find(|a| a.kind == ridgeline::game::battle::AlertKind::Completed).cloned();
    let told = told.expect("a construction alert");
    assert_eq!(told.text, "Construction complete: Barracks");
    assert!(told.line().starts_with(&format!("{}:", told.clock / 60)), "{}", told.line());
}

#[test]
fn an_attack_is_told_once_pinged_on_the_radar_and_space_jumps_there() {
    use ridgeline::game::battle::AlertKind;
    // A brutal computer attacks after five minutes (frame 9,000) and a march.
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let mut b = start(&cfg, &["Coalition".to_string(), "Coalition".to_string()]);
    let attacked = |b: &Battle| b.alerts().recent().any(|a| a.kind == AlertKind::UnderAttack);
    while b.world().frame().0 < 14_000 && !attacked(&b) {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let alert = b.alerts().recent().find(|a| a.kind == AlertKind::UnderAttack).cloned().expect("told of the attack");
    assert!(alert.text.contains("under attack"), "{}", alert.text);
    // Before the first shot, the wave was seen coming: a warning, placed where it was.
    let warned = b.alerts().log().find(|a| a.kind == AlertKind::Approaching).cloned().expect("warned of the wave");
    assert!(warned.clock <= alert.clock, "warned at {} s, attacked at {} s", warned.clock, alert.clock);
    assert!(warned.text.starts_with("Enemy forces approaching ("), "{}", warned.text);
    assert!(warned.at.is_some_and(|p| p.distance(alert.at.unwrap()) < 800.0), "{:?} vs {:?}", warned.at, alert.at);
    assert!(b.alert_lines().iter().any(|l| l.ends_with(&alert.text)), "{:?}", b.alert_lines());
    // Every hit of the next second is the same news: it is not told again.
    for _ in 0..30 {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let near = |a: &ridgeline::game::battle::Alert| a.at.is_some_and(|p| p.distance(alert.at.unwrap()) < 600.0);
    let told = b.alerts().recent().filter(|a| a.kind == AlertKind::UnderAttack && near(a)).count();
    assert_eq!(told, 1, "one alert for one fight");
    // The radar flashes a ping there, in the alert colour.
    let drawn = radar::draw(&b, ridgeline::ui::Rect::new(0.0, 0.0, 150.0, 150.0), "radar");
    let pings =
        drawn.iter().filter(|c| matches!(c, DrawCmd::Frame { color, .. } if color[..3] == [255, 90, 60])).count();
    assert!(pings >= 1, "a ping on the radar");
    // Space brings the camera from across the map to the place (centred on it as far as the
    // map's edges allow): it is on screen, and nearer the middle than any edge.
    let place = b.alerts().last_place().unwrap();
    let far = b.scene.size() - place;
    let camera = ridgeline::game::camera::Camera::looking_at(far.extend(b.scene.height(far)));
    b.controls().set_camera(camera);
    let seen = |b: &Battle| b.picture().camera().project(place.extend(b.scene.height(place)), SCREEN);
    assert!(seen(&b).is_none_or(|p| p.x < 0.0 || p.y < 0.0 || p.x > SCREEN.x || p.y > SCREEN.y), "not in view yet");
    b.controls().key(Key::Space, true);
    b.controls().key(Key::Space, false);
    let p = seen(&b).unwrap();
    assert!((SCREEN.x * 0.2..SCREEN.x * 0.8).contains(&p.x) && (SCREEN.y * 0.2..SCREEN.y * 0.8).contains(&p.y), "{p}");
}

/// Advances `b` in steps small enough that no step runs two frames, recording the state hash
/// of every frame run, until `frames` have run or `seconds` of real time have passed.
fn hash_log(b: &mut Battle, log: &mut Vec<(u32, u64)>, frames: u32, seconds: f32) {
    let mut t = 0.0;
    while b.world().frame().0 < frames && t < seconds {
        let before = b.world().frame().0;
        b.advance(1.0 / 240.0).unwrap();
        t += 1.0 / 240.0;
        let now = b.world().frame().0;
        assert!(now <= before + 1, "one frame a step at most");
        if now == before + 1 {
            log.push((now, b.world().state_hash().total));
        }
    }
}

#[test]
fn pause_and_game_speed_change_when_frames_run_never_what_they_compute() {
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    // Played straight.
    let mut straight = Vec::new();
    let mut a = start(&cfg, &factions);
    hash_log(&mut a, &mut straight, 900, 1_000.0);
    // Paused, sped up, slowed down.
    let mut paced = Vec::new();
    let mut b = start(&cfg, &factions);
    hash_log(&mut b, &mut paced, 900, 2.0);
    // The pause is a message of the stream: it takes effect after the frame it is stamped for,
    // a run-ahead from now.
    let asked = b.world().frame().0;
    b.controls().hotkey('p', false);
    hash_log(&mut b, &mut paced, 900, 0.5);
    assert_eq!(b.play().pace().label(b.look().labels()), "Paused");
    let at = b.world().frame().0;
    assert!((asked + 1..=asked + 4).contains(&at), "paused within the run-ahead: {asked} → {at}");
    hash_log(&mut b, &mut paced, 900, 3.0);
    assert_eq!(b.world().frame().0, at, "no frame runs while paused");
    b.controls().hotkey('p', false);
    b.controls().hotkey('+', false);
    b.controls().hotkey('+', false);
    b.controls().hotkey('+', false);
    hash_log(&mut b, &mut paced, 900, 0.2);
    assert_eq!(b.play().pace().label(b.look().labels()), "3×");
    let from = b.world().frame().0;
    hash_log(&mut b, &mut paced, 900, 2.0);
    let fast = b.world().frame().0 - from;
    assert!((170..=190).contains(&fast), "three times the frames in two seconds: {fast}");
    b.controls().hotkey('-', false);
    b.controls().hotkey('-', false);
    b.controls().hotkey('-', false);
    b.controls().hotkey('-', false);
    hash_log(&mut b, &mut paced, 900, 0.5);
    assert_eq!(b.play().pace().label(b.look().labels()), "0.5×");
    // The player was told each change.
    let told: Vec<String> = b.alerts().recent().map(|a| a.text.clone()).collect();
    for line in ["paused the game", "resumed the game", "set the speed to 3×", "set the speed to 0.5×"] {
        assert!(told.iter().any(|t| t.ends_with(line)), "{line:?} in {told:?}");
    }
    hash_log(&mut b, &mut paced, 900, 1_000.0);
    assert_eq!(paced.len(), 900);
    // The replay records the changes of pace, and plays back to the same game.
    let replay = b.play().replay();
    use ridgeline::lockstep::PaceChange;
    let changes: Vec<PaceChange> = replay.pace.iter().map(|m| m.change).collect();
    assert_eq!(changes, [PaceChange::Pause, PaceChange::Resume, PaceChange::Speed(300), PaceChange::Speed(50)]);
    assert_eq!(replay.pace[0].frame + 1, at);
    let mut watched = Battle::watch(&common::roots(), &replay, "test.ron", SCREEN).unwrap();
    let mut played_back = Vec::new();
    for _ in 0..900 {
        watched.seek(watched.world().frame().0 + 1).unwrap();
        played_back.push((watched.world().frame().0, watched.world().state_hash().total));
    }
    assert_eq!(played_back, paced, "the replay's hash log is the paced game's");
    assert_eq!(paced, straight, "the same hash every frame");
}

/// The images the selection panel draws in `panel`: name and place.
fn panel_images(b: &Battle, panel: ridgeline::ui::Rect) -> Vec<(String, ridgeline::ui::Rect)> {
    panel::draw(b, panel, &ridgeline::ui::font::FixedMeasure)
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Image { name, rect, .. } => Some((name, rect)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_selection_panel_shows_icons_and_picks_drops_and_keeps_kinds_by_click() {
    use ridgeline::ui::Rect;
    let mut b = battle();
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    run(&mut b, 0.3);
    let panel = Rect::new(1000.0, 560.0, 222.0, 213.0);
    let chosen = b.picture().selection().to_vec();
    assert!(chosen.len() > 5, "a crowd is selected: {}", chosen.len());
    let icons = |b: &Battle| panel_images(b, panel);
    let grid = icons(&b);
    assert_eq!(grid.len(), chosen.len().min(24), "an icon per selected object");
    let names: std::collections::BTreeMap<_, _> =
        b.world().objects().map(|o| (o.id, b.world().rules().template(o.template).name.clone())).collect();
    let name_of = |id| names[&id].clone();
    for ((icon, rect), id) in grid.iter().zip(&chosen) {
        assert_eq!(icon, &format!("@icon/{}", name_of(*id)));
        assert!(panel.contains(rect.x, rect.y) && rect.right() <= panel.right() + 0.5, "{rect:?} inside the panel");
    }
    let middle = |r: &Rect| Vec2::new(r.x + r.w / 2.0, r.y + r.h / 2.0);
    // Ctrl-click on a rifleman keeps the riflemen.
    let rifle = chosen.iter().position(|&id| name_of(id) == "Rifleman").expect("a rifleman");
    assert!(panel::click(&mut b, panel, middle(&grid[rifle].1), true));
    let riflemen: Vec<_> = chosen.iter().copied().filter(|&id| name_of(id) == "Rifleman").collect();
    assert_eq!(b.picture().selection(), riflemen.as_slice());
    // Shift-click drops one.
    b.controls().set_shift(true);
    let grid = icons(&b);
    assert!(panel::click(&mut b, panel, middle(&grid[0].1), false));
    b.controls().set_shift(false);
    assert_eq!(b.picture().selection(), &riflemen[1..]);
    // A plain click picks one; the sim's selection follows.
    let grid = icons(&b);
    assert!(panel::click(&mut b, panel, middle(&grid[1].1), false));
    assert_eq!(b.picture().selection(), &riflemen[2..3]);
    run(&mut b, 0.5);
    let me = b.local();
    assert_eq!(b.world().players()[me.index()].selection, riflemen[2..3].to_vec());
    // One object: its icon, name and health.
    let texts: Vec<String> = panel::draw(&b, panel, &ridgeline::ui::font::FixedMeasure)
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert!(texts.contains(&"Rifleman".to_string()) && texts.iter().any(|t| t.ends_with("/186")), "{texts:?}");
}

#[test]
fn a_factory_s_queue_shows_progress_and_a_click_on_it_cancels_with_a_refund() {
    use ridgeline::game::battle::Action;
    use ridgeline::ui::Rect;
    let mut b = battle();
    let me = b.local();
    // Click the command post: it trains haulers.
    let post = b.world().objects().find(|o| o.owner == me && o.kind.blocks_ground()).unwrap().id;
    let at = b.look().screen_pos(post).expect("the command post is on screen");
    b.controls().mouse_down(MouseButton::Left, at);
    b.controls().mouse_up(MouseButton::Left, at);
    run(&mut b, 0.3);
    assert_eq!(b.picture().selection(), [post]);
    let train =
        b.look().commands().iter().position(|c| matches!(c.action, Action::Produce { .. })).expect("a unit to train");
    b.controls().command_button(train);
    b.controls().command_button(train);
    run(&mut b, 1.0);
    assert_eq!(b.world().factories().queue(post).len(), 2);
    // Shift queues five more (the queue holds them all).
    b.controls().set_shift(true);
    b.controls().command_button(train);
    b.controls().set_shift(false);
    run(&mut b, 0.5);
    assert_eq!(b.world().factories().queue(post).len(), 7, "Shift queues five");
    let p1 = panel::queue_progress(&b).expect("progress of the first");
    run(&mut b, 1.0);
    let p2 = panel::queue_progress(&b).unwrap();
    assert!(p2 > p1, "the first one advances: {p1} → {p2}");
    let panel = Rect::new(1000.0, 560.0, 222.0, 213.0);
    let queue: Vec<Rect> =
        panel_images(&b, panel).into_iter().filter(|(name, _)| name != "@icon/CommandPost").map(|(_, r)| r).collect();
    assert_eq!(queue.len(), 5, "the queue as icons, the first five of seven");
    let money = b.play().money();
    let q = queue[1];
    assert!(panel::click(&mut b, panel, Vec2::new(q.x + q.w / 2.0, q.y + q.h / 2.0), false));
    run(&mut b, 0.5);
    assert_eq!(b.world().factories().queue(post).len(), 6, "one cancelled");
    assert!(b.play().money() > money, "refunded: {money} → {}", b.play().money());
}

#[test]
fn a_watched_replay_seeks_back_and_forth_to_the_states_played_straight_and_takes_no_orders() {
    // A brutal AI attacks the idle human: a recorded minute with plenty going on.
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let mut b = start(&cfg, &["Coalition".to_string(), "Dominion".to_string()]);
    let mut played = Vec::new();
    hash_log(&mut b, &mut played, 2_400, 1_000.0);
    let replay = b.play().replay();
    let at = |f: u32| played.iter().find(|(frame, _)| *frame == f).map(|(_, h)| *h).unwrap();
    let mut w = Battle::watch(&common::roots(), &replay, "test.ron", SCREEN).unwrap();
    assert_eq!(w.play().replay_position(), Some((0, 2_400)));
    // Forward to a frame never played here, then back past kept states, then forward again.
    for target in [1_900, 700, 1_250, 2_400, 5] {
        w.seek(target).unwrap();
        assert_eq!(w.world().frame().0, target);
        assert_eq!(w.world().state_hash().total, at(target), "the state at frame {target}");
        // Nothing drawn from another moment stays: no alert of a later time, no marker.
        assert!(w.alerts().recent().all(|a| a.clock <= target / 30), "alerts after a seek to {target}");
        assert!(w.picture().order_markers().is_empty());
    }
    // Played on to a moment with news, then sought back: that news is gone.
    // (Seen as the computer, whose minute is busy: units ready, structures finished.)
    w.cycle_view();
    hash_log(&mut w, &mut Vec::new(), 2_400, 1_000.0);
    assert!(w.alerts().log().any(|a| a.clock > 10), "the brutal computer's minute brings news");
    let told = |w: &Battle| w.alerts().log().map(|a| (a.frame, a.text.clone())).collect::<Vec<_>>();
    let straight_log = told(&w);
    w.seek(300).unwrap();
    assert!(w.alerts().log().all(|a| a.clock <= 10), "news from later is not listed at 0:10");
    // The log keeps what was told up to 0:10, as it was told.
    let early: Vec<_> = straight_log.iter().filter(|(f, _)| *f <= 300).cloned().collect();
    assert_eq!(told(&w), early, "the news up to 0:10 stays in the log");
    // Sought forward again over frames not played since: their news is in the log, in order,
    // none from after the moment reached.
    w.seek(2_400).unwrap();
    let again = told(&w);
    assert!(again.iter().any(|(f, _)| *f > 300), "news from the frames run over is logged: {again:?}");
    assert!(again.windows(2).all(|p| p[0].0 <= p[1].0) && again.iter().all(|(f, _)| *f <= 2_400));
    let kinds = |log: &[(u32, String)]| {
        log.iter()
            .map(|(_, t)| t.split(':').next().unwrap_or("").to_string())
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(kinds(&again), kinds(&straight_log), "the same kinds of news as played straight");
    assert!(w.alerts().recent().count() == 0, "but no line pops up on screen for them");
    w.seek(300).unwrap();
    // Back to the first player's view.
    w.cycle_view();
    w.cycle_view();
    // The score after a seek counts what happened up to the frame sought, as played straight
    // (the counts; a replay does not know which style a computer drew, so names differ).
    let counts = |b: &Battle| b.summary().1.into_iter().map(|row| row[1..].to_vec()).collect::<Vec<_>>();
    w.seek(2_400).unwrap();
    let straight = counts(&b);
    assert_ne!(straight[1][2], "0", "the brutal computer built something: {straight:?}");
    assert_eq!(counts(&w), straight, "the score at the end after seeking there");
    let mut fresh = Battle::watch(&common::roots(), &replay, "test.ron", SCREEN).unwrap();
    hash_log(&mut fresh, &mut Vec::new(), 1_250, 1_000.0);
    w.seek(1_250).unwrap();
    assert_eq!(counts(&w), counts(&fresh), "the score at 1,250 after seeking back");
    assert_ne!(counts(&w), straight, "fewer built by 1,250 than by the end");
    // Played on from a sought frame, it stays on the recorded course.
    w.seek(1_000).unwrap();
    let mut on = Vec::new();
    hash_log(&mut w, &mut on, 1_060, 1_000.0);
    assert_eq!(on.len(), 60);
    assert!(on.iter().all(|&(f, h)| h == at(f)), "the frames after a seek run as recorded");
    // The view goes round the players, then shows everything, then starts again.
    let first = w.local();
    assert_eq!(w.view_label(), "Tester");
    w.cycle_view();
    assert_ne!(w.local(), first);
    assert_eq!(w.view_label(), "Computer 2");
    let unknown = |w: &Battle| w.picture().shroud().bytes().iter().filter(|&&b| b != 255).count();
    assert!(unknown(&w) > 0, "a player's view has a shroud");
    w.cycle_view();
    assert_eq!(w.view_label(), "Everything");
    assert_eq!(unknown(&w), 0, "everything in sight");
    hash_log(&mut w, &mut Vec::new(), 1_100, 1_000.0);
    assert_eq!(unknown(&w), 0, "and it stays so as the replay runs");
    w.cycle_view();
    assert_eq!(w.local(), first);
    // A watcher has no buttons and selects nothing.
    assert!(w.look().commands().is_empty());
    w.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    w.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    assert!(w.picture().selection().is_empty(), "no selection while watching");
}

#[test]
fn a_selected_factory_shows_its_rally_flag() {
    let mut b = battle();
    let me = b.local();
    let post = b.world().objects().find(|o| o.owner == me && o.kind.blocks_ground()).unwrap().id;
    let at = b.look().screen_pos(post).expect("on screen");
    b.controls().mouse_down(MouseButton::Left, at);
    b.controls().mouse_up(MouseButton::Left, at);
    run(&mut b, 0.3);
    let flag = |b: &Battle| b.overlay().iter().any(|c| matches!(c, DrawCmd::Fill { color: [230, 70, 50, 255], .. }));
    assert!(!flag(&b), "no rally point yet");
    // A right click on open ground with only the structure selected sets its rally point.
    let ground = at + Vec2::new(-150.0, 120.0);
    b.controls().mouse_down(MouseButton::Right, ground);
    b.controls().mouse_up(MouseButton::Right, ground);
    run(&mut b, 0.5);
    assert!(b.world().factories().rally(post).is_some(), "the rally point is set");
    assert!(flag(&b), "and its flag is drawn");
}

#[test]
fn a_replay_is_taken_over_at_a_moment_and_the_new_game_replays_from_the_start() {
    use ridgeline::session::{Difficulty, SlotKind};
    // A brutal AI against the idle human, recorded for 40 seconds.
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(3);
    let mut b = start(&cfg, &["Coalition".to_string(), "Dominion".to_string()]);
    let mut played = Vec::new();
    hash_log(&mut b, &mut played, 1_200, 1_000.0);
    let source = b.play().replay();
    let mut w = Battle::watch(&common::roots(), &source, "source.ron", SCREEN).unwrap();
    w.seek(900).unwrap();
    // Only with one player's view: "Everything" has no seat to take.
    w.cycle_view();
    w.cycle_view();
    assert_eq!(w.view_label(), "Everything");
    assert!(!w.can_take_over());
    assert!(w.take_over(&common::roots(), "Taker", SCREEN).is_err());
    // Player 2's seat (the brutal AI's) is taken; the idle human's becomes a computer's.
    w.cycle_view();
    w.cycle_view();
    assert_eq!(w.view_label(), "Computer 2");
    let mut t = w.take_over(&common::roots(), "Taker", SCREEN).unwrap();
    assert!(!t.play().is_replay());
    assert_eq!(t.local().0, 1);
    assert_eq!(t.world().frame().0, 900);
    let at = |f: u32| played.iter().find(|(frame, _)| *frame == f).map(|(_, h)| *h).unwrap();
    assert_eq!(t.world().state_hash().total, at(900), "the same state as the replay's at frame 900");
    let kinds: Vec<SlotKind> = t.play().setup().slots.iter().map(|s| s.kind).collect();
    assert_eq!(kinds[..2], [SlotKind::Ai { difficulty: Difficulty::Normal }, SlotKind::Human]);
    assert_eq!(t.play().setup().slots[1].name.as_deref(), Some("Taker"));
    // The new player gives orders: every unit of theirs stops.
    let me = t.local();
    let units =
        t.world().objects().filter(|o| o.owner == me && t.world().rules().template(o.template).is_mobile()).count();
    assert!(units > 0);
    let home = t.scene.start_camera(t.world().players()[me.index()].start as usize);
    t.controls().set_camera(home);
    t.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    t.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    t.controls().hotkey('s', false);
    run(&mut t, 10.0);
    // Its replay says where it came from and plays the whole game from frame 0.
    let replay = t.play().replay();
    let origin = replay.origin.clone().expect("an origin");
    assert_eq!((origin.replay.as_str(), origin.frame, origin.seat), ("source.ron", 900, 1));
    assert_eq!(origin.final_hash, source.final_hash);
    assert!(replay.commands.iter().any(|e| e.frame < 900), "the source's commands up to the moment");
    assert!(
        replay.commands.iter().any(|e| e.frame >= 900 && e.player == 1 && e.command == ridgeline::sim::Command::Stop)
    );
    assert!(replay.checkpoints.iter().any(|(f, _)| *f == 600), "checkpoints from the start");
    let mut again = Battle::watch(&common::roots(), &replay, "taken.ron", SCREEN).unwrap();
    while again.play().replay_verdict().is_none() {
        again.advance(0.25).unwrap();
    }
    assert_eq!(again.play().replay_verdict(), Some(true));
    assert_eq!(again.world().state_hash(), t.world().state_hash());
}

#[test]
fn a_click_anywhere_on_a_structure_selects_it() {
    let mut b = battle();
    let me = b.local();
    let post_t = b.world().rules().template_id("CommandPost").unwrap();
    let post = b.world().objects().find(|o| o.owner == me && o.template == post_t).unwrap();
    let (id, centre) = (post.id, to_display(post.pos));
    let cam = *b.picture().camera();
    // A point on the main hall's roof near its north-east corner (the kit's hall reaches
    // 0.42 of the footprint north and east, 0.55 of the height up): far, on screen, from where
    // the structure stands.
    let size = b.world().rules().template(post_t).footprint.0 as f32 * 10.0;
    let roof = centre + Vec2::new(size * 0.35, size * 0.35);
    let px = cam.project(roof.extend(b.scene.height(centre) + 22.0 * 0.5), SCREEN).unwrap();
    let stands = b.look().screen_pos(id).unwrap();
    assert!((px - stands).length() > 30.0, "the click is well away from where it stands: {px} vs {stands}");
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[id]);
    // Beside the structure, on open ground: nothing.
    let beside = centre + Vec2::new(size * 1.5, -size * 1.5);
    let px = cam.project(beside.extend(b.scene.height(beside)), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert!(b.picture().selection().is_empty(), "{:?}", b.picture().selection());
}

#[test]
fn the_cursor_says_what_a_click_will_do_and_orders_leave_markers_and_target_lines() {
    use ridgeline::game::battle::Intent;
    let mut b = battle();
    let me = b.local();
    let open_ground = Vec2::new(1000.0, 500.0);
    b.controls().mouse_move(open_ground);
    assert_eq!(b.look().cursor_intent(), Intent::Select, "nothing selected: a click selects");
    assert!(!b.cursor().is_empty(), "the game draws its cursor over the battlefield");
    b.controls().set_cursor_over_ui(true);
    assert!(b.cursor().is_empty(), "over the interface the system's cursor shows");
    b.controls().set_cursor_over_ui(false);
    // The dozer selected: open ground means move, its own command post means select.
    let dozer_t = b.world().rules().template_id("Dozer").unwrap();
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer_t).unwrap();
    let (dozer_id, p) = (dozer.id, to_display(dozer.pos));
    let px = b.picture().camera().project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[dozer_id]);
    b.controls().mouse_move(open_ground);
    assert_eq!(b.look().cursor_intent(), Intent::Move);
    let post_t = b.world().rules().template_id("CommandPost").unwrap();
    let post = b.world().objects().find(|o| o.owner == me && o.template == post_t).unwrap().id;
    let on_post = b.look().screen_pos(post).unwrap();
    b.controls().mouse_move(on_post);
    assert_eq!(b.look().cursor_intent(), Intent::Select);
    // Placing a barracks: on the command post it cannot go, on open ground it can.
    b.controls().hotkey('w', false);
    assert_eq!(b.look().cursor_intent(), Intent::Cannot);
    b.controls().mouse_move(open_ground);
    assert_eq!(b.look().cursor_intent(), Intent::Build);
    assert!(b.controls().cancel_mode());
    // A move order leaves a marker where it went, and Alt shows the dozer's line to it.
    b.controls().mouse_down(MouseButton::Right, open_ground);
    b.controls().mouse_up(MouseButton::Right, open_ground);
    let goal = b.look().ground_under(open_ground).unwrap();
    let markers = b.picture().order_markers();
    assert_eq!(markers.len(), 1);
    assert!(markers[0].0.distance(goal) < 1.0 && markers[0].1 == Intent::Move, "{markers:?}");
    run(&mut b, 0.3);
    let green_lines = |b: &Battle| {
        b.overlay().iter().filter(|c| matches!(c, DrawCmd::Line { color, .. } if color[..3] == [110, 240, 110])).count()
    };
    let without = green_lines(&b);
    b.controls().set_show_orders(true);
    assert_eq!(green_lines(&b), without + 1, "one target line, from the dozer to its goal");
    run(&mut b, 1.0);
    assert!(b.picture().order_markers().is_empty(), "the marker faded");
}

#[test]
fn a_destroyed_tank_leaves_a_smoking_wreck_that_sinks_away() {
    use ridgeline::sim::event::GameEvent;
    let mut b = battle();
    let at = b.look().ground_under(Vec2::new(700.0, 400.0)).unwrap();
    let count = |b: &Battle| b.instances().iter().map(Vec::len).sum::<usize>();
    let before = count(&b);
    let tank = b.world().rules().template_id("Warhound").unwrap();
    let killed = GameEvent::Killed {
        object: ridgeline::sim::ObjectId::from_bits(99),
        template: tank,
        owner: ridgeline::sim::PlayerId(1),
        at: ridgeline::game::display::to_point(at).to_vec2(),
    };
    b.display_events(&[killed]);
    b.age_display(1.0);
    let after = b.instances();
    // The hulk is the dead tank's own silhouette: its body and turret meshes, charred (darker
    // than the tank drawn whole, yet not black), tipped askew and settled into the ground.
    let meshes = b.scene.library.of(tank.0 as usize);
    let (_, whole, _) = b.scene.model_look(b.world().rules(), tank, ridgeline::sim::PlayerId(1)).unwrap();
    let ground = b.scene.height(at);
    let hulk: Vec<_> = [Some(meshes.body), meshes.turret]
        .into_iter()
        .flatten()
        .flat_map(|m| &after[m])
        .filter(|i| Vec2::new(i.offset[0], i.offset[1]).distance(at) < 1.0)
        .collect();
    assert_eq!(hulk.len(), 1 + meshes.turret.map_or(0, |_| 1), "the hull and its turret where it died");
    for i in &hulk {
        let c = glam::Vec3::from_array(i.color);
        // (The shader darkens it again and scorches it in patches: its worst damage stage.)
        assert!(c.max_element() < whole.max_element() * 0.8, "charred: {c} (whole {whole})");
        assert!(c.max_element() > whole.max_element() * 0.2, "not a black blot: {c}");
        assert!(i.offset[2] < ground - 0.3, "settled into the ground");
        assert_ne!(i.tilt, ridgeline::render::world::pose::LEVEL, "tipped askew");
    }
    let pieces = thrown(&b);
    assert_eq!(count(&b), before + hulk.len() + pieces, "the hulk and the parts it threw");
    b.age_display(16.0);
    assert_eq!(count(&b), before, "gone after a while");
}

/// How many thrown parts the battle draws (instances of the loose-piece meshes).
fn thrown(b: &Battle) -> usize {
    use ridgeline::render::world::models::{piece_mesh, pieces::PIECE_SHAPES};
    let all = b.instances();
    PIECE_SHAPES.iter().map(|&s| all.get(piece_mesh(s)).map_or(0, Vec::len)).sum()
}

#[test]
fn a_destroyed_vehicle_or_structure_throws_parts_as_the_quality_allows_and_a_soldier_none() {
    use ridgeline::render::quality::Quality;
    use ridgeline::sim::event::GameEvent;
    let mut b = battle();
    let at = b.look().ground_under(Vec2::new(700.0, 400.0)).unwrap();
    let fx = ridgeline::defs::effects::EffectSettings::load(&common::roots()).unwrap();
    let kill = |b: &mut Battle, name: &str, n: u64| {
        let killed = GameEvent::Killed {
            object: ridgeline::sim::ObjectId::from_bits(90 + n),
            template: b.world().rules().template_id(name).unwrap(),
            owner: ridgeline::sim::PlayerId(1),
            at: ridgeline::game::display::to_point(at).to_vec2(),
        };
        b.display_events(&[killed]);
    };
    assert_eq!(thrown(&b), 0);
    kill(&mut b, "Warhound", 0);
    let high = fx.quality.high.wreck_parts as usize;
    assert_eq!(thrown(&b), high, "a tank throws the High number of parts");
    kill(&mut b, "Conscript", 1);
    assert_eq!(thrown(&b), high, "a soldier throws none");
    b.set_effects_quality(Quality::Low);
    kill(&mut b, "Foundry", 2);
    let low = fx.quality.low.wreck_parts as usize;
    assert!(low < high);
    let with_rubble = thrown(&b);
    b.age_display(12.0);
    // What stays is the structure's rubble (drawn with the same loose-piece meshes).
    let rubble = thrown(&b);
    assert!(rubble > 0, "the structure leaves a heap");
    assert_eq!(with_rubble - rubble, high + low, "a structure at Low throws the Low number");
    kill(&mut b, "Warhound", 3);
    b.age_display(12.0);
    assert_eq!(thrown(&b), rubble, "every thrown part is gone after its time; the heap stays");
}

#[test]
fn a_tank_s_turret_faces_its_aim_and_kicks_back_when_it_fires() {
    use ridgeline::game::scene::Shown;
    let b = battle();
    let rules = b.world().rules().clone();
    let tank = rules.template_id("Bulwark").unwrap();
    let meshes = b.scene.library.of(tank.0 as usize);
    let turret = meshes.turret.expect("a battle tank's kit has a turret");
    let at = Vec2::new(600.0, 600.0);
    let aim = 1.0f32;
    let shown =
        |recoil: f32| Shown { aim: Some(aim), recoil, ..Shown::standing(tank, at, 0.0, ridgeline::sim::PlayerId(0)) };
    let place = |recoil: f32| {
        let mut out = vec![Vec::new(); b.scene.library.len()];
        b.scene.push_shown(&mut out, &rules, &shown(recoil));
        (out[meshes.body][0], out[turret][0])
    };
    let (body, rest) = place(0.0);
    assert_eq!((body.yaw, rest.yaw), (0.0, aim), "the hull faces its way, the turret its aim");
    let (body_fired, fired) = place(1.0);
    assert_eq!(body_fired.offset, body.offset, "the hull stays put");
    let back = Vec2::new(fired.offset[0] - rest.offset[0], fired.offset[1] - rest.offset[1]);
    assert!(back.length() > 0.3, "the turret kicks back: {back}");
    assert!(back.normalize().dot(Vec2::from_angle(aim)) < -0.99, "away from its aim: {back}");
    // The kick reaches the shader too: the barrel slides back and the muzzle flashes.
    assert_eq!((rest.motion[2], fired.motion[2]), (0.0, 1.0));
}

#[test]
fn what_an_object_is_doing_reaches_its_instance_as_pose_numbers() {
    use ridgeline::game::scene::Shown;
    use ridgeline::render::world::pose::construction_cut;
    let b = battle();
    let rules = b.world().rules().clone();
    let me = ridgeline::sim::PlayerId(0);
    let first = |shown: Shown| {
        let mut out = vec![Vec::new(); b.scene.library.len()];
        b.scene.push_shown(&mut out, &rules, &shown);
        let mesh = b.scene.library.of(shown.template.0 as usize).body;
        out[mesh][0]
    };
    let rifleman = rules.template_id("Rifleman").unwrap();
    let at = Vec2::new(600.0, 600.0);
    // Walking: the distance in the unit's own size, its stride; aiming raises the arms.
    let walking = first(Shown { travelled: 25.0, stride: 0.8, ..Shown::standing(rifleman, at, 0.0, me) });
    let height = b.scene.model_height(rifleman);
    assert_eq!(walking.motion, [25.0 / height, 0.8, 0.0, 0.0]);
    let aiming = first(Shown { aim: Some(0.3), ..Shown::standing(rifleman, at, 0.0, me) });
    assert_eq!(aiming.motion[3], 1.0);
    // A structure: its damage stage, power and the height built up to.
    let barracks = rules.template_id("Barracks").unwrap();
    let whole = first(Shown::standing(barracks, at, 0.0, me));
    assert_eq!(&whole.state[..3], &[0.0, 1.0, 1.0]);
    let hurt = first(Shown { health: 0.4, powered: false, ..Shown::standing(barracks, at, 0.0, me) });
    assert_eq!(&hurt.state[..3], &[1.0, 0.0, 1.0]);
    let burning = first(Shown { health: 0.1, built: Some(0.3), ..Shown::standing(barracks, at, 0.0, me) });
    assert_eq!(&burning.state[..3], &[2.0, 1.0, construction_cut(0.3)]);
}

#[test]
fn selecting_and_ordering_chirp_and_a_finished_unit_is_announced() {
    let mut b = battle();
    let me = b.local();
    let names = |b: &mut Battle| b.take_heard().into_iter().map(|h| h.name).collect::<Vec<_>>();
    names(&mut b);
    // Click one rifleman: its selection chirp.
    let cam = *b.picture().camera();
    let defs = ridgeline::defs::Definitions::load(&common::roots()).unwrap();
    let unit = b
        .world()
        .objects()
        .find(|o| {
            o.owner == me && b.world().rules().template(o.template).kind == ridgeline::sim::rules::ObjectKind::Infantry
        })
        .unwrap();
    let (p, template) = (to_display(unit.pos), unit.template);
    let want_select = defs.object_sounds[template.0 as usize].select.clone().unwrap();
    let want_order = defs.object_sounds[template.0 as usize].order.clone().unwrap();
    let px = cam.project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(names(&mut b), vec![want_select]);
    // A right click on the ground a moment later: the order chirp.
    run(&mut b, 0.5);
    names(&mut b);
    b.controls().mouse_down(MouseButton::Right, Vec2::new(1000.0, 500.0));
    b.controls().mouse_up(MouseButton::Right, Vec2::new(1000.0, 500.0));
    assert_eq!(names(&mut b), vec![want_order]);
    // The command post trains a worker: "unit ready" when it comes out.
    let post = b.world().objects().find(|o| o.owner == me && o.kind.blocks_ground()).unwrap().id;
    let at = b.look().screen_pos(post).expect("the command post is on screen");
    b.controls().mouse_down(MouseButton::Left, at);
    b.controls().mouse_up(MouseButton::Left, at);
    run(&mut b, 0.3);
    let train = b
        .look()
        .commands()
        .iter()
        .position(|c| matches!(c.action, ridgeline::game::battle::Action::Produce { .. }))
        .expect("a unit to train");
    b.controls().command_button(train);
    let mut heard = Vec::new();
    for _ in 0..40 {
        run(&mut b, 1.0);
        heard.extend(names(&mut b));
        if heard.iter().any(|n| n == "UnitReady") {
            break;
        }
    }
    assert!(heard.iter().any(|n| n == "UnitReady"), "{heard:?}");
}

/// The overlay's texts that start with `prefix`, with their colours' opacity.
fn floating(b: &Battle, prefix: &str) -> Vec<(String, u8)> {
    b.overlay()
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, color, .. } if text.starts_with(prefix) => Some((text, color[3])),
            _ => None,
        })
        .collect()
}

#[test]
fn money_brought_in_rises_where_it_lands_and_fades_and_a_promotion_is_named() {
    use ridgeline::sim::event::GameEvent;
    let mut b = battle();
    let start = b.play().money();
    // The hauler's first trip: the money it unloads rises as "+$…" over the depot.
    let mut seen = Vec::new();
    for _ in 0..120 {
        run(&mut b, 0.5);
        seen = floating(&b, "+$");
        if !seen.is_empty() {
            break;
        }
    }
    let (text, _) = seen.first().cloned().expect("a delivery within a minute");
    let amount: i64 = text.trim_start_matches("+$").parse().expect("a whole amount");
    assert!(amount > 0 && b.play().money() - start >= amount, "+${amount} shown, money {start} → {}", b.play().money());
    // It fades as it rises, then goes.
    let alpha = |b: &Battle| floating(b, &text).first().map(|t| t.1);
    let early = alpha(&b).unwrap();
    b.age_display(1.4);
    let late = alpha(&b).expect("still showing after 1.4 s");
    assert!(late < early, "fading: {early} → {late}");
    b.age_display(1.0);
    assert!(alpha(&b).is_none(), "gone after its time");
    // Only the local player's: another's money shows nothing; a promotion shows its rank.
    let at = b.world().objects().find(|o| o.owner == b.local()).unwrap().pos;
    let other = GameEvent::MoneyReceived { player: ridgeline::sim::PlayerId(1), amount: 999, at };
    let unit = b.world().objects().find(|o| o.owner == b.local()).unwrap().id;
    let promoted = GameEvent::Promoted { object: unit, owner: b.local(), rank: 2, at };
    b.display_events(&[other, promoted]);
    assert!(floating(&b, "+$999").is_empty(), "another player's money");
    assert_eq!(floating(&b, "Elite").len(), 1);
}

#[test]
fn game_time_keeps_to_the_clock_when_the_picture_is_slow() {
    // A renderer that takes 250 ms a frame: each drawn frame lets a quarter second pass.
    let mut b = battle();
    for _ in 0..40 {
        b.advance(0.25).unwrap();
    }
    // Ten seconds of real time are 300 logic frames at 30 a second (float rounding may leave
    // the last one a hair short).
    let frame = b.world().frame().0;
    assert!((299..=300).contains(&frame), "ten slow-drawn seconds ran {frame} frames");
    assert_eq!(b.play().pace_label(b.look().labels()), "", "nothing fell behind");
    // A three-second hitch counts as one second (no spiral), and the top bar says the game
    // fell behind the clock.
    b.advance(3.0).unwrap();
    let after = b.world().frame().0;
    assert!((frame + 29..=frame + 31).contains(&after), "a hitch ran {} frames", after - frame);
    assert!(
        b.play().pace_label(b.look().labels()).contains("falls behind"),
        "{}",
        b.play().pace_label(b.look().labels())
    );
    for _ in 0..12 {
        b.advance(0.25).unwrap();
    }
    assert_eq!(b.play().pace_label(b.look().labels()), "", "the warning passes once the game keeps up");
}

#[test]
fn a_box_over_the_army_leaves_the_workers_and_a_box_over_workers_takes_them() {
    let mut b = battle();
    let rules = b.world().rules().clone();
    let (dozer_id, soldier_id) = (own_first(&b, "Dozer"), own_first(&b, "Rifleman"));
    let (d, s) = (b.look().screen_pos(dozer_id).unwrap(), b.look().screen_pos(soldier_id).unwrap());
    // A box over the dozer and a rifleman: the rifleman only.
    let (lo, hi) = (d.min(s) - 6.0, d.max(s) + 6.0);
    b.controls().mouse_down(MouseButton::Left, lo);
    b.controls().mouse_up(MouseButton::Left, hi);
    let picked = b.picture().selection().to_vec();
    assert!(picked.contains(&soldier_id) && !picked.contains(&dozer_id), "{picked:?}");
    // A small box over the dozer alone takes it.
    b.controls().mouse_down(MouseButton::Left, d - 8.0);
    b.controls().mouse_up(MouseButton::Left, d + 8.0);
    let picked = b.picture().selection().to_vec();
    assert!(picked.contains(&dozer_id), "{picked:?}");
    assert!(picked.iter().all(|id| rules.template(b.world().object(*id).unwrap().template).is_worker()));
}

#[test]
fn an_order_given_while_paused_shows_its_marker_at_once_and_runs_on_resume() {
    let mut b = battle();
    let unit = own_first(&b, "Rifleman");
    b.controls().select(vec![unit]);
    run(&mut b, 0.2);
    b.controls().toggle_pause().unwrap();
    run(&mut b, 0.5);
    assert!(b.play().pace().stopped(), "paused");
    let frame = b.world().frame();
    let target_px = Vec2::new(1000.0, 500.0);
    b.controls().mouse_down(MouseButton::Right, target_px);
    b.controls().mouse_up(MouseButton::Right, target_px);
    run(&mut b, 3.0);
    // The marker shows while the game stands still (seconds later too), where the order goes,
    // with a line from the unit given it: the plan is on screen before it runs.
    let target = b.look().ground_under(target_px).unwrap();
    let markers = b.picture().order_markers();
    assert!(
        markers.iter().any(|(p, i)| *i == ridgeline::game::battle::Intent::Move && (*p - target).length() < 1.0),
        "{markers:?}"
    );
    let from = b.look().screen_pos(unit).unwrap();
    let near = |p: (f32, f32), q: Vec2| (Vec2::new(p.0, p.1) - q).length() < 10.0;
    let planned = |b: &Battle| {
        b.overlay()
            .iter()
            .any(|c| matches!(c, DrawCmd::Line { from: f, to, .. } if near(*f, from) && near(*to, target_px)))
    };
    assert!(planned(&b), "a line from the unit to where it will go");
    assert_eq!(b.world().frame(), frame, "nothing ran");
    assert!(!matches!(b.world().object(unit).unwrap().order, Order::Move { .. }));
    b.controls().toggle_pause().unwrap();
    run(&mut b, 1.5);
    assert!(matches!(b.world().object(unit).unwrap().order, Order::Move { .. }), "the order ran on resume");
    assert!(b.picture().order_markers().is_empty() && !planned(&b), "and its marker faded as the game ran");
}

#[test]
fn a_structure_placed_while_paused_shows_its_ghost_at_once_and_is_built_on_resume() {
    let mut b = battle();
    let rules = b.world().rules().clone();
    let dozer = own_first(&b, "Dozer");
    b.controls().select(vec![dozer]);
    run(&mut b, 0.2);
    b.controls().toggle_pause().unwrap();
    run(&mut b, 0.5);
    let frame = b.world().frame();
    let ghost = |b: &Battle| {
        b.overlay().iter().filter(|c| matches!(c, DrawCmd::Line { color: [200, 220, 255, 170], .. })).count()
    };
    assert_eq!(ghost(&b), 0, "no ghost before anything is placed");
    // Shift-place a barracks while the game stands still.
    let barracks = rules.template_id("Barracks").unwrap();
    let button =
        b.look().commands().iter().position(|c| c.action == ridgeline::game::battle::Action::Place(barracks)).unwrap();
    b.controls().command_button(button);
    let spot = green_spot(&mut b, None);
    b.controls().set_shift(true);
    b.controls().mouse_down(MouseButton::Left, spot);
    b.controls().set_shift(false);
    b.controls().cancel_mode();
    run(&mut b, 3.0);
    assert_eq!(b.world().frame(), frame, "nothing ran");
    assert!(b.world().object(dozer).unwrap().queue.is_empty(), "the order has not run");
    assert!(ghost(&b) >= 4, "the barracks' outline shows while paused: {} lines", ghost(&b));
    b.controls().toggle_pause().unwrap();
    run(&mut b, 1.5);
    let building = b.world().objects().any(|o| o.owner == b.local() && o.template == barracks);
    let d = b.world().object(dozer).unwrap();
    assert!(building || !d.queue.is_empty(), "the placing ran on resume: {:?}", d.order);
}

#[test]
fn after_a_a_click_on_the_radar_attack_moves_there_and_without_it_moves_the_camera() {
    let mut b = battle();
    let unit = own_first(&b, "Rifleman");
    b.controls().select(vec![unit]);
    run(&mut b, 0.2);
    let rect = ridgeline::ui::Rect::new(0.0, 0.0, 208.0, 208.0);
    let centre = Vec2::new(104.0, 104.0);
    let camera = b.picture().camera().target;
    b.controls().hotkey('a', false);
    assert!(b.picture().attack_move_armed());
    assert!(radar::armed_order(&mut b, rect, centre), "the armed order went");
    assert!(!b.picture().attack_move_armed(), "and disarmed");
    run(&mut b, 0.5);
    let o = b.world().object(unit).unwrap();
    let Order::AttackMove { goal } = o.order else { panic!("{:?}", o.order) };
    // The middle of the radar is the middle of the map.
    let goal = to_display(goal);
    assert!((goal - b.scene.size() / 2.0).length() < 20.0, "{goal} for a map of {}", b.scene.size());
    assert_eq!(b.picture().camera().target, camera, "the camera stayed");
    // Unarmed, the click is not an order.
    assert!(!radar::armed_order(&mut b, rect, centre));
}

#[test]
fn the_camera_brings_the_maps_near_edge_above_the_huds_cover() {
    let mut b = battle();
    let size = b.scene.size();
    let far_south = ridgeline::game::camera::Camera::looking_at(glam::Vec3::new(size.x / 2.0, -1000.0, 0.0));
    let just_above = Vec2::new(SCREEN.x / 2.0, SCREEN.y - 161.0);
    // Without a HUD the near edge stops at the screen's bottom: 160 px above it the ground is
    // well inside the map.
    b.controls().set_camera(far_south);
    let inside = b.look().ground_under(just_above).expect("ground").y;
    let bottom = b.look().ground_under(Vec2::new(SCREEN.x / 2.0, SCREEN.y - 1.0)).expect("ground").y;
    assert!(inside > bottom + 40.0, "without a cover the view stops at the edge ({inside}, {bottom})");
    // With the bottom 160 px covered the camera goes further, until the edge shows right
    // above the cover.
    b.controls().set_covered_bottom(160.0);
    b.controls().set_camera(far_south);
    // (The clamp allows for the hills' height along the shallower rays: a cell or two.)
    let edge = b.look().ground_under(just_above).expect("ground").y;
    assert!(edge < 20.0 && edge < inside - 30.0, "the near edge shows just above the HUD ({edge}; was {inside})");
    // And no further: the top of the screen still shows the map.
    assert!(b.look().ground_under(Vec2::new(SCREEN.x / 2.0, 1.0)).is_some_and(|p| p.y < size.y));
}

#[test]
fn the_period_key_cycles_idle_workers_and_brings_the_camera_there() {
    let mut b = battle();
    let me = b.local();
    let rules = b.world().rules().clone();
    let idle_workers = |b: &Battle| -> Vec<_> {
        b.world()
            .objects()
            .filter(|o| o.owner == me && o.order == Order::Idle && rules.template(o.template).is_worker())
            .map(|o| o.id)
            .collect()
    };
    let idle = idle_workers(&b);
    assert!(!idle.is_empty(), "the dozer waits for work at the start");
    // Away from the base first: the worker is off screen.
    let away = ridgeline::game::camera::Camera::looking_at(glam::Vec3::new(
        b.scene.size().x / 2.0,
        b.scene.size().y / 2.0,
        0.0,
    ));
    b.controls().set_camera(away);
    assert!(b.look().screen_pos(idle[0]).is_none_or(|p| !(p.cmpge(Vec2::ZERO).all() && p.cmple(SCREEN).all())));
    b.controls().hotkey('.', false);
    assert_eq!(b.picture().selection(), &idle[..1]);
    let on_screen = b.look().screen_pos(idle[0]).expect("in front of the camera");
    assert!(on_screen.cmpge(Vec2::ZERO).all() && on_screen.cmple(SCREEN).all(), "the camera came to it: {on_screen}");
    // Pressed again it goes round the idle workers (back to the first when there is one).
    b.controls().hotkey('.', false);
    let expected = idle.get(1).copied().unwrap_or(idle[0]);
    assert_eq!(b.picture().selection(), &[expected]);
}

#[test]
fn shift_queues_waypoints_and_builds_and_the_overlay_draws_them() {
    use ridgeline::game::battle::Action;
    use ridgeline::sim::command::Queued;
    use ridgeline::ui::draw::DrawCmd;
    let mut b = battle();
    let me = b.local();
    let rules = b.world().rules().clone();
    // A waypoint: a move, then Shift+right-click another point.
    let soldier = own_first(&b, "Rifleman");
    b.controls().select(vec![soldier]);
    run(&mut b, 0.2);
    let (first, second) = (Vec2::new(900.0, 300.0), Vec2::new(1000.0, 500.0));
    b.controls().mouse_down(MouseButton::Right, first);
    b.controls().mouse_up(MouseButton::Right, first);
    b.controls().set_shift(true);
    b.controls().mouse_down(MouseButton::Right, second);
    b.controls().mouse_up(MouseButton::Right, second);
    b.controls().set_shift(false);
    run(&mut b, 0.3);
    let o = b.world().object(soldier).unwrap();
    assert!(matches!(o.order, Order::Move { .. }), "{:?}", o.order);
    assert!(matches!(o.queue[..], [Queued::Move { .. }]), "{:?}", o.queue);
    let green_path = |b: &Battle| {
        b.overlay()
            .iter()
            .any(|c| matches!(c, DrawCmd::Line { color: [110, 240, 110, 200], width, .. } if *width == 1.5))
    };
    assert!(green_path(&b), "the queued path is drawn while the unit is selected");
    // Builds: the dozer places a barracks, then Shift places a second, which waits as a ghost
    // outline (unpaid), and placing goes on.
    let dozer = own_first(&b, "Dozer");
    b.controls().select(vec![dozer]);
    run(&mut b, 0.2);
    let barracks = rules.template_id("Barracks").unwrap();
    let button = b.look().commands().iter().position(|c| c.action == Action::Place(barracks)).unwrap();
    let (money, cost) = (b.play().money(), rules.template(barracks).cost);
    b.controls().command_button(button);
    let one = green_spot(&mut b, None);
    b.controls().mouse_down(MouseButton::Left, one);
    b.controls().command_button(button);
    let two = green_spot(&mut b, Some(one));
    b.controls().set_shift(true);
    b.controls().mouse_down(MouseButton::Left, two);
    assert_eq!(b.picture().placing(), Some(barracks), "with Shift placing goes on");
    b.controls().set_shift(false);
    b.controls().cancel_mode();
    run(&mut b, 0.3);
    let d = b.world().object(dozer).unwrap();
    assert!(matches!(d.queue[..], [Queued::Build { template, .. }] if template == barracks), "{:?}", d.queue);
    let sites = b.world().objects().filter(|o| o.owner == me && o.template == barracks).count();
    assert_eq!(sites, 1, "the queued barracks is not placed yet");
    // One barracks paid (a hauler may have brought a load in meanwhile), not two.
    assert!(
        (money - cost..money - cost + 200).contains(&b.play().money()),
        "one paid: {} of {money}",
        b.play().money()
    );
    let ghost = b.overlay().iter().any(|c| matches!(c, DrawCmd::Line { color: [200, 220, 255, 170], .. }));
    assert!(ghost, "the queued barracks shows as a ghost outline");
    // A rifleman goes to stand on the queued site: when the dozer's turn comes the barracks
    // cannot start there, and the player is told what was not built, where and why.
    let site = b.look().ground_under(two).unwrap();
    b.controls().select(vec![soldier]);
    run(&mut b, 0.2);
    b.controls().mouse_down(MouseButton::Right, two);
    b.controls().mouse_up(MouseButton::Right, two);
    let told = |b: &Battle| b.alerts().log().find(|a| a.kind == ridgeline::game::battle::AlertKind::NotBuilt).cloned();
    for _ in 0..120 {
        run(&mut b, 1.0);
        if told(&b).is_some() {
            break;
        }
    }
    let alert = told(&b).expect("the dropped site is told");
    assert_eq!(alert.text, "Barracks not built, nothing paid. It does not fit there: a unit stands there.");
    assert!(alert.at.is_some_and(|p| (p - site).length() < 30.0), "at the site: {:?} vs {site}", alert.at);
    assert!(b.world().object(dozer).unwrap().queue.is_empty(), "dropped from the queue");
    let sites = b.world().objects().filter(|o| o.owner == me && o.template == barracks).count();
    assert_eq!(sites, 1, "the second barracks was never placed");
}

#[test]
fn a_site_left_without_a_builder_is_told_and_its_resume_button_sends_the_nearest_builder_back() {
    use ridgeline::game::battle::{Action, AlertKind};
    let mut b = battle();
    let me = b.local();
    let rules = b.world().rules().clone();
    let (dozer, barracks) = (own_first(&b, "Dozer"), rules.template_id("Barracks").unwrap());
    b.controls().select(vec![dozer]);
    run(&mut b, 0.2);
    let button = b.look().commands().iter().position(|c| c.action == Action::Place(barracks)).unwrap();
    b.controls().command_button(button);
    let spot = green_spot(&mut b, None);
    b.controls().mouse_down(MouseButton::Left, spot);
    run(&mut b, 2.0);
    let site = b.world().objects().find(|o| o.owner == me && o.template == barracks).expect("the site").id;
    // The dozer is sent away: the site stands unfinished, and the player is told.
    let away = Vec2::new(200.0, 600.0);
    b.controls().mouse_down(MouseButton::Right, away);
    b.controls().mouse_up(MouseButton::Right, away);
    run(&mut b, 1.0);
    assert!(!b.world().object(site).unwrap().is_complete());
    let told: Vec<_> = b.alerts().log().filter(|a| a.kind == AlertKind::Halted).map(|a| a.text.clone()).collect();
    assert_eq!(told, ["Construction halted: Barracks (select it: Resume)"]);
    // The site's own button sends the dozer back, and it finishes it.
    b.controls().select(vec![site]);
    run(&mut b, 0.2);
    let buttons = b.look().commands();
    assert_eq!(buttons.len(), 1);
    assert!(buttons[0].action == Action::Resume(site) && buttons[0].available, "{buttons:?}");
    b.controls().command_button(0);
    run(&mut b, 0.5);
    assert_eq!(b.world().object(dozer).unwrap().order, Order::Construct { site });
    assert!(!b.look().commands()[0].available, "greyed while the dozer is at work");
    for _ in 0..90 {
        run(&mut b, 1.0);
        if b.world().object(site).is_some_and(|s| s.is_complete()) {
            break;
        }
    }
    assert!(b.world().object(site).unwrap().is_complete(), "the barracks was finished");
}

#[test]
fn a_gatherer_standing_idle_is_told_once() {
    use ridgeline::game::battle::AlertKind;
    let mut b = battle();
    let hauler = own_first(&b, "Hauler");
    run(&mut b, 12.0);
    let told = |b: &Battle| b.alerts().log().filter(|a| a.kind == AlertKind::IdleWorker).count();
    assert_eq!(told(&b), 0, "a hauler at work is no news: {:?}", b.world().object(hauler).unwrap().order);
    // Moved off its pile and left there, it is told after ten seconds, once.
    b.controls().select(vec![hauler]);
    let away = Vec2::new(200.0, 600.0);
    b.controls().mouse_down(MouseButton::Right, away);
    b.controls().mouse_up(MouseButton::Right, away);
    run(&mut b, 8.0);
    assert_eq!(told(&b), 0, "not before it stood ten seconds");
    run(&mut b, 20.0);
    assert_eq!(told(&b), 1);
    let line = b.alerts().log().find(|a| a.kind == AlertKind::IdleWorker).unwrap().text.clone();
    assert_eq!(line, "Hauler idle: send it to a supply pile (. finds it)");
    run(&mut b, 20.0);
    assert_eq!(told(&b), 1, "once");
}

/// The battle's alerts are worded from the string table it is given (the player's language):
/// a unit trained is told in the table's words with its name filled in.
#[test]
fn alerts_are_worded_from_the_string_table_of_the_players_language() {
    use ridgeline::game::battle::{Action, AlertKind};
    use ridgeline::ui::labels::Labels;
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(0);
    let mut b = start(&cfg, &["Coalition".to_string(), "Coalition".to_string()]);
    let mut table = Labels::load_all(&common::roots()).unwrap();
    table.0.insert("Alert:UnitReady".into(), "Einheit bereit: {name}".into());
    b.set_labels(std::sync::Arc::new(table));
    let post = own_first(&b, "CommandPost");
    b.controls().select(vec![post]);
    run(&mut b, 0.5);
    let button = b
        .look()
        .commands()
        .iter()
        .position(|c| matches!(c.action, Action::Produce { .. }))
        .expect("the Command Post trains something");
    b.controls().command_button(button);
    let ready = |b: &Battle| b.alerts().recent().find(|a| a.kind == AlertKind::Ready).map(|a| a.text.clone());
    for _ in 0..40 {
        run(&mut b, 1.0);
        if ready(&b).is_some() {
            break;
        }
    }
    let text = ready(&b).expect("told the unit is ready");
    assert!(text.starts_with("Einheit bereit: ") && text.len() > "Einheit bereit: ".len(), "{text}");
}

/// The control bar is worded from the same table: a structure's Sell button and its tooltip,
/// the line under the buttons, and a refusal's reason.
#[test]
fn the_control_bar_is_worded_from_the_string_table_of_the_players_language() {
    use ridgeline::game::battle::Action;
    use ridgeline::ui::labels::Labels;
    let mut b = battle();
    let mut table = Labels::load_all(&common::roots()).unwrap();
    for (label, text) in [
        ("Bar:Sell", "Verkaufen +${refund}"),
        ("Bar:SellTip", "Für ${refund} verkaufen."),
        ("Bar:Ready", "Bereit"),
        ("Bar:Building", "Baut: {items}"),
        ("Refused:MissingPrerequisite", "Erst {name} fertig bauen."),
    ] {
        table.0.insert(label.into(), text.into());
    }
    b.set_labels(std::sync::Arc::new(table));
    let post = own_first(&b, "CommandPost");
    b.controls().select(vec![post]);
    run(&mut b, 0.5);
    let commands = b.look().commands();
    let sell = commands.iter().find(|c| matches!(c.action, Action::Sell(_))).expect("a finished structure sells");
    let refund = sell.label.strip_prefix("Verkaufen +$").expect("the table's label");
    assert!(refund.parse::<u32>().is_ok_and(|r| r > 0), "{}", sell.label);
    assert!(sell.tooltip.ends_with(&format!("Für ${refund} verkaufen.")), "{}", sell.tooltip);
    assert_eq!(b.queue_text(), "Bereit");
    // Training: the queue in the table's words.
    let train = commands.iter().position(|c| matches!(c.action, Action::Produce { .. })).unwrap();
    b.controls().command_button(train);
    run(&mut b, 0.5);
    assert!(b.queue_text().starts_with("Baut: "), "{}", b.queue_text());
    // The dozer's greyed buttons say why in the table's words, the structure named.
    let dozer = own_first(&b, "Dozer");
    b.controls().select(vec![dozer]);
    run(&mut b, 0.5);
    let greyed: Vec<String> = b.look().commands().into_iter().filter(|c| !c.available).map(|c| c.tooltip).collect();
    assert!(!greyed.is_empty(), "a fresh base cannot raise everything yet");
    for tip in &greyed {
        let reason = tip.split(". ").last().unwrap();
        assert!(reason.starts_with("Erst ") && reason.ends_with(" fertig bauen."), "{tip}");
    }
}

#[test]
fn a_click_on_a_unit_standing_before_a_taller_one_picks_the_unit_under_the_cursor_and_tab_the_next() {
    let mut b = battle();
    let me = b.local();
    // Every unit (the dozers among them) sent to one spot, where they stand close together
    // and, seen at the game's slant from far out, overlap on screen.
    let spot = SCREEN * 0.5 + Vec2::new(0.0, 60.0);
    let mobile: Vec<_> = b
        .world()
        .objects()
        .filter(|o| o.owner == me && b.world().rules().template(o.template).is_mobile())
        .map(|o| o.id)
        .collect();
    for id in mobile {
        let at = b.look().screen_pos(id).unwrap();
        b.controls().mouse_down(MouseButton::Left, at);
        b.controls().mouse_up(MouseButton::Left, at);
        b.controls().mouse_down(MouseButton::Right, spot);
        b.controls().mouse_up(MouseButton::Right, spot);
    }
    run(&mut b, 8.0);
    for _ in 0..4 {
        b.controls().wheel(-1.0);
    }
    let cam = *b.picture().camera();
    let units: Vec<_> = b
        .world()
        .objects()
        .filter(|o| o.owner == me && b.world().rules().template(o.template).is_mobile())
        .map(|o| (o.id, b.scene.object_box(b.world(), o).unwrap()))
        .collect();
    // Pixels on a unit's box nearer its middle than any other's, where the ray meets another
    // unit's box first (the other standing in front of it, or taller): the click is this one's.
    let middle = |(lo, hi): (glam::Vec3, glam::Vec3)| cam.project((lo + hi) * 0.5, SCREEN).unwrap();
    let mut tried = 0;
    for &(id, bx) in &units {
        let centre = middle(bx);
        for (dx, dy) in (-12..=12).flat_map(|x| (-12..=12).map(move |y| (x as f32, y as f32))) {
            let at = centre + Vec2::new(dx, dy);
            let Some(mine) = cam.ray_hits_box(at, SCREEN, bx.0, bx.1) else { continue };
            let nearest =
                units.iter().all(|&(o, b2)| o == id || (middle(b2) - at).length() > (centre - at).length() + 1.0);
            let shadowed = units
                .iter()
                .any(|&(o, (l, h))| o != id && cam.ray_hits_box(at, SCREEN, l, h).is_some_and(|t| t < mine));
            if !(nearest && shadowed) {
                continue;
            }
            tried += 1;
            b.controls().mouse_down(MouseButton::Left, at);
            b.controls().mouse_up(MouseButton::Left, at);
            assert_eq!(b.picture().selection(), &[id], "a click at {at}, on {id:?}'s box nearest its middle");
            // Tab picks the next unit under that click instead; Shift+Tab goes back.
            b.controls().key(Key::Tab, true);
            b.controls().key(Key::Tab, false);
            let next = b.picture().selection().to_vec();
            let (l, h) = units.iter().find(|u| Some(&u.0) == next.first()).map(|u| u.1).expect("one of the units");
            assert!(next.len() == 1 && next[0] != id, "Tab: {next:?}");
            assert!(cam.ray_hits_box(at, SCREEN, l, h).is_some(), "Tab picks another unit under the click");
            b.controls().set_shift(true);
            b.controls().key(Key::Tab, true);
            b.controls().key(Key::Tab, false);
            b.controls().set_shift(false);
            assert_eq!(b.picture().selection(), &[id], "Shift+Tab goes back");
            // One such click a unit (two in a row on one would be a double click).
            break;
        }
    }
    assert!(tried > 0, "some unit stands behind another's box on screen: the case is tried");
}

#[test]
fn an_army_selected_has_stop_guard_and_attack_move_on_the_control_bar() {
    use ridgeline::game::battle::Action;
    let mut b = battle();
    let me = b.local();
    // A box over the army (the workers stay out of it).
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    run(&mut b, 0.2);
    let army = b.picture().selection().to_vec();
    assert!(!army.is_empty());
    let bar = b.look().commands();
    let letter = |k: Option<ridgeline::game::keys::Chord>| k.and_then(|k| k.to_string().chars().next());
    let shown: Vec<(Action, char)> = bar.iter().map(|c| (c.action, letter(c.key).unwrap_or(' '))).collect();
    let army_bar = vec![
        (Action::Stop, 'S'),
        (Action::Guard, 'G'),
        (Action::AttackMove, 'A'),
        (Action::Scatter, 'D'),
        (Action::Formation(false), 'F'),
    ];
    assert_eq!(shown, army_bar);
    assert!(
        bar.iter().all(|c| c.available && c.key.is_some_and(|k| c.tooltip.starts_with(&format!("[{k}] ")))),
        "{bar:?}"
    );
    // Sent somewhere, then Stop from the bar: they stand.
    let far = Vec2::new(1100.0, 200.0);
    b.controls().mouse_down(MouseButton::Right, far);
    b.controls().mouse_up(MouseButton::Right, far);
    run(&mut b, 0.5);
    assert!(army.iter().any(|id| matches!(b.world().object(*id).unwrap().order, Order::Move { .. })));
    b.controls().command_button(0);
    run(&mut b, 0.5);
    assert!(army.iter().all(|id| b.world().object(*id).unwrap().order == Order::Idle), "Stop");
    // Guard from the bar.
    b.controls().command_button(1);
    run(&mut b, 0.5);
    assert!(army.iter().all(|id| matches!(b.world().object(*id).unwrap().order, Order::Guard { .. })), "Guard");
    // Attack-move from the bar, then a click on the ground.
    b.controls().command_button(2);
    b.controls().mouse_down(MouseButton::Left, far);
    b.controls().mouse_up(MouseButton::Left, far);
    run(&mut b, 0.5);
    assert!(
        army.iter().all(|id| matches!(b.world().object(*id).unwrap().order, Order::AttackMove { .. })),
        "Attack-move"
    );
    assert!(b.world().objects().filter(|o| o.owner == me).count() > army.len(), "the workers were left out");
}

#[test]
fn a_watched_replay_names_its_winner_whatever_view_is_shown() {
    // The player gives up at once: the computer wins.
    let mut b = battle();
    assert!(!b.play_mut().surrender(), "sent, not yet run");
    run(&mut b, 1.0);
    assert!(b.play_mut().surrender(), "run");
    let winner = b.world().winner().expect("the computer won");
    assert_ne!(winner, b.local());
    assert_eq!(b.summary().0, "Defeat", "for the player who gave up");
    let replay = b.play().replay();
    let mut w = Battle::watch(&common::roots(), &replay, "r.ron", SCREEN).unwrap();
    w.seek(b.world().frame().0).unwrap();
    assert!(w.world().winner().is_some());
    // From the loser's view, the winner's and everything's: the same result.
    for _ in 0..3 {
        assert_eq!(w.summary().0, "Computer 2 won", "in {}'s view", w.view_label());
        w.cycle_view();
    }
}
