//! The `Action` value, its kinds, and the canonical printed form.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::key::KeyCombo;

/// One browser action, as the agent's model prints it (WebArena / VisualWebArena grammar).
///
/// `Display` prints the canonical form that [`Action::parse`] reads back unchanged:
/// `click [12]`, `type [12] [hello world] [1]`, `scroll [down]`, `stop [N/A]`.
/// Text in `type` is kept verbatim (it is keyboard input, spaces included);
/// the `stop` answer and the `goto` url are trimmed by the parser, so an
/// `Action` built by hand round-trips only if those two carry no surrounding
/// whitespace (and the url is not empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// Read through one flat struct (`serde_read.rs`): same JSON, a fraction of the code of
// serde's internally tagged reading, which matters in the wasm (runs store every action).
#[serde(try_from = "super::serde_read::ActionFields")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Action {
    /// `click [id]`
    Click { id: u32 },
    /// `hover [id]`
    Hover { id: u32 },
    /// `type [id] [text] [1|0]`; the flag defaults to 1 (press Enter after typing).
    Type {
        id: u32,
        text: String,
        press_enter: bool,
    },
    /// `press [key_comb]`, e.g. `press [Control+v]`.
    Press { key_comb: KeyCombo },
    /// `scroll [up|down]`
    Scroll { direction: ScrollDirection },
    /// `new_tab`
    NewTab,
    /// `tab_focus [index]`
    TabFocus { index: u32 },
    /// `close_tab`
    CloseTab,
    /// `goto [url]`
    Goto { url: String },
    /// `go_back`
    GoBack,
    /// `go_forward`
    GoForward,
    /// `stop [answer]`; `N/A` when the task is impossible, empty for `stop []`.
    Stop { answer: String },
}

/// Direction of a `scroll` action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ScrollDirection {
    Up,
    Down,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(ScrollDirection, "ScrollDirection", {
    Up = "up",
    Down = "down",
});

impl ScrollDirection {
    /// The canonical lower-case word (`up` / `down`).
    pub fn as_str(self) -> &'static str {
        match self {
            ScrollDirection::Up => "up",
            ScrollDirection::Down => "down",
        }
    }
}

/// The twelve action names, without arguments. Used for error messages and
/// for grouping actions (e.g. metrics per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ActionKind {
    Click,
    Hover,
    Type,
    Press,
    Scroll,
    NewTab,
    TabFocus,
    CloseTab,
    Goto,
    GoBack,
    GoForward,
    Stop,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(ActionKind, "ActionKind", {
    Click = "click",
    Hover = "hover",
    Type = "type",
    Press = "press",
    Scroll = "scroll",
    NewTab = "new_tab",
    TabFocus = "tab_focus",
    CloseTab = "close_tab",
    Goto = "goto",
    GoBack = "go_back",
    GoForward = "go_forward",
    Stop = "stop",
});

impl ActionKind {
    /// Every kind, in the order the grammar is usually listed.
    pub const ALL: [ActionKind; 12] = [
        ActionKind::Click,
        ActionKind::Hover,
        ActionKind::Type,
        ActionKind::Press,
        ActionKind::Scroll,
        ActionKind::NewTab,
        ActionKind::TabFocus,
        ActionKind::CloseTab,
        ActionKind::Goto,
        ActionKind::GoBack,
        ActionKind::GoForward,
        ActionKind::Stop,
    ];

    /// The name as written in the action text (`tab_focus`).
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Click => "click",
            ActionKind::Hover => "hover",
            ActionKind::Type => "type",
            ActionKind::Press => "press",
            ActionKind::Scroll => "scroll",
            ActionKind::NewTab => "new_tab",
            ActionKind::TabFocus => "tab_focus",
            ActionKind::CloseTab => "close_tab",
            ActionKind::Goto => "goto",
            ActionKind::GoBack => "go_back",
            ActionKind::GoForward => "go_forward",
            ActionKind::Stop => "stop",
        }
    }

    /// The expected format, shown in every parse error about this kind.
    pub fn usage(self) -> &'static str {
        match self {
            ActionKind::Click => "click [id]",
            ActionKind::Hover => "hover [id]",
            ActionKind::Type => "type [id] [text] [1|0]",
            ActionKind::Press => "press [key_comb]",
            ActionKind::Scroll => "scroll [up|down]",
            ActionKind::NewTab => "new_tab",
            ActionKind::TabFocus => "tab_focus [index]",
            ActionKind::CloseTab => "close_tab",
            ActionKind::Goto => "goto [url]",
            ActionKind::GoBack => "go_back",
            ActionKind::GoForward => "go_forward",
            ActionKind::Stop => "stop [answer]",
        }
    }

    /// Looks up a kind by its exact (lower-case) name.
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ActionKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// All usages joined, for messages that must list the whole grammar.
pub(crate) fn all_usages() -> String {
    ActionKind::ALL
        .iter()
        .map(|k| format!("`{}`", k.usage()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Action {
    /// Which of the twelve kinds this action is.
    pub fn kind(&self) -> ActionKind {
        match self {
            Action::Click { .. } => ActionKind::Click,
            Action::Hover { .. } => ActionKind::Hover,
            Action::Type { .. } => ActionKind::Type,
            Action::Press { .. } => ActionKind::Press,
            Action::Scroll { .. } => ActionKind::Scroll,
            Action::NewTab => ActionKind::NewTab,
            Action::TabFocus { .. } => ActionKind::TabFocus,
            Action::CloseTab => ActionKind::CloseTab,
            Action::Goto { .. } => ActionKind::Goto,
            Action::GoBack => ActionKind::GoBack,
            Action::GoForward => ActionKind::GoForward,
            Action::Stop { .. } => ActionKind::Stop,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.kind().name();
        match self {
            Action::Click { id } | Action::Hover { id } => write!(f, "{name} [{id}]"),
            Action::Type {
                id,
                text,
                press_enter,
            } => {
                // The flag is always printed: the parser strips exactly one trailing
                // `[0]`/`[1]`, so printing it keeps text ending in `[1]` unambiguous.
                let flag = if *press_enter { 1 } else { 0 };
                write!(f, "{name} [{id}] [{text}] [{flag}]")
            }
            Action::Press { key_comb } => write!(f, "{name} [{key_comb}]"),
            Action::Scroll { direction } => write!(f, "{name} [{}]", direction.as_str()),
            Action::TabFocus { index } => write!(f, "{name} [{index}]"),
            Action::Goto { url } => write!(f, "{name} [{url}]"),
            Action::Stop { answer } => write!(f, "{name} [{answer}]"),
            Action::NewTab | Action::CloseTab | Action::GoBack | Action::GoForward => {
                f.write_str(name)
            }
        }
    }
}
