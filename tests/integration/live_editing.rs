//! The layout editor while the files change under it, driven as a modder would: edits stay on
//! screen through reloads caused by other files, a file changed under unsaved edits asks which
//! to keep (and nothing is lost either way), F10 off and on keeps the edits and their undo
//! history, and a save counts as saved when the watcher brings the file back.

use crate::common::{self, click};

use ridgeline::content::ContentRoots;
use ridgeline::game::shell::{Question, Shell};
use ridgeline::ui::draw::DrawCmd;
use ridgeline::ui::wnd::model::{ScreenRect, WindowDef};
use ridgeline::ui::{Input, Key, MouseButton};

const SLIDER: &str = "Options.wnd:SliderMaster";

/// A shell whose Options layout comes from a mod folder of its own, with the editor on over
/// the Options screen; the mod's folder and the roots.
fn editing(name: &str) -> (Shell, std::path::PathBuf, ContentRoots) {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::copy(common::root().join("ui/Options.wnd"), dir.join("ui/Options.wnd")).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    s.prefs.settings.modder_mode = true;
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    s.toggle_editor();
    assert!(s.editing());
    (s, dir, roots)
}

fn find<'a>(ws: &'a [WindowDef], name: &str) -> Option<&'a WindowDef> {
    ws.iter().find_map(|w| if w.name == name { Some(w) } else { find(&w.children, name) })
}

/// The slider's rectangle in the editor's tree.
fn edited_rect(s: &Shell) -> ScreenRect {
    find(&s.editor().unwrap().tree.windows, SLIDER).unwrap().rect
}

/// Where the slider stands on screen (pixels).
fn shown_x(s: &Shell) -> f32 {
    s.ui.window(s.find(SLIDER).unwrap()).unwrap().rect.x
}

/// The slider selected and nudged ten units right with Shift+Right.
fn nudge_slider(s: &mut Shell) {
    let r = s.ui.window(s.find(SLIDER).unwrap()).unwrap().rect;
    let (x, y) = (r.x + r.w / 2.0, r.y + r.h / 2.0);
    s.handle(Input::MouseMove { x, y });
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(SLIDER));
    s.handle(Input::Key { key: Key::Right, shift: true });
}

/// The open message box's title, if one is open.
fn message_title(s: &Shell) -> Option<String> {
    s.message_open().then(|| s.ui.window(s.find("MessageBox.wnd:MessageTitle").unwrap()).unwrap().text.clone())
}

#[test]
fn unsaved_edits_survive_a_reload_caused_by_another_file() {
    let (mut s, dir, roots) = editing("live-other-file");
    let before = edited_rect(&s);
    let x0 = shown_x(&s);
    nudge_slider(&mut s);
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 10);
    let x1 = shown_x(&s);
    assert_eq!(x1, x0 + 12.0, "ten units are twelve pixels at 1280×720");
    // Another layout of the mod is written: everything reloads, the edit stays on screen and
    // in the editor, and the editor's panel is still there.
    let menu =
        common::read(&common::root().join("ui/MainMenu.wnd")).replace("\"MainMenu:ButtonSkirmish\"", "\"Fight\"");
    std::fs::write(dir.join("ui/MainMenu.wnd"), menu).unwrap();
    assert_eq!(s.reload_layouts(&roots), Ok(true));
    assert!(s.editing() && s.find("Editor.wnd:ListTree").is_some(), "the panel stays");
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 10);
    assert_eq!(shown_x(&s), x1);
    assert!(s.editor().unwrap().unsaved());
    assert_eq!(message_title(&s), None, "nothing to ask: the edited file did not change");
    // Undo still reaches back to before the reload.
    s.handle(Input::Char('u'));
    assert_eq!(edited_rect(&s), before);
}

