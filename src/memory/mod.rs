//! Procedural memory (MMInA §4.4): what earlier runs did, kept as compact records and
//! shown to the model before a new run in a labelled prompt section.
//!
//! A [`MemoryRecord`] holds a finished run's intent, sites, the actions it took (each
//! with the text of the element it touched, never the page's ids, which mean nothing
//! in another visit), which hops it completed and its verdict. It never holds the
//! task's reference answers or hop conditions, nor the agent's own final answer: on a
//! passed task that answer *is* the reference answer, and the released MMInA code
//! leaked exactly that into its memory.
//!
//! Before a run the core picks `k` records from a pool ([`select`]): the paper's
//! `recent` policy (the last k finished tasks of the same subset) or `similar`
//! (the k records whose intent and sites are closest to the task's). The browser side
//! only moves records: the extension keeps them in IndexedDB, the runner in
//! `memory.jsonl` of the run folder; both pass the pool to `agent_start`.

mod element;
mod record;
mod render;
mod select;
mod similar;

pub use crate::agent::role_and_name;
pub use element::memory_action_text;
pub use record::{site_of, subset_of, MemoryRecord, MemoryStep, MemoryVerdict};
pub use render::{memory_section, MEMORY_HEADING};
pub use select::{select, MemoryPolicy, MemoryQuery, MemorySettings, MAX_MEMORY_K};
pub use similar::{words, SimilarityIndex};

#[cfg(test)]
mod tests;
