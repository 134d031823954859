//! Layout facts of one target, indexed from its `DOMSnapshot.captureSnapshot`.
//!
//! Measured on Chromium 156 (fixtures in tests/fixtures/cdp/): `layout.bounds` are in
//! the coordinates of the node's own document, not scrolled (an element keeps its
//! bounds when the page scrolls; `scrollOffsetX/Y` says where the viewport is). A
//! same-process iframe's document is a separate entry of `documents`, with bounds
//! relative to that frame's own top-left, not the page's.

use super::input::{Snapshot, TargetInput};
use std::collections::HashMap;

/// An axis-aligned rectangle in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub const EVERYTHING: Rect = Rect {
        x: -1e12,
        y: -1e12,
        width: 2e12,
        height: 2e12,
    };

    fn from_cdp(values: &[f64]) -> Option<Rect> {
        match values {
            [x, y, width, height, ..] => Some(Rect {
                x: *x,
                y: *y,
                width: *width,
                height: *height,
            }),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.width <= 0.0 && self.height <= 0.0
    }

    pub fn translate(&self, dx: f64, dy: f64) -> Rect {
        Rect {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }

    /// WebArena's test: a box touching the viewport's top or left edge counts.
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.width
            && self.x + self.width >= other.x
            && self.y < other.y + other.height
            && self.y + self.height >= other.y
    }

    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = (self.x + self.width).min(other.x + other.width);
        let bottom = (self.y + self.height).min(other.y + other.height);
        Rect {
            x,
            y,
            width: (right - x).max(0.0),
            height: (bottom - y).max(0.0),
        }
    }

    fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        let right = (self.x + self.width).max(other.x + other.width);
        let bottom = (self.y + self.height).max(other.y + other.height);
        Rect {
            x,
            y,
            width: right - x,
            height: bottom - y,
        }
    }
}

/// One document of the snapshot.
#[derive(Debug)]
pub struct DocInfo {
    pub frame_id: String,
    pub scroll_x: f64,
    pub scroll_y: f64,
}

/// Layout of every node of one target, keyed by backendNodeId (unique per target:
/// all of a renderer's documents share one id space).
#[derive(Debug)]
pub struct TargetLayout<'i, 'a> {
    snapshot: &'i Snapshot<'a>,
    pub docs: Vec<DocInfo>,
    /// Bounds, and where the node's first layout object is: (document, layout index).
    bounds: HashMap<i64, (Rect, usize, usize)>,
    /// `<iframe>` element → index of the document it shows (same-process frames).
    frame_docs: HashMap<i64, usize>,
    image_sources: HashMap<i64, String>,
}

impl<'i, 'a> TargetLayout<'i, 'a> {
    pub fn new(target: &'i TargetInput<'a>) -> Self {
        let snapshot = &target.snapshot;
        let mut layout = TargetLayout {
            snapshot,
            docs: Vec::with_capacity(snapshot.documents.len()),
            bounds: HashMap::new(),
            frame_docs: HashMap::new(),
            image_sources: HashMap::new(),
        };
        for (doc_index, doc) in snapshot.documents.iter().enumerate() {
            layout.docs.push(DocInfo {
                frame_id: string_at(snapshot, doc.frame_id).to_owned(),
                scroll_x: doc.scroll_offset_x,
                scroll_y: doc.scroll_offset_y,
            });
            let nodes = &doc.nodes;
            let backend = |node_index: usize| nodes.backend_node_id.get(node_index).copied();
            let owners = &nodes.content_document_index;
            for (node_index, shown) in owners.index.iter().zip(&owners.value) {
                if let (Some(id), Ok(shown)) = (backend(*node_index), usize::try_from(*shown)) {
                    layout.frame_docs.insert(id, shown);
                }
            }
            let sources = &nodes.current_source_url;
            for (node_index, string_index) in sources.index.iter().zip(&sources.value) {
                let url = string_at(snapshot, *string_index);
                if let (Some(id), false) = (backend(*node_index), url.is_empty()) {
                    layout.image_sources.insert(id, url.to_owned());
                }
            }
            let boxes = &doc.layout;
            for (i, node_index) in boxes.node_index.iter().enumerate() {
                let (Some(id), Some(rect)) = (
                    backend(*node_index),
                    boxes.bounds.get(i).and_then(|b| Rect::from_cdp(b)),
                ) else {
                    continue;
                };
                // An inline element split over lines has one layout object per piece.
                layout
                    .bounds
                    .entry(id)
                    .and_modify(|(r, ..)| *r = r.union(&rect))
                    .or_insert((rect, doc_index, i));
            }
        }
        layout
    }

    /// Bounds in the node's own document, if it has a non-empty layout box.
    pub fn bounds(&self, backend_node_id: i64) -> Option<Rect> {
        self.bounds
            .get(&backend_node_id)
            .map(|(r, ..)| *r)
            .filter(|r| !r.is_empty())
    }

    /// The document shown by an `<iframe>` element of this target, if same-process.
    pub fn frame_doc(&self, backend_node_id: i64) -> Option<&DocInfo> {
        self.frame_docs
            .get(&backend_node_id)
            .and_then(|i| self.docs.get(*i))
    }

    /// The content box of an `<iframe>` element, in its document's coordinates: from
    /// its client rect when the snapshot has DOM rects, else from its border widths,
    /// else (neither requested) its border box.
    pub fn content_box(&self, backend_node_id: i64) -> Option<Rect> {
        let (outer, doc, i) = self.bounds.get(&backend_node_id)?;
        let boxes = &self.snapshot.documents.get(*doc)?.layout;
        let client = boxes
            .client_rects
            .get(*i)
            .and_then(|c| Rect::from_cdp(c))
            .or_else(|| client_from_borders(self.snapshot, boxes.styles.get(*i), outer));
        Some(match client {
            Some(client) => Rect {
                x: outer.x + client.x,
                y: outer.y + client.y,
                width: client.width,
                height: client.height,
            },
            None => *outer,
        })
    }

    pub fn image_source(&self, backend_node_id: i64) -> Option<&str> {
        self.image_sources.get(&backend_node_id).map(String::as_str)
    }
}

/// The client rect of an element from its computed border widths (`"2px"`),
/// assuming equal borders on opposite sides, as iframes almost always have.
fn client_from_borders(
    snapshot: &Snapshot,
    styles: Option<&Vec<i64>>,
    outer: &Rect,
) -> Option<Rect> {
    let styles = styles?;
    let px = |i: usize| -> Option<f64> {
        let text = string_at(snapshot, *styles.get(i)?);
        // serde_json reads the number (computed styles are always `2px`, `0.5px`):
        // `f64`'s own `FromStr` would add core's float parser and tables to the wasm.
        crate::json_read::from_str(text.trim_end_matches("px").trim()).ok()
    };
    let (left, top) = (px(0)?, px(1)?);
    Some(Rect {
        x: left,
        y: top,
        width: (outer.width - 2.0 * left).max(0.0),
        height: (outer.height - 2.0 * top).max(0.0),
    })
}

fn string_at<'s>(snapshot: &'s Snapshot, index: i64) -> &'s str {
    usize::try_from(index)
        .ok()
        .and_then(|i| snapshot.strings.get(i))
        .map(|s| s.as_ref())
        .unwrap_or("")
}
