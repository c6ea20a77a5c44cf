//! The shell screens driven like a player would, headless: clicks on named windows, typing,
//! and the screens' effects (navigation, saved settings, the skirmish setup, message boxes).

use crate::common::{self, click};

use ridgeline::game::battle::Battle;
use ridgeline::game::button_view::ButtonView;
use ridgeline::game::settings::{Settings, UiScaling};
use ridgeline::game::shell::{Screen, Shell, ShellRequest, SlotChoice};
use ridgeline::lockstep::PeerId;
use ridgeline::net::wire::{Roster, RosterSlot, Seat};
use ridgeline::online::lobby::LobbyChange;
use ridgeline::session::{Difficulty, SlotKind};
use ridgeline::ui::wnd::model::WindowDef;
use ridgeline::ui::{Input, Key, MouseButton};

fn shell(name: &str) -> (Shell, std::path::PathBuf) {
    let dir = common::temp_dir(name);
    let path = dir.join("settings.ron");
    (Shell::new(&common::roots(), (1280.0, 720.0), path.clone()).expect("shell starts"), path)
}

fn w_enabled(s: &Shell, name: &str) -> bool {
    s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().enabled()
}

#[test]
fn the_main_menu_leads_everywhere_and_back() {
    let (mut s, _) = shell("shell-nav");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    for (button, screen, back) in [
        ("ButtonSkirmish", Screen::Skirmish, "SkirmishSetup.wnd:ButtonBack"),
        ("ButtonOnline", Screen::Online, "Online.wnd:ButtonBack"),
        ("ButtonReplays", Screen::Replays, "Replays.wnd:ButtonBack"),
        ("ButtonOptions", Screen::Options, "Options.wnd:ButtonBack"),
    ] {
        click(&mut s, &format!("MainMenu.wnd:{button}"));
        assert_eq!(s.screen(), Some(screen));
        assert!(s.find(&format!("MainMenu.wnd:{button}")).is_none(), "the old layout is gone");
        click(&mut s, back);
        assert_eq!(s.screen(), Some(Screen::MainMenu));
    }
    // Quit asks first (its layout declares the `quit` action); OK quits.
    click(&mut s, "MainMenu.wnd:ButtonQuit");
    assert_eq!(s.take_requests(), []);
    assert!(s.message_open());
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert_eq!(s.take_requests(), [ShellRequest::Quit]);
}

/// Escape as the window hands it over: to the UI, and to the shell when no window took it.
fn escape(s: &mut Shell) {
    if !s.handle(Input::Key { key: Key::Escape, shift: false }) {
        s.escape();
    }
}

#[test]
fn escape_leaves_every_menu_screen_as_its_back_button_does() {
    let (mut s, _) = shell("shell-escape");
    for (button, screen) in [
        ("ButtonSkirmish", Screen::Skirmish),
        ("ButtonLoad", Screen::Load),
        ("ButtonOnline", Screen::Online),
        ("ButtonReplays", Screen::Replays),
        ("ButtonMods", Screen::Mods),
    ] {
        click(&mut s, &format!("MainMenu.wnd:{button}"));
        assert_eq!(s.screen(), Some(screen));
        escape(&mut s);
        assert_eq!(s.screen(), Some(Screen::MainMenu), "Escape on {screen:?} goes back to the main menu");
        assert!(!s.message_open(), "and does not ask to quit as Escape on the main menu does");
    }
    // A message open on a screen takes the Escape itself: the screen stays.
    click(&mut s, "MainMenu.wnd:ButtonReplays");
    s.message("Title", "Text", false);
    escape(&mut s);
    assert!(!s.message_open());
    assert_eq!(s.screen(), Some(Screen::Replays));
}

#[test]
fn a_message_box_is_modal_and_closes() {
    let (mut s, _) = shell("shell-modal");
    click(&mut s, "MainMenu.wnd:ButtonCredits");
    assert!(s.message_open());
    // Buttons underneath do nothing while the box is up.
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(!s.message_open());
    // Escape on the main menu asks before quitting; Enter confirms.
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert!(s.message_open() && s.take_requests().is_empty());
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(s.take_requests(), [ShellRequest::Quit]);
}

#[test]
fn options_are_edited_with_the_mouse_and_keyboard_and_saved() {
    let (mut s, path) = shell("shell-options");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    // Drag the music slider to the far left, tick fullscreen, choose stretch, rename.
    let slider = s.find("Options.wnd:SliderMusic").unwrap();
    let r = s.ui.window(slider).unwrap().rect;
    s.handle(Input::MouseDown { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0, button: MouseButton::Left });
    s.handle(Input::MouseMove { x: r.x - 50.0, y: r.y });
    s.handle(Input::MouseUp { x: r.x - 50.0, y: r.y, button: MouseButton::Left });
    click(&mut s, "Options.wnd:CheckFullscreen");
    click(&mut s, "Options.wnd:RadioScaleStretch");
    click(&mut s, "Options.wnd:EntryName");
    for _ in 0..20 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "Ada".chars() {
        s.handle(Input::Char(c));
    }
    // Resolution through the combo box: open it, pick the fourth entry.
    click(&mut s, "Options.wnd:ComboResolution");
    let combo = s.find("Options.wnd:ComboResolution").unwrap();
    let cr = s.ui.window(combo).unwrap().rect;
    let y = cr.bottom() + cr.h * 3.5;
    s.handle(Input::MouseDown { x: cr.x + 10.0, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: cr.x + 10.0, y, button: MouseButton::Left });
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    let saved = Settings::load(&path).unwrap();
    assert_eq!(saved.music_volume, 0);
    assert!(saved.fullscreen);
    assert_eq!(saved.ui_scaling, UiScaling::Stretch);
    assert_eq!(saved.player_name, "Ada");
    assert_eq!(saved.resolution, (1920, 1080));
    assert_eq!(s.ui.fit().mode, ridgeline::ui::wnd::model::ScalingMode::Stretch, "applied at once");
    // A fresh shell reads them back.
    let again = Shell::new(&common::roots(), (800.0, 600.0), path).unwrap();
    assert_eq!(again.prefs.settings, saved);
}

/// Graphics quality is chosen in Options with the mouse and kept; it offers the three levels,
/// High by default.
#[test]
fn graphics_quality_is_chosen_in_options_and_saved() {
    let (mut s, path) = shell("shell-graphics");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let combo = s.find("Options.wnd:ComboGraphics").unwrap();
    assert_eq!(s.ui.combo_items(combo), ["Low", "Medium", "High"]);
    assert_eq!(s.ui.combo_selected(combo), Some(2), "High unless chosen");
    click(&mut s, "Options.wnd:ComboGraphics");
    let r = s.ui.window(combo).unwrap().rect;
    let y = r.bottom() + r.h * 0.5;
    s.handle(Input::MouseDown { x: r.x + 10.0, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 10.0, y, button: MouseButton::Left });
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(Settings::load(&path).unwrap().graphics, ridgeline::render::Quality::Low);
    assert_eq!(
        s.prefs.settings.graphics,
        ridgeline::render::Quality::Low,
        "the battle draws at it from the next frame"
    );
}

/// A window the player resized to a size none of the presets is, Options lists as it is, first
/// and chosen; choosing a preset still resizes, and a window resized while Options is open
/// saves what the list showed.
#[test]
fn options_show_the_windows_own_size_when_it_is_no_preset() {
    let dir = common::temp_dir("shell-options-own-size");
    let path = dir.join("settings.ron");
    let mut s = Shell::new(&common::roots(), (1366.0, 741.0), path.clone()).expect("shell starts");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let combo = s.find("Options.wnd:ComboResolution").unwrap();
    let items = s.ui.combo_items(combo).to_vec();
    assert_eq!(items[0], "1366 × 741 (this window)");
    assert_eq!(items[1..], ["1024 × 768", "1280 × 720", "1600 × 900", "1920 × 1080", "2560 × 1080", "2560 × 1440"]);
    assert_eq!(s.ui.combo_selected(combo), Some(0), "the window's own size is chosen");
    // Saved untouched, the settings keep the window's size.
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(Settings::load(&path).unwrap().resolution, (1366, 741));
    // A preset is chosen with the mouse as ever: the window is asked to take it.
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    combo_pick(&mut s, "Options.wnd:ComboResolution", 3);
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(Settings::load(&path).unwrap().resolution, (1600, 900));
    // At a preset's size, the presets alone, that one chosen.
    s.resize((1600.0, 900.0));
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let combo = s.find("Options.wnd:ComboResolution").unwrap();
    assert_eq!(s.ui.combo_items(combo).len(), 6);
    assert_eq!(s.ui.combo_selected(combo), Some(2));
    // Resized while Options is open, Save keeps the size the list showed chosen.
    s.resize((1000.0, 700.0));
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(Settings::load(&path).unwrap().resolution, (1600, 900));
}

#[test]
fn skirmish_setup_follows_the_map_and_starts_a_valid_game() {
    let (mut s, _) = shell("shell-skirmish");
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    assert!(s.content.maps.len() >= 3);
    let list = s.find("SkirmishSetup.wnd:ListMaps").unwrap();
    assert_eq!(s.ui.list_rows(list).len(), s.content.maps.len());
    let four = s.content.maps.iter().position(|m| m.players == 4).unwrap();
    let r = s.ui.window(list).unwrap().rect;
    let row_h = match s.ui.window(list).map(|w| &w.gadget) {
        Some(ridgeline::ui::Gadget::ListBox { row_height, .. }) => *row_height,
        _ => panic!("not a list"),
    };
    let y = r.y + row_h * four as f32 + row_h / 2.0;
    s.handle(Input::MouseDown { x: r.x + 20.0, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 20.0, y, button: MouseButton::Left });
    assert_eq!(s.skirmish.map, four);
    assert!(s.ui.window(s.find("SkirmishSetup.wnd:ComboPlayer3").unwrap()).unwrap().enabled());
    // Choose a hard computer for slot 3 with the keyboard on its combo box.
    click(&mut s, "SkirmishSetup.wnd:ComboPlayer2");
    s.handle(Input::Key { key: Key::Escape, shift: false });
    // From "Closed" (the last item) two steps up is "Hard AI".
    for _ in 0..2 {
        s.handle(Input::Key { key: Key::Up, shift: false });
    }
    assert_eq!(s.skirmish.slots[2].who, SlotChoice::Computer(2));
    click(&mut s, "SkirmishSetup.wnd:ButtonStart");
    let Some(ShellRequest::StartMatch(game)) = s.take_requests().pop() else { panic!("started") };
    assert_eq!(game.slots.iter().filter(|x| x.kind != SlotKind::Closed).count(), 3);
    assert_eq!(game.slots[2].kind, SlotKind::Ai { difficulty: Difficulty::Hard });
    assert!(!s.message_open(), "a valid setup starts without a message");
    // A two-player map closes slots 3 and 4.
    s.skirmish.map = s.content.maps.iter().position(|m| m.players == 2).unwrap();
    s.open(Screen::Skirmish);
    assert_eq!(s.skirmish.slots[2].who, SlotChoice::Closed);
    assert!(!s.ui.window(s.find("SkirmishSetup.wnd:ComboPlayer3").unwrap()).unwrap().enabled());
}

/// Picks the combo box's item `steps` below (positive) or above the current one, by keyboard.
/// Opens a combo box with a click and clicks its item `item` (one of those the drop-down
/// shows without scrolling), as a player would.
fn combo_pick(s: &mut Shell, name: &str, item: usize) {
    click(s, name);
    let id = s.find(name).unwrap();
    let r = s.ui.window(id).unwrap().rect;
    let shown = s.ui.combo_items(id).len().min(6) as f32;
    let screen_h = s.ui.fit().screen.1;
    let (below, h) = (screen_h - (r.y + r.h), r.h * shown);
    let top = if h > below && r.y > below { r.y - h } else { r.y + r.h };
    let (x, y) = (r.x + r.w / 2.0, top + (item as f32 + 0.5) * r.h);
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
}

fn combo_step(s: &mut Shell, name: &str, steps: i32) {
    click(s, name);
    s.handle(Input::Key { key: Key::Escape, shift: false });
    let key = if steps > 0 { Key::Down } else { Key::Up };
    for _ in 0..steps.abs() {
        s.handle(Input::Key { key, shift: false });
    }
}

