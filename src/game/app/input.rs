//! Input from the window, routed: the UI (the shell's window tree) sees it first; what no
//! window took goes to the battle — the HUD's gadgets found through the tree, world clicks,
//! hotkeys, the online chat — and keys go to the layout editor while it is open.
//!
//! Keys are read as [`Chord`]s: the battle's key map says what they do, and Options → Keys
//! takes the next one while it waits for a key.
//!
//! Must not: turn input into commands itself (the battle's translators do) or draw.

use winit::event::{ElementState, KeyEvent, MouseScrollDelta};
use winit::keyboard::{Key as WKey, ModifiersState, NamedKey};

use crate::game::keys::{Chord, KeyCommand};
use crate::ui::{Input, Key, MouseButton};

use super::super::hud::{self, Gadget};
use super::super::shell::Screen;
use super::running::Running;

/// The keyboard's modifiers changed.
pub(super) fn modifiers(r: &mut Running, m: ModifiersState) {
    r.shell.set_shift(m.shift_key());
    r.shell.set_alt(m.alt_key());
    if let Some((battle, _)) = &mut r.battle {
        battle.controls().set_shift(m.shift_key());
        battle.controls().set_show_orders(m.alt_key());
    }
}

/// The cursor left the window.
pub(super) fn cursor_left(r: &mut Running) {
    if let Some((battle, _)) = &mut r.battle {
        battle.controls().mouse_left();
    }
}

/// The cursor moved to `at`.
pub(super) fn cursor_moved(r: &mut Running, at: glam::Vec2) {
    r.shell.handle(Input::MouseMove { x: at.x, y: at.y });
    let over_ui = r.shell.ui.hit(at.x, at.y).is_some() || r.shell.message_open();
    if let Some((battle, _)) = &mut r.battle {
        battle.controls().mouse_move(at);
        battle.controls().set_cursor_over_ui(over_ui);
        // A drag that began on the radar pans the view while the button is held.
        if let Some(rect) = r.radar_drag {
            hud::radar::click(battle, rect, at);
        }
    }
}

/// A mouse button went down or up.
pub(super) fn mouse_button(r: &mut Running, state: ElementState, button: winit::event::MouseButton, ctrl: bool) {
    let button = match button {
        winit::event::MouseButton::Left => MouseButton::Left,
        winit::event::MouseButton::Right => MouseButton::Right,
        _ => return,
    };
    let (x, y) = r.shell.ui.cursor();
    let input = match state {
        ElementState::Pressed => Input::MouseDown { x, y, button },
        ElementState::Released => Input::MouseUp { x, y, button },
    };
    let consumed = r.shell.handle(input);
    if r.shell.editing() || state == ElementState::Released {
        r.radar_drag = None;
    }
    if r.shell.editing() {
        // The layout editor has the mouse: nothing reaches the battle, radar or panel.
        return;
    }
    let at = glam::Vec2::new(x, y);
    // The battle's gadgets are found through the window tree, by what they show.
    let gadget = hud::under(&r.shell, x, y);
    let Some((battle, _)) = &mut r.battle else { return };
    match (gadget, state) {
        (Some((Gadget::SelectionPanel, rect)), ElementState::Pressed) => {
            hud::panel::click(battle, rect, at, ctrl);
        }
        (Some((Gadget::Radar, rect)), ElementState::Pressed) if button == MouseButton::Left => {
            // After A, the click attack-moves there; otherwise it moves the camera (and a drag
            // pans it).
            if !hud::radar::armed_order(battle, rect, at) {
                r.radar_drag = Some(rect);
                hud::radar::click(battle, rect, at);
            }
        }
        (Some((Gadget::Radar, rect)), ElementState::Pressed) => hud::radar::order(battle, rect, at),
        (None, ElementState::Pressed) if !consumed => battle.controls().mouse_down(button, at),
        (_, ElementState::Pressed) => {}
        // Releases always reach the battle so a drag never sticks.
        (_, ElementState::Released) => battle.controls().mouse_up(button, at),
    }
}

/// The wheel turned.
pub(super) fn wheel(r: &mut Running, delta: MouseScrollDelta) {
    let d = match delta {
        MouseScrollDelta::LineDelta(_, y) => y,
        MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
    };
    let (x, y) = r.shell.ui.cursor();
    if !r.shell.handle(Input::Wheel { x, y, delta: d })
        && let Some((battle, _)) = &mut r.battle
    {
        battle.controls().wheel(d);
    }
}

