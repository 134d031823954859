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
#[derive(Debug, Default)]
pub struct TargetLayout {
    pub docs: Vec<DocInfo>,
    bounds: HashMap<i64, Rect>,
    /// `<iframe>` element → index of the document it shows (same-process frames).
    frame_docs: HashMap<i64, usize>,
    /// `<iframe>` element → its client rect: `[clientLeft, clientTop, clientWidth,
    /// clientHeight]`, i.e. where its content box sits inside the border box.
    client_rects: HashMap<i64, Rect>,
    image_sources: HashMap<i64, String>,
}

impl TargetLayout {
    pub fn new(target: &TargetInput) -> TargetLayout {
        let snapshot = &target.snapshot;
        let mut layout = TargetLayout::default();
        for doc in &snapshot.documents {
            layout.docs.push(DocInfo {
                frame_id: string_at(snapshot, doc.frame_id).to_owned(),
                scroll_x: doc.scroll_offset_x,
                scroll_y: doc.scroll_offset_y,
            });
            let nodes = &doc.nodes;
            let backend = |node_index: usize| nodes.backend_node_id.get(node_index).copied();
            let owners = &nodes.content_document_index;
            for (node_index, doc_index) in owners.index.iter().zip(&owners.value) {
                if let (Some(id), Ok(doc_index)) =
                    (backend(*node_index), usize::try_from(*doc_index))
                {
                    layout.frame_docs.insert(id, doc_index);
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
                    .and_modify(|r| *r = r.union(&rect))
                    .or_insert(rect);
                if layout.frame_docs.contains_key(&id) {
                    if let Some(client) = boxes.client_rects.get(i).and_then(|c| Rect::from_cdp(c))
                    {
                        layout.client_rects.insert(id, client);
                    }
                }
            }
        }
        layout
    }

    /// Bounds in the node's own document, if it has a non-empty layout box.
    pub fn bounds(&self, backend_node_id: i64) -> Option<Rect> {
        self.bounds
            .get(&backend_node_id)
            .copied()
            .filter(|r| !r.is_empty())
    }

    /// The document shown by an `<iframe>` element of this target, if same-process.
    pub fn frame_doc(&self, backend_node_id: i64) -> Option<&DocInfo> {
        self.frame_docs
            .get(&backend_node_id)
            .and_then(|i| self.docs.get(*i))
    }

    /// The content box of an `<iframe>` element, in its document's coordinates.
    /// Without a client rect the border box stands in (an iframe without borders).
    pub fn content_box(&self, backend_node_id: i64) -> Option<Rect> {
        let outer = self.bounds.get(&backend_node_id)?;
        Some(match self.client_rects.get(&backend_node_id) {
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

fn string_at<'s>(snapshot: &'s Snapshot, index: i64) -> &'s str {
    usize::try_from(index)
        .ok()
        .and_then(|i| snapshot.strings.get(i))
        .map(|s| s.as_ref())
        .unwrap_or("")
}
