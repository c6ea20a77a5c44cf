//! An AI style: the leaning that makes one computer opponent mass infantry and strike early
//! while another builds armour and waits, built from `data/ai_styles.ron` by `ai_styles.rs`; the AI weighs by it. Each AI
//! draws one from the game's seed when it first thinks, so two games with different seeds
//! play differently and one seed plays the same game twice.
//!
//! Must not: hold behaviour, or replace the counters: a style only weighs the counters' scores
//! by the kind of unit and scales the first attack.

use crate::sim::rules::ObjectKind;

/// How one style leans, in percent (100: as the counters and the plan say).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AiStyle {
    /// The style's name in `data/ai_styles.ron`.
    pub name: String,
    /// Weight on the score of infantry.
    pub infantry: u32,
    /// Weight on the score of vehicles.
    pub vehicles: u32,
    /// Weight on the score of aircraft.
    pub aircraft: u32,
    /// Scales the worth the first attack waits for (below 100: it strikes sooner with less).
    pub wave: u32,
}

impl AiStyle {
    /// The style that changes nothing.
    pub fn neutral() -> AiStyle {
        AiStyle { name: "balanced".into(), infantry: 100, vehicles: 100, aircraft: 100, wave: 100 }
    }

    /// This style followed `follow` percent of the way from neutral: every weight and the
    /// wave pulled toward 100 (a player that follows its leaning half-way).
    pub fn followed(&self, follow: u32) -> AiStyle {
        let toward = |w: u32| (100 + (w as i64 - 100) * follow.min(100) as i64 / 100).max(0) as u32;
        AiStyle {
            name: self.name.clone(),
            infantry: toward(self.infantry),
            vehicles: toward(self.vehicles),
            aircraft: toward(self.aircraft),
            wave: toward(self.wave),
        }
    }

    /// A counters score weighed by this style's leaning for a unit of `kind`.
    pub fn weigh(&self, kind: ObjectKind, score: i64) -> i64 {
        let percent = match kind {
            ObjectKind::Infantry => self.infantry,
            ObjectKind::Vehicle => self.vehicles,
            ObjectKind::Aircraft => self.aircraft,
            ObjectKind::Structure | ObjectKind::Prop => 100,
        };
        score.saturating_mul(percent as i64) / 100
    }

    /// One of `styles`, picked by `draw` (a number from the game's seed); the neutral style
    /// when there are none.
    pub fn pick(styles: &[AiStyle], draw: u64) -> AiStyle {
        if styles.is_empty() {
            return AiStyle::neutral();
        }
        styles[(draw % styles.len() as u64) as usize].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_style_weighs_only_its_kinds_and_picks_by_the_draw() {
        let rush = AiStyle { name: "rush".into(), infantry: 150, vehicles: 50, aircraft: 100, wave: 70 };
        assert_eq!(rush.weigh(ObjectKind::Infantry, 1000), 1500);
        assert_eq!(rush.weigh(ObjectKind::Vehicle, 1000), 500);
        assert_eq!(rush.weigh(ObjectKind::Aircraft, 1000), 1000);
        let styles = vec![AiStyle::neutral(), rush.clone()];
        assert_eq!(AiStyle::pick(&styles, 7), rush);
        assert_eq!(AiStyle::pick(&styles, 8).name, "balanced");
        assert_eq!(AiStyle::pick(&[], 3), AiStyle::neutral());
        let half = rush.followed(50);
        assert_eq!((half.infantry, half.vehicles, half.aircraft, half.wave), (125, 75, 100, 85));
        assert_eq!(rush.followed(100), rush);
        assert_eq!(rush.followed(0).infantry, 100);
    }
}
