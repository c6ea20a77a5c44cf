//! Rebindable keys, driven like a player: Options → Keys opened with clicks, a line clicked and
//! a key pressed, the conflict that makes named, Save writing the change into the settings
//! file; then a battle given those keys, where the new key does the command and the old one no
//! longer does, and the control bar, its tooltips and the hint name the new keys. Broken keys
//! (the keys file, the settings) are refused naming the file and line, never a panic.

use std::collections::BTreeMap;

use crate::common::{self, click};

use glam::Vec2;
use ridgeline::game::battle::Battle;
use ridgeline::game::keys::{Chord, KeyCommand};
use ridgeline::game::settings::Settings;
use ridgeline::game::shell::{Screen, Shell, SkirmishConfig, SlotChoice};
use ridgeline::sim::object::Order;
use ridgeline::ui::{Input, Key, MouseButton};

const SCREEN: Vec2 = Vec2::new(1280.0, 720.0);

fn shell(name: &str) -> (Shell, std::path::PathBuf) {
    let dir = common::temp_dir(name);
    let path = dir.join("settings.ron");
    (Shell::new(&common::roots(), (1280.0, 720.0), path.clone()).expect("shell starts"), path)
}

/// Whether the Keys page waits for a key (the client then hands it the next one).
fn waiting(s: &mut Shell) -> bool {
    ridgeline::game::shell::keys::waiting(&s.stage())
}

/// A key pressed while the Keys page waits for one, as the client hands it over.
fn bind(s: &mut Shell, chord: Chord) -> bool {
    ridgeline::game::shell::keys::bind(&mut s.stage(), chord)
}

fn key(text: &str) -> Chord {
    Chord::parse(text).unwrap()
}

/// The Keys page's rows: (command, key) as shown.
fn rows(s: &Shell) -> Vec<(String, String)> {
    let list = s.find("Keys.wnd:ListKeys").expect("the Keys page is open");
    s.ui.list_rows(list).into_iter().map(|r| (r[0].clone(), r[1].clone())).collect()
}

/// The key the Keys page shows for the command titled `title`.
fn shown_key(s: &Shell, title: &str) -> String {
    rows(s).into_iter().find(|(c, _)| c == title).unwrap_or_else(|| panic!("no line {title}")).1
}

/// The line under the list.
fn status(s: &Shell) -> String {
    s.ui.window(s.find("Keys.wnd:LabelKeysStatus").unwrap()).unwrap().text.clone()
}

/// Clicks the Keys page's line for the command titled `title` (scrolling the list to it with
/// the wheel first, as a player would).
fn click_line(s: &mut Shell, title: &str) {
    let list = s.find("Keys.wnd:ListKeys").unwrap();
    let row = rows(s).iter().position(|(c, _)| c == title).unwrap_or_else(|| panic!("no line {title}"));
    let r = s.ui.window(list).unwrap().rect;
    let row_h = match s.ui.window(list).map(|w| &w.gadget) {
        Some(ridgeline::ui::Gadget::ListBox { row_height, .. }) => *row_height,
        _ => panic!("not a list"),
    };
    let (x, mid) = (r.x + 20.0, r.y + r.h / 2.0);
    s.handle(Input::MouseMove { x, y: mid });
    let visible = (r.h / row_h).floor() as usize;
    while row >= s.ui.list_scroll(list) + visible {
        s.handle(Input::Wheel { x, y: mid, delta: -1.0 });
    }
    while row < s.ui.list_scroll(list) {
        s.handle(Input::Wheel { x, y: mid, delta: 1.0 });
    }
    let y = r.y + row_h * (row - s.ui.list_scroll(list)) as f32 + row_h / 2.0;
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
}

/// Main menu → Options → Keys.
fn open_keys(s: &mut Shell) {
    click(s, "MainMenu.wnd:ButtonOptions");
    click(s, "Options.wnd:ButtonKeys");
    assert_eq!(s.screen(), Some(Screen::Keys));
}

fn setup() -> ridgeline::session::MatchSetup {
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    cfg.to_match_setup("proving_grounds", 2, &factions, "Tester", 1)
}

