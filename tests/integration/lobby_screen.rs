//! The online lobby's screen as the shell shows it (no network): the chat follows new lines,
//! and a joiner's Start button is greyed and says it waits for the host; a joiner switches
//! their own row to watching, and it shows as an observer's.

use crate::common::{self, click};

use ridgeline::game::shell::LobbyState;
use ridgeline::game::shell::{Screen, Shell, ShellRequest};
use ridgeline::lockstep::PeerId;
use ridgeline::net::nat::PathKind;
use ridgeline::net::wire::{Roster, RosterSlot, Seat};
use ridgeline::online::lobby::LobbyChange;
use ridgeline::ui::{Input, Key};

fn lobby(hosting: bool) -> Shell {
    let dir = common::temp_dir(if hosting { "lobby-screen-host" } else { "lobby-screen-join" });
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), dir.join("settings.ron")).expect("shell starts");
    s.lobby =
        if hosting { LobbyState::hosting(47600, "Hosting.".into()) } else { LobbyState::joining("Joining.".into()) };
    s.open(Screen::Lobby);
    s.refresh_lobby();
    s
}

#[test]
fn the_chat_follows_new_lines() {
    let mut s = lobby(true);
    let list = s.find("Lobby.wnd:ListChat").unwrap();
    for i in 0..40 {
        s.lobby_says(format!("Ben: line {i}"));
    }
    s.refresh_lobby();
    let first = s.ui.list_scroll(list);
    assert!(first > 0, "forty lines and the box still shows the first");
    s.lobby_says("Ben: one more".into());
    s.refresh_lobby();
    assert_eq!(s.ui.list_scroll(list), first + 1, "the newest line is scrolled into view");
    // Nothing new: the box stays where it is (the table arrives every second).
    s.refresh_lobby();
    assert_eq!(s.ui.list_scroll(list), first + 1);
}

#[test]
fn only_the_host_has_a_live_start_button() {
    let text = |s: &Shell| s.ui.window(s.find("Lobby.wnd:ButtonStart").unwrap()).unwrap().text.clone();
    let enabled = |s: &Shell| s.ui.window(s.find("Lobby.wnd:ButtonStart").unwrap()).unwrap().enabled();
    let mut host = lobby(true);
    assert!(!enabled(&host), "alone at the table, nothing to start");
    let tip = |s: &Shell| s.ui.window(s.find("Lobby.wnd:ButtonStart").unwrap()).unwrap().tooltip.clone();
    assert!(tip(&host).starts_with("A game needs at least two players"), "{}", tip(&host));
    // Ben sits down but is not ready: the host's Start waits for him, by name.
    let slots = vec![row(Seat::Player(PeerId(0)), "Ava"), row(Seat::Player(PeerId(1)), "Ben")];
    host.lobby.roster = Roster { map: "proving_grounds".into(), money: 1, slots };
    host.refresh_lobby();
    assert!(!enabled(&host));
    assert_eq!(text(&host), "Waiting for Ben");
    host.take_requests();
    click(&mut host, "Lobby.wnd:ButtonStart");
    assert!(host.take_requests().is_empty(), "a greyed Start asks nothing");
    host.lobby.roster.slots[1].ready = true;
    host.refresh_lobby();
    assert!(enabled(&host));
    assert_eq!(text(&host), "Start game");
    let mut joiner = lobby(false);
    assert!(!enabled(&joiner), "a joiner cannot start");
    assert_eq!(text(&joiner), "Waiting for the host");
    joiner.take_requests();
    click(&mut joiner, "Lobby.wnd:ButtonStart");
    assert!(joiner.take_requests().is_empty());
    host.take_requests();
    click(&mut host, "Lobby.wnd:ButtonStart");
    assert_eq!(host.take_requests(), [ridgeline::game::shell::ShellRequest::LobbyStart]);
}

/// Opens combo `name` and moves its choice `steps` down, as the keyboard does.
fn combo_down(s: &mut Shell, name: &str, steps: usize) {
    click(s, name);
    s.handle(Input::Key { key: Key::Escape, shift: false });
    for _ in 0..steps {
        s.handle(Input::Key { key: Key::Down, shift: false });
    }
}

fn row(seat: Seat, name: &str) -> RosterSlot {
    let (ready, ping_ms, path, faction, colour, team) = (false, 30, PathKind::Lan, 0, 0, 0);
    RosterSlot { seat, name: name.into(), ready, ping_ms, path, faction, colour, team }
}

#[test]
fn a_joiner_switches_their_own_row_to_watching_and_it_shows_as_an_observer() {
    let mut s = lobby(false);
    s.lobby.me = Some(PeerId(1));
    let slots = vec![row(Seat::Player(PeerId(0)), "Ava"), row(Seat::Player(PeerId(1)), "Ben"), row(Seat::Open, "")];
    s.lobby.roster = Roster { map: "four_corners".into(), money: 1, slots };
    s.refresh_lobby();
    let combo = |s: &Shell, i: usize| s.find(&format!("Lobby.wnd:ComboPlayer{i}")).unwrap();
    let enabled = |s: &Shell, i: usize| s.ui.window(combo(s, i)).unwrap().enabled();
    assert_eq!(s.ui.combo_items(combo(&s, 1)), ["Ben", "Watch as observer"]);
    assert!(enabled(&s, 1) && !enabled(&s, 0), "his own row is his to switch, the host's is not");
    s.take_requests();
    combo_down(&mut s, "Lobby.wnd:ComboPlayer1", 1);
    let asked = ShellRequest::LobbyChange(LobbyChange::Seat(1, Seat::Observer(PeerId(1))));
    assert_eq!(s.take_requests(), [asked]);
    // The host's table comes back with him watching.
    s.lobby.roster.slots[1].seat = Seat::Observer(PeerId(1));
    s.refresh_lobby();
    assert_eq!(s.ui.combo_items(combo(&s, 1)), ["Ben (observer)", "Play"]);
    let status = s.ui.window(s.find("Lobby.wnd:Status1").unwrap()).unwrap().text.clone();
    assert_eq!(status, "Observer");
    // An observer has no side: no faction to choose.
    assert!(s.ui.combo_items(s.find("Lobby.wnd:ComboFaction1").unwrap()).is_empty());
}
