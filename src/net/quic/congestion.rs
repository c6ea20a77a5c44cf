//! Congestion control for a game link: QUIC's own (CUBIC) with a floor under its window.
//!
//! A lockstep game sends a few kilobytes a second, and what it sends is late the moment it
//! waits. Stock CUBIC halves its window at every loss down to two packets, so on a link that
//! loses 5 % of its packets the window sits at ~3 KB and datagrams queue inside QUIC for
//! seconds. With a floor of [`FLOOR`] bytes the window still grows and shrinks with the path
//! above it, but a game's trickle is never held back by loss that is not congestion. The
//! game's own rate is bounded (a datagram per tick, see `io.rs`; a relay caps a room too), so
//! the floor cannot flood a path.
//!
//! Must not: raise the window above what CUBIC allows except up to the floor.

use std::any::Any;
use std::sync::Arc;
use std::time::Instant;

use quinn::congestion::{Controller, ControllerFactory, ControllerMetrics, CubicConfig};
use quinn_proto::RttEstimator;

/// The smallest congestion window, bytes: 48 full packets, more than a game at 200 ms round
/// trip ever has in flight.
pub const FLOOR: u64 = 48 * 1200;

/// Builds [`Floored`] CUBIC controllers.
#[derive(Debug, Default)]
pub struct FlooredCubic {
    cubic: Arc<CubicConfig>,
}

impl ControllerFactory for FlooredCubic {
    fn build(self: Arc<Self>, now: Instant, current_mtu: u16) -> Box<dyn Controller> {
        Box::new(Floored { inner: self.cubic.clone().build(now, current_mtu) })
    }
}

/// A controller whose window is never below [`FLOOR`].
struct Floored {
    inner: Box<dyn Controller>,
}

impl Controller for Floored {
    fn on_sent(&mut self, now: Instant, bytes: u64, last_packet_number: u64) {
        self.inner.on_sent(now, bytes, last_packet_number);
    }

    fn on_ack(&mut self, now: Instant, sent: Instant, bytes: u64, app_limited: bool, rtt: &RttEstimator) {
        self.inner.on_ack(now, sent, bytes, app_limited, rtt);
    }

    fn on_end_acks(&mut self, now: Instant, in_flight: u64, app_limited: bool, largest: Option<u64>) {
        self.inner.on_end_acks(now, in_flight, app_limited, largest);
    }

    fn on_congestion_event(&mut self, now: Instant, sent: Instant, persistent: bool, lost_bytes: u64) {
        self.inner.on_congestion_event(now, sent, persistent, lost_bytes);
    }

    fn on_mtu_update(&mut self, new_mtu: u16) {
        self.inner.on_mtu_update(new_mtu);
    }

    fn window(&self) -> u64 {
        self.inner.window().max(FLOOR)
    }

    fn metrics(&self) -> ControllerMetrics {
        let mut m = self.inner.metrics();
        m.congestion_window = self.window();
        m
    }

    fn clone_box(&self) -> Box<dyn Controller> {
        Box::new(Floored { inner: self.inner.clone_box() })
    }

    fn initial_window(&self) -> u64 {
        self.inner.initial_window().max(FLOOR)
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_shrink_the_window_to_the_floor_and_no_further() {
        let now = Instant::now();
        let mut c = Arc::new(FlooredCubic::default()).build(now, 1200);
        let start = c.window();
        assert!(start >= FLOOR);
        for i in 1..40u64 {
            let t = now + std::time::Duration::from_secs(i);
            c.on_congestion_event(t, t, true, 1200);
        }
        assert_eq!(c.window(), FLOOR, "persistent congestion takes CUBIC to two packets; the floor holds");
        assert_eq!(c.metrics().congestion_window, FLOOR);
    }
}
