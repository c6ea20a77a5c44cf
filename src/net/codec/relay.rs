//! The rendezvous-and-relay protocol: the small UDP datagrams a host and its joiners exchange
//! with a relay (`ridgeline relay`) and with each other while punching. Each starts with
//! [`MAGIC`], whose first byte has QUIC's fixed bit clear, so a socket that also carries QUIC
//! (with bit greasing off) tells the two apart by the first bytes alone. Requests a relay
//! answers before it knows the sender are padded to at least the size of the answer, so a
//! relay never sends more than it received to an address nobody verified (no amplification).
//!
//! Must not: carry anything a relay could read of the game: QUIC packets travel inside
//! [`RelayMessage::Data`] as opaque, end-to-end encrypted bytes.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use super::DecodeError;
use super::bytes::Reader;

/// The first bytes of every relay or punch datagram (QUIC's fixed bit, 0x40, is clear).
pub const MAGIC: [u8; 4] = *b"\0RLY";

/// Size every unverified request is padded to: at least the largest answer it can draw.
pub const REQUEST_SIZE: usize = 64;

/// The bytes in front of a relayed payload: magic, op, room, peer.
pub const DATA_HEADER: usize = MAGIC.len() + 1 + ROOM_LEN + 1;

/// Bytes in a room id.
pub const ROOM_LEN: usize = 16;

/// Bytes of the authentication code on a punch or its acknowledgement.
pub const MAC_LEN: usize = 16;

/// An unguessable room name, chosen by the relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomId(pub [u8; ROOM_LEN]);

impl std::fmt::Display for RoomId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Why a relay turned a request down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayRefusal {
    /// No such room (never made, or timed out).
    NoRoom,
    /// The room has every joiner it can take.
    Full,
    /// This address made too many rooms or requests.
    Limited,
}

impl RelayRefusal {
    fn code(self) -> u8 {
        match self {
            RelayRefusal::NoRoom => 1,
            RelayRefusal::Full => 2,
            RelayRefusal::Limited => 3,
        }
    }

    fn from_code(c: u8) -> Option<RelayRefusal> {
        match c {
            1 => Some(RelayRefusal::NoRoom),
            2 => Some(RelayRefusal::Full),
            3 => Some(RelayRefusal::Limited),
            _ => None,
        }
    }

    /// What it means, for the player.
    pub fn describe(self) -> &'static str {
        match self {
            RelayRefusal::NoRoom => "the relay knows no such game (it ended, or the code is wrong)",
            RelayRefusal::Full => "the game at the relay is full",
            RelayRefusal::Limited => "the relay is limiting requests from this address; try again in a minute",
        }
    }
}

