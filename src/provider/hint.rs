//! What the person should change after a failed call. The message says what
//! happened; the hint says what to do, in terms of the options page's fields.

use super::config::{ProviderConfig, ProviderKind};
use super::error::{CallError, ErrorKind};
use super::url::{self, LM_STUDIO_PORT, OLLAMA_PORT};

/// One or two sentences; `extension_origin` is `chrome-extension://<id>` (used in the
/// origin advice; a placeholder is written when it is empty).
pub fn hint(error: &CallError, config: &ProviderConfig, extension_origin: &str) -> String {
    if config.provider == ProviderKind::Agent {
        return agent(error, config);
    }
    let base = config.base();
    let label = config.provider.label();
    match error.kind {
        ErrorKind::Auth => auth(config),
        ErrorKind::NotFound => format!(
            "Check the base URL ({base}) and the model name ({model}) in the options: \
             nothing answers at that address. {example}",
            model = config.model.trim(),
            example = base_url_example(config.provider),
        ),
        ErrorKind::OriginRejected => origin(base, extension_origin),
        ErrorKind::RateLimited if mentions_quota(&error.message) => format!(
            "Your {label} account has no quota or credit left: check its billing page, \
             or pick another model or provider."
        ),
        ErrorKind::RateLimited => format!(
            "{label} is limiting how often you may call it. Wait a minute and try again, \
             or raise the limits of your plan."
        ),
        // Only failures whose words name no cause get here (see `cause`), so waiting
        // may help.
        ErrorKind::Server => {
            format!("{label} failed on its side. Try again later, or pick another model.")
        }
        ErrorKind::Timeout => "The model did not answer in time. Raise the call timeout in \
             the options, pick a faster model, or send less (observation mode text only)."
            .to_string(),
        ErrorKind::Network if url::is_local(base) => format!(
            "Nothing answered at {base}: is the local server running (e.g. `ollama serve`, \
             or LM Studio's server started) and is the port right?"
        ),
        ErrorKind::Network => format!(
            "Could not reach {base}: check the base URL for typos and your internet connection."
        ),
        ErrorKind::UnsupportedInput => unsupported_input(config),
        ErrorKind::ContextOverflow => context_overflow(error, config),
        ErrorKind::BadRequest => format!(
            "{label} refused the request. Check the model name; if the model cannot read \
             images, set the observation mode to text; keep max tokens within the model's limit."
        ),
        ErrorKind::Malformed => format!(
            "The reply did not look like {label}'s API: check that the provider matches the \
             server at {base} (e.g. an OpenAI-compatible server must be set as \
             \"OpenAI-compatible\")."
        ),
        ErrorKind::Empty => "The model answered without any text. Raise max tokens if it \
             stopped at the limit, or try another model."
            .to_string(),
        ErrorKind::Cancelled => "The call was stopped before it finished.".to_string(),
        ErrorKind::Config => {
            "Fix the setting named above in hopbench's options page, then test again.".to_string()
        }
    }
}

/// The observation mode is the setting that sends images. Settings are named as the
/// options page labels them and the runner spells its options.
fn unsupported_input(config: &ProviderConfig) -> String {
    let model = config.model.trim();
    format!(
        "The model {model} cannot read the images this run sends. Set the observation \
         mode to text (Settings → Observation: text, or the runner's `--observation text`), \
         or use a model that reads images (llama-server needs the model's multimodal \
         projector: start it with `--mmproj`)."
    )
}

/// What to cut, in the order that costs the run least: the observation first, then its
/// format; a bigger context where the person runs the server, a longer-context model
/// where they do not.
fn context_overflow(error: &CallError, config: &ProviderConfig) -> String {
    let what = match (error.prompt_tokens, error.context_tokens) {
        (Some(prompt), Some(context)) => format!(
            "The prompt ({prompt} tokens) and the reply's allowance do not fit the model's \
             context ({context} tokens)."
        ),
        (None, Some(context)) => format!(
            "The prompt and the reply's allowance do not fit the model's context \
             ({context} tokens)."
        ),
        (Some(prompt), None) => {
            format!("The prompt ({prompt} tokens) does not fit the model's context.")
        }
        (None, None) => "The prompt does not fit the model's context.".to_string(),
    };
    let send_less = "Send less: cut the observation (max_obs_tokens: Settings → Cut the \
         observation to, or the runner's `--max-obs-tokens N`), or use the compact text \
         format (Settings → Text format: compact, or the runner's \
         `--observation-format compact`).";
    let bigger = if url::is_local(config.base()) {
        "Or give the model a larger context on the server: llama-server `-c N`, vLLM \
         `--max-model-len N`, LM Studio's context length when it loads the model."
    } else {
        "Or pick a model with a longer context."
    };
    format!("{what} {send_less} {bigger}")
}