#[test]
fn teams_and_starting_money_chosen_on_the_skirmish_screen_reach_the_battle() {
    let (mut s, _) = shell("shell-teams");
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    s.skirmish.map = s.content.maps.iter().position(|m| m.name == "Four Corners").expect("four corners");
    s.open(Screen::Skirmish);
    // You and a normal computer on team 1, an easy computer on team 2, $50,000 each.
    combo_step(&mut s, "SkirmishSetup.wnd:ComboTeam0", 1);
    combo_step(&mut s, "SkirmishSetup.wnd:ComboTeam1", 1);
    combo_step(&mut s, "SkirmishSetup.wnd:ComboPlayer2", -4);
    combo_step(&mut s, "SkirmishSetup.wnd:ComboTeam2", 2);
    combo_step(&mut s, "SkirmishSetup.wnd:ComboMoney", 2);
    assert_eq!(s.skirmish.slots[2].who, SlotChoice::Computer(0));
    click(&mut s, "SkirmishSetup.wnd:ButtonStart");
    let Some(ShellRequest::StartMatch(setup)) = s.take_requests().pop() else { panic!("no match started") };
    let teams: Vec<_> = setup.slots.iter().map(|x| x.team).collect();
    assert_eq!(&teams[..3], [Some(1), Some(1), Some(2)]);
    let mut b = Battle::start(&common::roots(), &setup, glam::Vec2::new(1280.0, 720.0)).expect("battle starts");
    let players = b.world().players().to_vec();
    assert_eq!(players.len(), 3, "the closed slot is left out");
    assert!(players.iter().all(|p| p.money == 50_000), "{players:?}");
    assert_eq!(players[0].team, players[1].team);
    assert_ne!(players[0].team, players[2].team);
    // The top bar shows the chosen money.
    s.open(Screen::InGame);
    s.bars().set_hud(Some(b.play().money()), b.play().clock(), "");
    let label = s.ui.window(s.find("InGame.wnd:LabelMoney").unwrap()).unwrap().text.clone();
    assert_eq!(label, "$50000");
    // Allies never fight: for a minute of play nobody targets the other's objects.
    let owner = |b: &Battle, id| b.world().object(id).map(|o| o.owner);
    for _ in 0..1_800 {
        b.advance(1.0 / 30.0 + 1e-4).unwrap();
        for o in b.world().objects() {
            let Some(t) = o.target else { continue };
            let pair = (o.owner.0, owner(&b, t).map(|p| p.0));
            assert!(pair != (0, Some(1)) && pair != (1, Some(0)), "allies fought: {pair:?}");
        }
    }
}

#[test]
fn an_eight_player_skirmish_fills_every_slot_and_starts_with_eight_colours() {
    let (mut s, _) = shell("shell-eight");
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    assert_eq!(s.content.maps[s.skirmish.map].players, 2, "a first skirmish opens on a two-player map");
    s.skirmish.map = s.content.maps.iter().position(|m| m.name == "Compass Rose").expect("compass rose");
    s.open(Screen::Skirmish);
    // Slots 3 to 8 are open on this map; each gets an easy computer, from "Closed" four up.
    for i in 2..8 {
        let combo = format!("SkirmishSetup.wnd:ComboPlayer{i}");
        assert!(s.ui.window(s.find(&combo).unwrap()).unwrap().enabled(), "slot {} is open", i + 1);
        combo_step(&mut s, &combo, -4);
        assert_eq!(s.skirmish.slots[i].who, SlotChoice::Computer(0), "slot {}", i + 1);
    }
    click(&mut s, "SkirmishSetup.wnd:ButtonStart");
    let Some(ShellRequest::StartMatch(setup)) = s.take_requests().pop() else { panic!("no match started") };
    assert_eq!(setup.slots.iter().filter(|x| x.kind != SlotKind::Closed).count(), 8);
    let b = Battle::start(&common::roots(), &setup, glam::Vec2::new(1280.0, 720.0)).expect("battle starts");
    assert_eq!(b.world().players().len(), 8);
    let mut colours: Vec<_> = setup.slots.iter().map(|x| x.colour.clone().expect("a colour")).collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 8, "eight players, eight colours: {colours:?}");
    // Each player starts on a start of its own.
    let mut starts: Vec<_> = b.world().players().iter().map(|p| p.start).collect();
    starts.sort_unstable();
    starts.dedup();
    assert_eq!(starts.len(), 8);
}

#[test]
fn hosting_opens_the_lobby_and_asks_the_client_to_connect_and_chat() {
    let (mut s, _) = shell("shell-lobby");
    click(&mut s, "MainMenu.wnd:ButtonOnline");
    click(&mut s, "Online.wnd:EntryPort");
    for _ in 0..6 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "99999".chars() {
        s.handle(Input::Char(c));
    }
    click(&mut s, "Online.wnd:ButtonHost");
    assert!(s.message_open(), "99999 is not a port");
    s.close_message();
    click(&mut s, "Online.wnd:EntryPort");
    for _ in 0..6 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "8100".chars() {
        s.handle(Input::Char(c));
    }
    // Through a relay: none is set yet, so the player is told where to set one.
    let label = |s: &Shell| s.ui.window(s.find("Online.wnd:LabelRelay").unwrap()).unwrap().text.clone();
    assert_eq!(label(&s), "No relay set (Options)");
    click(&mut s, "Online.wnd:ButtonHostRelay");
    assert!(s.message_open() && s.take_requests().is_empty(), "no relay, no hosting through one");
    s.close_message();
    s.prefs.settings.relay = "relay.example.org:47700".into();
    s.open(Screen::Online);
    assert_eq!(label(&s), "Relay: relay.example.org:47700");
    click(&mut s, "Online.wnd:ButtonHostRelay");
    assert_eq!(
        s.take_requests(),
        [ShellRequest::HostOnline("0.0.0.0:47600".parse().unwrap(), Some("relay.example.org:47700".into()))]
    );
    assert_eq!(s.lobby.chat()[0], "Hosting through the relay relay.example.org:47700. Waiting for players to join…");
    s.open(Screen::Online);
    click(&mut s, "Online.wnd:EntryPort");
    for _ in 0..6 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "8100".chars() {
        s.handle(Input::Char(c));
    }
    click(&mut s, "Online.wnd:ButtonHost");
    assert_eq!(s.screen(), Some(Screen::Lobby));
    assert_eq!(s.lobby.port, 8100);
    assert_eq!(s.lobby.chat()[0], "Hosting on port 8100. Waiting for players to join…");
    assert_eq!(s.take_requests(), [ShellRequest::HostOnline("0.0.0.0:8100".parse().unwrap(), None)]);
    // The chat line goes to the client (which sends it and shows it), and the field empties.
    click(&mut s, "Lobby.wnd:EntryChat");
    for c in "gl hf".chars() {
        s.handle(Input::Char(c));
    }
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(s.take_requests(), [ShellRequest::LobbyChat("gl hf".into())]);
    assert_eq!(s.ui.entry_text(s.find("Lobby.wnd:EntryChat").unwrap()), "");
    // What the client puts in the lobby shows: chat, and one row per slot.
    s.lobby_says("Ben: hi".into());
    let slot = |seat, name: &str, ready| RosterSlot {
        seat,
        name: name.into(),
        ready,
        ping_ms: 12,
        path: ridgeline::net::nat::PathKind::Direct,
        faction: 1,
        colour: 1,
        team: 0,
    };
    s.lobby.roster = Roster {
        map: "crossroads".into(),
        money: 2,
        slots: vec![slot(Seat::Player(PeerId(0)), "Ava", false), slot(Seat::Player(PeerId(1)), "Ben", true)],
    };
    s.refresh_lobby();
    let chat = s.find("Lobby.wnd:ListChat").unwrap();
    assert_eq!(s.ui.list_rows(chat).last().unwrap()[0], "Ben: hi");
    let text = |s: &Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().text.clone();
    assert_eq!((text(&s, "Lobby.wnd:Status1"), text(&s, "Lobby.wnd:Ping1")), ("Ready".into(), "12 ms direct".into()));
    assert_eq!(text(&s, "Lobby.wnd:Status0"), "Host");
    // The host has no Ready box (its Start is its word); the code is shown whole and copied.
    let ready = s.find("Lobby.wnd:CheckReady").unwrap();
    assert!(!s.ui.window(ready).unwrap().visible(), "the host's lobby hides Ready");
    let code = "rl1@203.0.113.5:47700/00112233445566778899aabbccddeeff/".to_string() + &"ab".repeat(32);
    s.set_lobby_code(code.clone());
    s.refresh_lobby();
    let entry = s.find("Lobby.wnd:EntryCode").unwrap();
    assert_eq!(s.ui.entry_text(entry), code, "the whole code, 121 characters");
    s.take_requests();
    click(&mut s, "Lobby.wnd:ButtonCopy");
    assert_eq!(s.take_requests(), [ShellRequest::Copy(code.clone())]);
    // Clicked into and selected with Ctrl+A, the code is what Ctrl+C copies.
    let r = s.ui.window(entry).unwrap().rect;
    s.handle(Input::MouseDown { x: r.x + 5.0, y: r.y + 5.0, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 5.0, y: r.y + 5.0, button: MouseButton::Left });
    s.handle(Input::Key { key: Key::SelectAll, shift: false });
    assert_eq!(s.focused_selection(), Some(code));
    let combo = |s: &Shell, n: &str| {
        let id = s.find(n).unwrap();
        (s.ui.combo_items(id).to_vec(), s.ui.combo_selected(id))
    };
    // The host can switch Ben to watching, or give his slot to someone else (which removes
    // him); its own slot it can only switch to watching.
    let (items, chosen) = combo(&s, "Lobby.wnd:ComboPlayer1");
    assert_eq!(items[..4], ["Ben", "Watch as observer", "Open", "Closed"]);
    assert_eq!(chosen, Some(0));
    assert_eq!(combo(&s, "Lobby.wnd:ComboPlayer0").0, ["Ava", "Watch as observer"]);
    let row3 = s.ui.window(s.find("Lobby.wnd:ComboPlayer2").unwrap()).unwrap();
    assert!(!row3.visible(), "a two-player map has two rows");
    assert_eq!(combo(&s, "Lobby.wnd:ComboMoney").1, Some(2));
    // Choosing "Closed" for Ben's slot asks the client to change the table.
    s.take_requests();
    combo_step(&mut s, "Lobby.wnd:ComboPlayer1", 3);
    assert_eq!(s.take_requests().last(), Some(&ShellRequest::LobbyChange(LobbyChange::Seat(1, Seat::Closed))));
    // Seen from Ben's machine: his row says it is his, and only his side (and whether he
    // plays or watches) can be chosen.
    s.lobby.hosting = false;
    s.lobby.me = Some(PeerId(1));
    s.refresh_lobby();
    assert_eq!(text(&s, "Lobby.wnd:Status1"), "Ready");
    assert!(w_enabled(&s, "Lobby.wnd:ComboFaction1") && !w_enabled(&s, "Lobby.wnd:ComboFaction0"));
    assert!(w_enabled(&s, "Lobby.wnd:ComboPlayer1") && !w_enabled(&s, "Lobby.wnd:ComboPlayer0"));
    assert_eq!(combo(&s, "Lobby.wnd:ComboPlayer1").0, ["Ben", "Watch as observer"]);
    assert!(!w_enabled(&s, "Lobby.wnd:ComboMoney"));
    // A listening address of one's own choosing: ip:port.
    click(&mut s, "Lobby.wnd:ButtonLeave");
    assert_eq!(s.take_requests(), [ShellRequest::LobbyLeave]);
    click(&mut s, "Online.wnd:EntryPort");
    for _ in 0..6 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "127.0.0.1:8101".chars() {
        s.handle(Input::Char(c));
    }
    click(&mut s, "Online.wnd:ButtonHost");
    assert_eq!(s.take_requests(), [ShellRequest::HostOnline("127.0.0.1:8101".parse().unwrap(), None)]);
    // A join code that does not read is explained, not sent.
    click(&mut s, "Lobby.wnd:ButtonLeave");
    s.take_requests();
    click(&mut s, "Online.wnd:EntryAddress");
    for c in "192.0.2.7:8088".chars() {
        s.handle(Input::Char(c));
    }
    click(&mut s, "Online.wnd:ButtonJoin");
    assert!(s.message_open() && s.take_requests().is_empty());
}

#[test]
fn the_last_game_joined_is_remembered_for_one_click_rejoin() {
    let (mut s, path) = shell("shell-rejoin");
    s.open(Screen::Online);
    assert!(!w_enabled(&s, "Online.wnd:ButtonRejoin"), "nothing joined yet");
    click(&mut s, "Online.wnd:ButtonRejoin");
    assert!(s.take_requests().is_empty());
    let code = "rl1@192.0.2.7:47600/00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    s.remember_game(code);
    // The game restarted: the code is still there, and one click joins it again.
    let mut again = Shell::new(&common::roots(), (1280.0, 720.0), path).expect("shell starts");
    assert_eq!(again.prefs.settings.last_game, code);
    again.open(Screen::Online);
    assert!(w_enabled(&again, "Online.wnd:ButtonRejoin"));
    click(&mut again, "Online.wnd:ButtonRejoin");
    assert_eq!(again.take_requests(), [ShellRequest::JoinOnline(code.to_string())]);
}

#[test]
fn disconnect_and_desync_messages_name_who_and_when() {
    let (mut s, _) = shell("shell-messages");
    s.show_out_of_sync(1234, Some("/tmp/desync-frame1234-peer0.txt"));
    let text = |s: &Shell| s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().text.clone();
    assert!(text(&s).contains("frame 1234"));
    assert!(text(&s).contains("A report was written to /tmp/desync-frame1234-peer0.txt"), "{}", text(&s));
    s.show_disconnected("Ada");
    assert!(text(&s).contains("Ada has left"));
    assert!(s.ui.modal_top().is_some());
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert!(!s.message_open());
    assert_eq!(s.ui.modal_top(), None);
}

