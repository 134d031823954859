//! The compact observation format (`ObserveOptions::compact`) on the captured CDP pages:
//! fewer characters, the same elements to act on, the same images and marks.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench::agent::{element_lines, role_and_name};
use hopbench::observation::{
    observe_json, IdRegistry, Observation, ObservationFormat, ObserveOptions,
};
use std::collections::BTreeSet;
use std::path::Path;

const PAGES: [&str; 3] = [
    "obs-page-top.json",
    "obs-page-scrolled.json",
    "obs-kiwix.json",
];

fn observe(name: &str, compact: bool) -> Observation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cdp")
        .join(name);
    let input = std::fs::read_to_string(&path).unwrap();
    let format = if compact {
        ObservationFormat::Compact
    } else {
        ObservationFormat::Mmina
    };
    let options = ObserveOptions {
        format,
        ..ObserveOptions::default()
    };
    observe_json(&input, &mut IdRegistry::default(), &options).unwrap()
}

/// (role, printed name) of every element line whose id has a mark: what an agent can
/// act on.
fn actionable(obs: &Observation) -> BTreeSet<(String, String)> {
    let marked: BTreeSet<u32> = obs.marks.iter().map(|m| m.id).collect();
    element_lines(&obs.tree)
        .filter(|(id, _)| marked.contains(id))
        .filter_map(|(_, rest)| role_and_name(rest))
        .map(|(role, name)| (role.to_string(), name.to_string()))
        .collect()
}

#[test]
fn every_element_to_act_on_is_kept_with_its_role_and_name() {
    for page in PAGES {
        let (full, compact) = (observe(page, false), observe(page, true));
        assert!(
            !actionable(&full).is_empty(),
            "{page}: no interactive elements"
        );
        assert_eq!(actionable(&full), actionable(&compact), "{page}");
        assert_eq!(full.marks.len(), compact.marks.len(), "{page}: marks");
        let srcs = |o: &Observation| o.images.iter().map(|i| i.src.clone()).collect::<Vec<_>>();
        assert_eq!(srcs(&full), srcs(&compact), "{page}: images");
    }
}

#[test]
fn compact_is_shorter_and_has_no_indent_or_text_ids() {
    for page in PAGES {
        let (full, compact) = (observe(page, false), observe(page, true));
        assert!(
            compact.text.len() * 10 <= full.text.len() * 8,
            "{page}: {} chars compact vs {} full",
            compact.text.len(),
            full.text.len()
        );
        assert!(!compact.tree.contains('\t'), "{page}: indented");
        assert!(
            !compact.tree.contains("StaticText"),
            "{page}: text with an id"
        );
        assert!(!compact.tree.contains("RootWebArea"), "{page}: a root line");
    }
}

#[test]
fn text_is_kept_as_bare_lines_with_whitespace_collapsed() {
    let full = observe("obs-kiwix.json", false);
    let compact = observe("obs-kiwix.json", true);
    assert!(full
        .tree
        .contains("StaticText 'Paragraph 1 about Tokyo districts, transport and food. '"));
    assert!(compact
        .tree
        .lines()
        .any(|l| l == "Paragraph 1 about Tokyo districts, transport and food."));
    // Every text of the full observation is in the compact one.
    for line in full.tree.lines().filter(|l| l.contains("] StaticText '")) {
        let text = line
            .split("] StaticText '")
            .nth(1)
            .unwrap()
            .trim_end_matches('\'');
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(compact.tree.contains(&words), "lost text: {words:?}");
    }
}

#[test]
fn the_default_is_the_benchmark_format() {
    let default = observe_json(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cdp/obs-page-top.json"),
        )
        .unwrap(),
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    )
    .unwrap();
    assert_eq!(default.text, observe("obs-page-top.json", false).text);
    assert!(default
        .tree
        .starts_with("[1] RootWebArea 'Trip planner' focused: True\n\t"));
}
