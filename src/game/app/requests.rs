//! What the shell's screens ask for, carried out in order: start, watch, leave or take over a
//! battle, host, join and run the online lobby, the replay controls, the control bar's buttons,
//! and applying the mods chosen on the Mods screen.
//!
//! Must not: draw or route input; each request names what it wants (`ShellRequest`).

use std::time::Instant;

use crate::content::ContentRoots;

use super::super::battle::{Battle, BattleError};
use super::super::online_lobby::{OnlineLobby, Outcome, Said};
use super::super::shell::{ReplayControl, Screen, ShellRequest};
use super::ModRoots;
use super::running::Running;

/// Carries out what the shell's screens asked for, in order; `mods` are the content roots
/// (which the Mods screen's choice changes). Returns false when the player quit.
pub(super) fn serve(r: &mut Running, requests: Vec<ShellRequest>, mods: &mut ModRoots) -> bool {
    for request in requests {
        let roots = &mods.current;
        match request {
            // Unsaved layout edits are asked about first; the answer quits (or not).
            ShellRequest::Quit if r.shell.ask_before_quit() => {}
            ShellRequest::Quit | ShellRequest::QuitNow => return false,
            ShellRequest::ApplyMods => r.apply_mods(mods),
            ShellRequest::StartMatch(setup) => {
                let screen = r.screen();
                let started = Battle::start(roots, &setup, screen);
                r.begin_battle(started);
            }
            ShellRequest::WatchReplay(path) => {
                let screen = r.screen();
                let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                let started = crate::session::Replay::load(&path)
                    .map_err(BattleError::from)
                    .and_then(|r| Battle::watch(roots, &r, &name, screen));
                r.begin_battle(started);
            }
            ShellRequest::SaveBattle => save_battle(r, roots),
            ShellRequest::LoadSave(path) => {
                let screen = r.screen();
                let started = Battle::resume(roots, &path, screen);
                r.begin_battle(started);
            }
            ShellRequest::LeaveBattle => {
                r.leaving = true;
                r.leaving_since = Instant::now();
            }
            ShellRequest::HostOnline(addr, relay) => host_online(r, roots, addr, relay.as_deref()),
            ShellRequest::JoinOnline(code) => join_online(r, roots, &code, false),
            ShellRequest::WatchOnline(code) => join_online(r, roots, &code, true),
            ShellRequest::Copy(text) => {
                let copied = r.clipboard.as_mut().is_some_and(|c| c.set_text(text).is_ok());
                let line = r.shell.say(if copied { "Lobby:Copied" } else { "Lobby:NoClipboard" }, &[]);
                r.shell.lobby_says(line);
                r.shell.refresh_lobby();
            }
            ShellRequest::LobbyChat(text) => {
                if let Some(l) = &mut r.lobby {
                    l.chat(&text, &mut r.shell.lobby);
                    r.shell.refresh_lobby();
                }
            }
            ShellRequest::LobbyReady(ready) => {
                if let Some(l) = &mut r.lobby {
                    l.set_ready(ready);
                }
            }
            ShellRequest::LobbyChange(change) => {
                if let Some(l) = &mut r.lobby {
                    if let Err(why) = l.change(&change, &mut r.shell.lobby) {
                        r.shell.tell("Title:Lobby", why.label, &[("error", &why.detail)]);
                    }
                    // Shows the table as it is now (a refused choice goes back).
                    r.shell.refresh_lobby();
                }
            }
            ShellRequest::LobbyStart => {
                let started = r.lobby.as_mut().map(|l| l.start(roots));
                match started {
                    Some(Ok(outcome)) => lobby_outcome(r, roots, outcome),
                    Some(Err(why)) => r.shell.tell("Title:Lobby", "Message:AsSaid", &[("error", &why.to_string())]),
                    None => {}
                }
            }
            ShellRequest::LobbyLeave => r.lobby = None,
            ShellRequest::DropStalled => {
                if let Some((battle, _)) = &mut r.battle {
                    battle.drop_stalled();
                }
            }
            ShellRequest::CommandButton(i) => {
                if let Some((battle, _)) = &mut r.battle {
                    battle.controls().command_button(i);
                }
            }
            ShellRequest::Key(command) => {
                if let Some((battle, _)) = &mut r.battle {
                    battle.controls().give(command);
                }
            }
            ShellRequest::JumpToAlert(i) => {
                if let Some((battle, _)) = &mut r.battle {
                    battle.controls().jump_to_logged_alert(i);
                }
            }
            ShellRequest::Replay(ReplayControl::TakeOver) => {
                let name = r.shell.prefs.settings.player_name.clone();
                let screen = r.screen();
                let started = r.battle.as_ref().map(|(b, _)| b.take_over(roots, &name, screen));
                // The watched replay gives way to the new game.
                if let Some(started) = started {
                    r.begin_battle(started);
                }
            }
            ShellRequest::Replay(control) => {
                if let Some((battle, _)) = &mut r.battle {
                    match control {
                        ReplayControl::PlayPause => battle.play_mut().pace_mut().toggle_pause(),
                        ReplayControl::Slower => {
                            battle.play_mut().pace_mut().slower();
                        }
                        ReplayControl::Faster => {
                            battle.play_mut().pace_mut().faster();
                        }
                        ReplayControl::View => battle.cycle_view(),
                        ReplayControl::TakeOver => {} // served above
                        ReplayControl::Seek(permille) => {
                            let total = battle.play().replay_position().map_or(0, |(_, t)| t);
                            if let Err(e) = battle.seek((total as u64 * permille as u64 / 1000) as u32) {
                                log::error!("the replay could not seek: {e}");
                            }
                        }
                    }
                }
            }
        }
    }
    true
}