#[test]
fn the_battle_menu_asks_before_leaving() {
    let (mut s, _) = shell("in-game");
    s.open(Screen::InGame);
    s.bars().set_hud(Some(12_345), 125, "");
    let text = |s: &Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().text.clone();
    assert_eq!(text(&s, "InGame.wnd:LabelMoney"), "$12345");
    assert_eq!(text(&s, "InGame.wnd:LabelClock"), "2:05");
    // Power: made/used; when low the label says so in the layout's warning colour (DISABLED).
    use ridgeline::sim::power::PowerBalance;
    s.bars().set_power(Some(PowerBalance { produced: 13, used: 6 }));
    assert_eq!(text(&s, "InGame.wnd:LabelPower"), "Power 13/6");
    assert!(s.ui.window(s.find("InGame.wnd:LabelPower").unwrap()).unwrap().enabled());
    s.bars().set_power(Some(PowerBalance { produced: 3, used: 6 }));
    assert_eq!(text(&s, "InGame.wnd:LabelPower"), "Low power 3/6");
    let label = s.ui.window(s.find("InGame.wnd:LabelPower").unwrap()).unwrap();
    assert!(!label.enabled());
    assert_eq!(label.text_colors.disabled, [235, 95, 70, 255]);
    // The control bar: a usable button, a greyed one, the rest hidden.
    let button = |label: &str, usable, tooltip: &str| ButtonView {
        label: label.into(),
        usable,
        tooltip: tooltip.into(),
        icon: Some(format!("@icon/{}", label.split(' ').next().unwrap())),
        key: "Q".into(),
    };
    s.bars().set_commands(
        &[
            button("Rifleman $225", true, "Rifleman: $225, 5 s."),
            button("Bulwark $900", false, "Bulwark: $900, 12 s. Needs a finished WarFactory first."),
        ],
        "Ready",
    );
    let w = |s: &Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().clone();
    assert!(w(&s, "InGame.wnd:ButtonCommand0").enabled() && w(&s, "InGame.wnd:ButtonCommand0").visible());
    assert!(!w(&s, "InGame.wnd:ButtonCommand1").enabled());
    assert_eq!(w(&s, "InGame.wnd:ButtonCommand1").tooltip, "Bulwark: $900, 12 s. Needs a finished WarFactory first.");
    assert!(!w(&s, "InGame.wnd:ButtonCommand2").visible());
    assert_eq!(text(&s, "InGame.wnd:ButtonCommand0"), "Rifleman $225");
    // Its icon at its left with the key on it; the text beside it.
    let fonts = ridgeline::ui::font::Fonts::load().unwrap();
    let r = w(&s, "InGame.wnd:ButtonCommand0").rect;
    let cmds = ridgeline::ui::draw::draw_list(&s.ui, &fonts, &|_, _| {});
    let icon = cmds.iter().find_map(|c| match c {
        ridgeline::ui::draw::DrawCmd::Image { name, rect, .. } if name == "@icon/Rifleman" => Some(*rect),
        _ => None,
    });
    let icon = icon.expect("the icon is drawn");
    assert!(r.contains(icon.x, icon.y) && (icon.x - r.x) < 4.0 && icon.w <= r.h, "{icon:?} at the left of {r:?}");
    let label = cmds.iter().find_map(|c| match c {
        ridgeline::ui::draw::DrawCmd::Text { text, x, .. } if text.starts_with("Rifleman") => Some(*x),
        _ => None,
    });
    assert!(label.expect("the label") >= icon.right(), "the text stands beside the icon");
    assert_eq!(text(&s, "InGame.wnd:LabelQueue"), "Ready");
    // Menu opens the battle's menu; Leave there asks; Cancel keeps the battle; Resume goes
    // back to it.
    s.follow_battle(true, false);
    click(&mut s, "InGame.wnd:ButtonMenu");
    assert_eq!(s.screen(), Some(Screen::GameMenu));
    click(&mut s, "GameMenu.wnd:ButtonLeave");
    assert!(s.message_open());
    click(&mut s, "MessageBox.wnd:ButtonCancel");
    assert!(!s.message_open() && s.take_requests().is_empty());
    click(&mut s, "GameMenu.wnd:ButtonResume");
    assert_eq!(s.screen(), Some(Screen::InGame));
    // Online, the question says that leaving surrenders.
    s.follow_battle(true, true);
    s.ask_leave_battle();
    assert!(text(&s, "MessageBox.wnd:MessageText").contains("Leaving surrenders"));
    s.close_message();
    s.follow_battle(true, false);
    // Escape's question answered with Enter leaves.
    s.ask_leave_battle();
    assert_eq!(text(&s, "MessageBox.wnd:MessageText"), "Leave the battle and return to the main menu?");
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(s.take_requests(), [ShellRequest::LeaveBattle]);
    assert_eq!(s.screen(), Some(Screen::InGame), "the client ends the battle, not the shell");
}

#[test]
fn watch_plays_the_chosen_replay() {
    let (mut s, path) = shell("watch");
    let dir = path.parent().unwrap().join("replays");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("proving_grounds 1.ron"), "()").unwrap();
    s.open(Screen::Replays);
    // Nothing chosen: a hint, no replay.
    click(&mut s, "Replays.wnd:ButtonWatch");
    assert!(s.message_open() && s.take_requests().is_empty());
    s.close_message();
    let list = s.find("Replays.wnd:ListReplays").unwrap();
    s.ui.list_select(list, Some(0));
    click(&mut s, "Replays.wnd:ButtonWatch");
    assert_eq!(s.take_requests(), [ShellRequest::WatchReplay(dir.join("proving_grounds 1.ron"))]);
}

#[test]
fn edited_layouts_reload_and_broken_ones_are_refused() {
    let dir = common::temp_dir("reload");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let original = std::fs::read_to_string(common::root().join("ui/MainMenu.wnd")).unwrap();
    std::fs::write(dir.join("ui/MainMenu.wnd"), &original).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    let label = |s: &Shell| s.ui.window(s.find("MainMenu.wnd:ButtonSkirmish").unwrap()).unwrap().text.clone();
    assert_eq!(s.reload_layouts(&roots), Ok(false), "nothing changed");
    std::fs::write(
        dir.join("ui/MainMenu.wnd"),
        original.replace("TEXT = \"MainMenu:ButtonSkirmish\";", "TEXT = \"Fight!\";"),
    )
    .unwrap();
    assert_eq!(s.reload_layouts(&roots), Ok(true));
    assert_eq!(label(&s), "Fight!", "the open screen shows the edit");
    // A broken edit is refused with its place; the last good layout stays.
    std::fs::write(dir.join("ui/MainMenu.wnd"), "FILE_VERSION = 2;\nWINDOW\n  WINDOWTYPE = NOPE;\nEND\n").unwrap();
    let err = s.reload_layouts(&roots).unwrap_err();
    assert!(err.contains("MainMenu.wnd:3:"), "{err}");
    assert_eq!(label(&s), "Fight!");
}

#[test]
fn slot_four_s_list_opens_upward_on_screen_and_closed_is_picked_with_the_mouse() {
    let (mut s, _) = shell("shell-dropdown");
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    s.skirmish.map = s.content.maps.iter().position(|m| m.players == 4).expect("a four-player map");
    s.open(Screen::Skirmish);
    // The player's own name stands for the human slot.
    let combo = s.find("SkirmishSetup.wnd:ComboPlayer0").unwrap();
    match &s.ui.window(combo).unwrap().gadget {
        ridgeline::ui::Gadget::ComboBox { items, selected, .. } => {
            assert_eq!(items[selected.unwrap()], s.prefs.settings.player_name);
            assert!(!items.iter().any(|i| i == "Human"));
        }
        _ => panic!("not a combo box"),
    }
    click(&mut s, "SkirmishSetup.wnd:ComboPlayer3");
    let (_, area, row) = s.ui.open_combo().expect("the list is open");
    let screen_h = s.ui.fit().screen.1;
    assert!(area.y >= 0.0 && area.bottom() <= screen_h, "the whole list is on screen: {area:?}");
    // "Closed", the item above the last (Observer), by the mouse; no tooltip covers it
    // meanwhile.
    let (x, y) = (area.x + 10.0, area.bottom() - row * 1.5);
    s.handle(Input::MouseMove { x, y });
    s.ui.advance(5_000);
    assert!(s.ui.tooltip().is_none(), "no tooltip over an open list");
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    assert_eq!(s.skirmish.slots[3].who, SlotChoice::Closed);
    assert!(s.ui.open_combo().is_none());
}

#[test]
fn ctrl_a_selects_a_text_entry_and_typing_replaces_it() {
    let (mut s, _) = shell("shell-select-all");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    click(&mut s, "Options.wnd:EntryName");
    s.handle(Input::Key { key: Key::SelectAll, shift: false });
    for c in "Ben".chars() {
        s.handle(Input::Char(c));
    }
    let entry = s.find("Options.wnd:EntryName").unwrap();
    assert_eq!(s.ui.entry_text(entry), "Ben");
}

#[test]
fn the_replay_list_shows_players_result_and_length() {
    use ridgeline::session::Replay;
    let (mut s, path) = shell("replay-list");
    let dir = path.parent().unwrap().join("replays");
    std::fs::create_dir_all(&dir).unwrap();
    let setup_path = common::root().join("tests/data/match.ron");
    let setup: ridgeline::session::MatchSetup =
        ridgeline::content::parse_ron(&setup_path, &common::read(&setup_path)).unwrap();
    let won = Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup,
        local: 1,
        frames: 3 * 60 * 30 + 15 * 30,
        final_hash: "0123456789abcdef".into(),
        commands: Vec::new(),
        checkpoints: Vec::new(),
        pace: Vec::new(),
        origin: None,
        winner: Some(2),
    };
    won.save(&dir.join("four_corners 2026-12-06 10-00.ron")).unwrap();
    // One made before the winner was kept, and a file that is no replay.
    Replay { winner: None, frames: 30 * 42, ..won.clone() }.save(&dir.join("four_corners old.ron")).unwrap();
    std::fs::write(dir.join("zz broken.ron"), "(").unwrap();
    // Newest first, whatever the names: the old-format one was written last here.
    let at = |name: &str, secs: u64| {
        let f = std::fs::File::options().write(true).open(dir.join(name)).unwrap();
        f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000 + secs)).unwrap();
    };
    at("four_corners 2026-12-06 10-00.ron", 10);
    at("four_corners old.ron", 20);
    at("zz broken.ron", 0);
    s.open(Screen::Replays);
    let rows = s.ui.list_rows(s.find("Replays.wnd:ListReplays").unwrap());
    let players = "Computer 1 (brutal), Player 2, Sparring";
    assert_eq!(
        rows,
        vec![
            vec!["Four Corners", players, "no winner", "0:42", "2027-01-15 08:00"],
            vec!["Four Corners", players, "Sparring won", "3:15", "2027-01-15 08:00"],
            vec!["zz broken.ron", "(unreadable)", "", "", "2027-01-15 08:00"],
        ]
    );
}

#[test]
fn a_list_cell_wider_than_its_column_is_cut_at_the_column_not_drawn_over_the_next() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::{Fonts, TextMeasure};
    let fonts = Fonts::load().expect("fonts");
    let (mut s, path) = shell("replay-list-long");
    let dir = path.parent().unwrap().join("replays");
    std::fs::create_dir_all(&dir).unwrap();
    let long = format!("{}.ron", "a very long replay name ".repeat(4));
    std::fs::write(dir.join(&long), "(").unwrap();
    s.open(Screen::Replays);
    let list = s.ui.window(s.find("Replays.wnd:ListReplays").unwrap()).unwrap().rect;
    let cmds = draw_list(&s.ui, &fonts, &|_, _| {});
    let (text, x, px) = cmds
        .iter()
        .find_map(|c| match c {
            DrawCmd::Text { text, x, px, .. } if text.starts_with("a very long") => Some((text.clone(), *x, *px)),
            _ => None,
        })
        .unwrap();
    // It ends in an ellipsis before the next column (18 % of the list's width) begins.
    assert!(text.ends_with('…') && text.len() < long.len(), "{text}");
    let right = x + fonts.width(&text, px, false);
    assert!(right <= list.x + 0.18 * list.w, "{text} ends at {right} in {list:?}");
    // The next cell ("(unreadable)") is drawn too, whole.
    assert!(cmds.iter().any(|c| matches!(c, DrawCmd::Text { text, .. } if text == "(unreadable)")));
}

#[test]
fn double_clicking_a_replay_watches_it() {
    let (mut s, path) = shell("watch-double");
    let dir = path.parent().unwrap().join("replays");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("crossroads 2.ron"), "()").unwrap();
    s.open(Screen::Replays);
    let list = s.find("Replays.wnd:ListReplays").unwrap();
    let r = s.ui.window(list).unwrap().rect;
    let (x, y) = (r.x + 20.0, r.y + 8.0);
    for _ in 0..2 {
        s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
        s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    }
    assert_eq!(s.take_requests(), [ShellRequest::WatchReplay(dir.join("crossroads 2.ron"))]);
}

#[test]
fn the_credits_fit_their_box_at_common_sizes() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::{Fonts, TextMeasure};
    let fonts = Fonts::load().expect("fonts");
    for size in [(800.0, 600.0), (1280.0, 720.0), (1920.0, 1080.0)] {
        let dir = common::temp_dir(&format!("credits-{}", size.0));
        let mut s = Shell::new(&common::roots(), size, dir.join("settings.ron")).unwrap();
        click(&mut s, "MainMenu.wnd:ButtonCredits");
        let text = s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().rect;
        // The lines drawn in the text area after the box's title (the menu lies underneath).
        let lines: Vec<(f32, f32, String, f32)> = draw_list(&s.ui, &fonts, &|_, _| {})
            .into_iter()
            .filter_map(|c| match c {
                DrawCmd::Text { x, y, text, px, .. } => Some((x, y, text, px)),
                _ => None,
            })
            .skip_while(|l| l.2 != "Credits")
            .filter(|(x, y, _, _)| text.contains(*x + 1.0, *y + 1.0))
            .collect();
        let all: String = lines.iter().map(|l| l.2.as_str()).collect::<Vec<_>>().join(" ");
        assert!(all.contains("Noto Sans") && all.ends_with("generators."), "{size:?}: {all}");
        for (x, y, line, px) in &lines {
            let (w, h) = (fonts.width(line, *px, false), fonts.line_height(*px));
            assert!(x + w <= text.right() + 0.5 && y + h <= text.bottom() + 0.5, "{size:?}: {line:?} runs out");
        }
    }
}