/// A key went up (a held scrolling key stops).
pub(super) fn key_released(r: &mut Running, event: &KeyEvent) {
    if let (Some(chord), Some((battle, _))) = (chord(&event.logical_key, false), &mut r.battle) {
        battle.controls().release(chord);
    }
}

/// A key went down. F10 turns the layout editor on and off; while it is on, keys are its own.
/// In a battle with no dialog open, keys belong to the battle (and its chat while a line is
/// open); otherwise to the UI.
pub(super) fn key_pressed(r: &mut Running, event: &KeyEvent, m: ModifiersState) {
    if matches!(event.logical_key, WKey::Named(NamedKey::F10)) {
        r.shell.toggle_editor();
        return;
    }
    if r.shell.editing() && !r.shell.message_open() {
        // Typing text (a panel field, or the window's text after t), Space is a character and
        // Ctrl+A, C, V and X work as in every text field; otherwise keys are editor commands.
        match editor_key(r.shell.editor_takes_text(), m.control_key(), &event.logical_key, event.text.as_deref()) {
            EditorKey::Clipboard => clipboard_key(r, event),
            EditorKey::Key(k) => {
                r.shell.handle(Input::Key { key: k, shift: m.shift_key() });
            }
            EditorKey::Chars(text) => {
                for c in text.chars() {
                    r.shell.handle(Input::Char(c));
                }
            }
        }
        return;
    }
    // Options → Keys waiting for a key takes it (Escape, no chord, goes on to cancel).
    if crate::game::shell::keys::waiting(&r.shell.stage())
        && let Some(chord) = chord(&event.logical_key, m.control_key())
    {
        crate::game::shell::keys::bind(&mut r.shell.stage(), chord);
        return;
    }
    let battle_keys = r.battle.is_some() && !r.shell.message_open() && r.shell.screen() == Some(Screen::InGame);
    // An online battle's chat: Enter opens a line, and while it is open the keys are its own.
    if let (true, Some((battle, _))) = (battle_keys, &mut r.battle) {
        let chatting = battle.play().online().is_some_and(crate::game::battle::OnlineLink::chat_open);
        let k = key(&event.logical_key);
        if chatting || k == Some(Key::Enter) {
            let used = k.is_some_and(|k| battle.play_mut().chat_key(k));
            if chatting {
                if k.is_none() || k == Some(Key::Space) {
                    for c in event.text.iter().flat_map(|t| t.chars()) {
                        battle.play_mut().chat_char(c);
                    }
                }
                return;
            }
            if used {
                return;
            }
        }
    }
    if let (true, WKey::Named(NamedKey::Pause), Some((battle, _))) = (battle_keys, &event.logical_key, &mut r.battle)
        && let Err(e) = battle.controls().toggle_pause()
    {
        log::warn!("pause: {e}");
    }
    // The player's keys (with Ctrl held the text may be a control character: the key's own
    // is used).
    if let (true, Some(chord), Some((battle, _))) =
        (battle_keys, chord(&event.logical_key, m.control_key()), &mut r.battle)
        && battle.controls().press(chord) == Some(KeyCommand::AlertLog)
    {
        r.shell.bars().toggle_alert_log();
        // The log may now lie under the resting cursor: the system's cursor shows there.
        let (x, y) = r.shell.ui.cursor();
        battle.controls().set_cursor_over_ui(r.shell.ui.hit(x, y).is_some());
    }
    if let Some(k) = key(&event.logical_key) {
        if !battle_keys {
            let used = r.shell.handle(Input::Key { key: k, shift: m.shift_key() });
            if k == Key::Escape && !used {
                r.shell.escape();
            }
        } else if k == Key::Escape {
            let cancelled = r.battle.as_mut().is_some_and(|(b, _)| b.controls().cancel_mode());
            if !cancelled {
                r.shell.open_game_menu();
            }
        }
    }
    if m.control_key() && (r.battle.is_none() || r.shell.message_open() || r.shell.screen() != Some(Screen::InGame)) {
        clipboard_key(r, event);
    } else if m.control_key() && matches!(&event.logical_key, WKey::Character(t) if t.eq_ignore_ascii_case("c")) {
        copy(r);
    } else if let Some(text) = &event.text {
        for c in text.chars().filter(|c| !c.is_control()) {
            r.shell.handle(Input::Char(c));
        }
    }
}