#[test]
fn a_file_changed_under_unsaved_edits_asks_and_loses_nothing_either_way() {
    let (mut s, dir, roots) = editing("live-conflict");
    let before = edited_rect(&s);
    nudge_slider(&mut s);
    let mine = edited_rect(&s);
    // Someone else's edit of the same file (a text editor, a second tool).
    let path = dir.join("ui/Options.wnd");
    let theirs_text = common::read(&path).replace("TEXT = \"Options:OptionsHeader\";", "TEXT = \"Settings\";");
    assert_ne!(theirs_text, common::read(&path));
    std::fs::write(&path, &theirs_text).unwrap();
    s.reload_layouts(&roots).unwrap();
    assert_eq!(s.question(), Some(Question::LayoutConflict));
    assert_eq!(message_title(&s).as_deref(), Some("Layout changed on disk"), "titled from the string table");
    // Cancel keeps the edits, on screen and in the editor.
    click(&mut s, "MessageBox.wnd:ButtonCancel");
    assert_eq!(edited_rect(&s), mine);
    assert!(s.editor().unwrap().unsaved(), "still unsaved against the new file");
    // Reloading again with the file unchanged asks nothing more.
    s.reload_layouts(&roots).unwrap();
    assert_eq!(message_title(&s), None);
    // A second outside change; this time OK takes the file.
    std::fs::write(&path, theirs_text.replace("TEXT = \"Settings\";", "TEXT = \"Setup\";")).unwrap();
    s.reload_layouts(&roots).unwrap();
    assert_eq!(s.question(), Some(Question::LayoutConflict));
    assert_eq!(message_title(&s).as_deref(), Some("Layout changed on disk"), "titled from the string table");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert_eq!(edited_rect(&s), before, "the file's slider is where it always was");
    let texts: Vec<String> = s.editor().unwrap().tree.all_windows().iter().map(|w| w.text.clone()).collect();
    assert!(texts.iter().any(|t| t == "Setup"), "the file's text is in the editor");
    assert!(!s.editor().unwrap().unsaved());
    // The edits were not lost: u brings them back.
    s.handle(Input::Char('u'));
    assert_eq!(edited_rect(&s), mine);
}

#[test]
fn f10_off_and_on_keeps_unsaved_edits_and_their_undo_history() {
    let (mut s, _dir, roots) = editing("live-f10");
    let before = edited_rect(&s);
    nudge_slider(&mut s);
    let moved_x = shown_x(&s);
    s.toggle_editor();
    assert!(!s.editing());
    assert_eq!(shown_x(&s), moved_x, "the edit stays on screen with the editor off");
    // A reload (another file saved) while the editor is off keeps them too.
    s.reload_layouts(&roots).unwrap();
    assert_eq!(shown_x(&s), moved_x);
    s.toggle_editor();
    assert!(s.editor().unwrap().unsaved());
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 10);
    s.handle(Input::Char('u'));
    assert_eq!(edited_rect(&s), before, "the undo history came back with the session");
}

#[test]
fn a_save_brought_back_by_the_watcher_counts_as_saved_and_x_discards() {
    let (mut s, dir, roots) = editing("live-save");
    let before = edited_rect(&s);
    nudge_slider(&mut s);
    s.handle(Input::Char('s'));
    assert_eq!(message_title(&s).as_deref(), Some("Layout editor"));
    click(&mut s, "MessageBox.wnd:ButtonOk");
    let saved = common::read(&dir.join("ui/Options.wnd"));
    assert!(
        saved.contains(&format!("UPPERLEFT: {} {}", before.upper_left.0 + 10, before.upper_left.1)),
        "the move is in the file"
    );
    assert!(!s.editor().unwrap().unsaved());
    // The watcher sees the game's own save and reloads: no question, nothing changes.
    s.reload_layouts(&roots).unwrap();
    assert_eq!(message_title(&s), None);
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 10);
    // A further nudge, then x: back to the saved file (and u undoes the discard).
    s.handle(Input::Key { key: Key::Right, shift: true });
    assert!(s.editor().unwrap().unsaved());
    s.handle(Input::Char('x'));
    assert!(!s.editor().unwrap().unsaved());
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 10);
    s.handle(Input::Char('u'));
    assert_eq!(edited_rect(&s).upper_left.0, before.upper_left.0 + 20);
}

