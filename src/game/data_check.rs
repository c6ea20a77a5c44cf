//! `ridgeline data-check`: everything a modder changes in `data/` and `maps/`, loaded and
//! checked as the game would — the rules and the sounds they name, model kits, the factions'
//! HUD skins (`ui/skins.ron`), AI plans, the effect settings, the keys, the sound files and the
//! score, road types and terrain classes, the ground's scatter (`data/scatter.ron`), and every
//! map against them — with every problem at once, each naming its file and line.
//!
//! Must not: change any file.

use crate::content::ContentRoots;
use crate::defs::{AiPlans, Definitions, SoundTable};
use crate::map::{Map, MapContent};

/// What was checked and what is wrong.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Each problem, `file:line: …`.
    pub problems: Vec<String>,
    /// What was looked at, for the summary (`"rules"`, `"map crossroads"`…).
    pub checked: Vec<String>,
}

/// Checks the data and maps under `roots` (mods first).
pub fn run(roots: &ContentRoots) -> Report {
    let mut r = Report::default();
    let note = |what: &str, result: Result<(), String>, r: &mut Report| {
        r.checked.push(what.to_string());
        if let Err(e) = result {
            r.problems.extend(e.lines().map(str::to_string));
        }
    };
    let refused = crate::content::mod_info::problems(roots);
    let broken = !refused.is_empty();
    note("the mods' mod.ron", if broken { Err(refused.join("\n")) } else { Ok(()) }, &mut r);
    // A refused mod is not read further: a link leading out of it would be followed.
    if broken {
        return r;
    }
    let defs = Definitions::load(roots);
    note("rules and the sounds they name", defs.as_ref().map(|_| ()).map_err(ToString::to_string), &mut r);
    if let Ok(defs) = &defs {
        note("model kits", super::scene::model_library(roots, defs).map(|_| ()).map_err(|e| e.to_string()), &mut r);
        let playable = defs.playable_factions();
        // A skin's image swaps name images of the UI's image set (the game's and the mods').
        let skins = crate::ui::images::ImageSet::load_all(roots)
            .and_then(|images| crate::ui::skin::Skins::find(roots, &playable, &images));
        note("faction skins", skins.map(|_| ()).map_err(|e| e.to_string()), &mut r);
    }
    note("AI plans", AiPlans::load(roots).map(|_| ()).map_err(|e| e.to_string()), &mut r);
    let effects = crate::defs::effects::EffectSettings::load(roots);
    note("effect settings", effects.map(|_| ()).map_err(|e| e.to_string()), &mut r);
    note("keys", super::keys::KeyMap::load(roots).map(|_| ()).map_err(|e| e.to_string()), &mut r);
    let sets = super::battle::CommandSets::load(roots);
    note("command sets", sets.map(|_| ()).map_err(|e| e.to_string()), &mut r);
    match SoundTable::load(roots) {
        Ok(table) => note(
            "sound files",
            crate::audio::bank::Bank::load(&table, roots)
                .map(|_| ())
                .map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")),
            &mut r,
        ),
        Err(e) => note("sound table", Err(e.to_string()), &mut r),
    }
    note("music score", crate::audio::music::Score::load(roots).map(|_| ()).map_err(|e| e.to_string()), &mut r);
    let content = MapContent::load(roots);
    note("road types and terrain classes", content.as_ref().map(|_| ()).map_err(ToString::to_string), &mut r);
    if let Ok(content) = &content {
        let scatter = super::scene::scatter_defs(roots, content).map(|_| ()).map_err(|e| e.to_string());
        note("ground scatter", scatter, &mut r);
    }
    if let (Ok(defs), Ok(content)) = (&defs, &content) {
        for dir in roots.map_dirs() {
            let name = dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let result = Map::load(&dir).map_err(|e| e.to_string()).and_then(|map| {
                let problems = map.check(content, &defs.rules);
                if problems.is_empty() {
                    Ok(())
                } else {
                    Err(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
                }
            });
            note(&format!("map {name}"), result, &mut r);
        }
    }
    r
}
