//! The in-game HUD as one owner: the radar and the selection panel are windows of the tree,
//! drawn by their draw callbacks in their place in it and found under the cursor through it,
//! so a dialog covers them like any window; and the one client frame is what the window,
//! `screenshot` and `bench render` draw.

use ridgeline::game::button_view::ButtonView;
use ridgeline::game::frame;
use ridgeline::game::hud::{self, Gadget};
use ridgeline::game::screenshot::{WorldShot, battle_for};
use ridgeline::game::shell::Screen;
use ridgeline::ui::Rect;
use ridgeline::ui::draw::DrawCmd;

use crate::common;

fn battle() -> (ridgeline::game::battle::Battle, ridgeline::game::shell::Shell) {
    let shot = WorldShot { players: Some("idle,ai:easy".into()), frames: 30, ..WorldShot::new("proving_grounds") };
    let (battle, mut shell) = battle_for(&common::roots(), &shot).unwrap();
    shell.open(Screen::InGame);
    hud::sync(&mut shell, &battle);
    (battle, shell)
}

fn rect_named(shell: &ridgeline::game::shell::Shell, name: &str) -> Rect {
    shell.ui.window(shell.find(name).unwrap()).unwrap().rect
}

/// Where in the draw list the radar's ground (the map preview inside `rect`) is drawn.
fn radar_at(cmds: &[DrawCmd], rect: Rect) -> Option<usize> {
    cmds.iter().position(|c| {
        matches!(c, DrawCmd::Image { rect: r, name, .. } if name == "@preview/Proving Grounds" && rect.contains(r.x + 1.0, r.y + 1.0))
    })
}

#[test]
fn the_gadgets_are_found_under_the_cursor_through_the_tree() {
    let (_battle, mut shell) = battle();
    let radar = rect_named(&shell, "InGame.wnd:Radar");
    let panel = rect_named(&shell, "InGame.wnd:SelectionPanel");
    let middle = |r: Rect| (r.x + r.w / 2.0, r.y + r.h / 2.0);
    let (x, y) = middle(radar);
    assert_eq!(hud::under(&shell, x, y), Some((Gadget::Radar, radar)));
    let (px, py) = middle(panel);
    assert_eq!(hud::under(&shell, px, py), Some((Gadget::SelectionPanel, panel)));
    // A dialog takes the mouse: the radar under it is not clicked through.
    shell.message("Leave battle", "Leave?", true);
    assert_eq!(hud::under(&shell, x, y), None);
}

#[test]
fn the_radar_is_drawn_in_its_place_in_the_tree_under_a_dialog() {
    let (battle, mut shell) = battle();
    let radar = rect_named(&shell, "InGame.wnd:Radar");
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    let at = radar_at(&cmds, radar).expect("the radar's ground is drawn in its window");
    // The panel's name line is drawn too, through its own callback.
    assert!(cmds.iter().any(|c| matches!(c, DrawCmd::Text { .. })));
    shell.message("Leave battle", "Leave?", true);
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    let at = radar_at(&cmds, radar).unwrap_or(at);
    // The dialog dims everything under it: that fill comes after the radar.
    let dim = cmds
        .iter()
        .rposition(|c| matches!(c, DrawCmd::Fill { rect, color } if rect.x == 0.0 && rect.y == 0.0 && color[3] == 110))
        .expect("the dialog dims the screen");
    assert!(at < dim, "the radar ({at}) is drawn under the dialog's dimming ({dim})");
}

#[test]
fn a_window_that_says_radar_draw_shows_the_radar_wherever_a_layout_puts_it() {
    let (battle, mut shell) = battle();
    // A mod may rename and move the radar: the window's draw callback is what counts.
    let text = std::fs::read_to_string(common::root().join("ui/InGame.wnd")).unwrap();
    let renamed = text.replace("\"InGame.wnd:Radar\"", "\"InGame.wnd:MiniMap\"");
    assert_ne!(renamed, text);
    let file = ridgeline::ui::wnd::parse("InGame.wnd", &renamed).unwrap();
    shell.use_layout("InGame.wnd", file);
    shell.open(Screen::InGame);
    hud::sync(&mut shell, &battle);
    assert!(shell.find("InGame.wnd:Radar").is_none());
    let minimap = rect_named(&shell, "InGame.wnd:MiniMap");
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    assert!(radar_at(&cmds, minimap).is_some(), "the renamed window draws the radar");
    let (x, y) = (minimap.x + minimap.w / 2.0, minimap.y + minimap.h / 2.0);
    assert_eq!(hud::under(&shell, x, y), Some((Gadget::Radar, minimap)));
}

