//! Viewport filtering, image and mark lists.

use super::builder::{ax, input, root, run, target, with_props, without_ids, Doc};
use crate::observation::{IdRegistry, ObserveOptions, Rect};
use serde_json::json;

/// A page 3,000 px tall: a heading at the top, a link and an image far below.
fn long_page(scroll_y: f64) -> serde_json::Value {
    let nodes = vec![
        root(1, "MAIN", "Long", &[2, 3, 4, 5]),
        ax(2, "heading", "Top heading", &[]),
        ax(3, "link", "Far link", &[]),
        with_props(
            ax(4, "image", "Far image", &[]),
            &[("url", json!("http://a.test/far.png"))],
        ),
        ax(5, "combobox", "Class", &[6]),
        ax(6, "option", "Economy", &[]),
    ];
    let doc = Doc::new("MAIN")
        .scrolled(0.0, scroll_y)
        .boxed(1, [0.0, 0.0, 1280.0, 3000.0])
        .boxed(2, [8.0, 10.0, 600.0, 30.0])
        .boxed(3, [8.0, 2900.0, 100.0, 17.0])
        .boxed(4, [200.0, 2800.0, 100.0, 75.0])
        .boxed(5, [8.0, 60.0, 100.0, 20.0]);
    // Node 6 (the option of a closed select) has no layout box of its own.
    input(vec![target(None, vec![nodes], &[doc])], scroll_y)
}

#[test]
fn only_nodes_in_the_viewport_are_kept() {
    let obs = run(
        &long_page(0.0),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 'Long'\n\theading 'Top heading'\n\tcombobox 'Class'\n\t\toption 'Economy'"
    );
    assert!(obs.images.is_empty());
}

#[test]
fn whole_page_option_keeps_everything() {
    let options = ObserveOptions {
        whole_page: true,
        ..ObserveOptions::default()
    };
    let obs = run(&long_page(0.0), &mut IdRegistry::default(), &options);
    assert!(obs.tree.contains("link 'Far link'"), "{}", obs.tree);
    assert!(obs.tree.contains("image 'Far image'"), "{}", obs.tree);
    // The image list stays viewport-only: it is what the model is shown.
    assert!(obs.images.is_empty());
}

#[test]
fn scrolling_moves_the_viewport() {
    let obs = run(
        &long_page(2400.0),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert_eq!(
        without_ids(&obs.tree),
        "RootWebArea 'Long'\n\tlink 'Far link'\n\timage 'Far image' url: http://a.test/far.png"
    );
    assert_eq!(obs.images.len(), 1);
    let image = &obs.images[0];
    assert_eq!(image.src, "http://a.test/far.png");
    // Viewport coordinates: document y 2800 minus scroll 2400.
    assert_eq!(
        image.bounds,
        Rect {
            x: 200.0,
            y: 400.0,
            width: 100.0,
            height: 75.0
        }
    );
    assert!(obs
        .text
        .contains(&format!("[{}] image 'Far image'", image.id)));
}

#[test]
fn a_box_straddling_the_bottom_edge_is_kept_and_clipped_in_marks() {
    let nodes = vec![root(1, "MAIN", "p", &[2]), ax(2, "button", "Half", &[])];
    let doc = Doc::new("MAIN").boxed(2, [10.0, 700.0, 50.0, 40.0]);
    let obs = run(
        &input(vec![target(None, vec![nodes], &[doc])], 0.0),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert!(obs.tree.contains("button 'Half'"));
    assert_eq!(obs.marks.len(), 1);
    assert_eq!(
        obs.marks[0].bounds,
        Rect {
            x: 10.0,
            y: 700.0,
            width: 50.0,
            height: 20.0
        }
    );
}

#[test]
fn marks_cover_interactive_elements_only() {
    let obs = run(
        &long_page(0.0),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    let roles: Vec<&str> = obs.marks.iter().map(|m| m.role.as_str()).collect();
    // The option has no box of its own, so it gets no mark.
    assert_eq!(roles, ["combobox"]);
}

#[test]
fn tabs_line_comes_first_then_a_blank_line() {
    let mut page = long_page(0.0);
    page["tabs"] = json!([{"title": "Long", "current": true}, {"title": "Other"}]);
    let obs = run(
        &page,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert!(
        obs.text
            .starts_with("Tab 0 (current): Long | Tab 1: Other\n\n["),
        "{}",
        obs.text
    );
    assert!(obs.text.ends_with(&obs.tree));
}

#[test]
fn image_without_a_url_property_takes_the_snapshot_source() {
    let nodes = vec![root(1, "MAIN", "p", &[2]), ax(2, "img", "Logo", &[])];
    let doc = Doc::new("MAIN")
        .boxed(2, [0.0, 0.0, 50.0, 50.0])
        .source(2, "http://a.test/logo.png");
    let page = input(vec![target(None, vec![nodes], &[doc])], 0.0);
    let obs = run(
        &page,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    );
    assert!(
        obs.tree.ends_with("img 'Logo' url: http://a.test/logo.png"),
        "{}",
        obs.tree
    );
    assert_eq!(obs.images[0].src, "http://a.test/logo.png");
}