/// One datagram of the relay protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayMessage {
    /// Host → relay: make me a room.
    Register,
    /// Relay → host: your room, and your address as the relay sees it.
    Registered {
        /// The new room.
        room: RoomId,
        /// The host's public address.
        public: SocketAddr,
    },
    /// Joiner → relay: where is the host of this room?
    Lookup {
        /// The room in the join code.
        room: RoomId,
    },
    /// Relay → joiner: the host's public address, the joiner's own, and its peer number.
    Found {
        /// The room.
        room: RoomId,
        /// The host's public address (where to punch).
        host: SocketAddr,
        /// The joiner's public address.
        public: SocketAddr,
        /// The joiner's number in the room (1 up).
        peer: u8,
    },
    /// Relay → host: a joiner looked the room up; punch towards it.
    Introduce {
        /// The room.
        room: RoomId,
        /// The joiner's number in the room.
        peer: u8,
        /// The joiner's public address.
        public: SocketAddr,
    },
    /// Member → relay: still here (keeps the room, and the NAT's mapping, alive).
    Keepalive {
        /// The member's room.
        room: RoomId,
    },
    /// Relay → member: the keepalive's answer (as long as the request).
    Alive {
        /// The room.
        room: RoomId,
    },
    /// Relay → requester: no.
    Refused(RelayRefusal),
    /// Member ↔ relay: an opaque payload (a QUIC packet) for another member of the room. From
    /// the host `peer` names the joiner it is for; to the host, the joiner it came from; a
    /// joiner's data always goes to the host (peer 0).
    Data {
        /// The room.
        room: RoomId,
        /// The other end, by number.
        peer: u8,
        /// The payload.
        payload: Vec<u8>,
    },
    /// Peer → peer, straight: can you hear me? Names the room and the sender's number, with a
    /// fresh nonce, authenticated with the key both ends of the QUIC connection derived (see
    /// `net::nat::punch_key`): a stranger who knows the room cannot forge one.
    Punch {
        /// The shared room.
        room: RoomId,
        /// The sender's number (0: the host).
        peer: u8,
        /// Never repeated by a sender (its count of punches sent).
        nonce: u64,
        /// The message authentication code over all of the above.
        mac: [u8; MAC_LEN],
    },
    /// Peer → peer, straight: I heard your punch (the path works both ways). Echoes the
    /// punch's nonce, so it proves the path to the one address that punch was sent to.
    PunchAck {
        /// The shared room.
        room: RoomId,
        /// The sender's number.
        peer: u8,
        /// The nonce of the punch answered.
        nonce: u64,
        /// The message authentication code over all of the above.
        mac: [u8; MAC_LEN],
    },
}

const OP_REGISTER: u8 = 1;
const OP_REGISTERED: u8 = 2;
const OP_LOOKUP: u8 = 3;
const OP_FOUND: u8 = 4;
const OP_INTRODUCE: u8 = 5;
const OP_KEEPALIVE: u8 = 6;
const OP_ALIVE: u8 = 7;
const OP_REFUSED: u8 = 8;
/// The op byte of [`RelayMessage::Data`] (the relay forwards those without decoding).
pub const OP_DATA: u8 = 9;
const OP_PUNCH: u8 = 10;
const OP_PUNCH_ACK: u8 = 11;

/// True when `bytes` start like a relay or punch datagram (not a QUIC packet).
pub fn is_relay(bytes: &[u8]) -> bool {
    bytes.len() > MAGIC.len() && bytes[..MAGIC.len()] == MAGIC
}

fn addr(w: &mut Vec<u8>, a: SocketAddr) {
    match a.ip() {
        IpAddr::V4(ip) => {
            w.push(4);
            w.extend_from_slice(&ip.octets());
        }
        IpAddr::V6(ip) => {
            w.push(6);
            w.extend_from_slice(&ip.octets());
        }
    }
    w.extend_from_slice(&a.port().to_le_bytes());
}

fn read_addr(r: &mut Reader) -> Result<SocketAddr, DecodeError> {
    let ip = match r.u8()? {
        4 => {
            let b: [u8; 4] = r.take(4)?.try_into().unwrap_or_default();
            IpAddr::V4(Ipv4Addr::from(b))
        }
        6 => {
            let b: [u8; 16] = r.take(16)?.try_into().unwrap_or_default();
            IpAddr::V6(Ipv6Addr::from(b))
        }
        other => return r.fail(format!("address family {other} (4 or 6)")),
    };
    let port = r.take(2)?;
    Ok(SocketAddr::new(ip, u16::from_le_bytes([port[0], port[1]])))
}

fn read_room(r: &mut Reader) -> Result<RoomId, DecodeError> {
    let b: [u8; ROOM_LEN] = r.take(ROOM_LEN)?.try_into().unwrap_or_default();
    Ok(RoomId(b))
}

fn read_punch(r: &mut Reader) -> Result<(RoomId, u8, u64, [u8; MAC_LEN]), DecodeError> {
    let room = read_room(r)?;
    let peer = r.u8()?;
    let nonce: [u8; 8] = r.take(8)?.try_into().unwrap_or_default();
    let mac: [u8; MAC_LEN] = r.take(MAC_LEN)?.try_into().unwrap_or_default();
    Ok((room, peer, u64::from_le_bytes(nonce), mac))
}

