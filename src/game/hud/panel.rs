//! The selection panel (`InGame.wnd:SelectionPanel`): for one object its icon, name, health,
//! veterancy and what it is doing (carrying, building, researching, its queue as icons with
//! the first one's progress); for many, a grid of icons with health bars. A click on a grid
//! icon selects that one, Shift drops it, Ctrl keeps its kind; a click on a queued unit cancels
//! the last one queued, with its refund.
//!
//! The HUD draws it from what the battle shows its player.
//!
//! Must not: change the world; selections and cancels are the battle's orders (commands).

use glam::Vec2;

use crate::sim::ids::ObjectId;
use crate::sim::object::Object;
use crate::sim::{FRAMES_PER_SECOND, World};
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;
use crate::ui::font::TextMeasure;
use crate::ui::labels::Labels;
use crate::ui::text_fit::ellipsized;

use super::super::battle::Battle;
use super::super::battle::status::{RANKS, health_color, health_of, work_status};
use super::super::images::ImageKey;

/// Icons in a row of the many-object grid.
const GRID_COLUMNS: usize = 6;
/// Rows of that grid.
const GRID_ROWS: usize = 4;
/// Queued units shown.
const QUEUE_SHOWN: usize = 5;

/// Where things sit in the panel (screen pixels).
struct Layout {
    /// The many-object grid: each object and its cell.
    grid: Vec<(ObjectId, Rect)>,
    /// The one object's queue: each queued unit's cell.
    queue: Vec<Rect>,
}

/// The panel's cells inside the window `rect`.
fn layout(world: &World, objects: &[&Object], rect: Rect) -> Layout {
    let s = rect.h / 142.0;
    let mut layout = Layout { grid: Vec::new(), queue: Vec::new() };
    if objects.len() > 1 {
        let cell = ((rect.w - 8.0 * s) / GRID_COLUMNS as f32).min((rect.h - 8.0 * s) / GRID_ROWS as f32);
        for (i, o) in objects.iter().take(GRID_COLUMNS * GRID_ROWS).enumerate() {
            let (col, row) = ((i % GRID_COLUMNS) as f32, (i / GRID_COLUMNS) as f32);
            layout
                .grid
                .push((o.id, Rect::new(rect.x + 4.0 * s + col * cell, rect.y + 4.0 * s + row * cell, cell, cell)));
        }
    } else if let Some(o) = objects.first() {
        let n = world.factories().queue(o.id).len().min(QUEUE_SHOWN);
        let cell = (rect.w - 8.0 * s) / QUEUE_SHOWN as f32;
        for i in 0..n {
            layout.queue.push(Rect::new(
                rect.x + 4.0 * s + i as f32 * cell,
                rect.y + 84.0 * s,
                cell - 2.0 * s,
                cell - 2.0 * s,
            ));
        }
    }
    layout
}

