//! An in-memory transport: endpoints joined by channels, each send delivered to every other
//! endpoint. Used for single player (one endpoint) and for tests of several peers in one
//! process.

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use crate::lockstep::message::Message;
use crate::lockstep::transport::{Transport, TransportError};

/// One peer's end of an in-memory hub.
#[derive(Debug)]
pub struct MemoryEndpoint {
    name: String,
    peers: Vec<Sender<Message>>,
    inbox: Receiver<Message>,
}

/// Creates `n` connected endpoints.
pub fn hub(n: usize) -> Vec<MemoryEndpoint> {
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..n).map(|_| channel()).unzip();
    receivers
        .into_iter()
        .enumerate()
        .map(|(i, inbox)| MemoryEndpoint {
            name: format!("memory:{i}"),
            peers: senders.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, s)| s.clone()).collect(),
            inbox,
        })
        .collect()
}

impl Transport for MemoryEndpoint {
    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        for p in &self.peers {
            p.send(message.clone()).map_err(|_| TransportError::Disconnected(self.name.clone()))?;
        }
        Ok(())
    }

    fn receive(&mut self) -> Result<Option<Message>, TransportError> {
        match self.inbox.try_recv() {
            Ok(m) => Ok(Some(m)),
            Err(TryRecvError::Empty) => Ok(None),
            // Alone in the hub (single player) there is nobody to lose.
            Err(TryRecvError::Disconnected) if self.peers.is_empty() => Ok(None),
            Err(TryRecvError::Disconnected) => Err(TransportError::Disconnected(self.name.clone())),
        }
    }
}