#[test]
fn clicking_a_map_lights_that_row_only() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::Fonts;
    let (mut s, _) = shell("shell-map-rows");
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    let list = s.find("SkirmishSetup.wnd:ListMaps").unwrap();
    let r = s.ui.window(list).unwrap().rect;
    let (x, y) = (r.x + 20.0, r.y + 8.0);
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    let names: Vec<String> = s.ui.list_rows(list).iter().map(|row| row[0].clone()).collect();
    let chosen = &names[s.ui.list_selected(list)[0]];
    let fonts = Fonts::load().expect("fonts");
    let colours: Vec<(String, [u8; 4])> = draw_list(&s.ui, &fonts, &|_, _| {})
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, color, .. } if names.contains(&text) => Some((text, color)),
            _ => None,
        })
        .collect();
    assert_eq!(colours.len(), names.len(), "every map is listed");
    let lit: Vec<&String> = colours.iter().filter(|(_, c)| *c == [235, 200, 110, 255]).map(|(t, _)| t).collect();
    assert_eq!(lit, [chosen], "only the chosen map is drawn in the highlight colour");
}

#[test]
fn the_first_battle_s_hint_is_dismissed_for_good() {
    let (mut s, path) = shell("shell-hint");
    let shown = |s: &Shell| s.ui.window(s.find("InGame.wnd:HintPanel").unwrap()).unwrap().visible();
    s.open(Screen::InGame);
    s.offer_hint(false);
    assert!(!shown(&s), "no hint while watching a replay");
    s.offer_hint(true);
    assert!(shown(&s), "the first battle shows the hint");
    let text = s.ui.window(s.find("InGame.wnd:HintText").unwrap()).unwrap().text.clone();
    assert!(text.contains("Barracks") && text.contains("destroy the enemy base"), "{text}");
    // Every line of it fits its box.
    use ridgeline::ui::font::TextMeasure;
    let fonts = ridgeline::ui::font::Fonts::load().unwrap();
    let area = s.ui.window(s.find("InGame.wnd:HintText").unwrap()).unwrap().rect;
    let lines: Vec<_> = ridgeline::ui::draw::draw_list(&s.ui, &fonts, &|_, _| {})
        .into_iter()
        .filter_map(|c| match c {
            ridgeline::ui::draw::DrawCmd::Text { x, y, text: t, px, .. } if !t.is_empty() && text.contains(&t) => {
                Some((x, y, t, px))
            }
            _ => None,
        })
        .collect();
    assert!(lines.len() >= 2, "{lines:?}");
    for (x, y, t, px) in &lines {
        let (w, h) = (fonts.width(t, *px, false), fonts.line_height(*px));
        assert!(
            *x >= area.x && x + w <= area.right() + 0.5 && y + h <= area.bottom() + 0.5,
            "{t:?} runs out of {area:?}"
        );
    }
    click(&mut s, "InGame.wnd:ButtonHintClose");
    assert!(!shown(&s));
    assert!(Settings::load(&path).unwrap().hint_seen, "remembered in the settings");
    // The next battle, even after a restart, has no hint.
    let mut again = Shell::new(&common::roots(), (1280.0, 720.0), path).unwrap();
    again.open(Screen::InGame);
    again.offer_hint(true);
    assert!(!shown(&again));
}

#[test]
fn the_replay_bar_shows_only_for_replays_and_asks_to_pause_change_speed_and_seek() {
    use ridgeline::game::shell::ReplayControl;
    let (mut s, _) = shell("shell-replay-bar");
    s.open(Screen::InGame);
    let shown = |s: &Shell| s.ui.window(s.find("InGame.wnd:ReplayBar").unwrap()).unwrap().visible();
    let text = |s: &Shell, n: &str| s.ui.window(s.find(n).unwrap()).unwrap().text.clone();
    s.bars().set_replay_bar(None, false, "1×", "", false);
    assert!(!shown(&s), "no bar in a battle");
    s.bars().set_replay_bar(Some((1_800, 7_200)), false, "2×", "Everything", false);
    assert!(shown(&s));
    assert_eq!(text(&s, "InGame.wnd:LabelReplayTime"), "1:00 / 4:00");
    assert_eq!(text(&s, "InGame.wnd:LabelReplaySpeed"), "2×");
    assert_eq!(text(&s, "InGame.wnd:ButtonReplayPlay"), "Pause");
    assert_eq!(text(&s, "InGame.wnd:ButtonReplayView"), "Everything");
    let seek = s.find("InGame.wnd:SliderReplaySeek").unwrap();
    assert_eq!(s.ui.slider_value(seek), Some(250), "a quarter of the way");
    // Take over needs one player's view; with it, the tooltip names whose seat.
    let take = s.find("InGame.wnd:ButtonReplayTakeOver").unwrap();
    assert!(!s.ui.window(take).unwrap().enabled());
    s.bars().set_replay_bar(Some((1_800, 7_200)), false, "2×", "Ann", true);
    assert!(s.ui.window(take).unwrap().enabled());
    assert!(s.ui.window(take).unwrap().tooltip.contains("as Ann"));
    for (button, asked) in [
        ("ButtonReplayPlay", ReplayControl::PlayPause),
        ("ButtonReplaySlower", ReplayControl::Slower),
        ("ButtonReplayFaster", ReplayControl::Faster),
        ("ButtonReplayView", ReplayControl::View),
        ("ButtonReplayTakeOver", ReplayControl::TakeOver),
    ] {
        click(&mut s, &format!("InGame.wnd:{button}"));
        assert_eq!(s.take_requests(), [ShellRequest::Replay(asked)], "{button}");
    }
    // Dragging the seek bar to its right end asks for the end.
    let r = s.ui.window(seek).unwrap().rect;
    s.handle(Input::MouseDown { x: r.x + r.w / 4.0, y: r.y + r.h / 2.0, button: MouseButton::Left });
    s.handle(Input::MouseMove { x: r.right() + 40.0, y: r.y + r.h / 2.0 });
    s.handle(Input::MouseUp { x: r.right() + 40.0, y: r.y + r.h / 2.0, button: MouseButton::Left });
    let asked = s.take_requests();
    assert_eq!(asked.last(), Some(&ShellRequest::Replay(ReplayControl::Seek(1_000))), "{asked:?}");
}

#[test]
fn options_opened_from_a_battle_return_to_it() {
    let (mut s, path) = shell("shell-options-in-battle");
    s.follow_battle(true, false);
    s.open(Screen::InGame);
    click(&mut s, "InGame.wnd:ButtonOptions");
    assert_eq!(s.screen(), Some(Screen::Options));
    click(&mut s, "Options.wnd:ButtonBack");
    assert_eq!(s.screen(), Some(Screen::InGame), "Back returns to the battle");
    click(&mut s, "InGame.wnd:ButtonOptions");
    let slider = s.find("Options.wnd:SliderScroll").unwrap();
    s.ui.slider_set(slider, 15);
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(s.screen(), Some(Screen::InGame), "so does Save");
    assert_eq!(Settings::load(&path).unwrap().scroll_speed, 15);
    // Over a battle the backdrop lets the battle show through, and Escape goes back.
    click(&mut s, "InGame.wnd:ButtonOptions");
    let parent = s.ui.window(s.find("Options.wnd:OptionsParent").unwrap()).unwrap();
    assert!(parent.enabled_draw.iter().all(|e| e.color[3] <= 150), "the battle shows through");
    // The key as the window delivers it, through the layout (a player pressed Escape there and
    // nothing happened: the layout's root heard of the key and nobody went back).
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert_eq!(s.screen(), Some(Screen::InGame), "Escape returns to the battle");
    assert!(!s.escape(), "Escape on the battle's own screen is the battle's");
    // With a widget of the screen focused (a slider dragged), Escape still goes back.
    click(&mut s, "InGame.wnd:ButtonOptions");
    click(&mut s, "Options.wnd:SliderScroll");
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert_eq!(s.screen(), Some(Screen::InGame), "Escape from a focused slider returns to the battle");
}

#[test]
fn a_long_tooltip_wraps_within_half_the_screen() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::{Fonts, TextMeasure};
    let (mut s, _) = shell("shell-long-tip");
    s.open(Screen::InGame);
    let long = "[R] WarFactory: $2000, 30 s, uses 4 power. Builds Coalition vehicles and aircraft. \
                Needs a finished Barracks first. Good against nothing at all, being a factory.";
    let view = ButtonView {
        label: "WarFactory $2000".into(),
        usable: false,
        tooltip: long.into(),
        icon: None,
        key: "R".into(),
    };
    s.bars().set_commands(&[view], "");
    let r = s.ui.window(s.find("InGame.wnd:ButtonCommand0").unwrap()).unwrap().rect;
    s.handle(Input::MouseMove { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0 });
    s.ui.advance(10_000);
    assert!(s.ui.tooltip().is_some(), "the greyed button's tooltip shows");
    let fonts = Fonts::load().unwrap();
    let lines: Vec<(String, f32)> = draw_list(&s.ui, &fonts, &|_, _| {})
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, px, .. } if long.contains(text.as_str()) && text.len() > 10 => Some((text, px)),
            _ => None,
        })
        .collect();
    assert!(lines.len() >= 2, "wrapped: {lines:?}");
    assert_eq!(lines.iter().map(|l| l.0.as_str()).collect::<Vec<_>>().join(" "), long);
    let half = s.ui.fit().screen.0 / 2.0;
    assert!(lines.iter().all(|(t, px)| fonts.width(t, *px, false) <= half), "{lines:?}");
}

#[test]
fn a_control_bar_tooltip_never_covers_the_selection_panel_or_the_radar() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::Fonts;
    let (mut s, _) = shell("shell-tip-beside-panel");
    s.open(Screen::InGame);
    let long = "[Y] Paladin: $2200, 22 s. A heavy tank with a rail cannon that pierces armour. \
                Needs a finished Uplink first. Good against tanks.";
    let view =
        ButtonView { label: "Paladin $2200".into(), usable: true, tooltip: long.into(), icon: None, key: "Y".into() };
    s.bars().set_commands(&vec![view; 9], "");
    let fonts = Fonts::load().unwrap();
    let panel = s.ui.window(s.find("InGame.wnd:SelectionPanel").unwrap()).unwrap().rect;
    let radar = s.ui.window(s.find("InGame.wnd:Radar").unwrap()).unwrap().rect;
    for i in 0..9 {
        let r = s.ui.window(s.find(&format!("InGame.wnd:ButtonCommand{i}")).unwrap()).unwrap().rect;
        s.handle(Input::MouseMove { x: r.x + r.w - 3.0, y: r.y + r.h / 2.0 });
        s.ui.advance(10_000);
        let tip = draw_list(&s.ui, &fonts, &|_, _| {}).into_iter().find_map(|c| match c {
            DrawCmd::Fill { rect, color: [16, 18, 20, 235] } => Some(rect),
            _ => None,
        });
        let tip = tip.unwrap_or_else(|| panic!("button {i}'s tip shows"));
        for (name, p) in [("selection panel", panel), ("radar", radar)] {
            let covers = tip.x < p.x + p.w && p.x < tip.x + tip.w && tip.y < p.y + p.h && p.y < tip.y + tip.h;
            assert!(!covers, "button {i}'s tip {tip:?} covers the {name} {p:?}");
        }
        s.handle(Input::MouseMove { x: 1.0, y: 1.0 });
    }
}

#[test]
fn the_control_bar_s_buttons_share_one_text_size() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::Fonts;
    let (mut s, _) = shell("shell-uniform-text");
    s.open(Screen::InGame);
    let button = |label: &str, key: &str| ButtonView {
        label: label.into(),
        usable: true,
        tooltip: String::new(),
        icon: Some("@icon/Rifleman".into()),
        key: key.into(),
    };
    let fonts = Fonts::load().unwrap();
    let size = |s: &Shell, word: &str| {
        draw_list(&s.ui, &fonts, &|_, _| {}).into_iter().find_map(|c| match c {
            DrawCmd::Text { text, px, .. } if text == word => Some(px),
            _ => None,
        })
    };
    // A short label alone keeps its size; beside one whose long word must shrink to fit its
    // button, both shrink alike.
    s.bars().set_commands(&[button("Rifleman\n$225", "Q")], "");
    let alone = size(&s, "Rifleman").unwrap();
    s.bars().set_commands(&[button("Rifleman\n$225", "Q"), button("Grenadiergrenadiergrenadier\n$300", "W")], "");
    let (short, long) = (size(&s, "Rifleman").unwrap(), size(&s, "Grenadiergrenadiergrenadier").unwrap());
    assert!(short < alone * 0.95, "the row shrank: {alone} → {short}");
    assert_eq!(short, long, "both buttons' labels at one size");
}

