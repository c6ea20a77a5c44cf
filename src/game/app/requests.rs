//! What the shell's screens ask for, carried out in order: start, watch, leave or take over a
//! battle, host, join and run the online lobby, the replay controls, the control bar's buttons,
//! and applying the mods chosen on the Mods screen.
//!
//! Must not: draw or route input; each request names what it wants (`ShellRequest`).

use std::time::Instant;

use crate::content::ContentRoots;

use super::super::battle::Battle;
use super::super::online_lobby::{OnlineLobby, Outcome};
use super::super::shell::{ReplayControl, Screen, ShellRequest};
use super::ModRoots;
use super::running::Running;

/// Carries out what the shell's screens asked for, in order; `mods` are the content roots
/// (which the Mods screen's choice changes). Returns false when the player quit.
pub(super) fn serve(r: &mut Running, requests: Vec<ShellRequest>, mods: &mut ModRoots) -> bool {
    for request in requests {
        let roots = &mods.current;
        match request {
            ShellRequest::Quit => return false,
            ShellRequest::ApplyMods => r.apply_mods(mods),
            ShellRequest::StartMatch(setup) => {
                let screen = r.screen();
                let started = Battle::start(roots, &setup, screen).map_err(|e| e.to_string());
                r.begin_battle(started);
            }
            ShellRequest::WatchReplay(path) => {
                let screen = r.screen();
                let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                let started = crate::session::Replay::load(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|r| Battle::watch(roots, &r, &name, screen).map_err(|e| e.to_string()));
                r.begin_battle(started);
            }
            ShellRequest::LeaveBattle => {
                r.leaving = true;
                r.leaving_since = Instant::now();
            }
            ShellRequest::HostOnline(addr) => host_online(r, roots, addr),
            ShellRequest::JoinOnline(code) => {
                let name = r.shell.settings.player_name.clone();
                match OnlineLobby::join(roots, &code, &name) {
                    Ok(l) => r.lobby = Some(l),
                    Err(e) => close_lobby(r, &format!("Could not join: {e}")),
                }
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
                        r.shell.message("Lobby", &why, false);
                    }
                    // Shows the table as it is now (a refused choice goes back).
                    r.shell.refresh_lobby();
                }
            }
            ShellRequest::LobbyStart => {
                let started = r.lobby.as_mut().map(|l| l.start(roots));
                match started {
                    Some(Ok(outcome)) => lobby_outcome(r, roots, outcome),
                    Some(Err(why)) => r.shell.message("Lobby", &why, false),
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
                    battle.command_button(i);
                }
            }
            ShellRequest::Replay(ReplayControl::TakeOver) => {
                let name = r.shell.settings.player_name.clone();
                let screen = r.screen();
                let started = r.battle.as_ref().map(|(b, _)| b.take_over(roots, &name, screen));
                // The watched replay gives way to the new game.
                if let Some(started) = started {
                    r.begin_battle(started.map_err(|e| e.to_string()));
                }
            }
            ShellRequest::Replay(control) => {
                if let Some((battle, _)) = &mut r.battle {
                    match control {
                        ReplayControl::PlayPause => battle.pace_mut().toggle_pause(),
                        ReplayControl::Slower => {
                            battle.pace_mut().slower();
                        }
                        ReplayControl::Faster => {
                            battle.pace_mut().faster();
                        }
                        ReplayControl::View => battle.cycle_view(),
                        ReplayControl::TakeOver => {} // served above
                        ReplayControl::Seek(permille) => {
                            let total = battle.replay_position().map_or(0, |(_, t)| t);
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

/// Opens an online lobby as host on `port`, first on the map chosen on the skirmish screen; the
/// join code goes to the clipboard and into the lobby's chat.
fn host_online(r: &mut Running, roots: &ContentRoots, addr: std::net::SocketAddr) {
    let map = r.shell.maps.get(r.shell.skirmish.map).or(r.shell.maps.first());
    let Some((folder, players)) =
        map.and_then(|m| Some((m.dir.file_name()?.to_string_lossy().into_owned(), m.players as usize)))
    else {
        return close_lobby(r, "No map to play on.");
    };
    let name = r.shell.settings.player_name.clone();
    match OnlineLobby::host(roots, addr, &name, &folder, players) {
        Ok(l) => {
            if let Some(code) = l.code() {
                let copied = r.clipboard.as_mut().is_some_and(|c| c.set_text(code.to_string()).is_ok());
                println!("join-code: {code}");
                let how = if copied { "copied to the clipboard" } else { "give it to your friend" };
                r.shell.lobby.chat.push(format!("Join code ({how}): {code}"));
                r.shell.refresh_lobby();
            }
            r.lobby = Some(l);
        }
        Err(e) => close_lobby(r, &format!("Could not host: {e}")),
    }
}

/// Ends the lobby with a message, back on the Online screen.
fn close_lobby(r: &mut Running, why: &str) {
    r.lobby = None;
    r.shell.open(Screen::Online);
    r.shell.message("Online", why, false);
}

/// Carries on from what the lobby came to.
fn lobby_outcome(r: &mut Running, roots: &ContentRoots, outcome: Outcome) {
    match outcome {
        Outcome::Waiting => {}
        Outcome::Closed(why) => close_lobby(r, &why),
        Outcome::Started(game, net) => {
            r.lobby = None;
            let started = Battle::from_match(roots, *game, r.screen()).map(|mut b| {
                b.set_online(net);
                b
            });
            r.begin_battle(started.map_err(|e| e.to_string()));
        }
    }
}

/// Lets the lobby handle what arrived.
pub(super) fn poll_lobby(r: &mut Running, roots: &ContentRoots) {
    let Some(l) = &mut r.lobby else { return };
    let before = r.shell.lobby.clone();
    let outcome = l.poll(roots, &mut r.shell.lobby);
    if r.shell.lobby != before {
        r.shell.refresh_lobby();
    }
    lobby_outcome(r, roots, outcome);
}
