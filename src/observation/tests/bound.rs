//! The bound of a page too big to read whole: the cut line, the caps, the ids.

use super::builder::{ax, input, root, run, target, Doc};
use crate::observation::{IdRegistry, ObserveOptions, MAX_CUT_NODES, MAX_CUT_TOKENS};
use crate::tokens::estimate_tokens;
use serde_json::{json, Value};

/// A page of `links` links in a column 20 px apart, every one in a 1280 px tall
/// viewport (so the viewport filter keeps them all), read whole or cut.
fn links_page(links: i64, cut: Option<Value>) -> Value {
    let ids: Vec<i64> = (2..links + 2).collect();
    let mut nodes = vec![root(1, "MAIN", "Rows", &ids)];
    let mut doc = Doc::new("MAIN").boxed(1, [0.0, 0.0, 1280.0, 720.0]);
    for id in &ids {
        nodes.push(ax(*id, "link", &format!("Row number {id}"), &[]));
        doc = doc.boxed(*id, [8.0, (*id % 36) as f64 * 20.0, 300.0, 18.0]);
    }
    let mut main = target(None, vec![nodes], &[doc]);
    if let Some(cut) = cut {
        main["cut"] = cut;
    }
    let mut page = input(vec![main], 0.0);
    page["tabs"] = json!([{"title": "Rows", "current": true}]);
    page
}

fn observe(page: &Value) -> crate::observation::Observation {
    run(page, &mut IdRegistry::default(), &ObserveOptions::default())
}

#[test]
fn a_cut_page_says_so_under_the_tabs_line() {
    let obs = observe(&links_page(
        3,
        Some(json!({"elements": 199_998, "read": 451})),
    ));
    let lines: Vec<&str> = obs.text.lines().collect();
    assert_eq!(lines[0], "Tab 0 (current): Rows");
    assert_eq!(lines[1], "");
    assert_eq!(
        lines[2],
        "[observation cut: the page has about 200,000 elements; only the 451 nearest the viewport were read]"
    );
    assert!(lines[3].ends_with("RootWebArea 'Rows'"), "{}", obs.text);
    assert_eq!(lines.len(), 7, "the three links follow:\n{}", obs.text);
    assert!(obs.stats.cut);
    // The line is no element line: it has no id an agent could use.
    assert!(crate::agent::element_lines(&obs.text).all(|(_, l)| !l.contains("cut")));
}

#[test]
fn a_page_read_whole_has_no_cut_line_and_no_caps() {
    // Far more text than the cap of a cut page: all of it is written.
    let obs = observe(&links_page(3_000, None));
    assert!(!obs.stats.cut);
    assert!(
        !obs.text.contains("observation cut"),
        "{}",
        &obs.text[..200]
    );
    assert_eq!(obs.stats.lines, 3_001);
    assert!(estimate_tokens(&obs.tree) > 2 * MAX_CUT_TOKENS);
}

#[test]
fn the_text_of_a_cut_page_stops_at_the_token_cap_and_says_where() {
    let obs = observe(&links_page(
        3_000,
        Some(json!({"elements": 50_000, "read": 3_000})),
    ));
    let last = obs.tree.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "[observation cut here: the text reached its cap of about 8,000 tokens]"
    );
    // The tree between the two cut lines is within the cap, in whole lines.
    let body: Vec<&str> = obs.tree.lines().skip(1).collect();
    let body = body[..body.len() - 1].join("\n");
    assert!(
        estimate_tokens(&body) <= MAX_CUT_TOKENS,
        "{}",
        estimate_tokens(&body)
    );
    assert!(estimate_tokens(&body) > MAX_CUT_TOKENS - 20);
    assert!(body
        .lines()
        .skip(1)
        .all(|l| l.starts_with("\t[") && l.ends_with('\'')));
    assert!(obs.stats.lines < 3_001 && obs.stats.lines == body.lines().count());
    // Only elements shown have marks (boxes for set-of-marks).
    assert_eq!(obs.marks.len(), obs.stats.lines - 1);
}

#[test]
fn the_walk_of_a_cut_page_stops_at_the_node_cap() {
    // Whitespace texts print nothing, so only the node cap can stop this walk.
    let count = MAX_CUT_NODES as i64 + 10;
    let ids: Vec<i64> = (2..count + 2).collect();
    let mut nodes = vec![root(1, "MAIN", "Blank", &ids)];
    nodes.extend(ids.iter().map(|id| ax(*id, "StaticText", " ", &[])));
    nodes.push(ax(count + 2, "link", "After the blanks", &[]));
    if let Some(children) = nodes[0]["childIds"].as_array_mut() {
        children.push(json!((count + 2).to_string()));
    }
    let doc = Doc::new("MAIN").boxed(1, [0.0, 0.0, 1280.0, 720.0]);
    let mut main = target(None, vec![nodes], &[doc]);
    main["cut"] = json!({"elements": 30_000, "read": 20_011});
    let obs = observe(&input(vec![main], 0.0));
    assert!(!obs.tree.contains("After the blanks"), "{}", obs.tree);
    assert!(obs.tree.ends_with(
        "[observation cut here: the text reached its cap of 20,000 accessibility nodes]"
    ));
}

#[test]
fn a_frame_read_in_part_is_named_as_a_frame() {
    let mut page = links_page(1, None);
    let frame = json!({
        "targetId": "OOPIF", "frames": [], "owner": {"targetId": null, "backendNodeId": 2},
        "snapshot": {"documents": [], "strings": []},
        "cut": {"elements": 12_345, "read": 80},
    });
    if let Some(targets) = page["targets"].as_array_mut() {
        targets.push(frame);
    }
    let obs = observe(&page);
    assert!(obs.text.contains(
        "\n[observation cut: a frame of the page has about 12,000 elements; only the 80 nearest the viewport were read]\n"
    ), "{}", obs.text);
}

#[test]
fn ids_of_a_page_read_in_part_outlive_the_part_read() {
    let mut registry = IdRegistry::default();
    let options = ObserveOptions::default();
    let whole = links_page(3, None);
    run(&whole, &mut registry, &options);
    assert_eq!(registry.len(), 4);
    // The next observation read only the root and the first link: the other two
    // may still be on the page, so they keep their ids.
    let nodes = vec![
        root(1, "MAIN", "Rows", &[2]),
        ax(2, "link", "Row number 2", &[]),
    ];
    let doc = Doc::new("MAIN")
        .boxed(1, [0.0, 0.0, 1280.0, 720.0])
        .boxed(2, [8.0, 40.0, 300.0, 18.0]);
    let mut part = target(None, vec![nodes.clone()], std::slice::from_ref(&doc));
    part["cut"] = json!({"elements": 50_000, "read": 2});
    run(&input(vec![part], 0.0), &mut registry, &options);
    assert_eq!(registry.len(), 4);
    // Read whole again, the page shows that they are gone.
    run(
        &input(vec![target(None, vec![nodes], &[doc])], 0.0),
        &mut registry,
        &options,
    );
    assert_eq!(registry.len(), 2);
}