#[test]
fn a_label_that_wraps_past_its_buttons_height_shrinks_to_stay_inside() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::{Fonts, TextMeasure};
    let (mut s, _) = shell("shell-tall-label");
    s.open(Screen::InGame);
    // Words that each fit but not side by side, over a price: four lines at full size.
    let view = ButtonView {
        label: "Powerful Station Relay Tower Complex\n$600".into(),
        usable: true,
        tooltip: String::new(),
        icon: Some("@icon/PowerStation".into()),
        key: "Q".into(),
    };
    s.bars().set_commands(&[view], "");
    let r = s.ui.window(s.find("InGame.wnd:ButtonCommand0").unwrap()).unwrap().rect;
    let fonts = Fonts::load().unwrap();
    let lines: Vec<(String, f32, f32)> = draw_list(&s.ui, &fonts, &|_, _| {})
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, x, y, px, .. } if x >= r.x && x < r.right() && y >= r.y - 20.0 && y < r.bottom() => {
                Some((text, y, px))
            }
            _ => None,
        })
        .filter(|(t, ..)| t != "Q")
        .collect();
    assert!(lines.iter().any(|(t, ..)| t == "$600"), "{lines:?}");
    // Every word fits the width at full size: only the height made it shrink.
    let full = s.ui.font_px(s.find("InGame.wnd:ButtonCommand0").unwrap());
    assert!(lines[0].2 < full, "shrunk from {full}: {lines:?}");
    for (t, y, px) in &lines {
        assert!(*y >= r.y && y + fonts.line_height(*px) <= r.bottom() + 1.0, "{t:?} at {y} outside {r:?}");
    }
}

#[test]
fn the_volume_sliders_are_heard_as_they_move_and_back_undoes_them() {
    let (mut s, path) = shell("shell-volumes");
    let saved = s.volumes();
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let drag_left = |s: &mut Shell, name: &str| {
        let slider = s.find(name).unwrap();
        let r = s.ui.window(slider).unwrap().rect;
        s.handle(Input::MouseDown { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0, button: MouseButton::Left });
        s.handle(Input::MouseMove { x: r.x - 50.0, y: r.y });
        s.handle(Input::MouseUp { x: r.x - 50.0, y: r.y, button: MouseButton::Left });
    };
    drag_left(&mut s, "Options.wnd:SliderMaster");
    assert_eq!(s.volumes().master, 0, "the master slider is heard at once");
    assert_eq!(s.volumes().voice, saved.voice);
    click(&mut s, "Options.wnd:ButtonBack");
    assert_eq!(s.volumes(), saved, "Back undoes what was not saved");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    drag_left(&mut s, "Options.wnd:SliderVoice");
    click(&mut s, "Options.wnd:ButtonSave");
    let on_disk = Settings::load(&path).unwrap();
    assert_eq!((on_disk.voice_volume, on_disk.master_volume), (0, saved.master));
    assert_eq!(s.volumes().voice, 0);
}

#[test]
fn buttons_click_and_tick_and_a_layout_may_name_its_own_sounds_or_none() {
    let (mut s, _) = shell("shell-sounds");
    s.take_sounds();
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let heard = s.take_sounds();
    assert!(heard.contains(&"UiHover".to_string()) && heard.contains(&"UiClick".to_string()), "{heard:?}");
    // A label makes no sound when the pointer crosses it.
    let label = s.find("Options.wnd:LabelMaster").unwrap();
    let r = s.ui.window(label).unwrap().rect;
    s.handle(Input::MouseMove { x: r.x + 2.0, y: r.y + 2.0 });
    assert!(s.take_sounds().is_empty());
    // The layout's own keys.
    let wnd = ridgeline::ui::wnd::parse(
        "T.wnd",
        "WINDOW\n WINDOWTYPE = PUSHBUTTON;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:B\";\n CLICKSOUND = \"Sold\";\n HOVERSOUND = \"[None]\";\nEND\n",
    )
    .unwrap();
    let b = &wnd.windows[0];
    assert_eq!((b.click_sound.as_deref(), b.hover_sound.as_deref()), (Some("Sold"), Some("")));
}

#[test]
fn a_mod_layout_without_a_window_the_game_needs_is_refused_naming_it() {
    let dir = common::temp_dir("shell-mod-missing");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let options = common::read(&common::root().join("ui/Options.wnd"))
        .replace("Options.wnd:SliderVoice", "Options.wnd:SliderVox");
    std::fs::write(dir.join("ui/Options.wnd"), options).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let e = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains("Options.wnd") && e.contains("Options.wnd:SliderVoice"), "{e}");
}

#[test]
fn the_compact_hud_mod_moves_the_radar_and_the_control_bar_and_the_battle_runs_with_it() {
    let dir = common::root().join("mods/compact-hud");
    let info = ridgeline::content::mod_info::ModInfo::load(&dir).unwrap().expect("mod.ron");
    assert_eq!(info.name, "Compact HUD");
    let roots = common::roots().with_mod(dir);
    let settings = common::temp_dir("shell-compact").join("settings.ron");
    let mut s = Shell::new(&roots, (1280.0, 720.0), settings).expect("the mod's layout loads");
    s.open(Screen::InGame);
    let rect = |s: &Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().rect;
    let radar = rect(&s, "InGame.wnd:Radar");
    assert!(radar.x > 1000.0 && radar.y < 100.0, "the radar is top right: {radar:?}");
    let first = rect(&s, "InGame.wnd:ButtonCommand0");
    let second_row = rect(&s, "InGame.wnd:ButtonCommand2");
    assert!(first.x < 100.0 && second_row.y > first.y, "a column on the left: {first:?} {second_row:?}");
    // The stock layout keeps them where they were.
    let (mut stock, _) = shell("shell-compact-stock");
    stock.open(Screen::InGame);
    assert!(rect(&stock, "InGame.wnd:Radar").x < 100.0);
    // A battle under the mod's HUD fills its control bar as before.
    let mut cfg = ridgeline::game::shell::SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    let setup = cfg.to_match_setup("proving_grounds", 2, &common::playable(), "Tester", 1);
    let mut b = Battle::start(&roots, &setup, glam::Vec2::new(1280.0, 720.0)).unwrap();
    let post = b.world().objects().find(|o| o.owner == b.local() && o.kind.blocks_ground()).unwrap().id;
    b.controls().show_selected(vec![post]);
    let labels: Vec<ButtonView> = b.look().commands().into_iter().map(|c| c.view()).collect();
    assert!(!labels.is_empty());
    s.bars().set_commands(&labels, &b.queue_text());
    let button = s.ui.window(s.find("InGame.wnd:ButtonCommand0").unwrap()).unwrap();
    assert_eq!(button.text, labels[0].label);
}

#[test]
fn the_mods_screen_lists_turns_on_orders_saves_and_refuses_a_broken_mod() {
    let (mut s, path) = shell("shell-mods");
    let mods = path.parent().unwrap().join("mods");
    let good = mods.join("bigger-radar");
    std::fs::create_dir_all(good.join("ui")).unwrap();
    std::fs::write(good.join("mod.ron"), "(name: \"Bigger Radar\", version: \"2\", author: \"Ada\", description: \"A larger radar.\", game_version: \"0.1\")").unwrap();
    std::fs::copy(common::root().join("mods/compact-hud/ui/InGame.wnd"), good.join("ui/InGame.wnd")).unwrap();
    let broken = mods.join("broken");
    std::fs::create_dir_all(broken.join("ui")).unwrap();
    std::fs::write(broken.join("ui/Options.wnd"), "WINDOW\n WINDOWTYPE = NOPE;\nEND\n").unwrap();
    click(&mut s, "MainMenu.wnd:ButtonMods");
    assert_eq!(s.screen(), Some(Screen::Mods));
    let ids: Vec<String> = s.mod_rows().iter().map(|m| m.id.clone()).collect();
    for id in ["bigger-radar", "broken", "compact-hud"] {
        assert!(ids.contains(&id.to_string()), "{ids:?}");
    }
    let list = s.find("Mods.wnd:ListMods").unwrap();
    let row_of = |s: &Shell, id: &str| s.mod_rows().iter().position(|m| m.id == id).unwrap();
    let pick = |s: &mut Shell, i: usize| {
        s.ui.list_select(list, Some(i));
        s.dispatch();
    };
    // The broken one says why, with the file and line, and cannot be turned on.
    let b = row_of(&s, "broken");
    pick(&mut s, b);
    click(&mut s, "Mods.wnd:ButtonToggle");
    assert!(s.message_open(), "refused with a message");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(s.mod_rows()[b].problems.iter().any(|p| p.contains("Options.wnd:2")), "{:?}", s.mod_rows()[b].problems);
    assert!(!s.mod_rows()[b].enabled);
    assert_eq!(s.ui.list_rows(list)[b][0], "broken");
    // Turn on both good ones, then move the second above the first.
    for id in ["compact-hud", "bigger-radar"] {
        let i = row_of(&s, id);
        pick(&mut s, i);
        click(&mut s, "Mods.wnd:ButtonToggle");
        assert!(s.mod_rows()[row_of(&s, id)].enabled, "{id} on");
    }
    let details = s.ui.window(s.find("Mods.wnd:ModDetails").unwrap()).unwrap().text.clone();
    assert!(details.contains("Bigger Radar 2 by Ada") && details.contains("Replaces: ui/InGame.wnd"), "{details}");
    let (c, r) = (row_of(&s, "compact-hud"), row_of(&s, "bigger-radar"));
    if r > c {
        pick(&mut s, r);
        for _ in 0..(r - c) {
            click(&mut s, "Mods.wnd:ButtonUp");
        }
    }
    assert!(row_of(&s, "bigger-radar") < row_of(&s, "compact-hud"));
    s.take_requests();
    click(&mut s, "Mods.wnd:ButtonSave");
    assert!(s.take_requests().iter().any(|q| matches!(q, ShellRequest::ApplyMods)));
    let saved = Settings::load(&path).unwrap();
    assert_eq!(saved.mods, vec!["bigger-radar".to_string(), "compact-hud".to_string()]);
    // The roots put them after a --mod folder and before the game, in that order.
    let cli = common::temp_dir("shell-mods-cli");
    let base = common::roots().with_mod(cli.clone());
    let roots = saved.roots_with_mods(&base, 1, &path);
    assert_eq!(roots.roots()[0], cli);
    assert_eq!(roots.roots()[1], good);
    assert!(roots.roots()[2].ends_with("mods/compact-hud"));
    assert_eq!(roots.roots().last(), common::roots().roots().last());
}

/// The window called `name` in a layout tree.
fn find<'a>(ws: &'a [WindowDef], name: &str) -> Option<&'a WindowDef> {
    ws.iter().find_map(|w| if w.name == name { Some(w) } else { find(&w.children, name) })
}

/// The Options screen with the layout editor on (modder mode ticked).
fn editing_options(name: &str) -> Shell {
    let (mut s, _) = shell(name);
    s.prefs.settings.modder_mode = true;
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    s.toggle_editor();
    s
}

/// The pointer moved to (x, y), pressed and let go there.
fn press_at(s: &mut Shell, x: f32, y: f32) {
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
}

/// A press just inside the top-left corner of the window `name` (an editor selects it).
fn press_window(s: &mut Shell, name: &str) {
    let r = s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().rect;
    press_at(s, r.x + 5.0, r.y + 5.0);
}

/// A press on the first row of the editor's tree.
fn press_first_tree_row(s: &mut Shell) {
    let r = s.ui.window(s.find("Editor.wnd:ListTree").unwrap()).unwrap().rect;
    press_at(s, r.x + 20.0, r.y + 4.0);
}

/// The text field `field` emptied, `text` typed into it and Enter pressed.
fn type_into(s: &mut Shell, field: &str, text: &str) {
    click(s, field);
    s.handle(Input::Key { key: Key::End, shift: false });
    for _ in 0..200 {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in text.chars() {
        s.handle(Input::Char(c));
    }
    s.handle(Input::Key { key: Key::Enter, shift: false });
}

#[test]
fn the_layout_editor_selects_moves_nudges_undoes_and_saves_into_a_mod() {
    let (mut s, path) = shell("shell-editor");
    let game_file = common::read(&common::root().join("ui/Options.wnd"));
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    // F10 does nothing until modder mode is ticked in Options (and saved).
    s.toggle_editor();
    assert!(!s.editing());
    click(&mut s, "Options.wnd:CheckModder");
    click(&mut s, "Options.wnd:ButtonSave");
    assert!(Settings::load(&path).unwrap().modder_mode);
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    s.toggle_editor();
    assert!(s.editing());
    let name = "Options.wnd:SliderMaster";
    let original = find(&s.editor().unwrap().tree.windows, name).unwrap().rect;
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    let (x, y) = (r.x + r.w / 2.0, r.y + r.h / 2.0);
    // The pointer is still followed while editing (the window reads clicks at the UI's cursor).
    s.handle(Input::MouseMove { x, y });
    assert_eq!(s.ui.cursor(), (x, y));
    // Click selects; a drag of 60 px right moves it 50 authoring units (720 / 600 = 1.2).
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(name));
    s.handle(Input::MouseMove { x: x + 60.0, y });
    s.handle(Input::MouseUp { x: x + 60.0, y, button: MouseButton::Left });
    let dragged = find(&s.editor().unwrap().tree.windows, name).unwrap().rect;
    // Its top edge snaps onto the label beside it (two units above, at 320).
    assert_eq!(original.upper_left.1, 322);
    assert_eq!(dragged.upper_left, (original.upper_left.0 + 50, 320));
    let on_screen = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    assert!((on_screen.x - (r.x + 60.0)).abs() <= 1.0, "the screen shows it at once: {on_screen:?}");
    // Shift+Down nudges ten, Left one.
    s.handle(Input::Key { key: Key::Down, shift: true });
    s.handle(Input::Key { key: Key::Left, shift: false });
    let nudged = find(&s.editor().unwrap().tree.windows, name).unwrap().rect;
    assert_eq!(nudged.upper_left, (dragged.upper_left.0 - 1, dragged.upper_left.1 + 10));
    // Undo twice: back to the drag; redo once.
    s.handle(Input::Char('u'));
    s.handle(Input::Char('u'));
    assert_eq!(find(&s.editor().unwrap().tree.windows, name).unwrap().rect, dragged);
    s.handle(Input::Char('r'));
    let edited = s.editor().unwrap().tree.clone();
    // Save: the first save of one of the game's own layouts asks first, saying where it goes;
    // Cancel saves nothing.
    let saved = path.parent().unwrap().join("mods/my-layouts/ui/Options.wnd");
    s.handle(Input::Char('s'));
    let asked = s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().text.clone();
    assert!(asked.contains("Options.wnd is one of the game's own layouts") && asked.contains("my-layouts"), "{asked}");
    click(&mut s, "MessageBox.wnd:ButtonCancel");
    assert!(!saved.exists() && !s.message_open(), "cancelled: nothing saved");
    // Asked again and answered OK: into the player's own mod, never the game's file; the saved
    // text reads back as the edited tree.
    s.handle(Input::Char('s'));
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(s.message_open(), "says where it saved");
    let text = common::read(&saved);
    assert_eq!(text, ridgeline::ui::wnd::write(&edited));
    let back = ridgeline::ui::wnd::parse("Options.wnd", &text).unwrap();
    assert_eq!(find(&back.windows, name).unwrap().rect, find(&edited.windows, name).unwrap().rect);
    assert!(path.parent().unwrap().join("mods/my-layouts/mod.ron").is_file());
    assert_eq!(common::read(&common::root().join("ui/Options.wnd")), game_file, "the game's own file is untouched");
    // The player's own layouts mod was off: it is turned on, first, so the save is what shows.
    assert_eq!(Settings::load(&path).unwrap().mods.first().map(String::as_str), Some("my-layouts"));
    assert!(s.take_requests().contains(&ShellRequest::ApplyMods));
    let said = s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().text.clone();
    assert!(said.contains("it is on now"), "{said}");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    s.handle(Input::Key { key: Key::Escape, shift: false });
    assert!(!s.editing());
}

