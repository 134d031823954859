//! What the glue gathers from CDP, as serde types mirroring the raw responses.
//!
//! Only the fields the observation uses are declared; serde skips the rest, so the
//! glue may pass whole CDP results or trimmed ones. Field names are CDP's camelCase.
//! Strings are borrowed from the input where possible: a 3,000-element page is a few
//! megabytes of JSON and copying every name would double the work.

use serde::Deserialize;
use std::borrow::Cow;

/// Everything one observation of one tab needs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservationInput<'a> {
    /// The tab's own target first is not required: the main target is the one
    /// whose `targetId` is `None`.
    #[serde(borrow)]
    pub targets: Vec<TargetInput<'a>>,
    /// The main frame's layout viewport (`Page.getLayoutMetrics().cssLayoutViewport`).
    pub viewport: Viewport,
    /// Tabs to list in the tabs line, in order.
    #[serde(default)]
    pub tabs: Vec<TabInfo>,
}

/// One CDP target: the tab itself, or one out-of-process iframe (a child session).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetInput<'a> {
    /// Stable CDP targetId of an out-of-process iframe; `None` for the tab's own target.
    /// Keys ids instead of the sessionId, which changes when the debugger re-attaches.
    #[serde(default)]
    pub target_id: Option<String>,
    /// `Accessibility.getFullAXTree` of each frame rendered by this target.
    #[serde(borrow)]
    pub frames: Vec<AxTree<'a>>,
    /// `DOMSnapshot.captureSnapshot` of this target (all its same-process documents).
    #[serde(borrow)]
    pub snapshot: Snapshot<'a>,
    /// For an out-of-process iframe: its `<iframe>` element in the parent target
    /// (`DOM.getFrameOwner` on the parent session). `None` for the main target.
    #[serde(default)]
    pub owner: Option<FrameOwner>,
    /// Set when the target's page was too big to read whole: the glue read only the
    /// part nearest the viewport (docs/observation.md "The bound"), so the trees hold
    /// only that part and the snapshot only its boxes.
    #[serde(default)]
    pub cut: Option<ReadCut>,
}

/// How much of a target a cut observation read.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ReadCut {
    /// The elements of the target's document, as the glue's size probe counted them.
    pub elements: u64,
    /// The DOM nodes (elements and texts) the glue read.
    pub read: u64,
}

/// The element that shows an out-of-process frame.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameOwner {
    /// Target holding the `<iframe>` element; `None` = the main target.
    #[serde(default)]
    pub target_id: Option<String>,
    pub backend_node_id: i64,
}

/// Scroll offset and size of the main frame's viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Viewport {
    pub page_x: f64,
    pub page_y: f64,
    pub client_width: f64,
    pub client_height: f64,
}

/// One browser tab for the tabs line.
#[derive(Debug, Clone, Deserialize)]
pub struct TabInfo {
    pub title: String,
    #[serde(default)]
    pub current: bool,
}

/// A `getFullAXTree` result.
#[derive(Debug, Deserialize)]
pub struct AxTree<'a> {
    #[serde(borrow)]
    pub nodes: Vec<AxNode<'a>>,
}

/// One `Accessibility.AXNode`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AxNode<'a> {
    #[serde(borrow)]
    pub node_id: Cow<'a, str>,
    #[serde(default)]
    pub ignored: bool,
    #[serde(default, borrow)]
    pub role: Option<AxValue<'a>>,
    #[serde(default, borrow)]
    pub name: Option<AxValue<'a>>,
    #[serde(default, borrow)]
    pub properties: Vec<AxProperty<'a>>,
    #[serde(default, borrow)]
    pub child_ids: Vec<Cow<'a, str>>,
    #[serde(default, rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
    /// Set on a frame's root (RootWebArea): which frame this tree belongs to.
    #[serde(default, borrow)]
    pub frame_id: Option<Cow<'a, str>>,
}

/// `Accessibility.AXValue`; role and name values are strings, properties vary.
#[derive(Debug, Deserialize)]
pub struct AxValue<'a> {
    #[serde(default, borrow)]
    pub value: Option<AxScalar<'a>>,
}

/// The value of an AXValue. Related-node lists and other shapes are kept as `Other`
/// and never printed, as in WebArena (it skipped properties without a plain value).
#[derive(Debug, Clone, PartialEq)]
pub enum AxScalar<'a> {
    Bool(bool),
    Number(f64),
    Text(Cow<'a, str>),
    Other,
}

/// `Accessibility.AXProperty`.
#[derive(Debug, Deserialize)]
pub struct AxProperty<'a> {
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub value: AxValue<'a>,
}

/// `DOMSnapshot.captureSnapshot` result (requested with `includeDOMRects: true`).
#[derive(Debug, Deserialize)]
pub struct Snapshot<'a> {
    pub documents: Vec<DocumentSnapshot>,
    #[serde(borrow)]
    pub strings: Vec<Cow<'a, str>>,
}

/// One document of a snapshot: the target's main document, then its same-process frames.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentSnapshot {
    /// Index into `strings`.
    pub frame_id: i64,
    #[serde(default)]
    pub scroll_offset_x: f64,
    #[serde(default)]
    pub scroll_offset_y: f64,
    pub nodes: NodeTreeSnapshot,
    pub layout: LayoutTreeSnapshot,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeTreeSnapshot {
    #[serde(default)]
    pub backend_node_id: Vec<i64>,
    /// For `<iframe>` nodes: index of the document shown in it (same process only).
    #[serde(default)]
    pub content_document_index: RareIntegerData,
    /// For `<img>`: the URL of the image actually shown (after srcset selection).
    #[serde(default, rename = "currentSourceURL")]
    pub current_source_url: RareStringData,
}

#[derive(Debug, Default, Deserialize)]
pub struct RareIntegerData {
    pub index: Vec<usize>,
    pub value: Vec<i64>,
}

#[derive(Debug, Default, Deserialize)]
pub struct RareStringData {
    pub index: Vec<usize>,
    /// Indices into `strings`.
    pub value: Vec<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutTreeSnapshot {
    /// Index into the document's nodes for each layout object.
    #[serde(default)]
    pub node_index: Vec<usize>,
    /// `[x, y, width, height]` in the document's own coordinates (not scrolled).
    #[serde(default)]
    pub bounds: Vec<Vec<f64>>,
    /// `[clientLeft, clientTop, clientWidth, clientHeight]` (only with
    /// `includeDOMRects`): locates an iframe's content box inside its border box.
    #[serde(default)]
    pub client_rects: Vec<Vec<f64>>,
    /// Computed styles, requested as `["border-left-width", "border-top-width"]`:
    /// per layout object, indices into `strings`. The cheaper way to the same box.
    #[serde(default)]
    pub styles: Vec<Vec<i64>>,
}

// AxScalar by hand: an untagged enum would buffer every value into serde's generic
// content tree first, which is slow on trees of many thousand nodes.
impl<'de: 'a, 'a> Deserialize<'de> for AxScalar<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl<'de> serde::de::Visitor<'de> for ScalarVisitor {
    type Value = AxScalar<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an accessibility value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(AxScalar::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(AxScalar::Number(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(AxScalar::Number(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(AxScalar::Number(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(AxScalar::Text(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(AxScalar::Text(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(AxScalar::Text(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(AxScalar::Other)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(AxScalar::Other)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(AxScalar::Other)
    }
}

impl AxValue<'_> {
    /// The value as text, for roles and names.
    pub fn text(&self) -> &str {
        match &self.value {
            Some(AxScalar::Text(s)) => s,
            _ => "",
        }
    }
}
