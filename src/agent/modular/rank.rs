//! Candidate generation: the page's actionable elements ranked by relevance to the
//! task, native and in one pass (SeeAct ranks with a cross-encoder; word overlap with
//! the objective and a prior per role does the job here without a model call).

use serde::{Deserialize, Serialize};

use crate::diagnosis::Element;
use crate::memory::{role_and_name, words};

/// Roles a person can act on; other lines (text, headings, containers) are context.
const ACTIONABLE: &[(&str, f64)] = &[
    ("searchbox", 0.35),
    ("textbox", 0.3),
    ("combobox", 0.3),
    ("button", 0.2),
    ("link", 0.1),
    ("checkbox", 0.1),
    ("radio", 0.1),
    ("menuitem", 0.1),
    ("option", 0.1),
    ("tab", 0.1),
    ("switch", 0.1),
    ("slider", 0.05),
    ("spinbutton", 0.05),
    ("listbox", 0.05),
    ("menuitemcheckbox", 0.05),
    ("menuitemradio", 0.05),
    ("treeitem", 0.05),
    ("img", 0.0),
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub id: u32,
    pub element: Element,
    /// The element's line without its id (role, name, properties).
    pub line: String,
    pub score: f64,
}

/// The `keep` most relevant actionable elements of `observation` for `objective`,
/// best first; equal scores keep page order.
pub fn rank_candidates(observation: &str, objective: &str, keep: usize) -> Vec<Candidate> {
    let goal = words(objective);
    let mut found: Vec<Candidate> = observation
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('[')?;
            let (digits, rest) = rest.split_once("] ")?;
            let id: u32 = digits.parse().ok()?;
            let (role, name) = role_and_name(rest)?;
            let prior = ACTIONABLE.iter().find(|(r, _)| *r == role)?.1;
            let name_words = words(name);
            let shared = name_words
                .iter()
                .filter(|w| goal.binary_search(w).is_ok())
                .count();
            let overlap = if name_words.is_empty() {
                0.0
            } else {
                shared as f64 / (name_words.len() as f64).sqrt()
            };
            Some(Candidate {
                id,
                element: Element {
                    role: role.to_string(),
                    name: name.to_string(),
                },
                line: rest.trim_end().to_string(),
                score: overlap + prior,
            })
        })
        .collect();
    // A stable sort keeps page order among equals.
    found.sort_by(|a, b| b.score.total_cmp(&a.score));
    found.truncate(keep);
    found
}

/// `count` candidates split into at most `sections` runs of consecutive ranks, as even
/// as possible (indices into the ranked list).
pub fn sections(count: usize, sections: usize) -> Vec<Vec<usize>> {
    if count == 0 {
        return Vec::new();
    }
    let size = count.div_ceil(sections.max(1));
    (0..count)
        .collect::<Vec<_>>()
        .chunks(size)
        .map(<[usize]>::to_vec)
        .collect()
}
