//! Settings of one agent run, as the driver passes them to `agent_start`.

use crate::observation::ObservationFormat;
use serde::{Deserialize, Serialize};

use super::error::AgentError;
use crate::memory::MemorySettings;

/// How the model is asked to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptStyle {
    /// Reason first, then end with "In summary, the next action I will perform is ```...```".
    Cot,
    /// Reply with the fenced action only.
    Direct,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(PromptStyle, "PromptStyle", {
    Cot = "cot",
    Direct = "direct",
});

crate::variants::every_variant!(PromptStyle { Cot, Direct });

/// What the model gets besides the accessibility-tree text. The extension's settings
/// and the runner's `--observation` take these names from `extension/core-terms.js`,
/// generated from this type (`crate::terms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ObservationMode {
    #[serde(rename = "text")]
    Text,
    /// The viewport's images, each labelled with its element id.
    #[serde(rename = "text+images")]
    TextImages,
    /// A screenshot of the viewport.
    #[serde(rename = "text+screenshot")]
    TextScreenshot,
    /// A screenshot with interactive elements boxed and marked with their ids.
    #[serde(rename = "som")]
    Som,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(ObservationMode, "ObservationMode", {
    Text = "text",
    TextImages = "text+images",
    TextScreenshot = "text+screenshot",
    Som = "som",
});

crate::variants::every_variant!(ObservationMode {
    Text,
    TextImages,
    TextScreenshot,
    Som,
});

impl ObservationMode {
    /// The name the extension uses for this mode.
    pub fn name(self) -> &'static str {
        match self {
            ObservationMode::Text => "text",
            ObservationMode::TextImages => "text+images",
            ObservationMode::TextScreenshot => "text+screenshot",
            ObservationMode::Som => "som",
        }
    }

    /// Whether the model gets pictures besides the text (images, a screenshot, or a
    /// marked one): what visual grounding needs.
    pub fn carries_pictures(self) -> bool {
        match self {
            ObservationMode::Text => false,
            ObservationMode::TextImages
            | ObservationMode::TextScreenshot
            | ObservationMode::Som => true,
        }
    }
}

/// Which agent runs the steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// One prompt per step: the model reads the page and writes the action (MMInA's).
    #[default]
    Prompt,
    /// SeeAct-style stages per step: candidate ranking, planning in words, grounding
    /// as a lettered choice per section of candidates, action selection.
    Modular,
    /// A person's own agent over HTTP (provider `agent`): each step's request is the
    /// agent protocol's data (`crate::agent_protocol`), not a prompt, and the reply is
    /// one action.
    Http,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(AgentKind, "AgentKind", {
    Prompt = "prompt",
    Modular = "modular",
    Http = "http",
});

crate::variants::every_variant!(AgentKind {
    Prompt,
    Modular,
    Http
});

impl AgentKind {
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Prompt => "prompt",
            AgentKind::Modular => "modular",
            AgentKind::Http => "http",
        }
    }
}

/// How the modular agent picks one of several grounded actions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SelectMode {
    /// Ask the model to choose among the viable actions (one more call).
    #[default]
    Model,
    /// Take the first section's non-None answer (SeeAct's baseline).
    FirstViable,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(SelectMode, "SelectMode", {
    Model = "model",
    FirstViable = "first_viable",
});

crate::variants::every_variant!(SelectMode { Model, FirstViable });

/// What the modular agent's grounding call sees besides the lettered choices (SeeAct's
/// grounding variants).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroundingMode {
    /// The choices as text only: each candidate's observation line.
    #[default]
    Textual,
    /// The choices plus the step's pictures (the observation mode's screenshot, marked
    /// screenshot or labelled images), so the model can match the plan to what it sees.
    Visual,
}

// Read by one shared visitor (`crate::serde_flat::unit_variant`).
crate::serde_flat::unit_enum_deserialize!(GroundingMode, "GroundingMode", {
    Textual = "textual",
    Visual = "visual",
});

crate::variants::every_variant!(GroundingMode { Textual, Visual });