fn battle() -> Battle {
    Battle::start(&common::roots(), &setup(), SCREEN).expect("battle starts")
}

fn run(b: &mut Battle, seconds: f32) {
    for _ in 0..(seconds * 60.0) as u32 {
        b.advance(1.0 / 60.0).unwrap();
    }
}

/// Selects the player's hauler with a click (it gathers by itself); its id.
fn select_hauler(b: &mut Battle) -> ridgeline::sim::ObjectId {
    let me = b.local();
    let t = b.world().rules().template_id("Hauler").unwrap();
    let hauler = b.world().objects().find(|o| o.owner == me && o.template == t).unwrap();
    assert!(matches!(hauler.order, Order::Gather { .. }), "{:?}", hauler.order);
    let (id, p) = (hauler.id, ridgeline::game::scene::to_display(hauler.pos));
    let px = b.picture().camera().project(p.extend(b.scene.height(p) + 3.0), SCREEN).unwrap();
    b.controls().mouse_down(MouseButton::Left, px);
    b.controls().mouse_up(MouseButton::Left, px);
    assert_eq!(b.picture().selection(), &[id]);
    id
}

#[test]
fn a_key_rebound_in_options_keys_is_the_commands_key_in_a_battle_and_the_old_one_is_not() {
    let (mut s, path) = shell("keys-rebind");
    open_keys(&mut s);
    assert_eq!(rows(&s).len(), KeyCommand::all().len(), "every command is listed");
    assert_eq!(shown_key(&s, "Stop"), "S");
    // Click Stop, press H.
    click_line(&mut s, "Stop");
    assert!(waiting(&mut s));
    assert!(status(&s).contains("Press the new key for Stop (now S)"), "{}", status(&s));
    assert!(bind(&mut s, key("h")));
    assert!(!waiting(&mut s));
    assert_eq!(shown_key(&s, "Stop"), "H");
    assert_eq!(status(&s), "Stop is on H now.");
    click(&mut s, "Keys.wnd:ButtonSave");
    assert_eq!(s.screen(), Some(Screen::Options), "Save goes back to Options");
    // Saved as a change from the defaults, and read back by the next start.
    let saved = Settings::load(&path).unwrap();
    assert_eq!(saved.keys, BTreeMap::from([(KeyCommand::Stop, key("H"))]));
    assert!(common::read(&path).contains("\"Stop\": \"H\""), "{}", common::read(&path));
    let again = Shell::new(&common::roots(), (1280.0, 720.0), path).unwrap();
    assert_eq!(again.prefs.keys().chord(KeyCommand::Stop), Some(key("H")));

    // A battle given the keys (as the client gives it the saved ones each frame).
    let mut b = battle();
    b.set_keys(s.prefs.keys());
    let hauler = select_hauler(&mut b);
    let bar = b.look().commands();
    assert_eq!(bar[0].key, Some(key("H")), "the Stop button shows H");
    assert!(bar[0].tooltip.starts_with("[H] Stop"), "{}", bar[0].tooltip);
    // The old key no longer stops it.
    b.controls().hotkey('s', false);
    run(&mut b, 0.3);
    assert!(matches!(b.world().object(hauler).unwrap().order, Order::Gather { .. }), "S did nothing");
    // The new key does.
    b.controls().hotkey('h', false);
    run(&mut b, 0.3);
    assert_eq!(b.world().object(hauler).unwrap().order, Order::Idle, "H stopped it");
}