fn auth(config: &ProviderConfig) -> String {
    let label = config.provider.label();
    if config.api_key.is_empty() {
        return format!(
            "The server at {} wants an API key and none is saved: enter the key in the options.",
            config.base()
        );
    }
    format!(
        "Check the API key in the options: {label} refused it. Paste the key again (keys \
         belong to one provider: an OpenAI key does not work for Anthropic or Gemini) and \
         make sure it has access to the model."
    )
}

fn origin(base: &str, extension_origin: &str) -> String {
    let origin = if extension_origin.is_empty() {
        "chrome-extension://<extension id>"
    } else {
        extension_origin
    };
    let ollama = format!(
        "set OLLAMA_ORIGINS={origin} in the environment of the Ollama server and restart \
         Ollama (e.g. `OLLAMA_ORIGINS={origin} ollama serve`)"
    );
    let lm_studio = "turn on \"Enable CORS\" in LM Studio's server settings and restart the server";
    match url::port_of(base) {
        Some(OLLAMA_PORT) => {
            format!("The local server refused this extension's origin ({origin}): {ollama}.")
        }
        Some(LM_STUDIO_PORT) => {
            format!("The local server refused this extension's origin ({origin}): {lm_studio}.")
        }
        _ => format!(
            "The server at {base} refused this extension's origin ({origin}). For Ollama, \
             {ollama}; for LM Studio, {lm_studio}; other servers: allow that origin in \
             their CORS settings."
        ),
    }
}

fn base_url_example(provider: ProviderKind) -> &'static str {
    match provider {
        ProviderKind::Openai => {
            "OpenAI-compatible base URLs usually end in /v1 (https://api.openai.com/v1, \
             http://localhost:11434/v1 for Ollama, http://localhost:1234/v1 for LM Studio)."
        }
        ProviderKind::Anthropic => "Anthropic's base URL is https://api.anthropic.com/v1.",
        ProviderKind::Gemini => {
            "Gemini's base URL is https://generativelanguage.googleapis.com/v1beta and \
             model names look like gemini-2.5-flash."
        }
        ProviderKind::Agent => "The agent's URL is the one its server prints when it starts.",
    }
}

/// A person's own agent: the advice is about their server and the protocol, not about
/// models and quotas.
fn agent(error: &CallError, config: &ProviderConfig) -> String {
    let base = config.base();
    let contract = "The contract is docs/agent-protocol.md (the Python client in \
                    clients/python speaks it).";
    match error.kind {
        ErrorKind::Network | ErrorKind::NotFound => format!(
            "Nothing answered at {base}: is your agent's server running, and is this the URL \
             it printed when it started?"
        ),
        ErrorKind::Auth => format!(
            "Your agent refused the key: set the same key in the agent's settings (the \
             runner's --api-key-env) as your agent's server expects. {contract}"
        ),
        ErrorKind::Timeout => "Your agent did not answer in time. Raise the call timeout \
             (Settings, or the runner's --call-timeout S) if it thinks for long."
            .to_string(),
        ErrorKind::Server | ErrorKind::RateLimited => {
            "Your agent's server failed on its side: its own log says why.".to_string()
        }
        ErrorKind::Malformed | ErrorKind::Empty | ErrorKind::BadRequest => format!(
            "Your agent's reply or its refusal does not follow the protocol: a step is \
             answered with {{\"action\": \"click [12]\"}}, a hello with {{\"name\": …}}. \
             {contract}"
        ),
        ErrorKind::OriginRejected => format!(
            "Your agent's server refused this extension's origin: let it accept requests \
             from chrome-extension:// origins. {contract}"
        ),
        ErrorKind::UnsupportedInput | ErrorKind::ContextOverflow => {
            "Your agent said it cannot take what this run sends: send less (observation \
             mode text, or --max-obs-tokens N)."
                .to_string()
        }
        ErrorKind::Cancelled => "The call was stopped before it finished.".to_string(),
        ErrorKind::Config => {
            "Fix the setting named above in hopbench's options page, then test again.".to_string()
        }
    }
}

fn mentions_quota(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    lower.contains("quota") || lower.contains("billing") || lower.contains("credit")
}
