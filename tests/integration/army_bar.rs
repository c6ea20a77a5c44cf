//! The control bar for units, driven as a player would: an army's Scatter and formation
//! buttons (and their keys D and F), and a selection mixing a builder with fighters, whose bar
//! is the union of the army's buttons and the builder's build menu behind Build.

use crate::common;

use glam::Vec2;
use ridgeline::game::battle::{Action, Battle};
use ridgeline::sim::ObjectId;
use ridgeline::sim::object::Order;
use ridgeline::ui::MouseButton;

use common::{SCREEN, run_for as run, skirmish as battle};

/// A box over the whole screen: the army (the workers stay out of it).
fn select_army(b: &mut Battle) -> Vec<ObjectId> {
    b.controls().mouse_down(MouseButton::Left, Vec2::new(1.0, 1.0));
    b.controls().mouse_up(MouseButton::Left, SCREEN - 2.0);
    run(b, 0.2);
    b.picture().selection().to_vec()
}

fn actions(b: &Battle) -> Vec<(Action, char)> {
    b.look().commands().iter().map(|c| (c.action, letter(c.key))).collect()
}

/// A button's key as the letter it shows (a space for none).
fn letter(key: Option<ridgeline::game::keys::Chord>) -> char {
    key.and_then(|k| k.to_string().chars().next()).unwrap_or(' ')
}

/// The mean distance of the units from their middle, in world units.
fn spread(b: &Battle, ids: &[ObjectId]) -> f32 {
    let at: Vec<Vec2> =
        ids.iter().filter_map(|&id| b.world().object(id)).map(|o| ridgeline::game::scene::to_display(o.pos)).collect();
    let mid = at.iter().copied().sum::<Vec2>() / at.len() as f32;
    at.iter().map(|p| (*p - mid).length()).sum::<f32>() / at.len() as f32
}

#[test]
fn the_army_bar_scatters_and_switches_formation_by_button_and_key() {
    let mut b = battle();
    let army = select_army(&mut b);
    assert!(army.len() >= 5);
    let bar = b.look().commands();
    let scatter = bar.iter().position(|c| c.action == Action::Scatter).expect("a Scatter button");
    assert_eq!(letter(bar[scatter].key), 'D');
    assert!(bar[scatter].tooltip.starts_with("[D] Scatter"), "{}", bar[scatter].tooltip);
    // Scatter from the bar: the army spreads out.
    let before = spread(&b, &army);
    b.controls().command_button(scatter);
    run(&mut b, 3.0);
    let after = spread(&b, &army);
    assert!(after > before + 20.0, "scattered: {before} → {after}");
    // Formation: on by default; the button switches it off and its label says so.
    let formation = |b: &Battle| b.look().commands().into_iter().find(|c| matches!(c.action, Action::Formation(_)));
    let on = formation(&b).expect("a formation button");
    assert_eq!((on.action, on.label.as_str(), letter(on.key)), (Action::Formation(false), "Formation: on", 'F'));
    let i = b.look().commands().iter().position(|c| c.action == on.action).unwrap();
    b.controls().command_button(i);
    run(&mut b, 0.3);
    assert!(army.iter().all(|&id| b.world().object(id).unwrap().loose), "formation off for every unit");
    let off = formation(&b).unwrap();
    assert_eq!((off.action, off.label.as_str()), (Action::Formation(true), "Formation: off"));
    // F switches it back; D scatters again.
    b.controls().hotkey('f', false);
    run(&mut b, 0.3);
    assert!(army.iter().all(|&id| !b.world().object(id).unwrap().loose), "F: formation on again");
    b.controls().hotkey('d', false);
    run(&mut b, 0.3);
    assert!(army.iter().any(|&id| matches!(b.world().object(id).unwrap().order, Order::Move { .. })), "D scatters");
}

#[test]
fn a_builder_among_fighters_shows_the_army_buttons_and_its_build_menu_behind_build() {
    let mut b = battle();
    let mut army = select_army(&mut b);
    let t = b.world().rules().template_id("Dozer").unwrap();
    let me = b.local();
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == t).unwrap().id;
    // Alone, the dozer shows its build menu.
    b.controls().select(vec![dozer]);
    run(&mut b, 0.2);
    let menu: Vec<(Action, char)> = actions(&b);
    assert!(menu.iter().all(|(a, _)| matches!(a, Action::Place(_))) && menu.len() >= 5, "{menu:?}");
    // With the army: the army's buttons, then Build.
    army.push(dozer);
    army.sort();
    b.controls().select(army.clone());
    run(&mut b, 0.2);
    let keys: Vec<char> = actions(&b).iter().map(|a| a.1).collect();
    assert_eq!(keys, vec!['S', 'G', 'A', 'D', 'F', 'B'], "{:?}", actions(&b));
    assert_eq!(actions(&b)[5].0, Action::BuildMenu(true));
    // B opens the dozer's menu (on its own keys) with Back; the army stays selected.
    b.controls().hotkey('b', false);
    let opened = actions(&b);
    assert_eq!(opened[..menu.len()], menu[..], "the builder's own menu");
    assert_eq!(opened.last(), Some(&(Action::BuildMenu(false), 'B')));
    assert_eq!(b.picture().selection(), &army[..]);
    // Its first structure is placed by the selection's builder.
    b.controls().hotkey('q', false);
    assert!(b.picture().placing().is_some(), "placing from the mixed selection");
    // Escape leaves the placing, then the menu.
    assert!(b.controls().cancel_mode());
    assert_eq!(actions(&b).last(), Some(&(Action::BuildMenu(false), 'B')), "still in the menu");
    assert!(b.controls().cancel_mode());
    assert_eq!(actions(&b).len(), 6, "back to the army's buttons");
    // The army's orders reach every unit of the selection, the dozer too.
    b.controls().hotkey('s', false);
    run(&mut b, 0.3);
    assert_eq!(b.world().object(dozer).unwrap().order, Order::Idle);
}