/// What a key pressed while the layout editor is on does.
#[derive(Debug, PartialEq, Eq)]
enum EditorKey {
    /// Ctrl with a letter in a text field: select all, copy, cut or paste.
    Clipboard,
    /// A key: an editor command, or an editing key in a text field.
    Key(Key),
    /// Characters typed (none: the key does nothing).
    Chars(String),
}

/// What a key does in the layout editor: while text is typed (`typing`), Space is a character
/// and Ctrl goes to the clipboard; otherwise keys are the editor's commands.
fn editor_key(typing: bool, ctrl: bool, logical: &WKey, text: Option<&str>) -> EditorKey {
    if typing && ctrl {
        return EditorKey::Clipboard;
    }
    match key(logical).filter(|&k| !(typing && k == Key::Space)) {
        Some(k) => EditorKey::Key(k),
        None => EditorKey::Chars(text.unwrap_or_default().chars().filter(|c| !c.is_control()).collect()),
    }
}

/// Ctrl with a letter over a text field: A selects everything, C copies the selection, X cuts
/// it and V pastes (never a letter typed).
fn clipboard_key(r: &mut Running, event: &KeyEvent) {
    let WKey::Character(t) = &event.logical_key else { return };
    match t.to_ascii_lowercase().as_str() {
        "a" => {
            r.shell.handle(Input::Key { key: Key::SelectAll, shift: false });
        }
        "c" => copy(r),
        "x" if r.shell.focused_selection().is_some() => {
            copy(r);
            r.shell.handle(Input::Key { key: Key::Backspace, shift: false });
        }
        "v" => r.paste(),
        _ => {}
    }
}

/// Copies the focused field's selection to the system clipboard.
fn copy(r: &mut Running) {
    if let Some(text) = r.shell.focused_selection()
        && let Some(c) = r.clipboard.as_mut()
        && let Err(e) = c.set_text(text)
    {
        log::warn!("cannot copy: {e}");
    }
}

/// The battle's key for a window key (Ctrl held or not), if it can be bound: a character's key
/// or a named one ([`Chord`]).
fn chord(k: &WKey, ctrl: bool) -> Option<Chord> {
    match k {
        WKey::Character(text) => text.chars().next().and_then(|c| Chord::character(c, ctrl)),
        named => key(named).and_then(|k| Chord::named(k, ctrl)),
    }
}

/// The UI's key for a window key, if the UI has one.
fn key(k: &WKey) -> Option<Key> {
    match k {
        WKey::Named(n) => Some(match n {
            NamedKey::Tab => Key::Tab,
            NamedKey::Enter => Key::Enter,
            NamedKey::Escape => Key::Escape,
            NamedKey::ArrowLeft => Key::Left,
            NamedKey::ArrowRight => Key::Right,
            NamedKey::ArrowUp => Key::Up,
            NamedKey::ArrowDown => Key::Down,
            NamedKey::Home => Key::Home,
            NamedKey::End => Key::End,
            NamedKey::Backspace => Key::Backspace,
            NamedKey::Delete => Key::Delete,
            NamedKey::Space => Key::Space,
            _ => return None,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_the_editor_space_types_in_text_fields_and_stays_a_key_elsewhere() {
        let space = WKey::Named(NamedKey::Space);
        assert_eq!(editor_key(true, false, &space, Some(" ")), EditorKey::Chars(" ".into()));
        assert_eq!(editor_key(false, false, &space, Some(" ")), EditorKey::Key(Key::Space));
        let a = WKey::Character("a".into());
        assert_eq!(editor_key(true, true, &a, Some("\u{1}")), EditorKey::Clipboard, "Ctrl+A in a field");
        assert_eq!(editor_key(true, false, &a, Some("a")), EditorKey::Chars("a".into()));
        assert_eq!(editor_key(false, false, &WKey::Named(NamedKey::ArrowLeft), None), EditorKey::Key(Key::Left));
        assert_eq!(editor_key(true, false, &WKey::Named(NamedKey::Home), None), EditorKey::Key(Key::Home));
    }
}
