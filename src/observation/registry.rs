//! Stable element ids: the `[id]` a model reads and the element an action targets.
//!
//! An id is given to (targetId, backendDOMNodeId), where the targetId is that of the
//! out-of-process iframe holding the element (`None` for the tab itself). Chrome keeps
//! a DOM node's backendNodeId for the node's lifetime, so an element keeps its id
//! across observations while it exists. Ids are never reused: an id that outlived its
//! element fails to resolve instead of silently hitting another element.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Where an element lives: the action side turns this into CDP calls.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ElementRef {
    /// Out-of-process iframe target; `None` = the tab's own target.
    pub target_id: Option<String>,
    pub backend_node_id: i64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RegistryError {
    #[error("no element [{0}] on the page: the id is unknown or its element is gone; observe the page again and use an id from the new observation")]
    UnknownId(u32),
    #[error("id registry is not valid JSON: {0}")]
    BadJson(String),
}

/// Serialised form: a flat list, readable in chrome.storage.session.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegistryData {
    next_id: u32,
    elements: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
// Read through its fields written out: `flatten` buffers every entry through serde's
// `Content` first, which costs the wasm a copy of the reading code.
#[serde(from = "EntryFields")]
struct Entry {
    id: u32,
    #[serde(flatten)]
    element: ElementRef,
}

/// An `Entry` as written: its id beside the element's fields.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EntryFields {
    id: u32,
    target_id: Option<String>,
    backend_node_id: i64,
}

impl From<EntryFields> for Entry {
    fn from(f: EntryFields) -> Entry {
        Entry {
            id: f.id,
            element: ElementRef {
                target_id: f.target_id,
                backend_node_id: f.backend_node_id,
            },
        }
    }
}

/// Ids of one tab. Persisted by the glue between observations (the worker may stop).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "RegistryData", into = "RegistryData")]
pub struct IdRegistry {
    next_id: u32,
    by_id: HashMap<u32, ElementRef>,
    /// targetId → backendNodeId → id; two levels so a lookup needs no key allocation.
    by_element: HashMap<Option<String>, HashMap<i64, u32>>,
}

impl IdRegistry {
    pub fn from_json(json: &str) -> Result<IdRegistry, RegistryError> {
        crate::json_read::from_str(json).map_err(|e| RegistryError::BadJson(e.to_string()))
    }

    pub fn to_json(&self) -> String {
        // A map of plain numbers and strings always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The element's id, given a new one if it has none yet.
    pub fn id_for(&mut self, target_id: &Option<String>, backend_node_id: i64) -> u32 {
        if let Some(id) = self
            .by_element
            .get(target_id)
            .and_then(|m| m.get(&backend_node_id))
        {
            return *id;
        }
        // Ids start at 1 like WebArena's, and 0 stays free as "no element".
        self.next_id = self.next_id.max(1);
        let id = self.next_id;
        self.next_id += 1;
        self.insert(
            id,
            ElementRef {
                target_id: target_id.clone(),
                backend_node_id,
            },
        );
        id
    }

    /// The id an element already has, without giving it one (a person's input is
    /// named by the id the agent saw, never by a new one).
    pub fn id_of(&self, target_id: &Option<String>, backend_node_id: i64) -> Option<u32> {
        self.by_element
            .get(target_id)
            .and_then(|m| m.get(&backend_node_id))
            .copied()
    }

    pub fn resolve(&self, id: u32) -> Result<ElementRef, RegistryError> {
        self.by_id
            .get(&id)
            .cloned()
            .ok_or(RegistryError::UnknownId(id))
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Forgets elements that no longer exist; `present` lists, per target, the
    /// backendNodeIds seen anywhere in the latest observation's input, or `None` for
    /// a target read only in part, whose ids are all kept (their elements may be on
    /// the page beyond the part read). A target not listed is gone.
    pub fn retain_present(&mut self, present: &HashMap<Option<String>, Option<HashSet<i64>>>) {
        let exists = |target: &Option<String>, backend: &i64| match present.get(target) {
            Some(Some(ids)) => ids.contains(backend),
            Some(None) => true,
            None => false,
        };
        self.by_id
            .retain(|_, e| exists(&e.target_id, &e.backend_node_id));
        for (target, ids) in self.by_element.iter_mut() {
            ids.retain(|backend, _| exists(target, backend));
        }
        self.by_element.retain(|_, ids| !ids.is_empty());
    }

    fn insert(&mut self, id: u32, element: ElementRef) {
        self.by_element
            .entry(element.target_id.clone())
            .or_default()
            .insert(element.backend_node_id, id);
        self.by_id.insert(id, element);
    }
}

impl From<RegistryData> for IdRegistry {
    fn from(data: RegistryData) -> IdRegistry {
        let mut registry = IdRegistry::default();
        for entry in data.elements {
            registry.insert(entry.id, entry.element);
        }
        // Never hand out an id below one already stored, even if next_id was edited.
        let highest = registry.by_id.keys().max().map_or(0, |id| id + 1);
        registry.next_id = data.next_id.max(highest);
        registry
    }
}

impl From<IdRegistry> for RegistryData {
    fn from(registry: IdRegistry) -> RegistryData {
        let mut elements: Vec<Entry> = registry
            .by_id
            .into_iter()
            .map(|(id, element)| Entry { id, element })
            .collect();
        elements.sort_by_key(|e| e.id);
        RegistryData {
            next_id: registry.next_id,
            elements,
        }
    }
}
