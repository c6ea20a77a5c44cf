//! The online lobby's screen as the shell shows it (no network): the chat follows new lines,
//! and a joiner's Start button is greyed and says it waits for the host.

use crate::common::{self, click};

use ridgeline::game::shell::LobbyState;
use ridgeline::game::shell::{Screen, Shell};

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