#[test]
fn the_layout_editors_handles_resize_from_each_side_and_a_press_inside_still_moves() {
    let mut s = editing_options("shell-editor-handles");
    let name = "Options.wnd:ButtonBack";
    let rect_of = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().rect;
    press_window(&mut s, name);
    let before = rect_of(&s);
    let drag = |s: &mut Shell, (x, y): (f32, f32), (dx, dy): (f32, f32)| {
        s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
        s.handle(Input::MouseMove { x: x + dx, y: y + dy });
        s.handle(Input::MouseUp { x: x + dx, y: y + dy, button: MouseButton::Left });
    };
    // The top-left handle: 36 px up and left is 30 units (scale 1.2; clear of the relay row's
    // edges, which would snap it); the bottom-right stays.
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    drag(&mut s, (r.x, r.y), (-36.0, -36.0));
    let after = rect_of(&s);
    assert_eq!(after.bottom_right, before.bottom_right);
    assert_eq!(after.upper_left, (before.upper_left.0 - 30, before.upper_left.1 - 30));
    // The right edge's middle handle: only the right edge moves, and only across.
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    drag(&mut s, (r.right(), r.y + r.h / 2.0), (36.0, 30.0));
    let after2 = rect_of(&s);
    assert_eq!((after2.upper_left, after2.bottom_right.1), (after.upper_left, after.bottom_right.1));
    assert_eq!(after2.bottom_right.0, after.bottom_right.0 + 30);
    // A press five pixels inside the corner is the window: the drag moves it, size kept.
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    drag(&mut s, (r.x + 5.0, r.y + 5.0), (12.0, 0.0));
    let moved = rect_of(&s);
    assert_eq!(moved.upper_left.0, after2.upper_left.0 + 10);
    assert_eq!(moved.bottom_right.0 - moved.upper_left.0, after2.bottom_right.0 - after2.upper_left.0);
    // The handles are drawn: eight squares over the selected window's outline.
    let overlay = s.editor_overlay();
    let squares = overlay
        .iter()
        .filter(|c| matches!(c, ridgeline::ui::draw::DrawCmd::Fill { rect, .. } if rect.w < 10.0 && rect.h < 10.0))
        .count();
    assert_eq!(squares, 16, "eight handles, each a dark square under a bright one");
    // Three undos give back the window as it was.
    for _ in 0..3 {
        click(&mut s, "Editor.wnd:ButtonUndo");
    }
    assert_eq!(rect_of(&s), before);
}

#[test]
fn the_layout_editor_resizes_types_duplicates_and_deletes_with_undo() {
    let mut s = editing_options("shell-editor-2");
    let name = "Options.wnd:ButtonBack";
    let tree = |s: &Shell| s.editor().unwrap().tree.clone();
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    press_window(&mut s, name);
    let before = find(&tree(&s).windows, name).unwrap().rect;
    // From the bottom-right corner a drag resizes: 24 px wider is 20 units (scale 1.2).
    let (cx, cy) = (r.right() - 2.0, r.bottom() - 2.0);
    s.handle(Input::MouseDown { x: cx, y: cy, button: MouseButton::Left });
    s.handle(Input::MouseMove { x: cx + 24.0, y: cy });
    s.handle(Input::MouseUp { x: cx + 24.0, y: cy, button: MouseButton::Left });
    let after = find(&tree(&s).windows, name).unwrap().rect;
    assert_eq!(after.upper_left, before.upper_left);
    assert_eq!(after.bottom_right, (before.bottom_right.0 + 20, before.bottom_right.1));
    // `t` types its text (over the words its label gives; Backspace removes them), Enter ends.
    s.handle(Input::Char('t'));
    for _ in 0.."Options:ButtonBack".len() {
        s.handle(Input::Key { key: Key::Backspace, shift: false });
    }
    for c in "Return".chars() {
        s.handle(Input::Char(c));
    }
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(find(&tree(&s).windows, name).unwrap().text, "Return");
    assert_eq!(s.ui.window(s.find(name).unwrap()).unwrap().text, "Return", "shown at once");
    // `d` duplicates beside it; Delete removes the copy; undo brings it back.
    let count = |s: &Shell| tree(s).all_windows().len();
    let n = count(&s);
    s.handle(Input::Char('d'));
    assert_eq!(count(&s), n + 1);
    let copy = s.editor().unwrap().selected.clone().unwrap();
    assert_eq!(copy, format!("{name}2"));
    assert_eq!(
        find(&tree(&s).windows, &copy).unwrap().rect.upper_left,
        (after.upper_left.0 + 10, after.upper_left.1 + 10)
    );
    s.handle(Input::Key { key: Key::Delete, shift: false });
    assert_eq!(count(&s), n);
    s.handle(Input::Char('u'));
    assert_eq!(count(&s), n + 1);
    // Undo all the way takes back the typing and the resize too.
    for _ in 0..60 {
        s.handle(Input::Char('u'));
    }
    assert_eq!(find(&tree(&s).windows, name).unwrap().rect, before);
    // The layout gives the label; the string table words it.
    assert_eq!(find(&tree(&s).windows, name).unwrap().text, "Options:ButtonBack");
}

/// Words typed into a window that are the words of a label of its layout are stored as that
/// label (the window's own first), by the panel's field and by `t`; other words as they are.
#[test]
fn the_layout_editor_stores_words_from_the_string_table_as_their_label() {
    let mut s = editing_options("shell-editor-labels");
    let name = "Options.wnd:ButtonBack";
    let text = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().text.clone();
    press_window(&mut s, name);
    // "Back" is the words of Options:ButtonBack (and of other labels): its own label stays.
    type_into(&mut s, "Editor.wnd:EntryText", "Back");
    assert_eq!(text(&s), "Options:ButtonBack");
    // "Fullscreen" is another Options label's words: that label is written.
    type_into(&mut s, "Editor.wnd:EntryText", "Fullscreen");
    assert_eq!(text(&s), "Options:CheckFullscreen");
    assert_eq!(s.ui.window(s.find(name).unwrap()).unwrap().text, "Fullscreen", "shown in the table's words");
    // "Quit" is only another screen's words (the main menu's): stored as typed.
    type_into(&mut s, "Editor.wnd:EntryText", "Quit");
    assert_eq!(text(&s), "Quit");
    type_into(&mut s, "Editor.wnd:EntryText", "Fullscreen");
    // `t` on a label types over its words; words of no entry are stored as they are.
    press_window(&mut s, name);
    s.handle(Input::Char('t'));
    assert_eq!(text(&s), "Fullscreen", "the label's words to type over");
    s.handle(Input::Char('!'));
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(text(&s), "Fullscreen!");
    // Typed back to an entry's words, the label returns.
    s.handle(Input::Char('t'));
    s.handle(Input::Key { key: Key::Backspace, shift: false });
    s.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(text(&s), "Options:CheckFullscreen");
}

#[test]
fn the_editors_own_panel_edits_text_and_chooses_a_callback_from_the_lexicon() {
    let mut s = editing_options("shell-editor-panel");
    assert!(s.find("Editor.wnd:EditorPanel").is_some(), "the panel is a layout of its own");
    // Select the Back button by clicking it (the panel does not cover it).
    let name = "Options.wnd:ButtonBack";
    press_window(&mut s, name);
    let label = s.ui.window(s.find("Editor.wnd:LabelSelected").unwrap()).unwrap().text.clone();
    assert_eq!(label, name);
    // The field shows the layout's own text: its label (the screen shows the table's words).
    assert_eq!(s.ui.entry_text(s.find("Editor.wnd:EntryText").unwrap()), "Options:ButtonBack");
    assert_eq!(s.ui.window(s.find(name).unwrap()).unwrap().text, "Back");
    // Type a new caption into the panel's field; Enter applies it.
    type_into(&mut s, "Editor.wnd:EntryText", "Leave");
    let tree = s.editor().unwrap().tree.clone();
    assert_eq!(find(&tree.windows, name).unwrap().text, "Leave");
    assert_eq!(s.ui.window(s.find(name).unwrap()).unwrap().text, "Leave");
    // The callback is chosen from the game's own names: one step down from "[None]".
    use ridgeline::ui::lexicon::CallbackKind;
    let lexicon = ridgeline::game::shell::callbacks::lexicon();
    combo_step(&mut s, "Editor.wnd:ComboCallback", 1);
    let chosen = find(&s.editor().unwrap().tree.windows, name).unwrap().system_callback.clone();
    assert_eq!(chosen, Some(lexicon.names(CallbackKind::System)[0].clone()));
    // The draw callback the same way: its kind chosen beside the list, the list the lexicon's
    // draw names; the system callback stays.
    let draw_before = find(&s.editor().unwrap().tree.windows, name).unwrap().draw_callback.clone();
    combo_step(&mut s, "Editor.wnd:ComboCallbackKind", 3);
    let list = s.find("Editor.wnd:ComboCallback").unwrap();
    let draws = lexicon.names(CallbackKind::Draw);
    let shown = s.ui.combo_selected(list).unwrap();
    assert_eq!(Some(draws[shown - 1].clone()), draw_before, "the list shows the window's draw callback");
    combo_step(&mut s, "Editor.wnd:ComboCallback", -1);
    let w = find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    assert_eq!(w.draw_callback, if shown >= 2 { Some(draws[shown - 2].clone()) } else { None });
    assert_eq!(w.system_callback, chosen);
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(find(&s.editor().unwrap().tree.windows, name).unwrap().draw_callback, draw_before);
    // Close leaves the editor and takes the panel away.
    click(&mut s, "Editor.wnd:ButtonClose");
    assert!(!s.editing());
    assert!(s.find("Editor.wnd:EditorPanel").is_none());
}

#[test]
fn the_editor_adds_a_gadget_from_its_palette_and_reorders_siblings() {
    let mut s = editing_options("shell-editor-add");
    let tree = |s: &Shell| s.editor().unwrap().tree.clone();
    // Select the panel (Tab walks from the root to its first child; Shift+Tab walks back
    // and round to the last window), then add a push button.
    s.handle(Input::Key { key: Key::Tab, shift: false });
    s.handle(Input::Key { key: Key::Tab, shift: false });
    let walked = s.editor().unwrap().selected.clone();
    s.handle(Input::Key { key: Key::Tab, shift: true });
    s.handle(Input::Key { key: Key::Tab, shift: true });
    let all = s.editor().unwrap().tree.all_windows().iter().map(|w| w.name.clone()).collect::<Vec<_>>();
    assert_eq!(s.editor().unwrap().selected.as_ref(), all.last(), "two back from the second is the last");
    s.handle(Input::Key { key: Key::Tab, shift: false });
    s.handle(Input::Key { key: Key::Tab, shift: false });
    assert_eq!(s.editor().unwrap().selected, walked);
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some("Options.wnd:OptionsPanel"));
    let children =
        |s: &Shell| tree(s).windows[0].children[0].children.iter().map(|w| w.name.clone()).collect::<Vec<_>>();
    let before = children(&s);
    combo_step(&mut s, "Editor.wnd:ComboAdd", 0);
    click(&mut s, "Editor.wnd:ButtonAdd");
    let after = children(&s);
    assert_eq!(after.len(), before.len() + 1);
    let added = after.last().unwrap().clone();
    assert_eq!(added, "Options.wnd:Newpushbutton1");
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(added.as_str()));
    assert!(s.find(&added).is_some(), "it is on screen at once");
    // `[` moves it one place earlier among its siblings, `]` back; undo removes it.
    s.handle(Input::Char('['));
    let moved = children(&s);
    assert_eq!(moved[moved.len() - 2], added);
    s.handle(Input::Char(']'));
    assert_eq!(children(&s).last().unwrap(), &added);
    for _ in 0..3 {
        s.handle(Input::Char('u'));
    }
    assert_eq!(children(&s), before);
}

