//! Builds CDP-shaped JSON for tests: accessibility nodes and DOM snapshots.

use crate::observation::{observe_json, IdRegistry, Observation, ObserveOptions};
use serde_json::{json, Value};

/// An AX node whose nodeId and backendDOMNodeId are both `id`, as Chromium reports.
pub fn ax(id: i64, role: &str, name: &str, children: &[i64]) -> Value {
    json!({
        "nodeId": id.to_string(),
        "ignored": false,
        "role": {"type": "role", "value": role},
        "name": {"type": "computedString", "value": name},
        "properties": [],
        "childIds": children.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "backendDOMNodeId": id,
    })
}

/// Adds properties given as (name, JSON value).
pub fn with_props(mut node: Value, props: &[(&str, Value)]) -> Value {
    node["properties"] = props
        .iter()
        .map(|(name, value)| json!({"name": name, "value": {"type": "x", "value": value}}))
        .collect();
    node
}

pub fn ignored(mut node: Value) -> Value {
    node["ignored"] = json!(true);
    node["role"] = json!({"type": "role", "value": "none"});
    node
}

/// A frame's root: RootWebArea carrying the frameId.
pub fn root(id: i64, frame: &str, title: &str, children: &[i64]) -> Value {
    let mut node = ax(id, "RootWebArea", title, children);
    node["frameId"] = json!(frame);
    node
}

/// One snapshot document.
#[derive(Default, Clone)]
pub struct Doc {
    pub frame: String,
    pub scroll: (f64, f64),
    /// (backendNodeId, [x, y, width, height]).
    pub boxes: Vec<(i64, [f64; 4])>,
    /// (iframe backendNodeId, document index, client rect).
    pub frames: Vec<(i64, usize, [f64; 4])>,
    /// (img backendNodeId, currentSourceURL).
    pub sources: Vec<(i64, String)>,
    /// Describe iframe borders as computed styles (what the worker requests) instead
    /// of DOM client rects.
    pub border_styles: bool,
}

impl Doc {
    pub fn new(frame: &str) -> Doc {
        Doc {
            frame: frame.to_owned(),
            ..Doc::default()
        }
    }
    pub fn scrolled(mut self, x: f64, y: f64) -> Doc {
        self.scroll = (x, y);
        self
    }
    pub fn boxed(mut self, id: i64, rect: [f64; 4]) -> Doc {
        self.boxes.push((id, rect));
        self
    }
    /// An iframe element at `rect` with a 1px border showing document `doc`.
    pub fn iframe(mut self, id: i64, rect: [f64; 4], doc: usize) -> Doc {
        self.boxes.push((id, rect));
        self.frames
            .push((id, doc, [1.0, 1.0, rect[2] - 2.0, rect[3] - 2.0]));
        self
    }
    /// Iframe borders given as `border-left-width`/`border-top-width` styles.
    pub fn with_border_styles(mut self) -> Doc {
        self.border_styles = true;
        self
    }
    pub fn source(mut self, id: i64, url: &str) -> Doc {
        self.sources.push((id, url.to_owned()));
        self
    }
}

