//! Transports under the lockstep stream: in-memory now; QUIC comes with online play.
//!
//! Must not: interpret messages beyond carrying them (the stream decides what they mean).

pub mod memory;

pub use memory::{MemoryEndpoint, hub};
