//! Walks the stitched accessibility trees and writes the benchmark text, applying
//! MMInA's pruning rules (docs: /work/shared/reference/mmina.md, "Observation").

use super::bound::Budget;
use super::format::{push_py_repr, push_scalar};
use super::frames::{FrameTransform, Page};
use super::input::AxNode;
use super::layout::Rect;
use super::registry::IdRegistry;
use super::{ImageItem, Mark, ObserveOptions};
use std::fmt::Write;

/// Properties WebArena dropped from every line.
const DROPPED_PROPERTIES: [&str; 7] = [
    "focusable",
    "editable",
    "readonly",
    "level",
    "settable",
    "multiline",
    "invalid",
];

/// Properties the compact format drops as well: they describe the widget's kind or
/// state of focus, not what it holds or whether it is checked, selected or expanded.
const COMPACT_DROPPED_PROPERTIES: [&str; 5] = [
    "focused",
    "autocomplete",
    "hasPopup",
    "roledescription",
    "orientation",
];

/// Properties the compact format prints only when true: false is every widget's normal.
const COMPACT_DROPPED_WHEN_FALSE: [&str; 5] = ["required", "disabled", "busy", "modal", "selected"];

/// Roles skipped when nameless and without properties (children move up a level).
/// `image` is Chromium 156's spelling of `img`; `none` is what ignored nodes carry.
const SKIPPED_WHEN_EMPTY: [&str; 13] = [
    "generic",
    "img",
    "image",
    "list",
    "strong",
    "paragraph",
    "banner",
    "navigation",
    "Section",
    "LabelText",
    "Legend",
    "listitem",
    "none",
];

/// Roles an agent acts on: they get a box in the set-of-marks screenshot.
const INTERACTIVE_ROLES: [&str; 19] = [
    "button",
    "link",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "option",
    "listbox",
    "treeitem",
    "textField",
    "PopUpButton",
];

/// Depth guard: a malformed tree with a cycle must not overflow the stack.
const MAX_DEPTH: usize = 512;

pub struct Walker<'p, 'i, 'a> {
    pub page: &'p Page<'i, 'a>,
    pub registry: &'p mut IdRegistry,
    pub options: &'p ObserveOptions,
    /// The viewport in main-document coordinates.
    pub viewport: Rect,
    pub text: String,
    pub images: Vec<ImageItem>,
    pub marks: Vec<Mark>,
    pub lines: usize,
    /// Byte ranges in `text` of the last three kept lines, for the StaticText rule.
    recent: [(usize, usize); 3],
    props: String,
    /// The compact format's whitespace-collapsed name, reused from line to line.
    collapsed: String,
    /// Compact: the byte range of the last line when it is a text line, so a field
    /// right after its own label (`From`, then `combobox 'From'`) says it once.
    last_text_line: Option<(usize, usize)>,
    /// The caps of a cut observation (`bound.rs`); `None` for a page read whole.
    pub budget: Option<Budget>,
}

/// Per-node facts the walk passes down.
#[derive(Clone, Copy)]
struct At {
    target: usize,
    tree: usize,
    depth: usize,
    nesting: usize,
    frame: FrameTransform,
    parent_in_view: bool,
}

impl<'p, 'i, 'a> Walker<'p, 'i, 'a> {
    pub fn new(
        page: &'p Page<'i, 'a>,
        registry: &'p mut IdRegistry,
        options: &'p ObserveOptions,
        viewport: Rect,
    ) -> Self {
        Walker {
            page,
            registry,
            options,
            viewport,
            text: String::new(),
            images: Vec::new(),
            marks: Vec::new(),
            lines: 0,
            recent: [(0, 0); 3],
            props: String::new(),
            collapsed: String::new(),
            last_text_line: None,
            budget: None,
        }
    }

