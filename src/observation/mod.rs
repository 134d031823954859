//! The page as a model sees it: MMInA's accessibility-tree text, stable element ids,
//! the images in the viewport and the boxes for a set-of-marks screenshot.
//!
//! Input is what the glue gathered from CDP (see [`input`]): per target the
//! accessibility tree of each frame and a DOM snapshot for layout. Pure data in,
//! pure data out; no browser code here.

mod bound;
mod format;
mod frames;
pub mod input;
mod layout;
mod registry;
mod render;

#[cfg(test)]
mod tests;

pub use bound::{MAX_CUT_NODES, MAX_CUT_TOKENS};
pub use format::{py_repr, tabs_line};
pub use input::ObservationInput;
pub use layout::Rect;
pub use registry::{ElementRef, IdRegistry, RegistryError};

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ObservationError {
    #[error("observation input is not valid: {0}")]
    BadInput(String),
    #[error("observation input has no main target (one target must have no targetId)")]
    NoMainTarget,
    #[error("observation options are not valid: {0}")]
    BadOptions(String),
}

/// How to observe.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObserveOptions {
    /// Keep nodes outside the viewport too (default: viewport only, as MMInA).
    pub whole_page: bool,
    /// Print `url:` on links. Chromium 156 reports a URL for every link, which the
    /// Chromium of the published benchmarks did not; off by default to keep the
    /// format and its token cost. Images always show their URL.
    pub link_urls: bool,
    /// How the text is written: MMInA's format (the default) or the compact one.
    pub format: ObservationFormat,
}

impl ObserveOptions {
    pub fn compact(&self) -> bool {
        self.format == ObservationFormat::Compact
    }
}

/// How the observation's text is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ObservationFormat {
    /// MMInA's (WebArena's) accessibility-tree text: the benchmark's format.
    #[default]
    Mmina,
    /// For models with a small context (`docs/observation.md` "Compact"): no
    /// indentation, text as bare lines without ids, whitespace collapsed, roots,
    /// nameless containers and default-false properties left out. Every element an
    /// agent can act on keeps its `[id] role 'name'` line.
    Compact,
}

crate::variants::every_variant!(ObservationFormat { Mmina, Compact });

/// An image in the viewport, for the glue to take from the page and label.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ImageItem {
    pub id: u32,
    pub src: String,
    pub name: String,
    /// Where the element lives, so the glue can ask that frame for the bytes it
    /// already loaded (`Page.getResourceContent` needs the frame, and an
    /// out-of-process frame is reached through its own target): the target (`None` =
    /// the tab's own), the frame's id (from its tree's root; `None` if CDP gave none)
    /// and the element's backendDOMNodeId.
    pub target_id: Option<String>,
    pub frame_id: Option<String>,
    pub backend_node_id: i64,
    /// Whole image box, in viewport coordinates (CSS pixels).
    pub bounds: Rect,
    /// The part actually visible (inside the viewport and any iframe).
    pub visible: Rect,
}

/// An interactive element's visible box, in viewport coordinates.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Mark {
    pub id: u32,
    pub role: String,
    pub bounds: Rect,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Stats {
    pub targets: usize,
    pub frames: usize,
    pub ax_nodes: usize,
    pub lines: usize,
    pub chars: usize,
    pub known_ids: usize,
    /// The page was too big to read whole, so the text says what was left out
    /// (docs/observation.md "The bound").
    pub cut: bool,
}

/// One observation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Observation {
    /// Tabs line, blank line, tree: what the model reads.
    pub text: String,
    /// The tree alone, without the tabs line.
    pub tree: String,
    pub images: Vec<ImageItem>,
    pub marks: Vec<Mark>,
    pub stats: Stats,
}

/// Parses the glue's JSON, then observes. Strings are borrowed from `input_json`.
pub fn observe_json(
    input_json: &str,
    registry: &mut IdRegistry,
    options: &ObserveOptions,
) -> Result<Observation, ObservationError> {
    let input: ObservationInput = crate::json_read::from_str(input_json)
        .map_err(|e| ObservationError::BadInput(e.to_string()))?;
    observe(&input, registry, options)
}

/// Renders the observation, giving ids to new elements and forgetting ids of
/// elements no longer on the page.
pub fn observe(
    input: &ObservationInput,
    registry: &mut IdRegistry,
    options: &ObserveOptions,
) -> Result<Observation, ObservationError> {
    let page = frames::Page::new(input).ok_or(ObservationError::NoMainTarget)?;
    let v = input.viewport;
    let viewport = Rect {
        x: v.page_x,
        y: v.page_y,
        width: v.client_width,
        height: v.client_height,
    };
    let mut walker = render::Walker::new(&page, registry, options, viewport);
    walker.budget = bound::Budget::of(input);
    walker.walk_page();
    let stopped = walker.budget.and_then(|b| b.stopped);
    let (mut tree, images, marks, lines) = (walker.text, walker.images, walker.marks, walker.lines);
    if let Some(stop) = stopped {
        tree.push('\n');
        tree.push_str(&bound::stop_line(stop));
    }
    let header = bound::header(input);
    if let Some(header) = &header {
        tree = format!("{header}\n{tree}");
    }
    registry.retain_present(&present_elements(input));
    let text = if input.tabs.is_empty() {
        tree.clone()
    } else {
        // WebArena puts a blank line between the tabs line and the tree.
        format!("{}\n\n{}", tabs_line(&input.tabs), tree)
    };
    let stats = Stats {
        targets: input.targets.len(),
        frames: input.targets.iter().map(|t| t.frames.len()).sum(),
        ax_nodes: input
            .targets
            .iter()
            .flat_map(|t| &t.frames)
            .map(|f| f.nodes.len())
            .sum(),
        lines,
        chars: text.chars().count(),
        known_ids: registry.len(),
        cut: header.is_some(),
    };
    Ok(Observation {
        text,
        tree,
        images,
        marks,
        stats,
    })
}

/// Every DOM node the accessibility trees mention, per target: an element keeps its
/// id while it is anywhere on the page, even when scrolled out of the viewport. A
/// target read only in part is left out: its trees do not say which of its elements
/// are gone, so its ids are all kept.
fn present_elements(input: &ObservationInput) -> HashMap<Option<String>, Option<HashSet<i64>>> {
    input
        .targets
        .iter()
        .map(|t| {
            if t.cut.is_some() {
                return (t.target_id.clone(), None);
            }
            let ids = t
                .frames
                .iter()
                .flat_map(|f| &f.nodes)
                .filter_map(|n| n.backend_dom_node_id)
                .collect();
            (t.target_id.clone(), Some(ids))
        })
        .collect()
}
