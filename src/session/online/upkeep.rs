//! The upkeep every online game shares, headless or in the window: players who leave (or
//! are dropped) removed at an agreed frame on every machine, the host's drop and run-ahead
//! notices applied (the choice of run-ahead is `run_ahead.rs`).
//!
//! Must not: change the world except through the stream (drops and run-ahead changes are
//! scheduled on it for a frame every machine reaches after hearing of them).

use crate::lockstep::Transport;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::quic::{QuicTransport, SharedQuic};
use crate::net::wire::WireMessage;
use crate::session::Session;
use crate::session::match_setup::ResolvedSlot;
use crate::session::peer::PeerEvent;
use crate::sim::ids::{Frame, PlayerId};

use super::OnlineError;
use super::rejoin::Seats;

/// What a joiner who comes after the start is told.
pub const LATE_JOINER: &str = "the game has already started";

/// What [`departures`] saw this time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Departures {
    /// Slots whose players left or were dropped.
    pub gone: Vec<u8>,
    /// The host itself is gone (a joiner's view).
    pub host_gone: bool,
    /// Slots whose players came back (see `rejoin.rs`).
    pub back: Vec<u8>,
}

/// Handles peers leaving, coming back, and the host's notices, in any online match (headless
/// or in the window): the host removes a leaver's players at the first frame nobody has their
/// data for and tells everyone, welcomes a dropped machine back (`seats`), and refuses any
/// other late joiner; a joiner applies what the host tells. Returns the slots that left and
/// whether the host itself is gone, and who came back. Control messages it does not handle are kept in `pending`.
pub fn departures<T: Transport>(
    session: &mut Session<T>,
    net: &SharedQuic,
    slots: &[ResolvedSlot],
    me: PeerId,
    pending: &mut Vec<(PeerId, WireMessage)>,
    seats: &mut Seats,
) -> Result<Departures, OnlineError> {
    let mut back = Vec::new();
    let mut gone = Vec::new();
    let mut host_gone = false;
    let mut leavers: Vec<PeerId> = session
        .take_peer_events()
        .into_iter()
        .filter_map(|e| match e {
            PeerEvent::Left(p) => Some(p),
            PeerEvent::Connected(_) => None,
        })
        .collect();
    while let Some(Some(e)) = net.with(QuicTransport::take_peer_event) {
        if let TransportEvent::Left(p) = e {
            leavers.push(p);
        }
    }
    for peer in leavers {
        if me != PeerId(0) {
            // A joiner only ever talks to the host.
            host_gone = true;
            gone.extend(slots.iter().filter(|s| s.machine == 0).map(|s| s.slot));
            continue;
        }
        seats.left(peer);
        let owned: Vec<&ResolvedSlot> = slots
            .iter()
            .filter(|s| session.owner(s.player) == Some(peer) && session.stream().dropped_from(s.player).is_none())
            .collect();
        for s in owned {
            let from = drop_everywhere(session, net, s.player);
            log::warn!("{peer} left; player {} is removed from frame {from}", s.player);
            gone.push(s.slot);
        }
    }
    while let Some(Some((from, msg))) = net.with(QuicTransport::take_control) {
        match msg {
            WireMessage::Dropped { player, from: at } if from == PeerId(0) => {
                session.drop_player(player, at);
                if let Some(s) = slots.get(player.index()) {
                    gone.push(s.slot);
                }
            }
            WireMessage::RunAhead { at, value } if from == PeerId(0) => {
                if !session.schedule_run_ahead(at, value as u32) {
                    log::error!("the host's run-ahead change for frame {at} came after that frame ran here");
                }
            }
            WireMessage::Refused { reason } => return Err(OnlineError::Refused(reason)),
            WireMessage::Readmitted { player, peer, back: at, .. } if from == PeerId(0) => {
                session.readmit(player, peer, at);
                back.extend(slots.get(player.index()).map(|s| s.slot));
            }
            // A machine of this match coming back takes its seat again; anyone else joining
            // with the code after the start is told at once, not left hanging.
            WireMessage::Hello(hello) if me == PeerId(0) => {
                if !seats.welcome_back(session, net, slots, from, &hello) {
                    log::info!("{from} tried to join the running game; refused");
                    let reason = LATE_JOINER.to_string();
                    net.with(|n| n.send_control(Some(from), &[WireMessage::Refused { reason }]).ok());
                }
            }
            WireMessage::CaughtUp { .. } if me == PeerId(0) => {
                for player in seats.caught_up(session, net, slots, from) {
                    back.extend(slots.get(player.index()).map(|s| s.slot));
                }
            }
            other => pending.push((from, other)),
        }
    }
    if me == PeerId(0) {
        seats.upkeep(session, net);
    }
    Ok(Departures { gone, host_gone, back })
}

/// The host removes `player` from every machine's game: at the first frame nobody has their
/// data for (so every machine has run the same commands of theirs), here and in a `Dropped`
/// notice to everyone. Returns that frame.
pub fn drop_everywhere<T: Transport>(session: &mut Session<T>, net: &SharedQuic, player: PlayerId) -> Frame {
    let stream = session.stream();
    let from = stream.declared_through(player).map_or(Frame(0), Frame::next).max(stream.next_frame());
    session.drop_player(player, from);
    net.with(|n| n.send_control(None, &[WireMessage::Dropped { player, from }]).ok());
    from
}