    pub fn walk_page(&mut self) {
        if let Some(tree) = self.page.main_tree() {
            let at = At {
                target: self.page.main,
                tree,
                depth: 0,
                nesting: 0,
                frame: FrameTransform::MAIN,
                parent_in_view: true,
            };
            self.walk_tree(at);
        }
    }

    fn walk_tree(&mut self, at: At) {
        let page = self.page;
        let Some(tree) = page
            .targets
            .get(at.target)
            .and_then(|t| t.trees.get(at.tree))
        else {
            return;
        };
        if let Some(root) = tree.root {
            self.walk(root, at);
        }
    }

    fn walk(&mut self, index: usize, at: At) {
        let page = self.page;
        let Some(target) = page.targets.get(at.target) else {
            return;
        };
        let Some(tree) = target.trees.get(at.tree) else {
            return;
        };
        let Some(node) = tree.nodes.get(index) else {
            return;
        };
        let role = node.role.as_ref().map_or("", |r| r.text());
        // Text runs inside StaticText: never printed (WebArena lost them for lacking a
        // DOM node), and each is a duplicate of its parent's text.
        if role == "InlineTextBox" || at.nesting > MAX_DEPTH {
            return;
        }
        if self.budget.as_mut().is_some_and(|b| !b.take_node()) {
            return;
        }
        let backend = node.backend_dom_node_id;
        // A frame's root is the document node, whose layout box is the frame's
        // initial viewport and does not follow scrolling: judge it by its iframe.
        let bounds = backend
            .filter(|_| role != "RootWebArea")
            .and_then(|b| target.layout.bounds(b))
            .map(|r| r.translate(at.frame.dx, at.frame.dy));
        let in_view = match bounds {
            Some(r) => r.intersects(&self.viewport) && r.intersects(&at.frame.clip),
            // No box of its own (an option of a closed select, a frame's root): it is
            // shown where its parent is.
            None => at.parent_in_view,
        };
        let visible = in_view || self.options.whole_page;
        let mut child_at = At {
            parent_in_view: in_view,
            nesting: at.nesting + 1,
            ..at
        };
        if visible && !node.ignored && self.try_line(node, role, at, backend, bounds, in_view) {
            child_at.depth += 1;
        }
        for child in &node.child_ids {
            if let Some(child_index) = tree.child(child) {
                self.walk(child_index, child_at);
            }
        }
        if let Some(b) = backend {
            if let Some(frame) = page.child_frame(at.target, b, &at.frame) {
                self.walk_tree(At {
                    target: frame.target,
                    tree: frame.tree,
                    frame: frame.transform,
                    ..child_at
                });
            }
        }
    }

    /// Writes the node's line unless a pruning rule drops it; returns whether it did.
    fn try_line(
        &mut self,
        node: &AxNode,
        role: &str,
        at: At,
        backend: Option<i64>,
        bounds: Option<Rect>,
        in_view: bool,
    ) -> bool {
        let raw_name = node.name.as_ref().map_or("", |n| n.text());
        // Names are trimmed, as the accessible-name computation says they should be:
        // some Chromium releases keep the space before a label's text
        // (`<label><input> Flexible dates</label>` named " Flexible dates"), and an
        // agent's `{checkbox 'Flexible dates'}` must find it in every release. Text runs
        // keep their spacing, as MMInA shows them.
        // Compact: NBSP and runs of whitespace become one space (a name spread over
        // lines in the HTML reads the same, in fewer tokens).
        let mut collapsed = std::mem::take(&mut self.collapsed);
        let name = if self.options.compact() {
            collapse_whitespace(&mut collapsed, raw_name);
            collapsed.as_str()
        } else if role == "StaticText" {
            raw_name
        } else {
            raw_name.trim()
        };
        let kept = self.write_line(node, role, name, at, backend, bounds, in_view);
        self.collapsed = collapsed;
        kept
    }