/// What the selection panel shows in the window `rect`, its words measured by `measure` (a
/// name too long for the panel ends in an ellipsis).
pub fn draw(battle: &Battle, rect: Rect, measure: &dyn TextMeasure) -> Vec<DrawCmd> {
    let mut out = Vec::new();
    let world = battle.world();
    let rules = world.rules();
    let defs = battle.play().defs();
    let objects = battle.look().selected_shown();
    let s = rect.h / 142.0;
    let px = 12.0 * s;
    let layout = layout(world, &objects, rect);
    let text = |out: &mut Vec<DrawCmd>, x: f32, y: f32, t: String, bold: bool, color: [u8; 4]| {
        out.push(DrawCmd::Text { x, y, text: t, px, bold, color, shadow: Some([0, 0, 0, 220]) });
    };
    out.push(DrawCmd::Clip(Some(rect)));
    if objects.len() > 1 {
        for (id, cell) in &layout.grid {
            let Some(o) = world.object(*id) else { continue };
            let name = &rules.template(o.template).name;
            let icon = cell.inset(2.0 * s);
            out.push(DrawCmd::Fill { rect: icon, color: [20, 24, 28, 200] });
            out.push(DrawCmd::Image { rect: icon, name: ImageKey::icon(name).name(), tint: [255; 4] });
            let (_, frac) = health_of(world, o);
            let bar = Rect::new(icon.x, icon.bottom() - 3.0 * s, icon.w, 3.0 * s);
            out.push(DrawCmd::Fill { rect: bar, color: [0, 0, 0, 200] });
            out.push(DrawCmd::Fill { rect: Rect::new(bar.x, bar.y, bar.w * frac, bar.h), color: health_color(frac) });
        }
        let more = objects.len().saturating_sub(layout.grid.len());
        if more > 0 {
            text(
                &mut out,
                rect.right() - 30.0 * s,
                rect.bottom() - 16.0 * s,
                format!("+{more}"),
                true,
                [240, 230, 200, 255],
            );
        }
    } else if let Some(o) = objects.first() {
        let t = rules.template(o.template);
        let icon = Rect::new(rect.x + 4.0 * s, rect.y + 4.0 * s, 44.0 * s, 44.0 * s);
        out.push(DrawCmd::Fill { rect: icon, color: [20, 24, 28, 200] });
        out.push(DrawCmd::Image { rect: icon, name: ImageKey::icon(&t.name).name(), tint: [255; 4] });
        let x = icon.right() + 6.0 * s;
        let name = ellipsized(measure, defs.object_name(o.template), px, true, rect.right() - x - 4.0 * s);
        text(&mut out, x, rect.y + 4.0 * s, name, true, [245, 235, 200, 255]);
        let (max, frac) = health_of(world, o);
        let bar = Rect::new(x, rect.y + 22.0 * s, rect.right() - x - 4.0 * s, 6.0 * s);
        out.push(DrawCmd::Fill { rect: bar, color: [0, 0, 0, 200] });
        out.push(DrawCmd::Fill { rect: Rect::new(bar.x, bar.y, bar.w * frac, bar.h), color: health_color(frac) });
        text(&mut out, x, rect.y + 30.0 * s, format!("{}/{max}", o.health.max(0)), false, [220, 220, 210, 255]);
        let rank = rules.rank(o.template, o.xp) as usize;
        if let Some(r) = rank.checked_sub(1).and_then(|i| RANKS.get(i)) {
            text(&mut out, rect.x + 4.0 * s, rect.y + 52.0 * s, (*r).to_string(), true, [240, 200, 60, 255]);
        }
        if let Some(line) = status(world, defs, battle.look().labels(), o) {
            text(&mut out, rect.x + 4.0 * s, rect.y + 66.0 * s, line, false, [220, 220, 210, 255]);
        }
        let queue = world.factories().queue(o.id);
        for (i, (job, cell)) in queue.iter().zip(&layout.queue).enumerate() {
            out.push(DrawCmd::Fill { rect: *cell, color: [20, 24, 28, 220] });
            out.push(DrawCmd::Image {
                rect: *cell,
                name: ImageKey::icon(&rules.template(job.template).name).name(),
                tint: [255; 4],
            });
            if i == 0 {
                let secs = job.remaining.div_ceil(FRAMES_PER_SECOND);
                text(&mut out, cell.x + 2.0 * s, cell.y + 1.0 * s, format!("{secs}s"), true, [255, 255, 255, 255]);
            }
        }
        if queue.len() > QUEUE_SHOWN {
            let y = rect.y + 84.0 * s + layout.queue.first().map_or(0.0, |c| c.h);
            text(
                &mut out,
                rect.x + 4.0 * s,
                y,
                format!("+{} more", queue.len() - QUEUE_SHOWN),
                false,
                [220, 220, 210, 255],
            );
        }
    }
    out.push(DrawCmd::Clip(None));
    out
}

/// How far along the first queued unit of the one selected factory is (0–100), if there
/// is one: the panel's progress bar shows it.
pub fn queue_progress(battle: &Battle) -> Option<u8> {
    let objects = battle.look().selected_shown();
    let [o] = objects.as_slice() else { return None };
    let world = battle.world();
    let job = world.factories().queue(o.id).first()?;
    let total = world.rules().template(job.template).build_frames.max(1);
    Some((100 * (total - job.remaining.min(total)) / total) as u8)
}

/// A click (either button) on the selection panel at `at` (inside the window `rect`): a
/// grid icon selects that object (Shift: drops it; Ctrl: keeps its kind); a queued unit
/// cancels the last one queued. True if the click meant something.
pub fn click(battle: &mut Battle, rect: Rect, at: Vec2, ctrl: bool) -> bool {
    let (picked, cancel) = {
        let objects = battle.look().selected_shown();
        let layout = layout(battle.world(), &objects, rect);
        let picked = layout.grid.iter().find(|(_, r)| r.contains(at.x, at.y)).map(|&(id, _)| id);
        let on_queue = layout.queue.iter().any(|r| r.contains(at.x, at.y));
        let cancel = match objects.as_slice() {
            [o] if on_queue => Some(o.id),
            _ => None,
        };
        (picked, cancel)
    };
    if let Some(id) = picked {
        let world = battle.world();
        let kind = world.object(id).map(|o| o.template);
        let ids: Vec<ObjectId> = if battle.picture().shift_held() {
            battle.picture().selection().iter().copied().filter(|&o| o != id).collect()
        } else if ctrl {
            battle
                .picture()
                .selection()
                .iter()
                .copied()
                .filter(|&o| world.object(o).map(|x| x.template) == kind)
                .collect()
        } else {
            vec![id]
        };
        battle.controls().select(ids);
        return true;
    }
    if let Some(factory) = cancel {
        battle.controls().cancel_production(factory);
        return true;
    }
    false
}

/// The one object's doing, in words: construction, power, research, then cargo or repair.
fn status(world: &World, defs: &crate::defs::Definitions, labels: &Labels, o: &Object) -> Option<String> {
    if let Some(work) = work_status(world, defs, labels, o) {
        return Some(work);
    }
    if world.rules().template(o.template).gather.is_some() {
        return Some(labels.say("Status:Carrying", &[("cargo", &o.cargo.to_string())]));
    }
    o.repairing.then(|| labels.say("Status:Repairing", &[]))
}