impl GroundingMode {
    pub fn name(self) -> &'static str {
        match self {
            GroundingMode::Textual => "textual",
            GroundingMode::Visual => "visual",
        }
    }

    /// Whether this grounding shows the model the step's pictures, so the run needs
    /// an observation mode that carries them ([`ObservationMode::carries_pictures`]).
    pub fn needs_pictures(self) -> bool {
        match self {
            GroundingMode::Textual => false,
            GroundingMode::Visual => true,
        }
    }
}

/// The modular agent's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModularSettings {
    /// Candidate elements kept after ranking (top-k).
    pub candidates: u32,
    /// Sections the candidates are split into, each grounded by its own call.
    pub sections: u32,
    pub select: SelectMode,
    pub grounding: GroundingMode,
}

impl Default for ModularSettings {
    fn default() -> Self {
        ModularSettings {
            candidates: 24,
            sections: 3,
            select: SelectMode::Model,
            grounding: GroundingMode::Textual,
        }
    }
}

/// Every field has a default so a driver can pass only what the person changed; an
/// unknown field is refused, since a misspelt setting silently ignored would make a
/// run differ from what the person asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentConfig {
    /// The run ends once this many steps are recorded (MMInA: 30).
    pub max_steps: u32,
    pub prompt_style: PromptStyle,
    pub observation_mode: ObservationMode,
    /// How the observation's text is written (MMInA's by default); the prompt
    /// describes the format the model is given.
    pub observation_format: ObservationFormat,
    pub temperature: f32,
    pub max_tokens: u32,
    /// Cut the observation to about this many tokens before it goes into the prompt
    /// (MMInA's `max_obs_length`); `None`, the default, sends it whole.
    pub max_obs_tokens: Option<u32>,
    /// Follow the task's `reference_trajectory` instead of calling a model.
    pub replay: bool,
    /// Procedural memory: how many past runs the prompt shows, chosen how (k = 0: off).
    pub memory: MemorySettings,
    pub agent: AgentKind,
    pub modular: ModularSettings,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            max_steps: 30,
            prompt_style: PromptStyle::Cot,
            observation_mode: ObservationMode::Text,
            observation_format: ObservationFormat::Mmina,
            temperature: 0.0,
            max_tokens: 1024,
            max_obs_tokens: None,
            replay: false,
            memory: MemorySettings::default(),
            agent: AgentKind::Prompt,
            modular: ModularSettings::default(),
        }
    }
}

impl AgentConfig {
    /// Reads the config JSON; `{}` gives the defaults.
    pub fn from_json(text: &str) -> Result<AgentConfig, AgentError> {
        let config: AgentConfig =
            crate::json_read::from_str(text).map_err(|e| AgentError::Config(e.to_string()))?;
        config.check()?;
        Ok(config)
    }

    /// Values serde accepts but a run cannot use.
    pub fn check(&self) -> Result<(), AgentError> {
        let problem = if self.max_steps == 0 {
            Some("max_steps must be at least 1".to_string())
        } else if let Some(problem) = crate::model::temperature_problem(self.temperature) {
            Some(problem)
        } else if self.max_tokens == 0 {
            Some("max_tokens must be at least 1".to_string())
        } else if self.max_obs_tokens == Some(0) {
            Some(
                "max_obs_tokens must be at least 1 (leave it out to send the whole observation)"
                    .to_string(),
            )
        } else if !(1..=100).contains(&self.modular.candidates) {
            Some(format!(
                "modular.candidates must be from 1 to 100 (got {})",
                self.modular.candidates
            ))
        } else if !(1..=10).contains(&self.modular.sections)
            || self.modular.sections > self.modular.candidates
        {
            Some(format!(
                "modular.sections must be from 1 to 10 and at most modular.candidates (got {})",
                self.modular.sections
            ))
        } else if self.modular.grounding.needs_pictures()
            && !self.observation_mode.carries_pictures()
        {
            Some(
                "modular.grounding visual needs pictures: set observation_mode to \
                 text+screenshot, som or text+images (or use textual grounding)"
                    .to_string(),
            )
        } else {
            self.memory.check().err()
        };
        problem.map_or(Ok(()), |p| Err(AgentError::Config(p)))
    }
}
