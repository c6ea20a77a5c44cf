//! The rendezvous-and-relay protocol: the small UDP datagrams a host and its joiners exchange
//! with a relay (`ridgeline relay`) and with each other while punching. Each starts with
//! [`MAGIC`], whose first byte has QUIC's fixed bit clear, so a socket that also carries QUIC
//! (with bit greasing off) tells the two apart by the first bytes alone.
//!
//! Wire layout (after the 4 magic bytes and one op byte; addresses are a family byte, 4 or
//! 16 address bytes and a little-endian port; `cookie` is 16 bytes, all zero for none):
//!
//! | op | message | body | bytes |
//! |---|---|---|---|
//! | 1 | Register | token 16, cookie 16, zero padding | 64 |
//! | 2 | Registered | room 16, address | ≤ 40 |
//! | 3 | Lookup | room 16, seat 1, cookie 16, zero padding | 64 |
//! | 4 | Found | room 16, host address, own address, peer 1 | ≤ 60 |
//! | 5 | Introduce | room 16, peer 1, address | ≤ 41 |
//! | 6, 7 | Keepalive, Alive | room 16 | 21 |
//! | 8 | Refused | reason 1 | 6 |
//! | 9 | Data | room 16, peer 1, payload | 22 + payload |
//! | 10, 11 | Punch, PunchAck | room 16, peer 1, nonce 8, mac 16 | 46 |
//! | 12 | Challenge | cookie 16 | 21 |
//! | 13 | StatusAsk | (nothing; answered on loopback only) | 5 |
//! | 14 | Status | count 1, that many u64 counters | ≤ 94 |
//!
//! Address validation (as QUIC's Retry, RFC 9000 §8): a relay answers a Register or Lookup
//! without a valid cookie only with a [`RelayMessage::Challenge`] (21 bytes for a 64-byte
//! request) carrying a cookie bound to the sender's address; the sender repeats the request
//! with it, proving it receives there, and only then does the relay make a room or seat a
//! member. Register and Lookup must be at least [`REQUEST_SIZE`] bytes with zero padding
//! (checked), so no answer to a stranger is ever larger than the request that drew it (the
//! status answer, larger, goes to loopback alone). A room's id is derived from a
//! token only its host holds ([`room_of`]), so the host, and nobody else, can make the same
//! room again at a relay that restarted and forgot it (soft state, as TURN's refreshes).
//!
//! Must not: carry anything a relay could read of the game: QUIC packets travel inside
//! [`RelayMessage::Data`] as opaque, end-to-end encrypted bytes.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use super::DecodeError;
use super::bytes::Reader;
pub use super::relay_status::RelayStatus;

/// The first bytes of every relay or punch datagram (QUIC's fixed bit, 0x40, is clear).
pub const MAGIC: [u8; 4] = *b"\0RLY";

/// Size every request a relay answers before it knows the sender (Register, Lookup) is padded
/// to, and must have: at least the largest answer it can draw.
pub const REQUEST_SIZE: usize = 64;

/// Bytes in a room token and in an address cookie.
pub const TOKEN_LEN: usize = 16;

/// A host's secret for its room: the room id is derived from it ([`room_of`]).
pub type RoomToken = [u8; TOKEN_LEN];

/// A relay's proof that an address receives what is sent to it (opaque to clients).
pub type Cookie = [u8; TOKEN_LEN];

/// The room a host holding `token` makes: the first 16 bytes of SHA-256 over a label and the
/// token. Nobody can choose a token for a given room, so nobody but its host can make it again.
pub fn room_of(token: &RoomToken) -> RoomId {
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    ctx.update(b"ridgeline relay room v1");
    ctx.update(token);
    let mut id = [0u8; ROOM_LEN];
    id.copy_from_slice(&ctx.finish().as_ref()[..ROOM_LEN]);
    RoomId(id)
}

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
    /// The relay holds as many rooms as it may.
    RelayFull,
}

impl RelayRefusal {
    fn code(self) -> u8 {
        match self {
            RelayRefusal::NoRoom => 1,
            RelayRefusal::Full => 2,
            RelayRefusal::Limited => 3,
            RelayRefusal::RelayFull => 4,
        }
    }

    fn from_code(c: u8) -> Option<RelayRefusal> {
        match c {
            1 => Some(RelayRefusal::NoRoom),
            2 => Some(RelayRefusal::Full),
            3 => Some(RelayRefusal::Limited),
            4 => Some(RelayRefusal::RelayFull),
            _ => None,
        }
    }