#[test]
fn an_army_alone_is_not_asked_to_choose_a_structure() {
    let mut b = battle();
    let army = select_army(&mut b);
    assert!(!army.is_empty());
    assert_eq!(b.queue_text(), "", "nothing to build, nothing to choose");
}

/// The texts drawn inside the control bar's button `i`, as the window draws them.
fn face_texts(b: &Battle, shell: &mut ridgeline::game::shell::Shell, i: usize) -> Vec<String> {
    use ridgeline::ui::draw::DrawCmd;
    ridgeline::game::hud::sync(shell, b);
    let r = shell.ui.window(shell.find(&format!("InGame.wnd:ButtonCommand{i}")).unwrap()).unwrap().rect;
    ridgeline::game::frame::ui_commands(shell, Some(b), false)
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { x, y, text, .. } if r.contains(x + 1.0, y + 1.0) => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn the_army_buttons_show_their_keys_on_their_faces_as_rebound() {
    use ridgeline::game::keys::{Chord, KeyCommand};
    let mut b = battle();
    let dir = common::temp_dir("army-faces");
    let mut shell =
        ridgeline::game::shell::Shell::new(&common::roots(), (SCREEN.x, SCREEN.y), dir.join("settings.ron"))
            .expect("the shell");
    shell.open(ridgeline::game::shell::Screen::InGame);
    select_army(&mut b);
    let bar = b.look().commands();
    let faces: Vec<Vec<String>> = (0..5).map(|i| face_texts(&b, &mut shell, i)).collect();
    for (button, face) in bar.iter().zip(&faces) {
        let key = button.key.expect("an army button has a key").to_string();
        assert!(face.contains(&key), "{} shows its key {key}: {face:?}", button.label);
    }
    assert!(faces[0].contains(&"S".to_string()) && faces[0].contains(&"Stop".to_string()), "{:?}", faces[0]);
    // Stop rebound to K (Options → Keys): its face follows.
    let mut keys = (*b.look().keys()).clone();
    keys.rebind(KeyCommand::Stop, Chord::character('k', false).unwrap()).expect("K is free");
    b.set_keys(std::sync::Arc::new(keys));
    let face = face_texts(&b, &mut shell, 0);
    assert!(face.contains(&"K".to_string()) && !face.contains(&"S".to_string()), "{face:?}");
}

#[test]
fn guard_by_button_or_key_marks_where_the_army_stands() {
    use ridgeline::game::battle::Intent;
    let mut b = battle();
    let army = select_army(&mut b);
    let middle = {
        let at: Vec<Vec2> = army
            .iter()
            .filter_map(|&id| b.world().object(id))
            .map(|o| ridgeline::game::scene::to_display(o.pos))
            .collect();
        at.iter().copied().sum::<Vec2>() / at.len() as f32
    };
    let guards = |b: &Battle| b.picture().order_markers().into_iter().filter(|(_, i)| *i == Intent::Guard).count();
    assert_eq!(guards(&b), 0);
    let i = b.look().commands().iter().position(|c| c.action == Action::Guard).expect("a Guard button");
    b.controls().command_button(i);
    let marked = b.picture().order_markers();
    let (at, _) = marked.iter().find(|(_, i)| *i == Intent::Guard).expect("a guard marker");
    assert!(at.distance(middle) < 1.0, "at the army's middle: {at} vs {middle}");
    run(&mut b, 1.0);
    assert_eq!(guards(&b), 1, "it stays longer than a move's marker (0.7 s)");
    run(&mut b, 2.0);
    assert_eq!(guards(&b), 0, "and fades after 2.5 s");
    assert!(army.iter().all(|&id| matches!(b.world().object(id).unwrap().order, Order::Guard { .. })), "guarding");
    // The key marks it too.
    b.controls().hotkey('g', false);
    assert_eq!(guards(&b), 1);
}

#[test]
fn the_army_bar_is_the_command_set_in_data_and_a_broken_one_is_refused_at_its_line() {
    use ridgeline::game::shell::{SkirmishConfig, SlotChoice};
    // A mod whose army has Guard, then Stop, and no more.
    let dir = common::temp_dir("army-command-set");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/command_sets.ron"), "(\n    army: [\"Guard\", \"Stop\"],\n)").unwrap();
    let roots = ridgeline::content::ContentRoots::new(vec![dir.clone(), common::root()]);
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    let setup = cfg.to_match_setup("proving_grounds", 2, &factions, "Tester", 1);
    let mut b = Battle::start(&roots, &setup, SCREEN).expect("battle starts");
    select_army(&mut b);
    assert_eq!(actions(&b), vec![(Action::Guard, 'G'), (Action::Stop, 'S')]);
    // A command that is not the army's is refused, naming the file and line.
    std::fs::write(dir.join("data/command_sets.ron"), "(\n    army: [\"Guard\",\n        \"SelectArmy\"],\n)").unwrap();
    let e = Battle::start(&roots, &setup, SCREEN).err().expect("refused").to_string();
    assert!(e.contains("command_sets.ron:3:") && e.contains("SelectArmy is not an army command"), "{e}");
}
