//! Iframe stitching: same-process frames through the snapshot, out-of-process
//! frames through their owner element, with coordinates mapped onto the page.

use super::builder::{ax, input, root, run, target, with_owner, with_props, without_ids, Doc};
use crate::observation::{IdRegistry, ObserveOptions, Rect};
use serde_json::json;

/// Main page with an iframe element (node 3) at (100, 200), 400x300 with a 1px border.
fn main_frame_nodes() -> Vec<serde_json::Value> {
    vec![
        root(1, "MAIN", "Viewer", &[2, 3]),
        ax(2, "link", "Home", &[]),
        ax(3, "Iframe", "Article", &[]),
    ]
}

fn frame_nodes(frame: &str, base: i64) -> Vec<serde_json::Value> {
    vec![
        root(base, frame, "Tokyo", &[base + 1, base + 2, base + 3]),
        ax(base + 1, "heading", "Tokyo", &[]),
        with_props(
            ax(base + 2, "image", "Skyline", &[]),
            &[("url", json!("http://b.test/sky.png"))],
        ),
        ax(base + 3, "link", "Below the frame fold", &[]),
    ]
}

/// Boxes of the frame document: heading near the top, image at (50, 40), and a
/// link at y = 500, inside the document but below the iframe's 298 px content box.
fn frame_doc(frame: &str, base: i64, scroll_y: f64) -> Doc {
    Doc::new(frame)
        .scrolled(0.0, scroll_y)
        .boxed(base + 1, [10.0, 10.0, 300.0, 20.0])
        .boxed(base + 2, [50.0, 40.0, 80.0, 60.0])
        .boxed(base + 3, [10.0, 500.0, 100.0, 20.0])
}

const EXPECTED: &str = "RootWebArea 'Viewer'\n\tlink 'Home'\n\tIframe 'Article'\n\t\tRootWebArea 'Tokyo'\n\t\t\theading 'Tokyo'\n\t\t\timage 'Skyline' url: http://b.test/sky.png";