    /// What it means, for the player.
    pub fn describe(self) -> &'static str {
        match self {
            RelayRefusal::NoRoom => "the relay knows no such game (it ended, or the code is wrong)",
            RelayRefusal::Full => "the game at the relay is full",
            RelayRefusal::Limited => "the relay is limiting requests from this address; try again in a minute",
            RelayRefusal::RelayFull => "the relay is full; try again later or use another relay",
        }
    }
}

/// One datagram of the relay protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayMessage {
    /// Host → relay: make (or refresh, or make again) the room of this token.
    Register {
        /// The host's secret; the room is [`room_of`] it.
        token: RoomToken,
        /// The relay's cookie for this address, once it gave one.
        cookie: Option<Cookie>,
    },
    /// Relay → host: your room, and your address as the relay sees it.
    Registered {
        /// The new room.
        room: RoomId,
        /// The host's public address.
        public: SocketAddr,
    },
    /// Joiner → relay: where is the host of this room? Seat me.
    Lookup {
        /// The room in the join code.
        room: RoomId,
        /// The seat wanted (a joiner coming back after a relay restart), 0: any.
        seat: u8,
        /// The relay's cookie for this address, once it gave one.
        cookie: Option<Cookie>,
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
    /// Relay → requester: repeat your request with this cookie (proves you receive here).
    Challenge {
        /// The cookie.
        cookie: Cookie,
    },
    /// Operator → relay, on loopback only: how are you?
    StatusAsk,
    /// Relay → operator: its counters.
    Status(RelayStatus),
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
const OP_CHALLENGE: u8 = 12;
const OP_STATUS_ASK: u8 = 13;
const OP_STATUS: u8 = 14;

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

fn read_token(r: &mut Reader) -> Result<[u8; TOKEN_LEN], DecodeError> {
    Ok(r.take(TOKEN_LEN)?.try_into().unwrap_or_default())
}

fn read_cookie(r: &mut Reader) -> Result<Option<Cookie>, DecodeError> {
    let c = read_token(r)?;
    Ok(Some(c).filter(|c| c.iter().any(|&b| b != 0)))
}

/// A request's padding: it must fill the datagram to [`REQUEST_SIZE`] and be all zero.
fn read_padding(r: &mut Reader, total: usize) -> Result<(), DecodeError> {
    if total < REQUEST_SIZE {
        return r.fail(format!("a request of {total} bytes (padded to {REQUEST_SIZE})"));
    }
    if r.take(r.left())?.iter().any(|&b| b != 0) {
        return r.fail("padding that is not zero");
    }
    Ok(())
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
        RelayMessage::Register { .. } | RelayMessage::Lookup { .. } => true,
        _ => false,
    };
    w.extend_from_slice(&MAGIC);
    match m {
        RelayMessage::Register { token, cookie } => {
            w.push(OP_REGISTER);
            w.extend_from_slice(token);
            w.extend_from_slice(&cookie.unwrap_or_default());
        }
        RelayMessage::Registered { room, public } => {
            w.push(OP_REGISTERED);
            w.extend_from_slice(&room.0);
            addr(&mut w, *public);
        }
        RelayMessage::Lookup { room, seat, cookie } => {
            w.push(OP_LOOKUP);
            w.extend_from_slice(&room.0);
            w.push(*seat);
            w.extend_from_slice(&cookie.unwrap_or_default());
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
        RelayMessage::Challenge { cookie } => {
            w.push(OP_CHALLENGE);
            w.extend_from_slice(cookie);
        }
        RelayMessage::StatusAsk => w.push(OP_STATUS_ASK),
        RelayMessage::Status(s) => {
            w.push(OP_STATUS);
            let fields = s.fields();
            w.push(fields.len() as u8);
            for f in fields {
                w.extend_from_slice(&f.to_le_bytes());
            }
        }
        RelayMessage::Data { .. } => {}
    }
    if pad && w.len() < REQUEST_SIZE {
        w.resize(REQUEST_SIZE, 0);
    }
    w
}

/// Decodes one datagram (bytes after an answer are allowed and ignored; a request's padding
/// is checked).
pub fn decode(bytes: &[u8]) -> Result<RelayMessage, DecodeError> {
    let mut r = Reader::new(bytes);
    if r.take(MAGIC.len())? != MAGIC {
        return r.fail("not a relay datagram (wrong magic)");
    }
    let m = match r.u8()? {
        OP_REGISTER => {
            let (token, cookie) = (read_token(&mut r)?, read_cookie(&mut r)?);
            read_padding(&mut r, bytes.len())?;
            RelayMessage::Register { token, cookie }
        }
        OP_REGISTERED => RelayMessage::Registered { room: read_room(&mut r)?, public: read_addr(&mut r)? },
        OP_LOOKUP => {
            let (room, seat, cookie) = (read_room(&mut r)?, r.u8()?, read_cookie(&mut r)?);
            read_padding(&mut r, bytes.len())?;
            RelayMessage::Lookup { room, seat, cookie }
        }
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
        OP_CHALLENGE => RelayMessage::Challenge { cookie: read_token(&mut r)? },
        OP_STATUS_ASK => RelayMessage::StatusAsk,
        OP_STATUS => {
            let n = usize::from(r.u8()?);
            let mut fields = Vec::with_capacity(n.min(32));
            for _ in 0..n {
                let b: [u8; 8] = r.take(8)?.try_into().unwrap_or_default();
                fields.push(u64::from_le_bytes(b));
            }
            RelayMessage::Status(RelayStatus::from_fields(&fields))
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
            RelayMessage::Register { token: [3; TOKEN_LEN], cookie: None },
            RelayMessage::Register { token: [3; TOKEN_LEN], cookie: Some([9; TOKEN_LEN]) },
            RelayMessage::Registered { room, public: v4 },
            RelayMessage::Lookup { room, seat: 0, cookie: None },
            RelayMessage::Lookup { room, seat: 2, cookie: Some([1; TOKEN_LEN]) },
            RelayMessage::Found { room, host: v4, public: v6, peer: 3 },
            RelayMessage::Introduce { room, peer: 2, public: v6 },
            RelayMessage::Keepalive { room },
            RelayMessage::Alive { room },
            RelayMessage::Refused(RelayRefusal::Full),
            RelayMessage::Data { room, peer: 1, payload: vec![0xc0, 1, 2, 3] },
            RelayMessage::Punch { room, peer: 0, nonce: 7, mac: [3; MAC_LEN] },
            RelayMessage::PunchAck { room, peer: 5, nonce: u64::MAX, mac: [9; MAC_LEN] },
            RelayMessage::Challenge { cookie: [4; TOKEN_LEN] },
            RelayMessage::StatusAsk,
            RelayMessage::Status(RelayStatus { rooms: 3, rss_bytes: 1 << 40, ..RelayStatus::default() }),
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
        let challenge = encode(&RelayMessage::Challenge { cookie: [1; TOKEN_LEN] });
        let lookup = encode(&RelayMessage::Lookup { room, seat: 7, cookie: Some([1; TOKEN_LEN]) });
        let register = encode(&RelayMessage::Register { token: [1; TOKEN_LEN], cookie: Some([1; TOKEN_LEN]) });
        assert_eq!(lookup.len(), REQUEST_SIZE);
        assert_eq!(register.len(), REQUEST_SIZE);
        assert!(found.len() <= lookup.len(), "{} > {}", found.len(), lookup.len());
        assert!(registered.len() <= register.len());
        assert!(refused.len() <= register.len());
        assert!(challenge.len() <= register.len());
        let keepalive = encode(&RelayMessage::Keepalive { room });
        assert_eq!(encode(&RelayMessage::Alive { room }).len(), keepalive.len());
    }

    #[test]
    fn requests_must_be_padded_with_zeros() {
        let full = encode(&RelayMessage::Lookup { room: RoomId([1; ROOM_LEN]), seat: 0, cookie: None });
        let err = decode(&full[..REQUEST_SIZE - 1]).unwrap_err();
        assert!(err.what.contains("padded to 64"), "{err:?}");
        let mut dirty = full.clone();
        dirty[REQUEST_SIZE - 1] = 1;
        assert!(decode(&dirty).unwrap_err().what.contains("padding"));
        let register = encode(&RelayMessage::Register { token: [2; TOKEN_LEN], cookie: None });
        assert!(decode(&register[..40]).is_err(), "a short register");
    }

    #[test]
    fn a_room_is_its_tokens_and_nobody_elses() {
        let (a, b) = (room_of(&[1; TOKEN_LEN]), room_of(&[2; TOKEN_LEN]));
        assert_ne!(a, b);
        assert_eq!(a, room_of(&[1; TOKEN_LEN]), "the same token, the same room");
        assert_ne!(a.0, [1; ROOM_LEN], "not the token itself");
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
