// What a run is started with: the stored agent settings (agent-settings.js), the
// observation mode, and the START_RUN overrides. The copy kept with the run (and
// exported) never holds an API key, not even the last characters the options page shows.

import { OWN_AGENT, agentSettingsProblems, describeProblems, loadAgentSettings, modelReadinessProblems } from '../../agent-settings.js';
import { loadObservationSettings } from '../../observe-settings.js';
import { loadSiteSettings } from '../../site-settings.js';

/**
 * A copy of the settings without API keys: what a run keeps and exports.
 * @template {{ model?: object | null, judge?: object | null }} S
 * @param {S} settings
 */
export function withoutKeys(settings) {
  const strip = (/** @type {object | null | undefined} */ model) => {
    if (!model) return model;
    return Object.fromEntries(Object.entries(model).filter(([key]) => key !== 'api_key'));
  };
  return { ...settings, model: strip(settings.model), judge: strip(settings.judge) };
}

/**
 * The run's configuration: `agentConfig` for agent_start, `provider` (`replay` or the
 * model's provider), `keepWindow`, `sites` (`task`: fenced to the task's sites, or
 * `any`) with the person's `siteLists`, and `settings` (no key) to keep with the run.
 * Throws an error saying what to change when the run cannot start.
 * @param {import('../../messages.js').RunOverrides} overrides
 */
export async function runConfiguration(overrides) {
  const agent = await loadAgentSettings();
  const observation = await loadObservationSettings();
  const siteSettings = await loadSiteSettings();
  // In the person's browser the fence is on unless they turned it off; the headless
  // runner says which it wants (runner/args.mjs --sites).
  const sites = overrides.sites ?? (siteSettings.fence ? 'task' : 'any');
  const replay = overrides.provider === 'replay';
  if (!replay) {
    const problems = [...agentSettingsProblems(agent), ...modelReadinessProblems(agent)];
    const unique = problems.filter((p, i) => problems.findIndex((q) => q.field === p.field && q.message === p.message) === i);
    if (unique.length > 0) {
      throw new Error(`no model is ready to run (${describeProblems(unique)}): set it in Settings, or run with the replay agent`);
    }
    if (overrides.provider !== undefined && overrides.provider !== agent.model.provider) {
      throw new Error(
        `the run asks for provider ${overrides.provider} but the options page configures ` +
          `${agent.model.provider}: change it there, or leave the provider out`,
      );
    }
  }
  const ownAgent = !replay && agent.model.provider === OWN_AGENT;
  const agentConfig = {
    max_steps: overrides.max_steps ?? agent.max_steps,
    prompt_style: agent.prompt_style,
    observation_mode: overrides.observation_mode ?? observation.mode,
    observation_format: overrides.observation_format ?? observation.format,
    replay,
    temperature: agent.model.temperature,
    max_tokens: agent.model.max_tokens,
    // 0 in the settings: the whole observation (the core's default, left out).
    ...maxObsTokens(overrides.max_obs_tokens ?? agent.max_obs_tokens),
    agent: agentKind(overrides.agent ?? agent.agent, ownAgent),
    // Read by the modular agent only; the core checks them against the observation mode.
    modular: {
      grounding: overrides.grounding ?? agent.modular_grounding,
      select: overrides.select ?? agent.modular_select,
    },
    memory: {
      k: overrides.memory_k ?? agent.memory_k,
      policy: overrides.memory_policy ?? agent.memory_policy,
    },
  };
  return {
    agentConfig,
    provider: replay ? 'replay' : agent.model.provider,
    keepWindow: overrides.keep_window ?? false,
    sites,
    siteLists: { allow: siteSettings.allow, deny: siteSettings.deny },
    // The observation as the run uses it (an override wins over the stored setting),
    // so the trajectory says what the model was shown.
    settings: {
      agent: withoutKeys(agent),
      observation: { ...observation, mode: agentConfig.observation_mode, format: agentConfig.observation_format },
      overrides,
      agentConfig,
    },
  };
}

/**
 * The agent that runs the steps: a person's own agent (provider `agent`) is the core's
 * `http` agent whatever the settings' agent says, since it chooses its actions itself;
 * `http` with a model provider has nothing to send its requests to.
 * @param {string} asked the settings' or the run's agent
 * @param {boolean} ownAgent the provider is the person's own agent
 */
function agentKind(asked, ownAgent) {
  if (ownAgent && asked === 'modular') {
    throw new Error('the modular agent needs a model: your own agent (HTTP) chooses its actions itself; choose the prompt agent');
  }
  if (!ownAgent && asked === 'http') {
    throw new Error('the http agent is your own agent: choose "Your own agent (HTTP)" as the provider in Settings');
  }
  return ownAgent ? 'http' : asked;
}

/**
 * The core's `max_obs_tokens`: set when positive, left out (whole observation) at 0.
 * @param {number | undefined} tokens
 */
function maxObsTokens(tokens) {
  return typeof tokens === 'number' && tokens > 0 ? { max_obs_tokens: tokens } : {};
}
