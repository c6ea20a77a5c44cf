//! Transports under the lockstep stream: the in-memory hub (single player, tests) and QUIC
//! for online play, both carrying the control protocol beside it; the wire messages and their
//! codec.
//!
//! Must not: interpret lockstep messages beyond carrying them (the stream decides what they
//! mean), or touch the game (sessions wire transports to it).

pub mod codec;
pub mod control;
pub mod fault;
pub mod memory;
pub mod nat;
pub mod quic;
pub mod wire;

pub use control::{ControlTransport, NetStats};
pub use memory::{MemoryEndpoint, hub};
