//! `DIR/run.json`, as far as the report needs it: which model and which memory setting
//! a run folder's results come from (the runner writes it; docs/runner.md).

use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct RunConfig {
    pub provider: Option<String>,
    pub model: Option<String>,
    /// Absent or null: memory off (K = 0).
    pub memory_k: Option<u32>,
    pub memory_policy: Option<String>,
    /// `prompt`, `modular` or `http` (a person's own agent, provider `agent`, its name
    /// and version in `model`); absent: the prompt agent.
    pub agent: Option<String>,
    /// The modular agent's variant (`textual`/`visual`, `model`/`first_viable`); absent:
    /// its defaults.
    pub grounding: Option<String>,
    pub select: Option<String>,
}

impl RunConfig {
    /// The folder's run.json; a folder without one (results from elsewhere) reads as
    /// the defaults, and so does one that does not parse (the runner refuses to run
    /// into such a folder, so it was not written by it).
    pub fn read(dir: &Path) -> RunConfig {
        std::fs::read_to_string(dir.join("run.json"))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    pub fn memory(&self) -> MemorySetting {
        match self.memory_k.unwrap_or(0) {
            0 => MemorySetting::default(),
            k => MemorySetting {
                k,
                policy: self
                    .memory_policy
                    .clone()
                    .unwrap_or_else(|| "recent".into()),
            },
        }
    }

    /// `replay`, `openai gpt-4o-mini`, `anthropic (default model) modular`,
    /// `openai gpt-4o modular (visual grounding, first_viable)`: each variant is its
    /// own row of the stage funnel.
    pub fn model_label(&self) -> String {
        let provider = self.provider.as_deref().unwrap_or("unknown provider");
        let mut label = match (provider, &self.model) {
            ("replay", _) => "replay".to_string(),
            (p, Some(m)) => format!("{p} {m}"),
            (p, None) => format!("{p} (default model)"),
        };
        // `http` is a person's own agent (provider `agent`), whose name is the model's.
        if let Some(agent) = self
            .agent
            .as_deref()
            .filter(|a| !matches!(*a, "prompt" | "http"))
        {
            label.push(' ');
            label.push_str(agent);
            let variant: Vec<String> = [
                self.grounding.as_deref().map(|g| format!("{g} grounding")),
                self.select.clone(),
            ]
            .into_iter()
            .flatten()
            .collect();
            if !variant.is_empty() {
                label.push_str(&format!(" ({})", variant.join(", ")));
            }
        }
        label
    }
}

/// One memory configuration: K = 0 is off, whatever the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MemorySetting {
    pub k: u32,
    pub policy: String,
}

impl MemorySetting {
    /// `K=0 (off)`, `K=2 recent`.
    pub fn label(&self) -> String {
        if self.k == 0 {
            "K=0 (off)".to_string()
        } else {
            format!("K={} {}", self.k, self.policy)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RunConfig;

    fn label(json: &str) -> String {
        serde_json::from_str::<RunConfig>(json)
            .map(|c| c.model_label())
            .unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    #[test]
    fn the_model_label_names_the_agent_and_its_variant() {
        assert_eq!(label(r#"{"provider": "replay"}"#), "replay");
        assert_eq!(
            label(r#"{"provider": "openai", "model": "m", "agent": "prompt"}"#),
            "openai m"
        );
        assert_eq!(
            label(r#"{"provider": "openai", "model": "m", "agent": "modular"}"#),
            "openai m modular"
        );
        assert_eq!(
            label(
                r#"{"provider": "gemini", "agent": "modular", "grounding": "visual", "select": "first_viable"}"#
            ),
            "gemini (default model) modular (visual grounding, first_viable)"
        );
        // A person's own agent: its name and version, as the hello gave them.
        assert_eq!(
            label(r#"{"provider": "agent", "model": "follow-links 0.1.0", "agent": "http"}"#),
            "agent follow-links 0.1.0"
        );
    }
}
