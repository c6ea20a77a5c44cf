//! Graphics quality: what the world pass may leave out or draw smaller so a slow machine (a
//! software renderer) keeps a playable frame rate. High draws everything at full size; Low
//! draws the 3D scene at half the window's resolution (scaled up under a full-resolution
//! interface), without the sun's shadow map and with fewer particles (what each level keeps of
//! the effects is `data/effects.ron`'s); Medium lies between.
//!
//! Must not: change what the game computes: quality is display only.

use serde::{Deserialize, Serialize};

/// How much the world pass draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Quality {
    /// Half resolution, no shadows, a third of the particles.
    Low,
    /// Three quarters of the resolution, shadows, two thirds of the particles.
    Medium,
    /// Everything at full resolution.
    #[default]
    High,
}

impl Quality {
    /// Every level, lowest first.
    pub const ALL: [Quality; 3] = [Quality::Low, Quality::Medium, Quality::High];

    /// The level's name, as Options and `--quality` spell it.
    pub fn name(self) -> &'static str {
        match self {
            Quality::Low => "low",
            Quality::Medium => "medium",
            Quality::High => "high",
        }
    }

    /// The 3D scene's resolution as a share of the window's, each way.
    pub fn scene_scale(self) -> f32 {
        match self {
            Quality::Low => 0.5,
            Quality::Medium => 0.75,
            Quality::High => 1.0,
        }
    }

    /// Whether the sun casts shadows (the shadow map is drawn).
    pub fn shadows(self) -> bool {
        self != Quality::Low
    }

    /// The scene's size in pixels for a window of `size` (at least one pixel each way).
    pub fn scene_size(self, size: (u32, u32)) -> (u32, u32) {
        let scale = |n: u32| ((n as f32 * self.scene_scale()).round() as u32).clamp(1, n.max(1));
        (scale(size.0), scale(size.1))
    }
}

impl std::fmt::Display for Quality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Quality {
    type Err = String;

    fn from_str(s: &str) -> Result<Quality, String> {
        Quality::ALL
            .into_iter()
            .find(|q| q.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown quality \"{s}\" (low, medium or high)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_levels_draw_less_and_names_read_back() {
        assert_eq!(Quality::Low.scene_size((1280, 720)), (640, 360));
        assert_eq!(Quality::Medium.scene_size((1280, 720)), (960, 540));
        assert_eq!(Quality::High.scene_size((1280, 720)), (1280, 720));
        assert_eq!(Quality::Low.scene_size((1, 1)), (1, 1));
        assert!(!Quality::Low.shadows() && Quality::Medium.shadows() && Quality::High.shadows());
        for q in Quality::ALL {
            assert_eq!(q.name().parse::<Quality>(), Ok(q));
        }
        assert_eq!("LOW".parse::<Quality>(), Ok(Quality::Low));
        assert!("ultra".parse::<Quality>().unwrap_err().contains("low, medium or high"));
    }
}
