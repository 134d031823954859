//! The observation core on real Chromium 156 CDP responses, captured from the e2e
//! test pages by tests/fixtures/cdp/capture.mjs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::observation::{observe_json, IdRegistry, Observation, ObserveOptions};
use std::path::Path;

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cdp")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn observe(name: &str, options: &ObserveOptions) -> (Observation, IdRegistry) {
    let mut registry = IdRegistry::default();
    let obs = observe_json(&fixture(name), &mut registry, options).unwrap();
    (obs, registry)
}

/// The line naming `needle`, with its depth (leading tabs) and id.
fn line_with<'t>(obs: &'t Observation, needle: &str) -> Option<(usize, u32, &'t str)> {
    obs.tree.lines().find(|l| l.contains(needle)).map(|line| {
        let rest = line.trim_start_matches('\t');
        let id = rest[1..].split(']').next().unwrap().parse().unwrap();
        (line.len() - rest.len(), id, rest)
    })
}

#[test]
fn top_of_the_page_shows_form_images_frames_and_shadow_content() {
    let (obs, _) = observe("obs-page-top.json", &ObserveOptions::default());
    println!("{}", obs.text);
    assert!(obs.text.starts_with(
        "Tab 0 (current): Trip planner\n\n[1] RootWebArea 'Trip planner' focused: True"
    ));
    for expected in [
        "heading 'Plan your trip'",
        "link 'About us'",
        "textbox 'Destination city' required: False",
        "checkbox 'Flexible dates' checked: true",
        "combobox 'Travel class' hasPopup: menu expanded: False",
        "option 'Economy' selected: True",
        "button 'Search trips'",
        "image 'Red square' url: http://127.0.0.1:",
        "image 'Blue circle' url: ",
        "button 'Shadow button'",
        "Iframe 'Same-origin frame'",
        "heading 'Inside same-origin frame'",
        "textbox 'Frame search'",
        "Iframe 'Cross-site frame'",
        "heading 'Inside cross-site frame'",
        "image 'Purple in cross frame' url: http://localhost:",
    ] {
        assert!(
            line_with(&obs, expected).is_some(),
            "missing {expected:?} in\n{}",
            obs.tree
        );
    }
    for absent in [
        "Far below heading",
        "Deep link far below",
        "Green far image",
        "InlineTextBox",
    ] {
        assert!(
            !obs.tree.contains(absent),
            "{absent:?} is below the viewport:\n{}",
            obs.tree
        );
    }
}

#[test]
fn frame_content_is_nested_under_its_iframe_line() {
    let (obs, registry) = observe("obs-page-top.json", &ObserveOptions::default());
    for (iframe, inner) in [
        (
            "Iframe 'Same-origin frame'",
            "heading 'Inside same-origin frame'",
        ),
        (
            "Iframe 'Cross-site frame'",
            "heading 'Inside cross-site frame'",
        ),
    ] {
        let (frame_depth, ..) = line_with(&obs, iframe).unwrap();
        let (inner_depth, ..) = line_with(&obs, inner).unwrap();
        assert!(
            inner_depth > frame_depth,
            "{inner} not under {iframe}:\n{}",
            obs.tree
        );
    }
    let (_, cross_id, _) = line_with(&obs, "heading 'Inside cross-site frame'").unwrap();
    assert!(
        registry.resolve(cross_id).unwrap().target_id.is_some(),
        "OOPIF element keyed by its target"
    );
    let (_, same_id, _) = line_with(&obs, "heading 'Inside same-origin frame'").unwrap();
    assert_eq!(registry.resolve(same_id).unwrap().target_id, None);
}

#[test]
fn images_in_frames_are_placed_on_the_page() {
    let (obs, _) = observe("obs-page-top.json", &ObserveOptions::default());
    let names: Vec<&str> = obs.images.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Red square",
            "Blue circle",
            "Purple gallery",
            "Purple in cross frame"
        ]
    );
    let red = &obs.images[0];
    assert_eq!((red.bounds.width, red.bounds.height), (120.0, 90.0));
    // The cross-site iframe's border box starts at x = 438 on the page (1px border);
    // the image sits at x = 111 in the frame's own document.
    let cross = &obs.images[3];
    assert!(
        (cross.bounds.x - (438.0 + 1.0 + 111.0)).abs() < 1.0,
        "{:?}",
        cross.bounds
    );
    assert!(
        cross.bounds.y > 235.0 && cross.bounds.y < 235.0 + 162.0,
        "{:?}",
        cross.bounds
    );
}

#[test]
fn scrolled_page_shows_the_far_section_only() {
    let (obs, _) = observe("obs-page-scrolled.json", &ObserveOptions::default());
    println!("{}", obs.text);
    assert!(
        obs.tree.starts_with("[1] RootWebArea 'Trip planner'"),
        "{}",
        obs.tree
    );
    assert!(
        line_with(&obs, "heading 'Far below heading'").is_some(),
        "{}",
        obs.tree
    );
    assert!(line_with(&obs, "link 'Deep link far below'").is_some());
    assert!(line_with(&obs, "image 'Green far image'").is_some());
    assert!(
        line_with(&obs, "heading 'Plan your trip'").is_none(),
        "{}",
        obs.tree
    );
    assert_eq!(obs.images.len(), 1);
}

#[test]
fn whole_page_option_shows_both_ends() {
    let options = ObserveOptions {
        whole_page: true,
        ..ObserveOptions::default()
    };
    let (obs, _) = observe("obs-page-top.json", &options);
    assert!(line_with(&obs, "heading 'Plan your trip'").is_some());
    assert!(line_with(&obs, "heading 'Far below heading'").is_some());
}

#[test]
fn kiwix_viewer_shows_the_article_inside_its_iframe() {
    let (obs, _) = observe("obs-kiwix.json", &ObserveOptions::default());
    println!("{}", obs.text);
    let (frame_depth, ..) = line_with(&obs, "Iframe 'Article'").unwrap();
    let (title_depth, ..) = line_with(&obs, "heading 'Tokyo'").unwrap();
    assert!(title_depth > frame_depth);
    assert!(line_with(&obs, "link 'Japan'").is_some(), "{}", obs.tree);
    assert!(line_with(&obs, "image 'Tokyo skyline'").is_some());
    // The article is long: its last section is below the iframe's visible box.
    assert!(
        line_with(&obs, "Far article section").is_none(),
        "{}",
        obs.tree
    );
    assert!(
        line_with(&obs, "searchbox 'Search Wikipedia'").is_some(),
        "{}",
        obs.tree
    );
}

#[test]
fn the_same_page_observed_twice_keeps_every_id() {
    let mut registry = IdRegistry::default();
    let input = fixture("obs-page-top.json");
    let first = observe_json(&input, &mut registry, &ObserveOptions::default()).unwrap();
    let second = observe_json(&input, &mut registry, &ObserveOptions::default()).unwrap();
    assert_eq!(first.text, second.text);
}