#[test]
fn after_a_pick_in_the_tree_keys_edit_and_the_text_field_takes_spaces_and_long_text() {
    let (mut s, _dir, _roots) = editing("live-keys");
    // Pick the first window in the editor's tree list.
    let r = s.ui.window(s.find("Editor.wnd:ListTree").unwrap()).unwrap().rect;
    s.handle(Input::MouseMove { x: r.x + 20.0, y: r.y + 4.0 });
    s.handle(Input::MouseDown { x: r.x + 20.0, y: r.y + 4.0, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 20.0, y: r.y + 4.0, button: MouseButton::Left });
    let picked = s.editor().unwrap().selected.clone().expect("the tree pick selects a window");
    let rect = |s: &Shell| find(&s.editor().unwrap().tree.windows, &picked).unwrap().rect;
    let before = rect(&s);
    // The arrow nudges the picked window (the list does not keep the keys).
    s.handle(Input::Key { key: Key::Right, shift: false });
    assert_eq!(rect(&s).upper_left.0, before.upper_left.0 + 1);
    s.handle(Input::Char('u'));
    assert_eq!(rect(&s), before);
    // The Text field: a sentence longer than 16 characters, spaces kept.
    let field = s.find("Editor.wnd:EntryText").unwrap();
    let fr = s.ui.window(field).unwrap().rect;
    s.handle(Input::MouseDown { x: fr.x + 5.0, y: fr.y + 5.0, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: fr.x + 5.0, y: fr.y + 5.0, button: MouseButton::Left });
    assert!(s.editor_field_focused());
    s.handle(Input::Key { key: Key::SelectAll, shift: false });
    let sentence = "Welcome to the front line, commander";
    for c in sentence.chars() {
        s.handle(Input::Char(c));
    }
    s.handle(Input::Key { key: Key::Enter, shift: false });
    let text = find(&s.editor().unwrap().tree.windows, &picked).unwrap().text.clone();
    assert_eq!(text, sentence);
}

#[test]
fn moving_a_parent_carries_its_children_and_a_child_pushed_outside_is_noted() {
    let (mut s, _dir, _roots) = editing("live-carry");
    let parent = "Options.wnd:OptionsParent";
    let slider_before = edited_rect(&s);
    // Select the parent (the tree's first row) and nudge it ten right.
    let r = s.ui.window(s.find("Editor.wnd:ListTree").unwrap()).unwrap().rect;
    s.handle(Input::MouseMove { x: r.x + 20.0, y: r.y + 4.0 });
    s.handle(Input::MouseDown { x: r.x + 20.0, y: r.y + 4.0, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 20.0, y: r.y + 4.0, button: MouseButton::Left });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(parent));
    s.handle(Input::Key { key: Key::Right, shift: true });
    assert_eq!(edited_rect(&s).upper_left, (slider_before.upper_left.0 + 10, slider_before.upper_left.1));
    assert_eq!(edited_rect(&s).bottom_right.0, slider_before.bottom_right.0 + 10, "moved, not resized");
    assert_eq!(s.editor().unwrap().note, None);
    // With Alt held the parent moves alone: the slider stays.
    s.set_alt(true);
    s.handle(Input::Key { key: Key::Left, shift: true });
    s.set_alt(false);
    assert_eq!(edited_rect(&s).upper_left, (slider_before.upper_left.0 + 10, slider_before.upper_left.1));
    // The slider pushed far left, out of its parent: the bar says it is clipped.
    nudge_slider(&mut s);
    for _ in 0..60 {
        s.handle(Input::Key { key: Key::Left, shift: true });
    }
    let note = s.editor().unwrap().note.clone().unwrap_or_default();
    assert!(note.contains("SliderMaster reaches outside OptionsPanel"), "{note}");
}

#[test]
fn a_window_added_and_saved_counts_as_saved_when_the_file_comes_back() {
    let (mut s, _dir, roots) = editing("live-add-save");
    // A new window has no place in the file yet; once written and read back it has one.
    s.add_window(ridgeline::ui::wnd::model::WindowType::PushButton);
    assert!(s.editor().unwrap().unsaved());
    s.handle(Input::Char('s'));
    assert!(!s.editor().unwrap().unsaved());
    click(&mut s, "MessageBox.wnd:ButtonOk");
    s.reload_layouts(&roots).unwrap();
    assert_eq!(message_title(&s), None, "no question: the file is what was saved");
    assert!(!s.editor().unwrap().unsaved());
}

