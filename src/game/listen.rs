//! The client's sound each frame: the options' volumes (live while the sliders move), the
//! interface's clicks, the battle's sounds and its music (the menu theme elsewhere), all held
//! while the window is minimised.
//!
//! Must not: decide what the battle sounds like (the battle's cues do) or block the frame.

use crate::audio::{Audio, Mood, Placement};

use super::battle::Battle;
use super::shell::Shell;

/// Hands this frame's sounds to the mixer.
pub fn follow(audio: &mut Audio, shell: &mut Shell, battle: Option<&mut Battle>, minimized: bool) {
    audio.set_paused(minimized);
    let volumes = shell.volumes();
    if let Some(m) = audio.mixer()
        && m.volumes() != volumes
    {
        m.set_volumes(volumes);
    }
    for name in shell.take_sounds() {
        audio.play(&name, Placement::FLAT);
    }
    match battle {
        Some(b) => {
            for h in b.take_heard() {
                log::trace!("battle sound {} at {:?}", h.name, h.at);
                audio.play(&h.name, h.at);
            }
            audio.set_mood(Mood::Battle { intensity: b.picture().intensity() });
        }
        None => audio.set_mood(Mood::Menu),
    }
}