    #[allow(clippy::too_many_arguments)]
    fn write_line(
        &mut self,
        node: &AxNode,
        role: &str,
        name: &str,
        at: At,
        backend: Option<i64>,
        bounds: Option<Rect>,
        in_view: bool,
    ) -> bool {
        let is_image = role == "image" || role == "img";
        let Some(target) = self.page.targets.get(at.target) else {
            return false;
        };
        let snapshot_src = match (is_image, backend) {
            (true, Some(b)) => target.layout.image_source(b),
            _ => None,
        };
        let (has_props, ax_src, interactive) = self.collect_props(node, role, is_image);
        let src = ax_src.or(snapshot_src);
        if src.is_some() && ax_src.is_none() && !self.options.compact() {
            self.props.push_str(" url: ");
            self.props.push_str(src.unwrap_or_default());
        }
        let has_props = has_props || src.is_some();
        if name.trim().is_empty()
            && ((!has_props && SKIPPED_WHEN_EMPTY.contains(&role)) || role == "listitem")
        {
            return false;
        }
        if role == "StaticText" && (name.trim().is_empty() || self.seen_recently(name)) {
            return false;
        }
        // Compact: a page's or frame's root repeats the tab's title or its iframe's
        // name, a nameless container (`main ''`, `form ''`) says nothing an agent reads
        // or acts on, and an element to read (a heading, a cell) whose name a line
        // just above already says (a card's link, then its heading) is said once.
        // Images stay for their pictures; their repeated name is left out below.
        // Text was checked against the same lines just above.
        let repeated = self.options.compact()
            && role != "StaticText"
            && !name.is_empty()
            && self.seen_recently(name);
        if self.options.compact()
            && !interactive
            && (role == "RootWebArea"
                || (name.is_empty() && !has_props)
                || (repeated && !is_image && role != "StaticText"))
        {
            return false;
        }
        let shown_name = if repeated && is_image && !interactive {
            ""
        } else {
            name
        };
        let Some(backend) = backend else {
            return false;
        };
        if self.options.compact() && role != "StaticText" {
            self.drop_label_line(name);
        }
        if self.lines > 0 {
            self.text.push('\n');
        }
        let line_start = self.text.len();
        if self.options.compact() && role == "StaticText" {
            // Text is read, not acted on: a bare line, no id, role or quotes. One that
            // would look like an element line (`[3] ...`) gets a backslash first.
            if name.starts_with('[') {
                self.text.push('\\');
            }
            self.text.push_str(name);
            if !self.remember_line(line_start) {
                return false;
            }
            self.last_text_line = Some((line_start, self.text.len()));
            return true;
        }
        self.last_text_line = None;
        let id = self.registry.id_for(&target.input.target_id, backend);
        if !self.options.compact() {
            for _ in 0..at.depth {
                self.text.push('\t');
            }
        }
        let _ = write!(self.text, "[{id}] {role}");
        // Compact leaves out an empty name's quotes; MMInA's format prints `''`.
        if !(self.options.compact() && shown_name.is_empty()) {
            self.text.push(' ');
            push_py_repr(&mut self.text, shown_name);
        }
        self.text.push_str(&self.props);
        if !self.remember_line(line_start) {
            return false;
        }
        if let (Some(rect), true) = (bounds, in_view) {
            let shown = rect
                .intersection(&self.viewport)
                .intersection(&at.frame.clip);
            let to_viewport = |r: Rect| r.translate(-self.viewport.x, -self.viewport.y);
            if let (true, Some(src)) = (is_image, src) {
                let frame_id = target
                    .trees
                    .get(at.tree)
                    .and_then(|t| t.frame_id())
                    .map(str::to_owned);
                self.images.push(ImageItem {
                    id,
                    src: src.to_owned(),
                    name: name.to_owned(),
                    target_id: target.input.target_id.clone(),
                    frame_id,
                    backend_node_id: backend,
                    bounds: to_viewport(rect),
                    visible: to_viewport(shown),
                });
            }
            if interactive {
                self.marks.push(Mark {
                    id,
                    role: role.to_owned(),
                    bounds: to_viewport(shown),
                });
            }
        }
        true
    }