#[test]
fn the_editors_panel_sets_a_windows_anchors() {
    let mut s = editing_options("shell-editor-anchor");
    let name = "Options.wnd:ButtonSave";
    press_window(&mut s, name);
    let was = find(&s.editor().unwrap().tree.windows, name).unwrap().anchor.unwrap_or_default();
    let right = s.find("Editor.wnd:CheckAnchorRight").unwrap();
    assert_eq!(s.ui.checked(right), was.right, "the panel shows the window's anchors");
    click(&mut s, "Editor.wnd:CheckAnchorRight");
    let now = find(&s.editor().unwrap().tree.windows, name).unwrap().anchor.unwrap();
    assert_eq!(now.right, !was.right);
    assert_eq!((now.left, now.top, now.bottom), (was.left, was.top, was.bottom));
    assert!(ridgeline::ui::wnd::write(&s.editor().unwrap().tree).contains("ANCHOR = "));
    s.handle(Input::Char('u'));
    assert_eq!(find(&s.editor().unwrap().tree.windows, name).unwrap().anchor.unwrap_or_default(), was);
}

#[test]
fn the_editors_panel_sets_status_flags_font_and_text_colour() {
    let mut s = editing_options("shell-editor-style");
    let name = "Options.wnd:ButtonSave";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    // The panel shows what the layout says: enabled, not hidden, the font's size.
    assert!(s.ui.checked(s.find("Editor.wnd:CheckStatusEnabled").unwrap()));
    assert!(!s.ui.checked(s.find("Editor.wnd:CheckStatusHidden").unwrap()));
    let size = before.font.as_ref().unwrap().size;
    assert_eq!(s.ui.entry_text(s.find("Editor.wnd:EntryFontSize").unwrap()), size.to_string());
    // Border on: the BORDER bit and nothing else changes.
    click(&mut s, "Editor.wnd:CheckStatusBorder");
    let border = ridgeline::ui::wnd::model::STATUS_FLAGS.iter().find(|f| f.0 == "BORDER").unwrap().1;
    assert_eq!(def(&s).status, before.status | border);
    // A new size, typed and applied with Enter; then bold.
    type_into(&mut s, "Editor.wnd:EntryFontSize", "20");
    assert_eq!(def(&s).font.unwrap().size, 20);
    click(&mut s, "Editor.wnd:CheckFontBold");
    assert_eq!(def(&s).font.unwrap().bold, !before.font.as_ref().unwrap().bold);
    // A colour as three numbers (alpha 255); nonsense leaves the colour alone.
    type_into(&mut s, "Editor.wnd:EntryColor", "200 40 40");
    assert_eq!(def(&s).text_colors.enabled, [200, 40, 40, 255]);
    type_into(&mut s, "Editor.wnd:EntryColor", "1 2");
    assert_eq!(def(&s).text_colors.enabled, [200, 40, 40, 255]);
    assert!(s.editor().unwrap().note.as_deref().is_some_and(|n| n.starts_with("not changed: a colour")));
    assert_eq!(s.ui.entry_text(s.find("Editor.wnd:EntryColor").unwrap()), "200 40 40 255");
    // The written layout carries all of it; four undos give back the window as it was.
    let text = ridgeline::ui::wnd::write(&s.editor().unwrap().tree);
    assert!(text.contains("+BORDER") && text.contains("SIZE: 20") && text.contains("ENABLED: 200 40 40 255"));
    for _ in 0..4 {
        click(&mut s, "Editor.wnd:ButtonUndo");
    }
    assert_eq!(def(&s), before);
}

#[test]
fn the_editors_tree_lists_the_layouts_windows_and_selects_the_one_clicked() {
    let mut s = editing_options("shell-editor-tree");
    let list = s.find("Editor.wnd:ListTree").expect("the tree is part of the editor's layout");
    let order: Vec<String> = s.editor().unwrap().tree.all_windows().iter().map(|w| w.name.clone()).collect();
    let rows = s.ui.list_rows(list);
    assert_eq!(rows.len(), order.len(), "a row per window");
    // Rows show short names, children indented under their parent.
    assert_eq!(rows[0][0], order[0].split(':').nth(1).unwrap());
    assert!(rows[1][0].starts_with("  "), "{:?}", rows[1]);
    // A click on the first row selects the layout's first window; Tab walks the tree (the
    // list does not keep the keys: Down nudges the picked window, as on the screen).
    press_first_tree_row(&mut s);
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(order[0].as_str()));
    let top = find(&s.editor().unwrap().tree.windows, &order[0]).unwrap().rect.upper_left.1;
    s.handle(Input::Key { key: Key::Down, shift: false });
    assert_eq!(find(&s.editor().unwrap().tree.windows, &order[0]).unwrap().rect.upper_left.1, top + 1);
    s.handle(Input::Key { key: Key::Tab, shift: false });
    s.handle(Input::Key { key: Key::Tab, shift: false });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(order[2].as_str()));
    let label = s.ui.window(s.find("Editor.wnd:LabelSelected").unwrap()).unwrap().text.clone();
    assert_eq!(label, order[2]);
    // Selecting on the screen marks the window's row in the tree.
    let name = "Options.wnd:ButtonBack";
    press_window(&mut s, name);
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(name));
    let list = s.find("Editor.wnd:ListTree").unwrap();
    let row = order.iter().position(|n| n == name).unwrap();
    assert_eq!(s.ui.list_selected(list), vec![row]);
    // Its row is scrolled into view (the tree is longer than the list is high).
    let shown = s.ui.list_scroll(list);
    let high = (s.ui.window(list).unwrap().rect.h / 10.0) as usize;
    assert!(shown <= row && row < shown + high, "row {row}, first shown {shown}");
    assert!(shown > 0, "the Back button's row is below the first screenful");
}

#[test]
fn shift_click_gathers_windows_and_the_tools_line_them_up_with_the_selected_one() {
    let mut s = editing_options("shell-editor-align");
    let rect = |s: &Shell, name: &str| find(&s.editor().unwrap().tree.windows, name).unwrap().rect;
    let (primary, a, b) = ("Options.wnd:ButtonBack", "Options.wnd:ButtonSave", "Options.wnd:EntryName");
    press_window(&mut s, primary);
    s.set_shift(true);
    press_window(&mut s, a);
    press_window(&mut s, b);
    s.set_shift(false);
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(primary));
    assert_eq!(s.editor().unwrap().group, vec![a.to_string(), b.to_string()]);
    let (p0, a0, b0) = (rect(&s, primary), rect(&s, a), rect(&s, b));
    assert_ne!(a0.upper_left.0, p0.upper_left.0, "the second button starts elsewhere");
    click(&mut s, "Editor.wnd:ButtonAlignLeft");
    let (a1, b1) = (rect(&s, a), rect(&s, b));
    assert_eq!((a1.upper_left.0, b1.upper_left.0), (p0.upper_left.0, p0.upper_left.0));
    assert_eq!(a1.upper_left.1, a0.upper_left.1, "only the left edge moves");
    assert_eq!(a1.bottom_right.0 - a1.upper_left.0, a0.bottom_right.0 - a0.upper_left.0, "widths are kept");
    assert_eq!(rect(&s, primary), p0);
    click(&mut s, "Editor.wnd:ButtonSameSize");
    let b2 = rect(&s, b);
    assert_eq!(b2.bottom_right.0 - b2.upper_left.0, p0.bottom_right.0 - p0.upper_left.0);
    assert_eq!(b2.bottom_right.1 - b2.upper_left.1, p0.bottom_right.1 - p0.upper_left.1);
    // Each tool is one undo step for the whole group.
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!((rect(&s, a), rect(&s, b)), (a1, b1));
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!((rect(&s, a), rect(&s, b)), (a0, b0));
    // Shift+click on a member takes it out; a plain click starts over.
    s.set_shift(true);
    press_window(&mut s, a);
    s.set_shift(false);
    assert_eq!(s.editor().unwrap().group, vec![b.to_string()]);
    press_window(&mut s, a);
    assert!(s.editor().unwrap().group.is_empty());
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(a));
}

#[test]
fn the_editors_panel_sets_a_windows_image_per_state_from_the_atlas() {
    let mut s = editing_options("shell-editor-image");
    let name = "Options.wnd:ButtonSave";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    let names: Vec<String> =
        std::iter::once("NoImage".to_string()).chain(s.content.images.images.keys().cloned()).collect();
    // The highlighted state: the image list shows the window's own highlighted image.
    combo_step(&mut s, "Editor.wnd:ComboImageState", 2);
    let list = s.find("Editor.wnd:ComboImage").unwrap();
    let shown = s.ui.combo_selected(list).unwrap();
    assert_eq!(names[shown], before.hilite[0].image);
    // One step down the list: the next image of the atlas, for that state only.
    combo_step(&mut s, "Editor.wnd:ComboImage", 1);
    let after = def(&s);
    assert_eq!(after.hilite[0].image, names[shown + 1]);
    assert_eq!(after.enabled, before.enabled);
    assert_eq!(after.disabled, before.disabled);
    // The panel stays on that state after the edit, and undo puts the image back.
    let state = s.find("Editor.wnd:ComboImageState").unwrap();
    assert_eq!(s.ui.combo_selected(state), Some(2));
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(def(&s), before);
}

#[test]
fn the_editors_panel_sets_font_face_scaling_and_each_states_text_colour() {
    use ridgeline::ui::wnd::model::ScalingMode;
    let mut s = editing_options("shell-editor-face");
    let name = "Options.wnd:ButtonSave";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    // The face list is ui/fonts.ron's families, the window's own chosen.
    let faces = s.find("Editor.wnd:ComboFontFace").unwrap();
    let items = s.ui.combo_items(faces).to_vec();
    assert!(items.iter().any(|f| f == "Arial") && items.iter().any(|f| f == "Noto Sans"), "{items:?}");
    let shown = s.ui.combo_selected(faces).unwrap();
    assert!(items[shown].eq_ignore_ascii_case(&before.font.as_ref().unwrap().name));
    // The next family down the list becomes the window's face, and nothing else of its font.
    combo_step(&mut s, "Editor.wnd:ComboFontFace", 1);
    let font = def(&s).font.unwrap();
    assert_eq!(font.name, items[shown + 1]);
    assert_eq!((font.size, font.bold), (before.font.as_ref().unwrap().size, before.font.as_ref().unwrap().bold));
    // Scaling: the layout says nothing (the screen's), one step down is STRETCH, the next
    // ASPECT (each a change of its own).
    assert_eq!(before.scaling, None);
    combo_step(&mut s, "Editor.wnd:ComboScaling", 1);
    assert_eq!(def(&s).scaling, Some(ScalingMode::Stretch));
    combo_step(&mut s, "Editor.wnd:ComboScaling", 1);
    assert_eq!(def(&s).scaling, Some(ScalingMode::Aspect));
    assert!(ridgeline::ui::wnd::write(&s.editor().unwrap().tree).contains("SCALING = ASPECT"));
    // The colour field follows the state chosen below it: the highlighted text colour
    // changes, the enabled one does not.
    combo_step(&mut s, "Editor.wnd:ComboImageState", 2);
    let entry = s.find("Editor.wnd:EntryColor").unwrap();
    let [r, g, b, a] = before.text_colors.hilite;
    assert_eq!(s.ui.entry_text(entry), format!("{r} {g} {b} {a}"));
    type_into(&mut s, "Editor.wnd:EntryColor", "10 200 30 255");
    assert_eq!(def(&s).text_colors.hilite, [10, 200, 30, 255]);
    assert_eq!(def(&s).text_colors.enabled, before.text_colors.enabled);
    // Four undos give back the window as it was.
    for _ in 0..4 {
        click(&mut s, "Editor.wnd:ButtonUndo");
    }
    assert_eq!(def(&s), before);
}

#[test]
fn the_editors_panel_sets_the_parts_a_gadget_draws_such_as_a_check_boxs_mark() {
    let mut s = editing_options("shell-editor-parts");
    let name = "Options.wnd:CheckFullscreen";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    // A check box's slots: each state's background, box and mark.
    let slots = s.find("Editor.wnd:ComboImageState").unwrap();
    let labels = s.ui.combo_items(slots).to_vec();
    assert_eq!(&labels[..3], &["Enabled", "Enabled box", "Enabled mark"], "{labels:?}");
    // The enabled mark: the image list shows the layout's mark, one step down changes it and
    // only it.
    combo_step(&mut s, "Editor.wnd:ComboImageState", 2);
    let names: Vec<String> =
        std::iter::once("NoImage".to_string()).chain(s.content.images.images.keys().cloned()).collect();
    let list = s.find("Editor.wnd:ComboImage").unwrap();
    let shown = s.ui.combo_selected(list).unwrap();
    assert_eq!(names[shown], before.enabled[2].image);
    combo_step(&mut s, "Editor.wnd:ComboImage", 1);
    let after = def(&s);
    assert_eq!(after.enabled[2].image, names[shown + 1]);
    assert_eq!(after.enabled[..2], before.enabled[..2]);
    assert_eq!((after.disabled.clone(), after.hilite.clone()), (before.disabled.clone(), before.hilite.clone()));
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(def(&s), before);
}

