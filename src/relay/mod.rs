//! The rendezvous-and-relay service behind `ridgeline relay`: a small headless UDP service
//! anyone can run on a public machine so that friends behind home NATs meet with just a code.
//! A host registers a room (`rooms.rs`), the join code names the relay, the room and the
//! host's certificate fingerprint; the relay tells each side the other's public address so both
//! can punch, and otherwise forwards their QUIC datagrams blindly. Nothing is kept for an
//! address, and nothing larger than its request is sent to it, before it answers a cookie
//! (`cookie.rs`). Abuse limits (`limits.rs`): rooms and seats per address or IPv6 /64, request
//! and refusal rates, bytes per room, idle timeouts. Rooms are soft state: hosts make them
//! again after a restart. The socket loop is `server.rs`. Rooms are independent, so more
//! players means more relays, each named by its codes.
//!
//! Must not: see plaintext (TLS runs end to end between the players, pinned by the code's
//! fingerprint), keep state between rooms, or depend on the game's simulation.

pub mod cookie;
pub mod limits;
pub mod rooms;
pub mod server;

pub use limits::Limits;
pub use rooms::{Relay, RelayStats};
pub use server::{bind, secure_secret, serve};

/// The port a relay listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 47700;

#[cfg(test)]
mod restart_tests;