/// Writes a datagram's header for `Data` into `w` (which then takes the payload).
pub fn data_header(w: &mut Vec<u8>, room: RoomId, peer: u8) {
    w.extend_from_slice(&MAGIC);
    w.push(OP_DATA);
    w.extend_from_slice(&room.0);
    w.push(peer);
}

/// Encodes one datagram; requests a relay answers before it knows the sender are padded to
/// [`REQUEST_SIZE`].
pub fn encode(m: &RelayMessage) -> Vec<u8> {
    let mut w = Vec::with_capacity(REQUEST_SIZE);
    let pad = match m {
        RelayMessage::Data { room, peer, payload } => {
            w.reserve(DATA_HEADER + payload.len());
            data_header(&mut w, *room, *peer);
            w.extend_from_slice(payload);
            return w;
        }
        RelayMessage::Register | RelayMessage::Lookup { .. } => true,
        _ => false,
    };
    w.extend_from_slice(&MAGIC);
    match m {
        RelayMessage::Register => w.push(OP_REGISTER),
        RelayMessage::Registered { room, public } => {
            w.push(OP_REGISTERED);
            w.extend_from_slice(&room.0);
            addr(&mut w, *public);
        }
        RelayMessage::Lookup { room } => {
            w.push(OP_LOOKUP);
            w.extend_from_slice(&room.0);
        }
        RelayMessage::Found { room, host, public, peer } => {
            w.push(OP_FOUND);
            w.extend_from_slice(&room.0);
            addr(&mut w, *host);
            addr(&mut w, *public);
            w.push(*peer);
        }
        RelayMessage::Introduce { room, peer, public } => {
            w.push(OP_INTRODUCE);
            w.extend_from_slice(&room.0);
            w.push(*peer);
            addr(&mut w, *public);
        }
        RelayMessage::Keepalive { room } => {
            w.push(OP_KEEPALIVE);
            w.extend_from_slice(&room.0);
        }
        RelayMessage::Alive { room } => {
            w.push(OP_ALIVE);
            w.extend_from_slice(&room.0);
        }
        RelayMessage::Refused(why) => {
            w.push(OP_REFUSED);
            w.push(why.code());
        }
        RelayMessage::Punch { room, peer, nonce, mac } | RelayMessage::PunchAck { room, peer, nonce, mac } => {
            w.push(if matches!(m, RelayMessage::Punch { .. }) { OP_PUNCH } else { OP_PUNCH_ACK });
            w.extend_from_slice(&room.0);
            w.push(*peer);
            w.extend_from_slice(&nonce.to_le_bytes());
            w.extend_from_slice(mac);
        }
        RelayMessage::Data { .. } => {}
    }
    if pad && w.len() < REQUEST_SIZE {
        w.resize(REQUEST_SIZE, 0);
    }
    w
}

