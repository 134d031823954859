//! docs/sandbox.md is what task authors write against: its site table must match the
//! code, and its entity lists must match the data files in both directions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a panic with the value is the failure report"
)]

use hopbench_sandbox::{DEFAULT_PORT_BASE, SITES};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(rel))
        .unwrap()
}

fn data(file: &str) -> Value {
    serde_json::from_str(&read(&format!("crates/sandbox/data/{file}"))).unwrap()
}

fn list<'a>(v: &'a Value, key: Option<&str>) -> &'a Vec<Value> {
    key.map_or(v, |k| &v[k]).as_array().unwrap()
}

fn field(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap().to_string()
}

/// Every id a task author may need, written as the doc writes it.
fn entities() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in list(&data("cities.json"), None) {
        out.insert(field(c, "slug"));
    }
    for a in list(&data("wiki.json"), None) {
        out.insert(format!("/wiki/{}", field(a, "slug")));
    }
    let shop = data("shop.json");
    for p in list(&shop, Some("products")) {
        out.insert(field(p, "slug"));
    }
    for a in list(&data("flights.json"), Some("airlines")) {
        out.insert(field(a, "code"));
    }
    for (file, key) in [
        ("hotels.json", "slug"),
        ("cars.json", "id"),
        ("recipes.json", "slug"),
        ("restaurants.json", "slug"),
    ] {
        for x in list(&data(file), None) {
            out.insert(field(x, key));
        }
    }
    for e in list(&data("events.json"), None) {
        out.insert(format!("/events/{}/{}", field(e, "city"), field(e, "slug")));
    }
    for c in list(&data("currency.json"), Some("currencies")) {
        out.insert(field(c, "code"));
    }
    for g in list(&data("travel.json"), None) {
        out.insert(format!("/destination/{}", field(g, "city")));
    }
    for v in list(&data("videos.json"), Some("videos")) {
        out.insert(field(v, "id"));
    }
    out
}

#[test]
fn the_site_table_matches_the_code() {
    let doc = read("docs/sandbox.md");
    for def in SITES {
        let row = format!("| `{}` | {} |", def.key, def.name);
        assert!(doc.contains(&row), "docs/sandbox.md lacks the row {row}");
        let url = format!("http://127.0.0.1:{}/", DEFAULT_PORT_BASE + def.offset);
        assert!(
            doc.contains(&format!("{row} ")) && doc.contains(&url),
            "{url}"
        );
    }
}

#[test]
fn the_entity_lists_match_the_data() {
    let doc = read("docs/sandbox.md");
    let expected = entities();
    for id in &expected {
        assert!(
            doc.contains(&format!("`{id}`")),
            "docs/sandbox.md does not list `{id}`"
        );
    }
    let section = doc.split("## Entities").nth(1).unwrap();
    let mut rows = 0;
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let first = line.split('`').nth(1).unwrap();
        assert!(
            expected.contains(first),
            "docs/sandbox.md lists `{first}`, which is not in the data"
        );
        rows += 1;
    }
    assert!(rows > 200, "only {rows} entity rows found");
}
