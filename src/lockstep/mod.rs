//! Lockstep: the one synchronized message stream every command travels through, in single
//! player too, and the transport seam beneath it.
//!
//! Must not: do I/O, read the clock, or touch the world (sessions wire it to both).

pub mod backlog;
pub mod error;
pub mod frame_data;
pub mod limits;
pub mod message;
pub mod pace;
pub mod refusals;
pub mod stream;
pub mod transport;

pub use backlog::{Backlog, BacklogFull};
pub use message::Message;
pub use pace::{PaceChange, PaceMark, PaceRules};
pub use stream::{Desync, Held, Stream, StreamConfig, StreamError};
pub use transport::{PeerId, Transport, TransportError, TransportEvent};
