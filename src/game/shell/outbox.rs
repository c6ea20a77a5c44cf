//! What the shell hands the client: the requests its screens made and the interface sounds to
//! play, each in order, taken once a frame.
//!
//! Must not: act on a request or play a sound (the client does).

use super::request::ShellRequest;

/// The shell's out-queue.
#[derive(Debug, Default)]
pub struct Outbox {
    /// What the screens asked of the client since the last take.
    requests: Vec<ShellRequest>,
    /// Interface sounds to play (names from the sound table), oldest first.
    sounds: Vec<String>,
}

impl Outbox {
    /// Queues a request for the client.
    pub fn request(&mut self, r: ShellRequest) {
        self.requests.push(r);
    }

    /// Queues an interface sound.
    pub fn sound(&mut self, name: String) {
        self.sounds.push(name);
    }

    /// The requests queued since the last call, in order.
    pub fn take_requests(&mut self) -> Vec<ShellRequest> {
        std::mem::take(&mut self.requests)
    }

    /// The sounds queued since the last call, oldest first.
    pub fn take_sounds(&mut self) -> Vec<String> {
        std::mem::take(&mut self.sounds)
    }
}
