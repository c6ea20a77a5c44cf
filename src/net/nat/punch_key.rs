//! The key that authenticates punches between two machines, and the codes it makes. Both ends
//! of a QUIC connection derive the same secret from their TLS session (RFC 5705 exporter):
//! only the joiner that holds the code's pinned fingerprint and the host that owns it know it,
//! so a stranger who has seen the join code (or the relay, or anyone on the path) cannot make
//! a punch or an acknowledgement that a machine takes. Each code covers what the message says
//! (kind, room, sender, receiver, nonce), so none can be turned into another.
//!
//! Must not: keep or print the secret, or compare codes in a way whose time depends on where
//! they differ.

use ring::hmac;

use crate::net::codec::relay::{MAC_LEN, RoomId};

/// The exporter label both ends of a connection derive the punch secret with.
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-ridgeline-punch-v1";

/// Bytes of the secret drawn from the TLS exporter.
pub const SECRET_LEN: usize = 32;

/// Which of the two punch messages a code is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PunchKind {
    /// "Can you hear me?"
    Punch,
    /// "I heard your punch."
    Ack,
}

/// What one authenticated punch message says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PunchFields {
    /// A punch or an acknowledgement.
    pub kind: PunchKind,
    /// The room both machines meet in.
    pub room: RoomId,
    /// The sender's number in the room (0: the host).
    pub from: u8,
    /// The receiver's number in the room.
    pub to: u8,
    /// The punch's nonce (an acknowledgement echoes it).
    pub nonce: u64,
}

/// The key one connection's two ends share for their punches.
#[derive(Clone)]
pub struct PunchKey(hmac::Key);

impl std::fmt::Debug for PunchKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PunchKey(..)")
    }
}

impl PunchKey {
    /// The key for a secret both ends drew from their TLS session.
    pub fn from_secret(secret: &[u8]) -> PunchKey {
        PunchKey(hmac::Key::new(hmac::HMAC_SHA256, secret))
    }

    /// The key of a live QUIC connection (the same at both ends); None if TLS cannot export.
    pub fn of(conn: &quinn::Connection) -> Option<PunchKey> {
        let mut secret = [0u8; SECRET_LEN];
        conn.export_keying_material(&mut secret, EXPORTER_LABEL, b"").ok()?;
        Some(PunchKey::from_secret(&secret))
    }

    /// The code for a message saying `f`.
    pub fn sign(&self, f: &PunchFields) -> [u8; MAC_LEN] {
        let mut ctx = hmac::Context::with_key(&self.0);
        ctx.update(b"ridgeline punch v1");
        ctx.update(&[match f.kind {
            PunchKind::Punch => 1,
            PunchKind::Ack => 2,
        }]);
        ctx.update(&f.room.0);
        ctx.update(&[f.from, f.to]);
        ctx.update(&f.nonce.to_le_bytes());
        let tag = ctx.sign();
        let mut mac = [0u8; MAC_LEN];
        mac.copy_from_slice(&tag.as_ref()[..MAC_LEN]);
        mac
    }

    /// Whether `mac` is this key's code for `f` (compared in constant time).
    pub fn verify(&self, f: &PunchFields, mac: &[u8; MAC_LEN]) -> bool {
        let want = self.sign(f);
        want.iter().zip(mac).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields() -> PunchFields {
        PunchFields { kind: PunchKind::Punch, room: RoomId([5; 16]), from: 1, to: 0, nonce: 42 }
    }

    #[test]
    fn a_code_verifies_only_under_its_key_and_for_exactly_what_it_says() {
        let key = PunchKey::from_secret(&[7; SECRET_LEN]);
        let f = fields();
        let mac = key.sign(&f);
        assert!(key.verify(&f, &mac));
        assert!(!PunchKey::from_secret(&[8; SECRET_LEN]).verify(&f, &mac), "another connection's key");
        for other in [
            PunchFields { kind: PunchKind::Ack, ..f },
            PunchFields { room: RoomId([6; 16]), ..f },
            PunchFields { from: 2, ..f },
            PunchFields { to: 1, from: 0, ..f },
            PunchFields { nonce: 43, ..f },
        ] {
            assert!(!key.verify(&other, &mac), "{other:?}");
        }
        let mut flipped = mac;
        flipped[15] ^= 1;
        assert!(!key.verify(&f, &flipped));
    }
}
