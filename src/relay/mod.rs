//! The rendezvous-and-relay service behind `ridgeline relay`: a small headless UDP service
//! anyone can run on a public machine so that friends behind home NATs meet with just a code.
//! A host registers a room (`rooms.rs`), the join code names the relay, the room and the
//! host's certificate fingerprint; the relay tells each side the other's public address so both
//! can punch, and otherwise forwards their QUIC datagrams blindly. Abuse limits (`limits.rs`):
//! rooms per address, request rates, bytes per room, idle timeouts; no answer to a stranger is
//! larger than its request. The socket loop is `server.rs`. Rooms are independent, so more
//! players means more relays, each named by its codes.
//!
//! Must not: see plaintext (TLS runs end to end between the players, pinned by the code's
//! fingerprint), keep state between rooms, or depend on the game's simulation.

pub mod limits;
pub mod rooms;
pub mod server;

pub use limits::Limits;
pub use rooms::{Relay, RelayStats};
pub use server::serve;

/// The port a relay listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 47700;