    /// Fills `self.props` with the printed properties; returns whether any was
    /// printed, the image URL from the `url` property, and whether it is interactive.
    fn collect_props<'n>(
        &mut self,
        node: &'n AxNode,
        role: &str,
        is_image: bool,
    ) -> (bool, Option<&'n str>, bool) {
        self.props.clear();
        let mut any = false;
        let mut src = None;
        let mut interactive = INTERACTIVE_ROLES.contains(&role);
        let keep_url = is_image || (self.options.link_urls && role == "link");
        for prop in &node.properties {
            let name = prop.name.as_ref();
            if name == "focusable"
                && matches!(prop.value.value, Some(super::input::AxScalar::Bool(true)))
                && role != "RootWebArea"
                && role != "Iframe"
            {
                interactive = true;
            }
            if DROPPED_PROPERTIES.contains(&name)
                || (name == "url" && !keep_url)
                || (self.options.compact() && COMPACT_DROPPED_PROPERTIES.contains(&name))
            {
                continue;
            }
            let Some(value) = &prop.value.value else {
                continue;
            };
            // Compact: an image's URL is kept for the picture, not printed (the model
            // cannot open it; in `text+images` the picture itself carries the id).
            if self.options.compact() && is_image && name == "url" {
                src = Some(prop.value.text()).filter(|s| !s.is_empty());
                continue;
            }
            if self.options.compact()
                && COMPACT_DROPPED_WHEN_FALSE.contains(&name)
                && matches!(value, super::input::AxScalar::Bool(false))
            {
                continue;
            }
            let mark = self.props.len();
            self.props.push(' ');
            self.props.push_str(name);
            self.props.push_str(": ");
            if push_scalar(&mut self.props, value) {
                any = true;
                if name == "url" && is_image {
                    src = Some(prop.value.text()).filter(|s| !s.is_empty());
                }
            } else {
                self.props.truncate(mark);
            }
        }
        (any, src, interactive)
    }

    /// Compact: removes the text line just written when it is `name` alone (a label
    /// followed by the element it names).
    fn drop_label_line(&mut self, name: &str) {
        let Some((start, end)) = self.last_text_line.take() else {
            return;
        };
        if name.is_empty() || end != self.text.len() || self.text.get(start..end) != Some(name) {
            return;
        }
        // The newline before it goes too; the element's line takes its place.
        self.text.truncate(start.saturating_sub(1));
        self.lines -= 1;
        for range in &mut self.recent {
            if range.0 >= start {
                *range = (0, 0);
            }
        }
    }

    /// Counts the line that starts at `line_start` and ends the text, and keeps it
    /// among the last three (the StaticText rule looks there). In a cut observation
    /// the line first has to fit the token cap: one that does not is taken out again
    /// (false), with the newline before it.
    fn remember_line(&mut self, line_start: usize) -> bool {
        if let Some(budget) = &mut self.budget {
            let line = self.text.get(line_start..).unwrap_or_default();
            let kept = budget.take_line(line, self.lines == 0);
            if kept == 0 {
                self.text.truncate(line_start.saturating_sub(1));
                return false;
            }
            self.text.truncate(line_start + kept);
        }
        self.recent = [
            self.recent[1],
            self.recent[2],
            (line_start, self.text.len()),
        ];
        self.lines += 1;
        true
    }

    fn seen_recently(&self, text: &str) -> bool {
        self.recent.iter().any(|(start, end)| {
            self.text
                .get(*start..*end)
                .is_some_and(|line| line.contains(text))
        })
    }
}

/// `text` with each run of whitespace (NBSP included) as one space, trimmed, into `out`.
fn collapse_whitespace(out: &mut String, text: &str) {
    out.clear();
    for word in text
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
}