#[test]
fn a_taken_key_is_named_and_swapped_a_clashing_one_refused_and_reset_and_back_undo() {
    let (mut s, path) = shell("keys-conflict");
    open_keys(&mut s);
    // G is Guard's: Stop takes it and Guard takes S, and the page says so.
    click_line(&mut s, "Stop");
    bind(&mut s, key("G"));
    assert_eq!(status(&s), "G was Guard's key: Stop is on G now, and Guard on S.");
    assert_eq!((shown_key(&s, "Stop"), shown_key(&s, "Guard")), ("G".to_string(), "S".to_string()));
    // B is Build's and a slot's at once: Pause cannot swap with both, so it keeps P.
    click_line(&mut s, "Pause");
    bind(&mut s, key("B"));
    assert_eq!(status(&s), "B is already Build menu's key, and a swap would clash with another: Pause keeps its key.");
    assert_eq!(shown_key(&s, "Pause"), "P");
    // Escape stops waiting and stays on the page; a second Escape leaves without saving.
    click_line(&mut s, "Select control group 3");
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert!(!waiting(&mut s) && s.screen() == Some(Screen::Keys));
    assert_eq!(shown_key(&s, "Select control group 3"), "3");
    // Reset puts every default back.
    click(&mut s, "Keys.wnd:ButtonReset");
    assert_eq!((shown_key(&s, "Stop"), shown_key(&s, "Guard")), ("S".to_string(), "G".to_string()));
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert_eq!(s.screen(), Some(Screen::Options));
    assert!(!path.exists() || Settings::load(&path).unwrap().keys.is_empty(), "nothing saved");
}

#[test]
fn the_hint_and_the_top_bars_tips_name_the_players_keys() {
    let (mut s, _) = shell("keys-hint");
    open_keys(&mut s);
    click_line(&mut s, "Pause");
    bind(&mut s, key("K"));
    click_line(&mut s, "Alert log");
    bind(&mut s, key("Ctrl+L"));
    click(&mut s, "Keys.wnd:ButtonSave");
    let mut b = battle();
    b.set_keys(s.prefs.keys());
    s.open(Screen::InGame);
    ridgeline::game::hud::sync(&mut s, &b);
    let text = |s: &Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().text.clone();
    let hint = text(&s, "InGame.wnd:HintText");
    assert!(hint.contains("Space jumps to the last alert; K pauses."), "{hint}");
    let tip = s.ui.window(s.find("InGame.wnd:ButtonAlertLog").unwrap()).unwrap().tooltip.clone();
    assert!(tip.starts_with("Ctrl+L: every alert"), "{tip}");
    // In the battle, K pauses and P does nothing.
    b.controls().hotkey('p', false);
    run(&mut b, 0.5);
    assert!(!b.play().pace().paused(), "P did nothing");
    b.controls().hotkey('k', false);
    run(&mut b, 0.5);
    assert!(b.play().pace().paused(), "K paused");
}

#[test]
fn broken_keys_are_refused_naming_the_file_and_line() {
    // A mod's keys file with a key that is none.
    let dir = common::temp_dir("keys-broken-file");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/keys.ron"), "(keys: [\n    (command: \"Stop\", key: \"Ctrl+\"),\n])").unwrap();
    let roots = ridgeline::content::ContentRoots::new(vec![dir.clone(), common::root()]);
    let e = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains("keys.ron:2:") && e.contains("\"Ctrl+\" is not a key"), "{e}");
    let e = Battle::start(&roots, &setup(), SCREEN).err().expect("no battle without keys").to_string();
    assert!(e.contains("keys.ron:2:"), "{e}");
    // Settings whose keys clash among themselves, or name no key, say where.
    let dir = common::temp_dir("keys-broken-settings");
    let path = dir.join("settings.ron");
    std::fs::write(&path, "(\n    music_volume: 10,\n    keys: {\"Stop\": \"H\", \"Guard\": \"H\"},\n)").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(e.contains("settings.ron:3:") && e.contains("H is both Stop's key and Guard's"), "{e}");
    std::fs::write(&path, "(\n    keys: {\"Stop\": \"Escape\"},\n)").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(e.contains("settings.ron:2:") && e.contains("not bound"), "{e}");
    std::fs::write(&path, "(\n    keys: {\"Stopp\": \"H\"},\n)").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(e.contains("settings.ron:2:") && e.contains("\"Stopp\" is no command"), "{e}");
    // A change that clashes with the defaults (Stop on G, Guard's) is not used, and the Keys
    // page says why.
    std::fs::write(&path, "(\n    keys: {\"Stop\": \"G\"},\n)").unwrap();
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), path).unwrap();
    assert_eq!(s.prefs.keys().chord(KeyCommand::Stop), Some(key("S")), "the defaults are used");
    open_keys(&mut s);
    assert!(status(&s).contains("settings.ron: keys: G is both Stop's key and Guard's"), "{}", status(&s));
}
