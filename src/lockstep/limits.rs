//! The stream's bounds on what a peer may send: how far ahead, and how much waiting. A leaf, so
//! the stream and its refusals (`error.rs`) both name them without importing each other.
//!
//! Must not: hold state; the stream applies these, this file only states them.

/// The largest run-ahead a game may use, in frames.
pub const MAX_RUN_AHEAD: u32 = 60;

/// How far past the next frame to run a peer's message may be stamped. An honest peer runs
/// at most the run-ahead past this machine (it waits for this machine's counts) and stamps
/// its commands the run-ahead past that, so twice the largest run-ahead plus slack covers it;
/// anything later is a protocol violation, and nothing for it is kept.
pub const WINDOW: u32 = 2 * MAX_RUN_AHEAD + 30;

/// Bytes of one player's commands for frames not yet run that a stream holds at most (an
/// estimate: `stream::command_weight` per command). Far more than a player can send in a window
/// (a 400-object selection is 3.2 KB); a peer past it is lying.
pub const MAX_PENDING_BYTES: usize = 4 << 20;

/// Messages a watching machine (an observer: no players of its own) holds at most for frames
/// past its [`WINDOW`] while it catches up (`backlog.rs`): about six minutes of an eight-player
/// game's counts, hashes and commands. Players never wait for an observer, so one that stalls
/// is sent everything it missed; past this it is too far behind and refuses the rest.
pub const MAX_BACKLOG: usize = 262_144;