#[test]
fn same_process_frame_appears_under_its_iframe_node() {
    let main_doc = Doc::new("MAIN").boxed(2, [8.0, 8.0, 50.0, 17.0]).iframe(
        3,
        [100.0, 200.0, 400.0, 300.0],
        1,
    );
    let docs = [main_doc, frame_doc("CHILD", 100, 0.0)];
    let page = input(
        vec![target(
            None,
            vec![main_frame_nodes(), frame_nodes("CHILD", 100)],
            &docs,
        )],
        0.0,
    );
    let obs = run(
        &page,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(without_ids(&obs.tree), EXPECTED);
    // The image box: iframe content origin (101, 201) + (50, 40).
    assert_eq!(
        obs.images[0].bounds,
        Rect {
            x: 151.0,
            y: 241.0,
            width: 80.0,
            height: 60.0
        }
    );
    // A same-process frame: the tab's own target, the child frame's id.
    assert_eq!(obs.images[0].target_id, None);
    assert_eq!(obs.images[0].frame_id.as_deref(), Some("CHILD"));
    assert_eq!(obs.images[0].backend_node_id, 102);
}

#[test]
fn iframe_border_widths_from_computed_styles_offset_the_content() {
    // What the worker sends: border widths as styles, no client rects.
    let main_doc = Doc::new("MAIN")
        .with_border_styles()
        .boxed(2, [8.0, 8.0, 50.0, 17.0])
        .iframe(3, [100.0, 200.0, 400.0, 300.0], 1);
    let docs = [main_doc, frame_doc("CHILD", 100, 0.0)];
    let page = input(
        vec![target(
            None,
            vec![main_frame_nodes(), frame_nodes("CHILD", 100)],
            &docs,
        )],
        0.0,
    );
    let obs = run(
        &page,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(
        obs.images[0].bounds,
        Rect {
            x: 151.0,
            y: 241.0,
            width: 80.0,
            height: 60.0
        }
    );
}

#[test]
fn out_of_process_frame_appears_under_its_owner() {
    let main_doc = Doc::new("MAIN")
        .boxed(2, [8.0, 8.0, 50.0, 17.0])
        .boxed(3, [100.0, 200.0, 400.0, 300.0]);
    let main = target(None, vec![main_frame_nodes()], &[main_doc]);
    // The child target reuses small backend ids: its id space is its own.
    let child = with_owner(
        target(
            Some("OOPIF-1"),
            vec![frame_nodes("OOPIF-1", 1)],
            &[frame_doc("OOPIF-1", 1, 0.0)],
        ),
        None,
        3,
    );
    let obs = run(
        &input(vec![main, child], 0.0),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(without_ids(&obs.tree), EXPECTED);
    // No client rect for the owner here: the border box stands in.
    assert_eq!(
        obs.images[0].bounds,
        Rect {
            x: 150.0,
            y: 240.0,
            width: 80.0,
            height: 60.0
        }
    );
}

#[test]
fn frame_scroll_and_page_scroll_both_shift_frame_content() {
    let main_doc = Doc::new("MAIN")
        .scrolled(0.0, 150.0)
        .boxed(2, [8.0, 8.0, 50.0, 17.0])
        .iframe(3, [100.0, 200.0, 400.0, 300.0], 1);
    // The frame scrolled by 480: its heading and image are above its top edge now,
    // and the link at 500 shows at 201 + 20 = 221 (page), 71 in the viewport.
    let docs = [main_doc, frame_doc("CHILD", 100, 480.0)];
    let page = input(
        vec![target(
            None,
            vec![main_frame_nodes(), frame_nodes("CHILD", 100)],
            &docs,
        )],
        150.0,
    );
    let obs = run(
        &page,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 'Viewer'\n\tIframe 'Article'\n\t\tRootWebArea 'Tokyo'\n\t\t\tlink 'Below the frame fold'"
    );
    assert_eq!(
        obs.marks.last().unwrap().bounds,
        Rect {
            x: 111.0,
            y: 71.0,
            width: 100.0,
            height: 20.0
        }
    );
}

#[test]
fn ids_of_frames_are_keyed_by_target() {
    let main_doc = Doc::new("MAIN")
        .boxed(2, [8.0, 8.0, 50.0, 17.0])
        .boxed(3, [100.0, 200.0, 400.0, 300.0]);
    let main = target(None, vec![main_frame_nodes()], &[main_doc]);
    let child = with_owner(
        target(
            Some("OOPIF-1"),
            vec![frame_nodes("OOPIF-1", 1)],
            &[frame_doc("OOPIF-1", 1, 0.0)],
        ),
        None,
        3,
    );
    let mut registry = IdRegistry::default();
    let obs = run(
        &input(vec![main, child], 0.0),
        &mut registry,
        &ObserveOptions::default(),
    );
    let image = registry.resolve(obs.images[0].id).unwrap();
    assert_eq!(image.target_id.as_deref(), Some("OOPIF-1"));
    assert_eq!(image.backend_node_id, 3);
    // The image item names the same element, and the frame whose resources hold it.
    let item = &obs.images[0];
    assert_eq!(item.target_id.as_deref(), Some("OOPIF-1"));
    assert_eq!(item.frame_id.as_deref(), Some("OOPIF-1"));
    assert_eq!(item.backend_node_id, 3);
    // Backend id 3 exists in both targets: the main one is the iframe element.
    let iframe_line = obs.tree.lines().find(|l| l.contains("Iframe")).unwrap();
    let iframe_id: u32 = iframe_line.trim()[1..]
        .split(']')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(registry.resolve(iframe_id).unwrap().target_id, None);
    assert_ne!(iframe_id, obs.images[0].id);
}

#[test]
fn missing_main_target_is_an_error() {
    let page = input(
        vec![target(
            Some("X"),
            vec![main_frame_nodes()],
            &[Doc::new("MAIN")],
        )],
        0.0,
    );
    let err = crate::observation::observe_json(
        &page.to_string(),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(
        err.unwrap_err(),
        crate::observation::ObservationError::NoMainTarget
    );
}