#[test]
fn the_panel_halves_step_aside_from_the_selected_window_and_draw_above_the_screen() {
    let dir = common::temp_dir("live-dock");
    // At 800×600 the menu and the panel stand where their layouts put them.
    let mut s = Shell::new(&common::roots(), (800.0, 600.0), dir.join("settings.ron")).unwrap();
    let rect = |s: &Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().rect;
    let overlaps = |a: ridgeline::ui::Rect, b: ridgeline::ui::Rect| {
        let i = a.intersect(&b);
        i.w > 0.0 && i.h > 0.0
    };
    assert!(s.edit_with(None));
    let (tree_home, fields_home) = (rect(&s, "Editor.wnd:TreePanel"), rect(&s, "Editor.wnd:EditorPanel"));
    // The menu's buttons stand where the tree half is: it steps aside, beside the fields.
    let button = rect(&s, "MainMenu.wnd:ButtonSkirmish");
    assert!(overlaps(tree_home, button));
    assert!(s.edit_with(Some("MainMenu.wnd:ButtonSkirmish")));
    assert!(!overlaps(rect(&s, "Editor.wnd:TreePanel"), button), "the selected button is in view");
    assert_eq!(rect(&s, "Editor.wnd:EditorPanel"), fields_home, "the fields half stays");
    // The version line, bottom right, lies under the fields half: that one steps aside and the
    // tree goes home.
    let version = rect(&s, "MainMenu.wnd:Version");
    assert!(s.edit_with(Some("MainMenu.wnd:Version")));
    assert!(!overlaps(rect(&s, "Editor.wnd:EditorPanel"), version));
    assert_eq!(rect(&s, "Editor.wnd:TreePanel"), tree_home);
    // The panel draws after (above) every window of the screen it edits.
    let cmds = ridgeline::game::frame::ui_commands(&s, None, false);
    let last_menu = cmds.iter().rposition(|c| matches!(c, DrawCmd::Text { text, .. } if text == "Skirmish")).unwrap();
    let panel_title =
        cmds.iter().position(|c| matches!(c, DrawCmd::Text { text, .. } if text == "Layout editor")).unwrap();
    assert!(last_menu < panel_title);
}

/// The menu's Quit (and closing the window, which asks the same) with unsaved edits asks Save /
/// Don't save / Cancel: Cancel stays with the edits, Don't save quits leaving the file, Save
/// writes the layout and quits. With nothing unsaved it quits at once.
#[test]
fn quitting_with_unsaved_edits_asks_save_dont_save_or_cancel() {
    use ridgeline::game::shell::ShellRequest;
    let quits = |s: &mut Shell| s.take_requests().into_iter().any(|r| matches!(r, ShellRequest::QuitNow));
    let (mut s, dir, _) = editing("live-quit");
    assert!(!s.ask_before_quit(), "nothing to lose: quit at once");
    let on_disk = common::read(&dir.join("ui/Options.wnd"));
    nudge_slider(&mut s);
    // Cancel: still here, the edits too.
    assert!(s.ask_before_quit());
    assert_eq!(s.question(), Some(Question::QuitUnsaved));
    let text = |s: &Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().text.clone();
    assert!(text(&s, "MessageBox.wnd:MessageText").contains("Options.wnd"), "names the layout");
    assert_eq!(text(&s, "MessageBox.wnd:ButtonOk"), "Save");
    assert_eq!(text(&s, "MessageBox.wnd:ButtonDiscard"), "Don't save");
    assert!(s.ui.window(s.find("MessageBox.wnd:ButtonDiscard").unwrap()).unwrap().visible());
    click(&mut s, "MessageBox.wnd:ButtonCancel");
    assert!(!s.message_open() && !quits(&mut s));
    assert!(s.editor().unwrap().unsaved());
    // Don't save: quits; the file is as it was.
    assert!(s.ask_before_quit());
    click(&mut s, "MessageBox.wnd:ButtonDiscard");
    assert!(quits(&mut s));
    assert_eq!(common::read(&dir.join("ui/Options.wnd")), on_disk);
    // Save: the layout is written (into its mod), then it quits.
    assert!(s.ask_before_quit());
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(quits(&mut s));
    assert!(!s.editor().unwrap().unsaved());
    assert_ne!(common::read(&dir.join("ui/Options.wnd")), on_disk);
    assert!(!s.ask_before_quit(), "saved: nothing left to ask about");
    // Any other message box leaves its third button hidden.
    s.message("T", "x", true);
    assert!(!s.ui.window(s.find("MessageBox.wnd:ButtonDiscard").unwrap()).unwrap().visible());
}