/// Decodes one datagram (padding after a message is allowed and ignored).
pub fn decode(bytes: &[u8]) -> Result<RelayMessage, DecodeError> {
    let mut r = Reader::new(bytes);
    if r.take(MAGIC.len())? != MAGIC {
        return r.fail("not a relay datagram (wrong magic)");
    }
    let m = match r.u8()? {
        OP_REGISTER => RelayMessage::Register,
        OP_REGISTERED => RelayMessage::Registered { room: read_room(&mut r)?, public: read_addr(&mut r)? },
        OP_LOOKUP => RelayMessage::Lookup { room: read_room(&mut r)? },
        OP_FOUND => RelayMessage::Found {
            room: read_room(&mut r)?,
            host: read_addr(&mut r)?,
            public: read_addr(&mut r)?,
            peer: r.u8()?,
        },
        OP_INTRODUCE => RelayMessage::Introduce { room: read_room(&mut r)?, peer: r.u8()?, public: read_addr(&mut r)? },
        OP_KEEPALIVE => RelayMessage::Keepalive { room: read_room(&mut r)? },
        OP_ALIVE => RelayMessage::Alive { room: read_room(&mut r)? },
        OP_REFUSED => {
            let code = r.u8()?;
            match RelayRefusal::from_code(code) {
                Some(why) => RelayMessage::Refused(why),
                None => return r.fail(format!("refusal code {code}")),
            }
        }
        OP_DATA => {
            let room = read_room(&mut r)?;
            let peer = r.u8()?;
            let payload = r.take(r.left())?.to_vec();
            RelayMessage::Data { room, peer, payload }
        }
        OP_PUNCH => {
            let (room, peer, nonce, mac) = read_punch(&mut r)?;
            RelayMessage::Punch { room, peer, nonce, mac }
        }
        OP_PUNCH_ACK => {
            let (room, peer, nonce, mac) = read_punch(&mut r)?;
            RelayMessage::PunchAck { room, peer, nonce, mac }
        }
        other => return r.fail(format!("unknown relay op {other}")),
    };
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn samples() -> Vec<RelayMessage> {
        let room = RoomId([7; ROOM_LEN]);
        let v4: SocketAddr = "203.0.113.9:40001".parse().unwrap();
        let v6: SocketAddr = "[2001:db8::1]:47700".parse().unwrap();
        vec![
            RelayMessage::Register,
            RelayMessage::Registered { room, public: v4 },
            RelayMessage::Lookup { room },
            RelayMessage::Found { room, host: v4, public: v6, peer: 3 },
            RelayMessage::Introduce { room, peer: 2, public: v6 },
            RelayMessage::Keepalive { room },
            RelayMessage::Alive { room },
            RelayMessage::Refused(RelayRefusal::Full),
            RelayMessage::Data { room, peer: 1, payload: vec![0xc0, 1, 2, 3] },
            RelayMessage::Punch { room, peer: 0, nonce: 7, mac: [3; MAC_LEN] },
            RelayMessage::PunchAck { room, peer: 5, nonce: u64::MAX, mac: [9; MAC_LEN] },
        ]
    }

    #[test]
    fn every_message_round_trips() {
        for m in samples() {
            let bytes = encode(&m);
            assert!(is_relay(&bytes), "{m:?}");
            assert_eq!(decode(&bytes), Ok(m));
        }
    }

    #[test]
    fn no_answer_is_larger_than_the_request_that_draws_it() {
        let room = RoomId([1; ROOM_LEN]);
        let v6: SocketAddr = "[2001:db8::1]:47700".parse().unwrap();
        let found = encode(&RelayMessage::Found { room, host: v6, public: v6, peer: 7 });
        let registered = encode(&RelayMessage::Registered { room, public: v6 });
        let refused = encode(&RelayMessage::Refused(RelayRefusal::NoRoom));
        let lookup = encode(&RelayMessage::Lookup { room });
        let register = encode(&RelayMessage::Register);
        assert_eq!(lookup.len(), REQUEST_SIZE);
        assert_eq!(register.len(), REQUEST_SIZE);
        assert!(found.len() <= lookup.len(), "{} > {}", found.len(), lookup.len());
        assert!(registered.len() <= register.len());
        assert!(refused.len() <= register.len());
        let keepalive = encode(&RelayMessage::Keepalive { room });
        assert_eq!(encode(&RelayMessage::Alive { room }).len(), keepalive.len());
    }

    #[test]
    fn quic_packets_are_never_taken_for_relay_datagrams() {
        // Every QUIC packet has the fixed bit (0x40) set in its first byte when greasing is off.
        for first in 0u8..=255 {
            if first & 0x40 != 0 {
                let packet = [first, b'R', b'L', b'Y', 9, 9, 9];
                assert!(!is_relay(&packet));
            }
        }
        assert_eq!(MAGIC[0] & 0x40, 0);
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes);
            let mut tagged = MAGIC.to_vec();
            tagged.extend_from_slice(&bytes);
            let _ = decode(&tagged);
        }
    }
}