pub fn snapshot(docs: &[Doc]) -> Value {
    let mut strings: Vec<String> = Vec::new();
    let mut intern = |s: &str| -> usize {
        if let Some(i) = strings.iter().position(|x| x == s) {
            return i;
        }
        strings.push(s.to_owned());
        strings.len() - 1
    };
    let documents: Vec<Value> = docs
        .iter()
        .map(|doc| {
            let mut ids: Vec<i64> = Vec::new();
            let mut positions = std::collections::HashMap::new();
            let all = doc.boxes.iter().map(|b| b.0);
            let all = all.chain(doc.frames.iter().map(|f| f.0));
            for id in all.chain(doc.sources.iter().map(|s| s.0)) {
                positions.entry(id).or_insert_with(|| {
                    ids.push(id);
                    ids.len() - 1
                });
            }
            let index_of = |id: i64| positions[&id];
            let client = |id: i64, rect: &[f64; 4]| {
                doc.frames
                    .iter()
                    .find(|f| f.0 == id)
                    .map_or([0.0, 0.0, rect[2], rect[3]], |f| f.2)
            };
            let styles: Vec<Vec<usize>> = doc
                .boxes
                .iter()
                .map(|b| {
                    let c = client(b.0, &b.1);
                    vec![
                        intern(&format!("{}px", c[0])),
                        intern(&format!("{}px", c[1])),
                    ]
                })
                .collect();
            let client_rects: Vec<Vec<f64>> = doc
                .boxes
                .iter()
                .map(|b| client(b.0, &b.1).to_vec())
                .collect();
            let (client_rects, styles) = if doc.border_styles {
                (Vec::new(), styles)
            } else {
                (client_rects, Vec::new())
            };
            json!({
                "frameId": intern(&doc.frame),
                "scrollOffsetX": doc.scroll.0,
                "scrollOffsetY": doc.scroll.1,
                "nodes": {
                    "backendNodeId": ids,
                    "contentDocumentIndex": {
                        "index": doc.frames.iter().map(|f| index_of(f.0)).collect::<Vec<_>>(),
                        "value": doc.frames.iter().map(|f| f.1).collect::<Vec<_>>(),
                    },
                    "currentSourceURL": {
                        "index": doc.sources.iter().map(|s| index_of(s.0)).collect::<Vec<_>>(),
                        "value": doc.sources.iter().map(|s| intern(&s.1)).collect::<Vec<_>>(),
                    },
                },
                "layout": {
                    "nodeIndex": doc.boxes.iter().map(|b| index_of(b.0)).collect::<Vec<_>>(),
                    "bounds": doc.boxes.iter().map(|b| b.1.to_vec()).collect::<Vec<_>>(),
                    "clientRects": client_rects,
                    "styles": styles,
                },
            })
        })
        .collect();
    json!({"documents": documents, "strings": strings})
}

/// A target: its frames' AX node lists and its snapshot documents.
pub fn target(target_id: Option<&str>, frames: Vec<Vec<Value>>, docs: &[Doc]) -> Value {
    json!({
        "targetId": target_id,
        "frames": frames.into_iter().map(|nodes| json!({"nodes": nodes})).collect::<Vec<_>>(),
        "snapshot": snapshot(docs),
    })
}

pub fn with_owner(mut target: Value, owner_target: Option<&str>, owner_node: i64) -> Value {
    target["owner"] = json!({"targetId": owner_target, "backendNodeId": owner_node});
    target
}

/// A whole input with a 1280x720 viewport scrolled to `scroll_y`.
pub fn input(targets: Vec<Value>, scroll_y: f64) -> Value {
    json!({
        "targets": targets,
        "viewport": {"pageX": 0.0, "pageY": scroll_y, "clientWidth": 1280.0, "clientHeight": 720.0},
    })
}

pub fn run(input: &Value, registry: &mut IdRegistry, options: &ObserveOptions) -> Observation {
    observe_json(&input.to_string(), registry, options).unwrap()
}

/// Observes a single-frame page whose every node has the same on-screen box.
pub fn single_frame(nodes: Vec<Value>) -> Observation {
    let ids: Vec<i64> = nodes
        .iter()
        .filter_map(|n| n["backendDOMNodeId"].as_i64())
        .collect();
    let mut doc = Doc::new("MAIN");
    for id in ids {
        doc = doc.boxed(id, [10.0, 10.0, 100.0, 20.0]);
    }
    let input = input(vec![target(None, vec![nodes], &[doc])], 0.0);
    run(
        &input,
        &mut IdRegistry::default(),
        &ObserveOptions::default(),
    )
}

/// The tree text with `[id] ` prefixes removed, so expectations do not depend on ids.
pub fn without_ids(text: &str) -> String {
    text.lines()
        .map(|line| {
            let tabs = line.len() - line.trim_start_matches('\t').len();
            let rest = &line[tabs..];
            let rest = rest.find("] ").map_or(rest, |i| &rest[i + 2..]);
            format!("{}{}", "\t".repeat(tabs), rest)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