#[test]
fn the_alert_log_lists_every_alert_newest_first_and_a_click_asks_to_go_there() {
    use ridgeline::game::shell::ShellRequest;
    use ridgeline::game::shell::{Shell, SkirmishConfig};
    use ridgeline::ui::{Input, MouseButton};
    let dir = common::temp_dir("alert-log");
    let mut shell = Shell::new(&common::roots(), (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    let setup = SkirmishConfig::default().to_match_setup(
        "proving_grounds",
        2,
        &["Coalition".to_string(), "Dominion".to_string()],
        "Tester",
        1,
    );
    let mut battle =
        ridgeline::game::battle::Battle::start(&common::roots(), &setup, glam::Vec2::new(1280.0, 720.0)).unwrap();
    shell.open(Screen::InGame);
    // A pause and a resume: two alerts, told through the stream.
    battle.controls().toggle_pause().unwrap();
    for _ in 0..20 {
        battle.advance(1.0 / 30.0).unwrap();
    }
    battle.controls().toggle_pause().unwrap();
    for _ in 0..20 {
        battle.advance(1.0 / 30.0).unwrap();
    }
    let logged: Vec<String> = battle.alerts().log().map(|a| a.text.clone()).collect();
    assert!(logged.len() >= 2, "{logged:?}");
    // Closed, the log is not filled; L (or the Log button) opens it.
    let list = shell.find("InGame.wnd:ListAlertLog").unwrap();
    hud::sync(&mut shell, &battle);
    assert!(!shell.bars().alert_log_open() && shell.ui.list_rows(list).is_empty());
    shell.bars().toggle_alert_log();
    hud::sync(&mut shell, &battle);
    let rows = shell.ui.list_rows(list).to_vec();
    assert_eq!(rows.len(), logged.len());
    assert_eq!(rows[0][1], *logged.last().unwrap(), "newest first");
    assert!(rows[0][1].contains("resumed") && rows[1][1].contains("paused"), "{rows:?}");
    // A click on the first row asks the client to go to that alert.
    let r = rect_named(&shell, "InGame.wnd:ListAlertLog");
    let (x, y) = (r.x + 30.0, r.y + 10.0);
    shell.take_requests();
    shell.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    shell.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    assert!(
        shell.take_requests().iter().any(|q| matches!(q, ShellRequest::JumpToAlert(0))),
        "the first row was asked for"
    );
    shell.bars().toggle_alert_log();
    assert!(!shell.bars().alert_log_open());
}

/// The text drawn inside the command buttons, with its pixel size.
fn button_texts(shell: &ridgeline::game::shell::Shell, battle: &ridgeline::game::battle::Battle) -> Vec<(String, f32)> {
    let buttons: Vec<Rect> = (0..12)
        .filter_map(|i| shell.find(&format!("InGame.wnd:ButtonCommand{i}")))
        .filter_map(|id| shell.ui.window(id).filter(|w| w.visible()).map(|w| w.rect))
        .collect();
    frame::ui_commands(shell, Some(battle), false)
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { x, y, text, px, .. } if buttons.iter().any(|b| b.contains(x + 1.0, y + 1.0)) => {
                Some((text, px))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn control_bar_labels_read_at_twelve_pixels_or_more_at_1280_by_720() {
    let (mut battle, mut shell) = battle();
    // The top bar spans the screen: the layout is shown at 1280×720.
    assert_eq!(rect_named(&shell, "InGame.wnd:TopBar").w, 1280.0);
    // The dozer's seven structures, as the real control bar labels them.
    let me = battle.local();
    let dozer = battle.world().rules().template_id("Dozer").unwrap();
    let id = battle.world().objects().find(|o| o.owner == me && o.template == dozer).unwrap().id;
    battle.controls().select(vec![id]);
    hud::sync(&mut shell, &battle);
    let texts = button_texts(&shell, &battle);
    for word in ["Power Station", "Supply Depot", "War Factory", "$2000", "Q"] {
        assert!(texts.iter().any(|(t, _)| t == word), "{word} is on the bar: {texts:?}");
    }
    assert!(texts.iter().all(|&(_, px)| px >= 12.0), "{texts:?}");
    // The longest names the stock data gives a button (upgrades, a heavy unit, selling) fit
    // at full size too, on one line each.
    let long = ["Marksman Training\n$1000", "Composite Armour\n$1500", "Reactive Plating\n$1200", "Sell +$1000"];
    let views: Vec<ButtonView> = long
        .iter()
        .map(|l| ButtonView {
            label: l.to_string(),
            usable: true,
            icon: Some("Barracks".into()),
            key: "Q".into(),
            ..Default::default()
        })
        .collect();
    shell.bars().set_commands(&views, "");
    let texts = button_texts(&shell, &battle);
    for word in ["Marksman Training", "Composite Armour", "Reactive Plating", "Sell +$1000"] {
        assert!(texts.iter().any(|(t, _)| t == word), "{word} is one line: {texts:?}");
    }
    assert!(texts.iter().all(|&(_, px)| px >= 12.0), "{texts:?}");
}

#[test]
fn a_replay_seen_whole_shows_no_one_players_money_or_power_in_the_top_bar() {
    let (mut battle, mut shell) = battle();
    for _ in 0..60 {
        battle.advance(1.0 / 30.0 + 1e-4).unwrap();
    }
    let replay = battle.play().replay();
    let mut w =
        ridgeline::game::battle::Battle::watch(&common::roots(), &replay, "r.ron", glam::Vec2::new(1280.0, 720.0))
            .unwrap();
    let text = |s: &ridgeline::game::shell::Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().text.clone();
    hud::sync(&mut shell, &w);
    assert!(text(&shell, "InGame.wnd:LabelMoney").starts_with('$'), "one player's view: their money");
    assert!(text(&shell, "InGame.wnd:LabelPower").starts_with("Power"));
    // Round the players to "Everything": nobody's money, nobody's power.
    while w.view_label() != "Everything" {
        w.cycle_view();
    }
    hud::sync(&mut shell, &w);
    assert_eq!(text(&shell, "InGame.wnd:LabelMoney"), "");
    assert_eq!(text(&shell, "InGame.wnd:LabelPower"), "");
    w.cycle_view();
    hud::sync(&mut shell, &w);
    assert!(text(&shell, "InGame.wnd:LabelMoney").starts_with('$'), "a player's view again");
}

/// The alert lines above the control bar: the newest three, newest at the bottom; an alert
/// long enough to wrap takes two lines, and the oldest shown gives way so the newest stays in
/// the window rather than falling under the control bar.
#[test]
fn a_wrapped_alert_pushes_out_the_oldest_line_not_the_newest() {
    let (_battle, mut shell) = battle();
    let id = shell.find("InGame.wnd:AlertLine").unwrap();
    let text = |shell: &ridgeline::game::shell::Shell| shell.ui.window(id).unwrap().text.clone();
    let short = ["0:10 One".to_string(), "0:11 Two".to_string(), "0:12 Three".to_string(), "0:13 Four".to_string()];
    shell.bars().set_alerts(&short);
    assert_eq!(text(&shell), "0:11 Two\n0:12 Three\n0:13 Four", "the newest three, one line each");
    assert_eq!(shell.ui.wrapped_lines(id), Some(3));
    // The middle alert wraps (a sentence wider than the window).
    let mut long = "0:12 War Factory not built, nothing paid:".to_string();
    // Alone it is padded to the bottom of the three lines: two blank ones above a one-line
    // alert, one above an alert that wraps to two.
    for _ in 0..40 {
        shell.bars().set_alerts(std::slice::from_ref(&long));
        if !text(&shell).starts_with("\n\n") {
            break;
        }
        long.push_str(" a unit stands there");
    }
    assert_eq!(text(&shell), format!("\n{long}"), "an alert just too wide for one line wraps to two");
    assert_eq!(shell.ui.wrapped_lines(id), Some(3));
    let mixed = ["0:11 Two".to_string(), long.clone(), "0:13 Four".to_string()];
    shell.bars().set_alerts(&mixed);
    let shown = text(&shell);
    assert!(shown.ends_with("0:13 Four"), "the newest is at the bottom: {shown:?}");
    assert!(shown.contains(&long), "the long one is shown whole: {shown:?}");
    assert!(!shown.contains("0:11 Two"), "the oldest gave way: {shown:?}");
    let rows = shell.ui.wrapped_lines(id).unwrap();
    assert!(rows <= 3, "{rows} lines in a window of three: {shown:?}");
    // None: the window is empty.
    shell.bars().set_alerts(&[]);
    assert_eq!(text(&shell), "");
}

/// The tint of the frame image `image` drawn over window `name`'s rectangle, and the colour of
/// the first text drawn inside window `label`.
fn skin_seen(
    shell: &ridgeline::game::shell::Shell,
    cmds: &[DrawCmd],
    (name, image): (&str, &str),
    label: &str,
) -> ([u8; 4], [u8; 4]) {
    let at = rect_named(shell, name);
    let tint = cmds
        .iter()
        .find_map(|c| match c {
            DrawCmd::Image { rect, name: n, tint } if n == image && *rect == at => Some(*tint),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{name} draws its {image} frame"));
    let inside = rect_named(shell, label);
    let text = cmds
        .iter()
        .find_map(|c| match c {
            DrawCmd::Text { x, y, color, .. } if inside.contains(*x + 1.0, *y + 1.0) => Some(*color),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{label} draws its text"));
    (tint, text)
}

/// A battle of `players` (`observer`: watched as everything) with its HUD synced and drawn.
fn hud_drawn(
    roots: &ridgeline::content::ContentRoots,
    players: &str,
    observer: bool,
) -> (ridgeline::game::shell::Shell, Vec<DrawCmd>) {
    use ridgeline::game::screenshot::ObserverView;
    let observer = observer.then_some(ObserverView::Everything);
    let shot = WorldShot { players: Some(players.into()), frames: 2, observer, ..WorldShot::new("crossroads") };
    let (battle, mut shell) = battle_for(roots, &shot).unwrap();
    shell.open(Screen::InGame);
    hud::sync(&mut shell, &battle);
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    (shell, cmds)
}

#[test]
fn each_faction_sees_the_hud_in_its_skin_from_the_data_and_a_watcher_in_the_layouts_own() {
    use ridgeline::ui::skin::Skins;
    let roots = common::roots();
    let images = ridgeline::ui::images::ImageSet::load_all(&roots).unwrap();
    let skins = Skins::load(&common::root().join("ui/skins.ron"), &common::playable(), &images).unwrap();
    let mut seen = Vec::new();
    for faction in common::playable() {
        let skin = skins.of(&faction).unwrap_or_else(|| panic!("ui/skins.ron gives {faction} a skin")).clone();
        let (shell, cmds) = hud_drawn(&roots, &format!("idle@{faction},ai:easy"), false);
        // The faction's own frame art, drawn as painted (no tint over it).
        let (bar_art, panel_art) = (format!("HeaderBar{faction}"), format!("Panel{faction}"));
        assert_eq!(skin.images.get("HeaderBar"), Some(&bar_art), "{faction}'s top bar art");
        let top = skin_seen(&shell, &cmds, ("InGame.wnd:TopBar", &bar_art), "InGame.wnd:LabelMoney");
        assert_eq!(top, ([255; 4], skin.text.unwrap()), "{faction}'s top bar: its own art, money text");
        let (bar, _) = skin_seen(&shell, &cmds, ("InGame.wnd:ControlBar", &panel_art), "InGame.wnd:LabelMoney");
        assert_eq!(bar, [255; 4], "{faction}'s control bar");
        for panel in ["InGame.wnd:Radar", "InGame.wnd:SelectionPanel"] {
            assert_eq!(skin_seen(&shell, &cmds, (panel, &panel_art), "InGame.wnd:LabelMoney").0, [255; 4], "{panel}");
        }
        assert!(
            !cmds.iter().any(|c| matches!(c, DrawCmd::Image { name, .. } if name == "HeaderBar" || name == "Panel")),
            "{faction}'s HUD draws none of the layout's own frames"
        );
        seen.push(bar_art);
        // The shell's menus keep their own look over the skinned HUD.
        let mut shell = shell;
        shell.open(Screen::GameMenu);
        let cmds = frame::ui_commands(&shell, None, false);
        let menu = ("GameMenu.wnd:GameMenuPanel", "Panel");
        assert_eq!(skin_seen(&shell, &cmds, menu, "GameMenu.wnd:ButtonResume").0, [255; 4], "{faction}'s game menu");
    }
    assert_ne!(seen[0], seen[1], "the factions' HUDs look different");
    // A watcher plays no faction: the layout's own frames and colours (an untinted frame, its
    // text colour).
    let (shell, cmds) = hud_drawn(&roots, "ai:easy@Dominion,ai:easy", true);
    let (tint, text) = skin_seen(&shell, &cmds, ("InGame.wnd:TopBar", "HeaderBar"), "InGame.wnd:LabelClock");
    assert_eq!((tint, text), ([255; 4], [225, 225, 210, 255]));
    let (bar, _) = skin_seen(&shell, &cmds, ("InGame.wnd:ControlBar", "Panel"), "InGame.wnd:LabelClock");
    assert_eq!(bar, [255; 4], "the watcher's control bar: the layout's Panel");
}

#[test]
fn a_mods_skin_replaces_the_games_and_a_bad_entry_is_refused_naming_its_line() {
    let dir = common::temp_dir("hud-skins");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let skins = "[\n    (name: \"Dominion\", frame: (100, 255, 100, 255)),\n]\n";
    std::fs::write(dir.join("ui/skins.ron"), skins).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let (shell, cmds) = hud_drawn(&roots, "idle@Dominion,ai:easy", false);
    let (tint, text) = skin_seen(&shell, &cmds, ("InGame.wnd:TopBar", "HeaderBar"), "InGame.wnd:LabelClock");
    assert_eq!(
        (tint, text),
        ([100, 255, 100, 255], [225, 225, 210, 255]),
        "the mod's frame; no text colour: the layout's"
    );
    // A skin for a faction that does not exist, and text too dark to read: refused at load.
    let bad = "[\n    (name: \"Dominion\", frame: (100, 255, 100, 255)),\n    (\n        name: \"Dominon\",\n        frame: (255, 255, 255, 255),\n        text: (40, 40, 40, 255),\n    ),\n]\n";
    std::fs::write(dir.join("ui/skins.ron"), bad).unwrap();
    let e =
        ridgeline::game::shell::Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains("skins.ron:4: skin \"Dominon\", field `name`: no playable faction"), "{e}");
    assert!(e.contains("skins.ron:6: skin \"Dominon\", field `text`"), "{e}");
    // A swap to an image no image set has: refused on its line, by the game and by data-check.
    let bad = "[\n    (\n        name: \"Dominion\",\n        frame: (255, 255, 255, 255),\n        images: {\n            \"Panel\": \"PanelRusty\",\n        },\n    ),\n]\n";
    std::fs::write(dir.join("ui/skins.ron"), bad).unwrap();
    let e =
        ridgeline::game::shell::Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains("skins.ron:6: skin \"Dominion\", field `images`"), "{e}");
    assert!(e.contains("\"PanelRusty\" is not in the UI's image set"), "{e}");
    let report = ridgeline::game::data_check::run(&roots);
    assert!(
        report.problems.iter().any(|p| p.contains("skins.ron:6") && p.contains("PanelRusty")),
        "{:?}",
        report.problems
    );
}
