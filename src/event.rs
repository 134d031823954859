//! Events the evaluator consumes. The browser glue (or a test) produces them.

use serde::{Deserialize, Serialize};

use crate::serde_flat::need;

/// Something that happened in a session, at an agent step and a time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// Read through one flat struct (`crate::serde_flat`): the tracker state holds them all.
#[serde(try_from = "EventFields")]
pub struct Event {
    /// The agent step (or a person's action count) at which it happened.
    pub step: u32,
    /// Milliseconds since the session started (injected, so tests are deterministic).
    pub time_ms: u64,
    #[serde(flatten)]
    pub body: EventBody,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventBody {
    /// A navigation committed in a tab of the session.
    Navigation { tab: u32, url: String },
    /// An answer was given (`stop [answer]`, or a person's answer).
    Answer { text: String },
    /// Text seen on a page of the session.
    PageText { tab: u32, url: String, text: String },
}

impl Event {
    pub fn navigation(step: u32, time_ms: u64, tab: u32, url: &str) -> Self {
        Event {
            step,
            time_ms,
            body: EventBody::Navigation {
                tab,
                url: url.to_string(),
            },
        }
    }

    pub fn answer(step: u32, time_ms: u64, text: &str) -> Self {
        Event {
            step,
            time_ms,
            body: EventBody::Answer {
                text: text.to_string(),
            },
        }
    }

    pub fn page_text(step: u32, time_ms: u64, tab: u32, url: &str, text: &str) -> Self {
        Event {
            step,
            time_ms,
            body: EventBody::PageText {
                tab,
                url: url.to_string(),
                text: text.to_string(),
            },
        }
    }
}

enum EventType {
    Navigation,
    Answer,
    PageText,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(EventType, "EventType", {
    Navigation = "navigation",
    Answer = "answer",
    PageText = "page_text",
});

/// An `Event` object as written: `type` names the body's variant.
#[derive(Deserialize)]
struct EventFields {
    step: u32,
    time_ms: u64,
    #[serde(rename = "type")]
    kind: EventType,
    tab: Option<u32>,
    url: Option<String>,
    text: Option<String>,
}

impl TryFrom<EventFields> for Event {
    type Error = String;

    fn try_from(f: EventFields) -> Result<Event, String> {
        let body = match f.kind {
            EventType::Navigation => EventBody::Navigation {
                tab: need(f.tab, "tab")?,
                url: need(f.url, "url")?,
            },
            EventType::Answer => EventBody::Answer {
                text: need(f.text, "text")?,
            },
            EventType::PageText => EventBody::PageText {
                tab: need(f.tab, "tab")?,
                url: need(f.url, "url")?,
                text: need(f.text, "text")?,
            },
        };
        Ok(Event {
            step: f.step,
            time_ms: f.time_ms,
            body,
        })
    }
}
