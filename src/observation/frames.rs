//! Stitches the frames of a page together: which accessibility tree an `<iframe>`
//! shows, and how its coordinates map onto the main page.
//!
//! Measured on Chromium 156: the main frame's `getFullAXTree` ends at an `Iframe` node
//! with no children; each frame's tree is fetched on its own (by frameId for a
//! same-process frame, on the child session for an out-of-process one). A frame's
//! layout is relative to its own document, so a node inside it maps to the page as
//! `owner content box origin - frame scroll + node bounds`, composed per nesting level.

use super::input::{AxNode, ObservationInput, TargetInput};
use super::layout::{Rect, TargetLayout};
use std::collections::HashMap;

/// One accessibility tree with its node lookup.
pub struct TreeView<'i, 'a> {
    pub nodes: &'i [AxNode<'a>],
    by_id: HashMap<&'i str, usize>,
    pub root: Option<usize>,
}

impl<'i, 'a> TreeView<'i, 'a> {
    fn new(nodes: &'i [AxNode<'a>]) -> Self {
        let by_id = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_id.as_ref(), i))
            .collect();
        // CDP lists the root first; prefer the RootWebArea in case that ever changes.
        let root = nodes
            .iter()
            .position(|n| n.role.as_ref().is_some_and(|r| r.text() == "RootWebArea"))
            .or(if nodes.is_empty() { None } else { Some(0) });
        TreeView { nodes, by_id, root }
    }

    pub fn child(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The frame this tree shows, from its root's `frameId`.
    pub fn frame_id(&self) -> Option<&'i str> {
        let nodes: &'i [AxNode<'a>] = self.nodes;
        self.root
            .and_then(|r| nodes.get(r))
            .and_then(|n| n.frame_id.as_deref())
    }
}

/// One target with its indexes.
pub struct TargetView<'i, 'a> {
    pub input: &'i TargetInput<'a>,
    pub layout: TargetLayout<'i, 'a>,
    pub trees: Vec<TreeView<'i, 'a>>,
    tree_by_frame: HashMap<&'i str, usize>,
}

impl TargetView<'_, '_> {
    /// The tree of the target's top document (its first snapshot document).
    fn top_tree(&self) -> Option<usize> {
        self.layout
            .docs
            .first()
            .and_then(|d| self.tree_by_frame.get(d.frame_id.as_str()).copied())
            .or(if self.trees.is_empty() { None } else { Some(0) })
    }
}

/// Where a frame's document sits on the main page.
#[derive(Debug, Clone, Copy)]
pub struct FrameTransform {
    /// Added to a bound in the frame's document to get main-document coordinates.
    pub dx: f64,
    pub dy: f64,
    /// The part of the main document through which the frame is seen.
    pub clip: Rect,
}

impl FrameTransform {
    pub const MAIN: FrameTransform = FrameTransform {
        dx: 0.0,
        dy: 0.0,
        clip: Rect::EVERYTHING,
    };
}

/// A frame to descend into: target, tree, and its placement.
pub struct ChildFrame {
    pub target: usize,
    pub tree: usize,
    pub transform: FrameTransform,
}

/// All targets of one observation.
pub struct Page<'i, 'a> {
    pub targets: Vec<TargetView<'i, 'a>>,
    pub main: usize,
    /// (owner's target, owner's backendNodeId) → out-of-process target index.
    oopif_by_owner: HashMap<(Option<&'i str>, i64), usize>,
}

impl<'i, 'a> Page<'i, 'a> {
    pub fn new(input: &'i ObservationInput<'a>) -> Option<Self> {
        let main = input.targets.iter().position(|t| t.target_id.is_none())?;
        let targets = input
            .targets
            .iter()
            .map(|t| {
                let trees: Vec<TreeView> =
                    t.frames.iter().map(|f| TreeView::new(&f.nodes)).collect();
                let tree_by_frame = trees
                    .iter()
                    .enumerate()
                    .filter_map(|(i, tree)| tree.frame_id().map(|f| (f, i)))
                    .collect();
                TargetView {
                    input: t,
                    layout: TargetLayout::new(t),
                    trees,
                    tree_by_frame,
                }
            })
            .collect();
        let oopif_by_owner = input
            .targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let owner = t.owner.as_ref()?;
                Some(((owner.target_id.as_deref(), owner.backend_node_id), i))
            })
            .collect();
        Some(Page {
            targets,
            main,
            oopif_by_owner,
        })
    }

    pub fn main_tree(&self) -> Option<usize> {
        self.targets.get(self.main).and_then(TargetView::top_tree)
    }

    /// The frame shown by the element `backend_node_id` of target `target`, if any.
    pub fn child_frame(
        &self,
        target: usize,
        backend_node_id: i64,
        parent: &FrameTransform,
    ) -> Option<ChildFrame> {
        let view = self.targets.get(target)?;
        let (child_target, child_tree, doc) = match view.layout.frame_doc(backend_node_id) {
            Some(doc) => {
                let tree = *view.tree_by_frame.get(doc.frame_id.as_str())?;
                (target, tree, doc)
            }
            None => {
                let key = (view.input.target_id.as_deref(), backend_node_id);
                let child = *self.oopif_by_owner.get(&key)?;
                let child_view = self.targets.get(child)?;
                (
                    child,
                    child_view.top_tree()?,
                    child_view.layout.docs.first()?,
                )
            }
        };
        let content = view
            .layout
            .content_box(backend_node_id)?
            .translate(parent.dx, parent.dy);
        Some(ChildFrame {
            target: child_target,
            tree: child_tree,
            transform: FrameTransform {
                dx: content.x - doc.scroll_x,
                dy: content.y - doc.scroll_y,
                clip: parent.clip.intersection(&content),
            },
        })
    }
}
