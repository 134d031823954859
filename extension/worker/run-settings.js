// What a run is started with: the stored agent settings (docs/agent-run.md, key
// `settings.agent`), the observation mode, and the START_RUN overrides. The API key
// is read only where the model is called (run-model.js); the copy kept with the run
// (and exported) never holds it.

import { loadObservationSettings } from '../observe-settings.js';

export const AGENT_SETTINGS_KEY = 'settings.agent';

const DEFAULT_AGENT_SETTINGS = Object.freeze({
  model: null,
  judge: null,
  max_steps: 30,
  prompt_style: 'cot',
  max_tries: 4,
  call_timeout_ms: 120_000,
});

/** The stored agent settings over the defaults, key included: for the model call only. */
export async function loadAgentSettings() {
  const stored = (await chrome.storage.local.get(AGENT_SETTINGS_KEY))[AGENT_SETTINGS_KEY];
  return { ...DEFAULT_AGENT_SETTINGS, ...(stored ?? {}) };
}

/** A copy of the settings without API keys: what a run keeps and exports. */
export function withoutKeys(settings) {
  const strip = (model) => {
    if (!model) return model;
    const { api_key: _key, ...rest } = model;
    return rest;
  };
  return { ...settings, model: strip(settings.model), judge: strip(settings.judge) };
}

/**
 * The run's configuration: `agentConfig` for agent_start, `provider` (`replay` or the
 * model's provider), `keepWindow`, and `settings` (no key) to keep with the run.
 * Throws an error saying what to change when the run cannot start.
 */
export async function runConfiguration(overrides) {
  const agent = await loadAgentSettings();
  const observation = await loadObservationSettings();
  const replay = overrides.provider === 'replay';
  if (!replay) {
    if (!agent.model?.provider) {
      throw new Error('no model is configured: set one in the options page (or run with the replay agent)');
    }
    if (overrides.provider !== undefined && overrides.provider !== agent.model.provider) {
      throw new Error(
        `the run asks for provider ${overrides.provider} but the options page configures ` +
          `${agent.model.provider}: change it there, or leave the provider out`,
      );
    }
  }
  const agentConfig = {
    max_steps: overrides.max_steps ?? agent.max_steps,
    prompt_style: agent.prompt_style,
    observation_mode: overrides.observation_mode ?? observation.mode,
    replay,
    ...(agent.model?.temperature !== undefined ? { temperature: agent.model.temperature } : {}),
    ...(agent.model?.max_tokens !== undefined ? { max_tokens: agent.model.max_tokens } : {}),
  };
  return {
    agentConfig,
    provider: replay ? 'replay' : agent.model.provider,
    keepWindow: overrides.keep_window ?? false,
    settings: { agent: withoutKeys(agent), observation, overrides, agentConfig },
  };
}