#[test]
fn the_editors_colour_field_sets_a_parts_tint_and_border_and_the_texts_shadow() {
    let mut s = editing_options("shell-editor-tints");
    let name = "Options.wnd:CheckFullscreen";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    let kinds = s.find("Editor.wnd:ComboColorKind").expect("the colour kinds are part of the panel");
    assert_eq!(s.ui.combo_items(kinds), &["Text", "Shadow", "Tint", "Border"]);
    let shown = |s: &Shell| s.ui.entry_text(s.find("Editor.wnd:EntryColor").unwrap()).to_string();
    let text = |[r, g, b, a]: [u8; 4]| format!("{r} {g} {b} {a}");
    // The enabled mark's tint: shown as the layout has it, then changed, and nothing else.
    combo_step(&mut s, "Editor.wnd:ComboImageState", 2);
    combo_step(&mut s, "Editor.wnd:ComboColorKind", 2);
    assert_eq!(shown(&s), text(before.enabled[2].color));
    type_into(&mut s, "Editor.wnd:EntryColor", "250 20 30 200");
    let after = def(&s);
    assert_eq!(after.enabled[2].color, [250, 20, 30, 200]);
    assert_eq!((after.enabled[2].border, &after.enabled[..2]), (before.enabled[2].border, &before.enabled[..2]));
    // Its border (the kind stays chosen after the edit rebuilt the panel).
    combo_step(&mut s, "Editor.wnd:ComboColorKind", 1);
    assert_eq!(shown(&s), text(before.enabled[2].border));
    type_into(&mut s, "Editor.wnd:EntryColor", "1 2 3");
    assert_eq!(def(&s).enabled[2].border, [1, 2, 3, 255]);
    assert_eq!(def(&s).enabled[2].color, [250, 20, 30, 200]);
    // The highlighted text's shadow: the slot's state decides which one.
    combo_step(&mut s, "Editor.wnd:ComboColorKind", -2);
    combo_step(&mut s, "Editor.wnd:ComboImageState", 4);
    assert_eq!(shown(&s), text(before.text_colors.hilite_border));
    type_into(&mut s, "Editor.wnd:EntryColor", "0 0 90 255");
    let after = def(&s);
    assert_eq!(after.text_colors.hilite_border, [0, 0, 90, 255]);
    assert_eq!(
        (after.text_colors.hilite, after.text_colors.enabled_border),
        (before.text_colors.hilite, before.text_colors.enabled_border)
    );
    // The writer carries them; three undos give back the window as it was.
    let written = ridgeline::ui::wnd::write(&s.editor().unwrap().tree);
    assert!(written.contains("COLOR: 250 20 30 200, BORDERCOLOR: 1 2 3 255"), "the mark's entry as written");
    assert!(written.contains("HILITEBORDER: 0 0 90 255"));
    for _ in 0..3 {
        click(&mut s, "Editor.wnd:ButtonUndo");
    }
    assert_eq!(def(&s), before);
}

#[test]
fn the_editors_flag_list_switches_the_status_flags_without_boxes() {
    let mut s = editing_options("shell-editor-flags");
    let name = "Options.wnd:ButtonSave";
    press_window(&mut s, name);
    let def = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().clone();
    let before = def(&s);
    let flags = s.find("Editor.wnd:ComboFlags").unwrap();
    let items = s.ui.combo_items(flags).to_vec();
    // The button's IMAGE and TABSTOP flags are listed as on, ACTIVE (first) as off; the flags
    // with boxes of their own are not listed.
    assert!(items.contains(&"IMAGE: on".to_string()) && items.contains(&"TABSTOP: on".to_string()), "{items:?}");
    assert_eq!(items[..2], ["Other status flags", "ACTIVE: off"]);
    assert!(!items.iter().any(|i| i.starts_with("HIDDEN") || i.starts_with("ENABLED")));
    // Choosing ACTIVE turns it on (and nothing else); the list says so; choosing it again
    // turns it off.
    let active = ridgeline::ui::wnd::model::STATUS_FLAGS[0].1;
    combo_pick(&mut s, "Editor.wnd:ComboFlags", 1);
    assert_eq!(def(&s).status, before.status | active);
    assert_eq!(s.ui.combo_items(s.find("Editor.wnd:ComboFlags").unwrap())[1], "ACTIVE: on");
    assert!(ridgeline::ui::wnd::write(&s.editor().unwrap().tree).contains("ACTIVE"));
    combo_pick(&mut s, "Editor.wnd:ComboFlags", 1);
    assert_eq!(def(&s).status, before.status);
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(def(&s).status, before.status | active, "each switch is one undo step");
}

#[test]
fn the_editors_panel_changes_a_gadgets_data_by_label_and_refuses_unknown_labels() {
    let mut s = editing_options("shell-editor-data");
    // Select the music slider by walking the tree (Tab from the first row).
    let name = "Options.wnd:SliderMusic";
    let order: Vec<String> = s.editor().unwrap().tree.all_windows().iter().map(|w| w.name.clone()).collect();
    press_first_tree_row(&mut s);
    for _ in 0..order.iter().position(|n| n == name).unwrap() {
        s.handle(Input::Key { key: Key::Tab, shift: false });
    }
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(name));
    let data = |s: &Shell| find(&s.editor().unwrap().tree.windows, name).unwrap().gadget.clone().unwrap();
    let before = data(&s);
    let entry = s.find("Editor.wnd:EntryGadgetData").unwrap();
    let shown = s.ui.entry_text(entry);
    assert!(shown.contains("MAXVALUE: "), "{shown}");
    type_into(&mut s, "Editor.wnd:EntryGadgetData", "MAXVALUE: 250");
    assert_eq!(data(&s).values("MAXVALUE"), Some(&[250][..]));
    assert_eq!(data(&s).values("MINVALUE"), before.values("MINVALUE"), "fields left out are kept");
    // A label the slider does not have changes nothing.
    let now = data(&s);
    type_into(&mut s, "Editor.wnd:EntryGadgetData", "MAXVALU: 3");
    assert_eq!(data(&s), now);
    assert_eq!(s.editor().unwrap().note.as_deref(), Some("not changed: SLIDERDATA has no MAXVALU"));
    assert!(s.ui.entry_text(s.find("Editor.wnd:EntryGadgetData").unwrap()).contains("MAXVALUE: 250"));
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(data(&s), before);
}

#[test]
fn the_editors_tree_renames_a_window_unless_the_name_is_taken_bad_or_needed_by_the_code() {
    let (mut s, _) = shell("shell-editor-rename");
    s.prefs.settings.modder_mode = true;
    s.toggle_editor();
    let names = |s: &Shell| s.editor().unwrap().tree.all_windows().iter().map(|w| w.name.clone()).collect::<Vec<_>>();
    press_window(&mut s, "MainMenu.wnd:ButtonCredits");
    assert_eq!(s.ui.entry_text(s.find("Editor.wnd:EntryRename").unwrap()), "ButtonCredits");
    let before = names(&s);
    type_into(&mut s, "Editor.wnd:EntryRename", "ButtonThanks");
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some("MainMenu.wnd:ButtonThanks"));
    assert!(names(&s).contains(&"MainMenu.wnd:ButtonThanks".to_string()));
    assert!(!names(&s).contains(&"MainMenu.wnd:ButtonCredits".to_string()));
    assert!(s.find("MainMenu.wnd:ButtonThanks").is_some(), "the screen shows it under its new name");
    // Taken, malformed: refused, and the bar says why.
    let renamed = names(&s);
    type_into(&mut s, "Editor.wnd:EntryRename", "ButtonQuit");
    assert_eq!(names(&s), renamed);
    assert!(s.editor().unwrap().note.as_deref().is_some_and(|n| n.contains("already has a ButtonQuit")));
    type_into(&mut s, "Editor.wnd:EntryRename", "Button Thanks");
    assert_eq!(names(&s), renamed);
    // A window the game's code needs by its name keeps it (the version line: the tree's last
    // row, as it lets clicks through on the screen).
    press_first_tree_row(&mut s);
    s.handle(Input::Key { key: Key::Tab, shift: true });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some("MainMenu.wnd:Version"));
    type_into(&mut s, "Editor.wnd:EntryRename", "Build");
    assert_eq!(names(&s), renamed);
    assert!(s.editor().unwrap().note.as_deref().is_some_and(|n| n.contains("needs Version")));
    click(&mut s, "Editor.wnd:ButtonUndo");
    assert_eq!(names(&s), before);
}

#[test]
fn the_drop_question_closes_by_itself_when_the_battle_no_longer_waits() {
    let (mut s, _) = shell("shell-drop-question");
    // Another message is left alone.
    click(&mut s, "MainMenu.wnd:ButtonCredits");
    s.close_drop_question();
    assert!(s.message_open(), "only the drop question closes by itself");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    s.ask_drop("Ben", 10);
    assert!(s.message_open());
    // Ben came back (or was dropped): nobody is waited for, and the question goes.
    s.close_drop_question();
    assert!(!s.message_open());
    assert!(s.take_requests().is_empty(), "closing it by itself drops nobody");
}

#[test]
fn a_long_message_scrolls_with_the_wheel() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::Fonts;
    let (mut s, _) = shell("shell-long-message");
    let text: String = (0..60).map(|i| format!("problem line {i}\n")).collect();
    s.message("Mods", text.trim_end(), false);
    let fonts = Fonts::load().unwrap();
    let area = s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().rect;
    // The lines drawn inside the text's window (the rest is clipped away).
    let shown = |s: &Shell| -> Vec<String> {
        draw_list(&s.ui, &fonts, &|_, _| {})
            .into_iter()
            .filter_map(|c| match c {
                DrawCmd::Text { text, y, .. }
                    if text.starts_with("problem") && y >= area.y - 1.0 && y < area.bottom() - 10.0 =>
                {
                    Some(text)
                }
                _ => None,
            })
            .collect()
    };
    let first = shown(&s);
    assert_eq!(first.first().map(String::as_str), Some("problem line 0"));
    assert!(!first.iter().any(|l| l == "problem line 59"));
    let (x, y) = (area.x + 20.0, area.y + 20.0);
    for _ in 0..40 {
        s.handle(Input::Wheel { x, y, delta: -1.0 });
    }
    let last = shown(&s);
    assert_eq!(last.last().map(String::as_str), Some("problem line 59"), "{last:?}");
    assert!(!last.iter().any(|l| l == "problem line 0"));
    s.handle(Input::Wheel { x, y, delta: 3.0 });
    let back = shown(&s);
    assert!(back.iter().any(|l| l == "problem line 49") && !back.iter().any(|l| l == "problem line 59"), "{back:?}");
}

#[test]
fn continue_on_the_score_screen_goes_back_where_the_game_came_from() {
    let (mut s, _) = shell("score-continue");
    let rows = vec![vec!["Tester".to_string(), "0".into(), "1".into(), "2".into(), "100".into()]];
    // After a replay: back to the list it was chosen from.
    s.show_score("The replay ended", rows.clone(), Screen::Replays);
    assert_eq!(s.screen(), Some(Screen::Score));
    click(&mut s, "ScoreScreen.wnd:ButtonContinue");
    assert_eq!(s.screen(), Some(Screen::Replays));
    // After a skirmish: the main menu.
    s.show_score("Victory", rows, Screen::MainMenu);
    click(&mut s, "ScoreScreen.wnd:ButtonContinue");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
}

/// The setup screen offers the last skirmish started again, after the game is restarted: the
/// map, who plays in each row at what difficulty, factions, colours, teams and money; a kept
/// setup whose map is gone opens as a first skirmish does.
#[test]
fn the_last_skirmish_started_is_offered_again_after_a_restart() {
    let (mut s, path) = shell("shell-last-skirmish");
    let first = s.skirmish.clone();
    // Four Corners, a hard and an easy computer, the Dominion, a team each side, more money.
    let four = s.content.maps.iter().position(|m| m.players == 4).expect("a four-player map");
    s.skirmish.map = four;
    s.open(Screen::Skirmish);
    let dominion = s.content.factions.iter().position(|f| f == "Dominion").unwrap();
    s.skirmish.slots[0].faction = dominion;
    s.skirmish.slots[1].who = SlotChoice::Computer(2);
    s.skirmish.slots[2].who = SlotChoice::Computer(0);
    s.skirmish.slots[1].color = 5;
    (s.skirmish.slots[0].team, s.skirmish.slots[2].team) = (1, 1);
    s.skirmish.slots[1].team = 2;
    s.skirmish.money = 3;
    let chosen = s.skirmish.clone();
    assert_ne!(chosen, first);
    click(&mut s, "SkirmishSetup.wnd:ButtonStart");
    assert!(matches!(s.take_requests().pop(), Some(ShellRequest::StartMatch(_))), "it started");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("hard") && text.contains("Dominion"), "kept in the settings by words: {text}");
    // The game restarts: the setup screen has it again.
    let again = Shell::new(&common::roots(), (1280.0, 720.0), path.clone()).unwrap();
    assert_eq!(again.skirmish, chosen);
    // A kept setup on a map no longer listed: the first setup.
    let edited = text.replace(&format!("\"{}\"", folder_name(&s, four)), "\"gone_map\"");
    assert_ne!(edited, text, "the map's folder name is in the file");
    std::fs::write(&path, edited).unwrap();
    let gone = Shell::new(&common::roots(), (1280.0, 720.0), path).unwrap();
    assert_eq!(gone.skirmish, first);
}

fn folder_name(s: &Shell, map: usize) -> String {
    s.content.maps[map].dir.file_name().unwrap().to_string_lossy().into_owned()
}