/// Saves the running battle into the saves folder as `<map> <date>.rlsave`, and says where (or
/// why not).
fn save_battle(r: &mut Running, roots: &ContentRoots) {
    let Some((battle, _)) = &r.battle else { return };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    match battle.save_into(roots, &r.shell.prefs.save_dir(), now) {
        Ok(path) => r.shell.tell("Title:Save", "Message:Saved", &[("file", &path.display().to_string())]),
        Err(e) => r.shell.tell("Title:Save", "Message:NotSaved", &[("error", &e)]),
    }
}

/// Opens an online lobby as host on `addr` (through `relay`, looked up here, if given), first
/// on the map chosen on the skirmish screen; the join code is shown whole in the lobby and
/// goes to the clipboard.
fn host_online(r: &mut Running, roots: &ContentRoots, addr: std::net::SocketAddr, relay: Option<&str>) {
    let reach = match relay.map(find_relay).transpose() {
        Ok(relay) => crate::net::nat::Reach { relay, punch: true },
        Err(why) => return close_lobby(r, &why),
    };
    let map = r.shell.content.maps.get(r.shell.skirmish.map).or(r.shell.content.maps.first());
    let Some((folder, players)) =
        map.and_then(|m| Some((m.dir.file_name()?.to_string_lossy().into_owned(), m.players as usize)))
    else {
        return close_lobby(r, &Said::just("Message:NoMap"));
    };
    let name = r.shell.prefs.settings.player_name.clone();
    match OnlineLobby::host_in_background(roots, addr, &name, &folder, players, reach) {
        Ok(l) => {
            let line = r.shell.say(if reach.relay.is_some() { "Lobby:Registering" } else { "Lobby:Opening" }, &[]);
            r.shell.lobby_says(line);
            r.shell.refresh_lobby();
            r.lobby = Some(l);
        }
        Err(e) => close_lobby(r, &Said { label: "Message:CouldNotHost", detail: e.to_string() }),
    }
}

/// The host's join code has just become known: shown whole in the lobby, copied to the
/// clipboard, printed.
fn show_code(r: &mut Running, code: crate::net::quic::JoinCode) {
    let copied = r.clipboard.as_mut().is_some_and(|c| c.set_text(code.to_string()).is_ok());
    println!("join-code: {code}");
    let relayed = matches!(code.target, crate::net::quic::Target::Relay { .. });
    let how = match (copied, relayed) {
        (true, true) => "Lobby:CodeCopiedAnywhere",
        (true, false) => "Lobby:CodeCopiedHere",
        (false, _) => "Lobby:GiveCode",
    };
    let how = r.shell.say(how, &[]);
    r.shell.lobby_says(how);
    r.shell.set_lobby_code(code.to_string());
    r.shell.refresh_lobby();
}

/// The relay's address from the Options text (`ip:port`, or `name:port` looked up now).
fn find_relay(text: &str) -> Result<std::net::SocketAddr, Said> {
    use std::net::ToSocketAddrs;
    let said = |label, why: String| Said { label, detail: why };
    let found = text.to_socket_addrs().map_err(|e| said("Relay:NotFound", format!("\"{text}\": {e}")))?;
    let all: Vec<std::net::SocketAddr> = found.collect();
    all.iter()
        .find(|a| a.is_ipv4())
        .or(all.first())
        .copied()
        .ok_or_else(|| said("Relay:NoAddress", format!("\"{text}\"")))
}

/// Ends the lobby with a message, back on the Online screen.
fn close_lobby(r: &mut Running, why: &Said) {
    r.lobby = None;
    r.shell.open(Screen::Online);
    r.shell.tell("Title:Online", why.label, &[("error", &why.detail)]);
}

/// Carries on from what the lobby came to.
fn lobby_outcome(r: &mut Running, roots: &ContentRoots, outcome: Outcome) {
    match outcome {
        Outcome::Waiting => {}
        Outcome::Closed(why) => close_lobby(r, &why),
        Outcome::Started(game, seats) => {
            r.lobby = None;
            let started = Battle::from_match(roots, *game, r.screen()).map(|mut b| {
                b.play_mut().set_online(seats);
                // An observer's machine plays no slot: it watches.
                b.observe();
                b
            });
            r.begin_battle(started);
        }
    }
}

/// Lets the lobby handle what arrived.
pub(super) fn poll_lobby(r: &mut Running, roots: &ContentRoots) {
    let Some(l) = &mut r.lobby else { return };
    let before = r.shell.lobby.clone();
    let outcome = l.poll(roots, &mut r.shell.lobby);
    if let Some(code) = l.take_new_code() {
        show_code(r, code);
    }
    if r.shell.lobby != before {
        r.shell.refresh_lobby();
    }
    lobby_outcome(r, roots, outcome);
}

/// Joins the online game in `code` (to play, or to `watch` as an observer) and opens its lobby,
/// or says why not.
fn join_online(r: &mut Running, roots: &ContentRoots, code: &str, watch: bool) {
    let name = r.shell.prefs.settings.player_name.clone();
    // The identity kept beside the settings: joining a running game again with the same code
    // gives this player's seat back.
    let joined = crate::game::online_lobby::window_identity().ok_or(crate::online::OnlineError::NoIdentity).and_then(
        |identity| match watch {
            true => OnlineLobby::watch(roots, code, &name, &identity),
            false => OnlineLobby::join(roots, code, &name, &identity),
        },
    );
    match joined {
        Ok(l) => {
            r.shell.set_lobby_code(code.trim().to_string());
            r.shell.refresh_lobby();
            r.lobby = Some(l);
            r.shell.remember_game(code.trim());
        }
        Err(e) => close_lobby(r, &Said { label: "Message:CouldNotJoin", detail: e.to_string() }),
    }
}
