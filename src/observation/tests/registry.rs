//! Stable ids across observations, persistence, resolution; a large-input sanity run.

use super::builder::{ax, input, root, run, target, Doc};
use crate::observation::{ElementRef, IdRegistry, ObserveOptions, RegistryError};

fn page(nodes: &[(i64, &str, &str)]) -> serde_json::Value {
    let children: Vec<i64> = nodes.iter().map(|n| n.0).collect();
    let mut ax_nodes = vec![root(1, "MAIN", "Page", &children)];
    let mut doc = Doc::new("MAIN");
    for (id, role, name) in nodes {
        ax_nodes.push(ax(*id, role, name, &[]));
        doc = doc.boxed(*id, [10.0, 10.0 + *id as f64 * 20.0, 100.0, 18.0]);
    }
    input(vec![target(None, vec![ax_nodes], &[doc])], 0.0)
}

fn id_of(text: &str, needle: &str) -> u32 {
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in {text}"));
    line.trim()[1..].split(']').next().unwrap().parse().unwrap()
}

#[test]
fn an_element_keeps_its_id_across_observations() {
    let mut registry = IdRegistry::default();
    let first = run(
        &page(&[(5, "link", "Tokyo"), (6, "button", "Search")]),
        &mut registry,
        &ObserveOptions::default(),
    );
    // The page changed: a new element before the others, one element gone.
    let second = run(
        &page(&[(9, "link", "New"), (6, "button", "Search")]),
        &mut registry,
        &ObserveOptions::default(),
    );
    assert_eq!(
        id_of(&first.text, "'Search'"),
        id_of(&second.text, "'Search'")
    );
    let new_id = id_of(&second.text, "'New'");
    assert!(
        new_id > id_of(&first.text, "'Search'"),
        "ids are never reused"
    );
    let gone = id_of(&first.text, "'Tokyo'");
    assert_eq!(registry.resolve(gone), Err(RegistryError::UnknownId(gone)));
    assert_eq!(
        registry.resolve(new_id).unwrap(),
        ElementRef {
            target_id: None,
            backend_node_id: 9
        }
    );
}

#[test]
fn scrolled_out_elements_keep_their_ids() {
    let mut registry = IdRegistry::default();
    let mut nodes: Vec<(i64, &str, &str)> = vec![(2, "link", "Top")];
    nodes.push((100, "link", "Far"));
    let first = run(&page(&nodes), &mut registry, &ObserveOptions::default());
    let top = id_of(&first.text, "'Top'");
    let mut scrolled = page(&nodes);
    scrolled["viewport"]["pageY"] = serde_json::json!(1800.0);
    let second = run(&scrolled, &mut registry, &ObserveOptions::default());
    assert!(!second.text.contains("'Top'"));
    assert_eq!(registry.resolve(top).unwrap().backend_node_id, 2);
}

#[test]
fn unknown_id_error_names_the_id() {
    let err = IdRegistry::default().resolve(42).unwrap_err();
    assert!(err.to_string().contains("[42]"), "{err}");
}

#[test]
fn registry_survives_a_json_round_trip() {
    let mut registry = IdRegistry::default();
    let a = registry.id_for(&None, 10);
    let b = registry.id_for(&Some("OOPIF".into()), 10);
    let back = IdRegistry::from_json(&registry.to_json()).unwrap();
    assert_eq!(back, registry);
    assert_eq!(back.resolve(b).unwrap().target_id.as_deref(), Some("OOPIF"));
    let mut back = back;
    assert_eq!(back.id_for(&None, 10), a);
    assert!(back.id_for(&None, 11) > b);
    assert!(matches!(
        IdRegistry::from_json("{"),
        Err(RegistryError::BadJson(_))
    ));
}

#[test]
fn id_of_reads_an_existing_id_and_never_gives_one() {
    let mut registry = IdRegistry::default();
    let a = registry.id_for(&None, 10);
    let b = registry.id_for(&Some("OOPIF".into()), 10);
    assert_eq!(registry.id_of(&None, 10), Some(a));
    assert_eq!(registry.id_of(&Some("OOPIF".into()), 10), Some(b));
    assert_eq!(registry.id_of(&None, 11), None);
    assert_eq!(registry.len(), 2, "looking up gave no new id");
}

#[test]
fn large_page_is_observed_completely() {
    // 12,000 nodes in 3,000 groups: sanity of the algorithm on benchmark-sized pages
    // (no timing assertion: figures come from ./build.sh bench).
    let groups = 3000;
    let mut nodes = Vec::new();
    let mut doc = Doc::new("MAIN");
    let child_ids: Vec<i64> = (0..groups).map(|g| 10 + g * 4).collect();
    nodes.push(root(1, "MAIN", "Big", &child_ids));
    for g in 0..groups {
        let base = 10 + g * 4;
        nodes.push(ax(base, "listitem", "", &[base + 1]));
        nodes.push(ax(base + 1, "link", &format!("Item {g}"), &[base + 2]));
        nodes.push(ax(base + 2, "StaticText", &format!("Item {g}"), &[]));
        let y = g as f64 * 20.0;
        doc = doc
            .boxed(base, [0.0, y, 500.0, 20.0])
            .boxed(base + 1, [0.0, y, 100.0, 20.0])
            .boxed(base + 2, [0.0, y, 100.0, 20.0]);
    }
    let page = input(vec![target(None, vec![nodes], &[doc])], 0.0);
    let options = ObserveOptions {
        whole_page: true,
        ..ObserveOptions::default()
    };
    let mut registry = IdRegistry::default();
    let obs = run(&page, &mut registry, &options);
    assert_eq!(obs.stats.lines, 1 + groups as usize);
    assert!(obs.text.contains("link 'Item 2999'"));
    let viewport_only = run(&page, &mut registry, &ObserveOptions::default());
    // 720 px / 20 px rows: rows at y = 0..=700; the one starting at 720 is outside.
    assert_eq!(viewport_only.stats.lines, 1 + 36);
}
