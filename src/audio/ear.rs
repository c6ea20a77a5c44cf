//! Where the player listens from: the camera's view of the ground. A sound's pan follows its
//! place across the screen; on screen it plays at full volume, off screen it fades with
//! distance and beyond the range it is not played at all.
//!
//! Must not: know about the renderer or the simulation (positions come in as world units).

/// The listener, as the camera sees the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ear {
    /// The ground point at the middle of the screen (world units).
    pub centre: [f32; 2],
    /// The screen's rightward direction on the ground (unit length).
    pub right: [f32; 2],
    /// Half the ground width the screen shows (world units).
    pub half_width: f32,
    /// Sounds farther than this from the centre are not heard.
    pub range: f32,
}

/// How a sound is placed in the stereo field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// −1 (left) to 1 (right).
    pub pan: f32,
    /// 0 to 1.
    pub gain: f32,
}

impl Placement {
    /// In the middle at full volume (interface sounds, announcements).
    pub const FLAT: Placement = Placement { pan: 0.0, gain: 1.0 };
}

/// Off-screen sounds start at this share of full volume and fade to none at the range.
const OFF_SCREEN_GAIN: f32 = 0.5;
/// How far to one side a sound at the screen's edge is panned.
const EDGE_PAN: f32 = 1.0;

impl Ear {
    /// An ear over `centre` with the screen's right along +x.
    pub fn new(centre: [f32; 2], half_width: f32) -> Ear {
        Ear { centre, right: [1.0, 0.0], half_width: half_width.max(1.0), range: half_width.max(1.0) * 3.0 }
    }

    /// Where a sound at `at` is heard, or `None` when it is out of range.
    pub fn place(&self, at: [f32; 2]) -> Option<Placement> {
        let (dx, dy) = (at[0] - self.centre[0], at[1] - self.centre[1]);
        let distance = (dx * dx + dy * dy).sqrt();
        if !distance.is_finite() || distance > self.range {
            return None;
        }
        let across = dx * self.right[0] + dy * self.right[1];
        let pan = (across / self.half_width * EDGE_PAN).clamp(-1.0, 1.0);
        let gain = if distance <= self.half_width {
            1.0
        } else {
            OFF_SCREEN_GAIN * (1.0 - (distance - self.half_width) / (self.range - self.half_width).max(1.0))
        };
        Some(Placement { pan, gain: gain.clamp(0.0, 1.0) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_is_left_and_far_is_quiet_then_silent() {
        let ear = Ear::new([500.0, 500.0], 200.0);
        let left = ear.place([350.0, 500.0]).unwrap();
        let right = ear.place([650.0, 500.0]).unwrap();
        let middle = ear.place([500.0, 500.0]).unwrap();
        assert!(left.pan < -0.5 && right.pan > 0.5 && middle.pan == 0.0);
        assert_eq!((left.gain, middle.gain), (1.0, 1.0));
        let off = ear.place([500.0, 900.0]).unwrap();
        assert!(off.gain > 0.0 && off.gain < 0.5, "{off:?}");
        assert!(ear.place([500.0, 1200.0]).is_none());
        assert!(ear.place([f32::NAN, 0.0]).is_none());
    }

    #[test]
    fn the_screens_right_follows_the_camera() {
        let ear = Ear { right: [0.0, -1.0], ..Ear::new([0.0, 0.0], 100.0) };
        assert!(ear.place([0.0, -50.0]).unwrap().pan > 0.0);
        assert!(ear.place([0.0, 50.0]).unwrap().pan < 0.0);
    }
}
