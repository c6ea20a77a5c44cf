//! Removing a player from the match on every machine at one agreed frame: a departure, a
//! stalled machine dropped, a machine cut for breaking the protocol.
//!
//! Must not: close connections (the caller queues the kick) or change the world except
//! through the stream.

use crate::net::control::ControlTransport;
use crate::net::wire::WireMessage;
use crate::session::Session;
use crate::sim::ids::{Frame, PlayerId};

use super::outbox::Outbox;

/// The host removes `player` from every machine's game: at the first frame nobody has their
/// data for (so every machine has run the same commands of theirs), here and in a `Dropped`
/// notice to everyone. Returns that frame.
pub fn drop_everywhere<T: ControlTransport>(session: &mut Session<T>, out: &mut Outbox, player: PlayerId) -> Frame {
    let stream = session.stream();
    let from = stream.declared_through(player).map_or(Frame(0), Frame::next).max(stream.next_frame());
    session.drop_player(player, from);
    out.send(None, vec![WireMessage::Dropped { player, from }]);
    from
}
