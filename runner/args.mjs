// Command-line options of `./build.sh run` (and `./build.sh demo`), parsed into one
// plain object. A usage error throws UsageError; run.mjs prints it with the usage.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs as parseArgsUtil } from 'node:util';
import {
  AGENT_KINDS,
  GROUNDING_MODES,
  GROUNDING_MODES_NEEDING_PICTURES,
  MAX_MEMORY_K,
  MEMORY_POLICIES,
  OBSERVATION_FORMATS,
  OBSERVATION_MODES,
  OBSERVATION_MODES_WITH_PICTURES,
  PROMPT_CACHE_SETTINGS,
  SELECT_MODES,
} from '../extension/core-terms.js';
import { endpointProblem } from './remote-browser.mjs';

// The names the options take are the core's (extension/core-terms.js, generated from its
// types): OBSERVATION_MODES; OBSERVATION_FORMATS, MMInA's text or the compact one (fewer
// tokens); MEMORY_POLICIES; the agents (AGENTS); the modular agent's variants (SeeAct),
// how it grounds a plan (GROUNDING_MODES) and picks among answers (SELECT_MODES); the
// extension's limit on past runs in a prompt (MAX_MEMORY_K); whether the model's server
// is asked to cache the prompt (PROMPT_CACHE_SETTINGS).
export { GROUNDING_MODES, MAX_MEMORY_K, MEMORY_POLICIES, OBSERVATION_FORMATS, OBSERVATION_MODES, PROMPT_CACHE_SETTINGS, SELECT_MODES };
export const AGENTS = AGENT_KINDS;

export const PROVIDERS = Object.freeze(['replay', 'openai', 'anthropic', 'gemini', 'agent']);

/** The variable an API key is read from when --api-key-env is not given. */
export const DEFAULT_KEY_ENV = Object.freeze({
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
  agent: 'HOPBENCH_AGENT_KEY',
});

export const DEFAULT_TASK_TIMEOUT_S = 900;
/** Retries of an infrastructure error within one run (docs/runner.md "Crashes, retries and resuming"). */
export const DEFAULT_RETRIES = 1;
/**
 * Infrastructure errors in a row after which the batch stops (0: never): past a few,
 * the harness is broken (a sandbox gone, an extension that stopped answering), and
 * every further task would only record the same error in place of a result.
 */
export const DEFAULT_MAX_INFRA_ERRORS = 3;

export const USAGE = `usage: ./build.sh run --tasks PATH [options]
       ./build.sh demo [options]          (sandbox + bundled tasks/ + replay)

  --tasks PATH          task file or folder (hopbench, MMInA or WebArena format)
  --provider NAME       replay (default: follows each task's reference_trajectory),
                        openai (any OpenAI-compatible server), anthropic, gemini, or
                        agent: your own agent over HTTP (docs/agent-protocol.md), at
                        --base-url; it names itself, so --model is not needed
  --base-url URL        the provider's API base URL (default: the provider's own);
                        with --provider agent, the URL your agent listens on (required)
  --model NAME          model name
  --api-key-env VAR     environment variable holding the API key (default
                        OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY /
                        HOPBENCH_AGENT_KEY); the key is
                        given to the extension only, never printed or written
  --out DIR             run folder (default out/<tasks name>-<provider>); a re-run into
                        the same folder skips tasks already in DIR/results.jsonl, except
                        those whose last attempt is an infrastructure error
  --retries N           run a task again, in a fresh browser, up to N times when it
                        ends in an infrastructure error (browser or worker gone, model
                        endpoint down, timeout) (default ${DEFAULT_RETRIES}; 0: never)
  --max-infra-errors N  stop the batch after N infrastructure errors in a row, to be
                        resumed with the same command and --out once the cause is fixed
                        (default ${DEFAULT_MAX_INFRA_ERRORS}; 0: never stop)
  --retry-errors        re-run every recorded ERROR, not just infrastructure errors
  --no-retry-errors     re-run no recorded ERROR, infrastructure errors included
  --parallel N          tasks at once, each in its own headless browser (default 1)
  --browser-endpoint URL
                        drive a Chromium already running with this dist/ loaded
                        (ws://.../devtools/browser/... or http://host:port), instead
                        of launching one; repeat it for several browsers, one task
                        at a time in each (--parallel is their number)
  --with-extension DIR  load this unpacked extension beside hopbench in the browsers
                        the runner launches (a password manager, a translator, an ad
                        blocker: the extensions people have); repeat for several
  --shard i/n           run only tasks i, i+n, i+2n, ... (1 <= i <= n)
  --max-steps N         agent steps per task (default: the extension's, 30)
  --max-tokens N        the model's output cap per call (default: the extension's, 1024)
  --temperature T       sampling temperature, a number from 0 (default 0)
  --call-timeout S      give up on one try of a model call after S seconds (default 120);
                        a slow local server on two cores may need more, or --max-tokens less
  --tries N             tries per model call, the first included (default 4; 1: never
                        retry); only what may pass by itself is retried (timeouts, 5xx, 429)
  --max-obs-tokens N    cut the observation to about N tokens before it goes to the model
                        (MMInA's max_obs_length; default: send it whole)
  --prompt-cache on|off ask the model's server to cache the prompt's unchanged start
                        between steps (default: the extension's, on); off tells
                        llama-server not to and sends Anthropic no cache marks; OpenAI's
                        own API and Gemini cache by themselves either way
  --prices FILE         JSON price table per model, for the report's cost columns:
                        {"MODEL": {"input": USD, "cached_input": USD, "output": USD}} per
                        million tokens
  --observation MODE    text, text+images (the extension's default), text+screenshot or som
  --observation-format F
                        mmina (the benchmark's text, default) or compact (fewer tokens:
                        no indent, text without ids; every element to act on kept)
  --task-timeout S      give up on a task after S seconds, whatever the browser does: an
                        attempt never takes more than S + 15 s (default ${DEFAULT_TASK_TIMEOUT_S})
  --agent NAME          prompt (default: one prompt per step) or modular (SeeAct-style:
                        candidate ranking, plan in words, lettered grounding, selection)
  --grounding MODE      modular agent: textual (lettered choices only, the default) or
                        visual (the choices and the step's pictures; needs --observation
                        text+images, text+screenshot or som)
  --select MODE         modular agent: model (the model picks among several grounded
                        actions, the default) or first_viable (the first one)
  --memory K            procedural memory: show each task K earlier runs of this run
                        folder (DIR/memory.jsonl; 0 = off, the default, at most ${MAX_MEMORY_K})
  --memory-policy P     which earlier runs: recent (the last K of the same subset, the
                        paper's preset; default) or similar (closest intent and sites)
  --memory-sweep A..B   run the tasks once per K = A..B into DIR/k<K> (each with its own
                        memory), then one report with success by K (the paper's Fig. 5)
  --sites task|any      task: block navigations outside each task's sites (start URLs,
                        reference sites, sites its hops name), as in a person's browser,
                        and every request to this machine's loopback and private networks
                        that no task names; any: go anywhere, as MMInA's agents did, and
                        print a warning saying so. Default: any in a browser the runner
                        launches (a fresh profile holding nobody's logins), task with
                        --browser-endpoint (a browser that may hold someone's logins)
  -h, --help            this text`;

export class UsageError extends Error {}

/**
 * The options taking a value, by their long name, and the key they fill in.
 * @type {Readonly<Record<string, string>>}
 */
const VALUE_OPTIONS = Object.freeze({
  tasks: 'tasks',
  provider: 'provider',
  'base-url': 'baseUrl',
  model: 'model',
  'api-key-env': 'apiKeyEnv',
  out: 'out',
  parallel: 'parallel',
  'observation-format': 'observationFormat',
  shard: 'shard',
  'max-steps': 'maxSteps',
  'max-tokens': 'maxTokens',
  temperature: 'temperature',
  'call-timeout': 'callTimeout',
  tries: 'tries',
  'max-obs-tokens': 'maxObsTokens',
  'prompt-cache': 'promptCache',
  prices: 'prices',
  observation: 'observation',
  'task-timeout': 'taskTimeout',
  agent: 'agent',
  grounding: 'grounding',
  select: 'select',
  memory: 'memory',
  'memory-policy': 'memoryPolicy',
  'memory-sweep': 'memorySweep',
  retries: 'retries',
  'max-infra-errors': 'maxInfraErrors',
  sites: 'sites',
});

/**
 * The flags that say which recorded ERRORs a run does again.
 * @type {Readonly<Record<string, RetryErrors>>}
 */
const RETRY_FLAGS = Object.freeze({ 'retry-errors': 'all', 'no-retry-errors': 'none' });

/** @typedef {'infrastructure' | 'all' | 'none'} RetryErrors */

/**
 * node:util's option table: every value option a string, the flags booleans.
 * @type {import('node:util').ParseArgsConfig['options']}
 */
const PARSE_OPTIONS = Object.freeze({
  help: { type: 'boolean', short: 'h' },
  ...Object.fromEntries(Object.keys(RETRY_FLAGS).map((name) => [name, { type: 'boolean' }])),
  ...Object.fromEntries(Object.keys(VALUE_OPTIONS).map((name) => [name, { type: 'string' }])),
  // The options that may be given more than once.
  'browser-endpoint': { type: 'string', multiple: true },
  'with-extension': { type: 'string', multiple: true },
});

/** Where a run's agent may navigate (extension: START_RUN override `sites`). */
export const SITES_MODES = Object.freeze(['task', 'any']);

/**
 * The raw option values by key (`tasks`, `baseUrl`, ...), as typed.
 * @typedef {Partial<Record<string, string>>} RawOptions
 */

/** @typedef {ReturnType<typeof validate>} Options a run's options, checked */

/**
 * @param {string[]} argv arguments after the script name
 * @param {{ tasks?: string, out?: string }} [defaults] what `demo` fills in
 * @returns {Options | (Omit<Partial<Options>, 'help'> & { help: true })} `help`: -h was given
 */
export function parseArgs(argv, defaults = {}) {
  /** @type {RawOptions} */
  const raw = {};
  /** @type {string[]} */
  const browserEndpoints = [];
  /** @type {string[]} */
  const withExtensions = [];
  let help = false;
  /** @type {RetryErrors | null} */
  let retryErrors = null;
  // Not strict: node's own errors would not name our options the way the usage does
  // (and would refuse `--retries -1`, whose value is what is wrong); the tokens, in
  // order, keep the first problem the one reported.
  const { tokens } = parseArgsUtil({
    args: argv,
    options: PARSE_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // Always there with `tokens: true`; the option table's type cannot tell tsc so.
  for (const token of tokens ?? []) {
    if (token.kind !== 'option') throw new UsageError(`unknown argument: ${argv[token.index]}`);
    const { name, rawName, value, inlineValue } = token;
    if (name === 'browser-endpoint' && rawName === '--browser-endpoint') {
      if (value === undefined || value === '') throw new UsageError(`${rawName} needs a value`);
      browserEndpoints.push(value);
      continue;
    }
    if (name === 'with-extension' && rawName === '--with-extension') {
      if (value === undefined || value === '') throw new UsageError(`${rawName} needs a value`);
      withExtensions.push(value);
      continue;
    }
    const key = Object.hasOwn(VALUE_OPTIONS, name) && rawName.startsWith('--') ? VALUE_OPTIONS[name] : undefined;
    if (key === undefined) {
      // A flag, exactly as written (`--help=x` or `-hx` is not one).
      if (inlineValue || argv[token.index] !== rawName) {
        throw new UsageError(`unknown argument: ${argv[token.index]}`);
      }
      if (name === 'help') {
        help = true;
        continue;
      }
      if (!Object.hasOwn(RETRY_FLAGS, name)) {
        throw new UsageError(`unknown argument: ${argv[token.index]}`);
      }
      if (retryErrors !== null && retryErrors !== RETRY_FLAGS[name]) {
        throw new UsageError('--retry-errors and --no-retry-errors contradict each other; give one');
      }
      retryErrors = RETRY_FLAGS[name];
      continue;
    }
    if (value === undefined || value === '') throw new UsageError(`${rawName} needs a value`);
    if (key in raw) throw new UsageError(`${rawName} given twice`);
    raw[key] = value;
  }
  if (help) return { help: /** @type {true} */ (true) };
  return validate({ ...defaults, ...raw }, retryErrors ?? 'infrastructure', browserEndpoints, withExtensions);
}

/**
 * The folders of --with-extension, each an unpacked extension (a folder with a
 * manifest.json), made absolute; only for a browser the runner launches.
 * @param {string[]} dirs
 * @param {string[]} browserEndpoints
 */
function otherExtensionDirs(dirs, browserEndpoints) {
  if (dirs.length > 0 && browserEndpoints.length > 0) {
    throw new UsageError('--with-extension loads an extension into a browser the runner launches; a browser given with --browser-endpoint has the extensions it has');
  }
  return dirs.map((dir) => {
    const full = resolve(dir);
    if (!existsSync(join(full, 'manifest.json'))) {
      throw new UsageError(`--with-extension ${dir}: no manifest.json there; give the folder of an unpacked extension`);
    }
    if (full.includes(',')) throw new UsageError(`--with-extension ${dir}: Chrome cannot load an extension from a path with a comma`);
    return full;
  });
}

/**
 * @param {RawOptions} raw
 * @param {RetryErrors} retryErrors
 * @param {string[]} browserEndpoints
 * @param {string[]} [withExtensions] the folders of --with-extension
 */
function validate(raw, retryErrors, browserEndpoints, withExtensions = []) {
  if (!raw.tasks) throw new UsageError('--tasks PATH is required');
  const provider = raw.provider ?? 'replay';
  if (!PROVIDERS.includes(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')} (got ${provider})`);
  }
  if (provider === 'replay') {
    for (const [key, option] of [['baseUrl', '--base-url'], ['model', '--model'], ['apiKeyEnv', '--api-key-env']]) {
      if (raw[key] !== undefined) throw new UsageError(`${option} has no use with --provider replay`);
    }
  }
  if (raw.baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(raw.baseUrl)) {
    throw new UsageError(`--base-url must be an http(s) URL (got ${raw.baseUrl})`);
  }
  if (raw.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw.apiKeyEnv)) {
    throw new UsageError(`--api-key-env takes a variable name, not a key (got something else)`);
  }
  if (raw.observation !== undefined && !OBSERVATION_MODES.includes(raw.observation)) {
    throw new UsageError(`--observation must be one of ${OBSERVATION_MODES.join(', ')}`);
  }
  if (provider === 'agent' && raw.baseUrl === undefined) {
    throw new UsageError('--provider agent needs --base-url URL: the URL your agent listens on (e.g. http://127.0.0.1:8700/)');
  }
  const memory = parseMemory(raw);
  const agent = agentOf(raw, provider);
  if (agent !== 'prompt' && provider === 'replay') {
    throw new UsageError('--agent modular needs a model provider: replay follows the reference trajectory');
  }
  const variant = parseModularVariant(raw, agent);
  if (raw.sites !== undefined && !SITES_MODES.includes(raw.sites)) {
    throw new UsageError(`--sites must be one of ${SITES_MODES.join(', ')} (got ${raw.sites})`);
  }
  const parallel = parseParallel(raw, browserEndpoints);
  if (raw.observationFormat !== undefined && !OBSERVATION_FORMATS.includes(raw.observationFormat)) {
    throw new UsageError(`--observation-format must be one of ${OBSERVATION_FORMATS.join(', ')} (got ${raw.observationFormat})`);
  }
  return {
    help: /** @type {false} */ (false),
    tasks: raw.tasks,
    provider,
    baseUrl: raw.baseUrl,
    model: raw.model,
    apiKeyEnv: raw.apiKeyEnv,
    out: raw.out,
    retryErrors,
    retries: wholeNumber(raw.retries ?? String(DEFAULT_RETRIES), '--retries'),
    maxInfraErrors: wholeNumber(raw.maxInfraErrors ?? String(DEFAULT_MAX_INFRA_ERRORS), '--max-infra-errors'),
    parallel,
    browserEndpoints,
    otherExtensions: otherExtensionDirs(withExtensions, browserEndpoints),
    observationFormat: raw.observationFormat,
    shard: raw.shard === undefined ? null : parseShard(raw.shard),
    maxSteps: raw.maxSteps === undefined ? undefined : positiveInt(raw.maxSteps, '--max-steps'),
    ...parseModelCalls(raw, provider),
    prices: raw.prices,
    observation: raw.observation,
    // A fresh profile the runner launched has no logins to protect, and MMInA's agents
    // were not fenced. A browser it attached to (--browser-endpoint) may be a person's,
    // holding their logins: fenced unless they say otherwise.
    sites: raw.sites ?? (browserEndpoints.length > 0 ? 'task' : 'any'),
    taskTimeoutMs: positiveInt(raw.taskTimeout ?? String(DEFAULT_TASK_TIMEOUT_S), '--task-timeout') * 1000,
    agent,
    ...variant,
    ...memory,
  };
}

/**
 * The warning a run that goes anywhere prints, naming what it allows; null for a fenced
 * run. In a browser the runner did not launch it may also hold someone's logins.
 * @param {{ sites?: string, browserEndpoints?: string[] }} options
 * @returns {string | null}
 */
export function sitesWarning({ sites, browserEndpoints = [] }) {
  if (sites !== 'any') return null;
  const where =
    browserEndpoints.length > 0
      ? `, with the cookies and logins of the browser at ${browserEndpoints.join(' and ')}`
      : ' (in a fresh profile: no logins)';
  return (
    `warning: --sites any: the agent may open any site, including this machine's loopback ` +
    `services (127.0.0.1, localhost) and hosts of its private networks (10.*, 172.16-31.*, ` +
    `192.168.*)${where}; --sites task keeps each task on its own sites`
  );
}

/**
 * The agent that runs the steps. Your own agent (`--provider agent`) is the core's
 * `http` agent: it chooses its actions itself, so no other agent goes with it, and
 * `http` goes with no other provider.
 * @param {RawOptions} raw
 * @param {string} provider
 */
function agentOf(raw, provider) {
  const choosable = AGENTS.filter((a) => a !== 'http');
  if (provider === 'agent') {
    if (raw.agent !== undefined && raw.agent !== 'http') {
      throw new UsageError(`--agent ${raw.agent} has no use with --provider agent: your own agent chooses its actions itself`);
    }
    return 'http';
  }
  const agent = raw.agent ?? 'prompt';
  if (agent === 'http') throw new UsageError('--agent http is your own agent: use --provider agent --base-url URL');
  if (!choosable.includes(agent)) throw new UsageError(`--agent must be one of ${choosable.join(', ')} (got ${agent})`);
  return agent;
}

/**
 * Lanes: --parallel, or one per --browser-endpoint (each browser runs one task at a
 * time; a --parallel that says otherwise is a contradiction, not a hint).
 * @param {RawOptions} raw
 * @param {string[]} endpoints
 */
function parseParallel(raw, endpoints) {
  for (const endpoint of endpoints) {
    const problem = endpointProblem(endpoint);
    if (problem) throw new UsageError(`--browser-endpoint: ${problem}`);
  }
  if (new Set(endpoints).size !== endpoints.length) {
    throw new UsageError('--browser-endpoint: the same browser is named twice (one lane per browser)');
  }
  const parallel = positiveInt(raw.parallel ?? String(Math.max(1, endpoints.length)), '--parallel');
  if (endpoints.length > 0 && parallel !== endpoints.length) {
    throw new UsageError(
      `--parallel ${parallel} with ${endpoints.length} --browser-endpoint: one task at a time per browser, ` +
        'so leave --parallel out (or give as many endpoints)',
    );
  }
  return parallel;
}

/** The extension's limits on these settings (extension/agent-settings.js LIMITS). */
const MODEL_CALL_LIMITS = Object.freeze({ maxTokens: [1, 200_000], callTimeout: [1, 600], tries: [1, 10], maxObsTokens: [1, 1_000_000] });

/**
 * `--max-tokens`, `--temperature`, `--call-timeout`, `--tries`, `--max-obs-tokens`,
 * `--prompt-cache`: the model call's settings, as the options page has them; each
 * undefined when not given.
 * @param {RawOptions} raw
 * @param {string} provider
 */
function parseModelCalls(raw, provider) {
  /** @type {[string, string][]} */
  const options = [['maxTokens', '--max-tokens'], ['temperature', '--temperature'], ['callTimeout', '--call-timeout'], ['tries', '--tries'], ['maxObsTokens', '--max-obs-tokens'], ['promptCache', '--prompt-cache']];
  if (provider === 'replay') {
    for (const [key, option] of options) {
      if (raw[key] !== undefined) throw new UsageError(`${option} has no use with --provider replay (no model is called)`);
    }
  }
  if (raw.promptCache !== undefined) {
    if (!PROMPT_CACHE_SETTINGS.includes(raw.promptCache)) {
      throw new UsageError(`--prompt-cache must be one of ${PROMPT_CACHE_SETTINGS.join(', ')} (got ${raw.promptCache})`);
    }
    // Your own agent is sent the protocol's data, not a prompt: nothing to cache.
    if (provider === 'agent') throw new UsageError('--prompt-cache has no use with --provider agent (your agent gets no prompt)');
  }
  /** @param {'maxTokens' | 'callTimeout' | 'tries' | 'maxObsTokens'} key @param {string} option */
  const within = (key, option) => {
    const text = raw[key];
    if (text === undefined) return undefined;
    const [min, max] = MODEL_CALL_LIMITS[key];
    if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new UsageError(`${option} takes a whole number from ${min} to ${max} (got ${text})`);
    }
    return Number(text);
  };
  let temperature;
  if (raw.temperature !== undefined) {
    temperature = Number(raw.temperature);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(raw.temperature) || !Number.isFinite(temperature)) {
      throw new UsageError(`--temperature takes a number from 0, e.g. 0 or 0.7 (got ${raw.temperature})`);
    }
  }
  const callTimeout = within('callTimeout', '--call-timeout');
  return {
    maxTokens: within('maxTokens', '--max-tokens'),
    temperature,
    callTimeoutMs: callTimeout === undefined ? undefined : callTimeout * 1000,
    tries: within('tries', '--tries'),
    maxObsTokens: within('maxObsTokens', '--max-obs-tokens'),
    promptCache: raw.promptCache,
  };
}

/**
 * `--grounding`, `--select` → {grounding, select}: the modular agent's variant.
 * @param {RawOptions} raw
 * @param {string} agent
 */
function parseModularVariant(raw, agent) {
  for (const [key, option, modes] of /** @type {[string, string, readonly string[]][]} */ ([
    ['grounding', '--grounding', GROUNDING_MODES],
    ['select', '--select', SELECT_MODES],
  ])) {
    const value = raw[key];
    if (value === undefined) continue;
    if (!modes.includes(value)) throw new UsageError(`${option} must be one of ${modes.join(', ')} (got ${raw[key]})`);
    if (agent !== 'modular') throw new UsageError(`${option} is a setting of the modular agent: add --agent modular`);
  }
  // The core's rule (AgentConfig::check), from its terms: a grounding that shows the
  // model pictures needs an observation mode that carries them. The extension's default
  // mode, text+images, does.
  const observation = raw.observation ?? 'text+images';
  if (
    raw.grounding !== undefined &&
    GROUNDING_MODES_NEEDING_PICTURES.includes(raw.grounding) &&
    !OBSERVATION_MODES_WITH_PICTURES.includes(observation)
  ) {
    throw new UsageError(
      `--grounding ${raw.grounding} needs pictures: use --observation ${orList(OBSERVATION_MODES_WITH_PICTURES)}`,
    );
  }
  return { grounding: raw.grounding, select: raw.select };
}

/**
 * `a, b or c`.
 * @param {readonly string[]} names
 */
function orList(names) {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/**
 * `--memory`, `--memory-policy`, `--memory-sweep` → {memory, memoryPolicy, memorySweep}.
 * @param {RawOptions} raw
 */
function parseMemory(raw) {
  if (raw.memory !== undefined && raw.memorySweep !== undefined) {
    throw new UsageError('--memory and --memory-sweep exclude each other: the sweep sets K itself');
  }
  const policy = raw.memoryPolicy ?? 'recent';
  if (!MEMORY_POLICIES.includes(policy)) {
    throw new UsageError(`--memory-policy must be one of ${MEMORY_POLICIES.join(', ')} (got ${policy})`);
  }
  const k = raw.memory === undefined ? 0 : memoryK(raw.memory, '--memory');
  /** @type {{ from: number, to: number } | null} */
  let sweep = null;
  if (raw.memorySweep !== undefined) {
    const match = /^([0-9]+)\.\.([0-9]+)$/.exec(raw.memorySweep);
    if (!match) throw new UsageError(`--memory-sweep takes A..B, e.g. 0..3 (got ${raw.memorySweep})`);
    sweep = { from: memoryK(match[1], '--memory-sweep'), to: memoryK(match[2], '--memory-sweep') };
    if (sweep.from > sweep.to) throw new UsageError(`--memory-sweep needs A <= B (got ${raw.memorySweep})`);
  }
  if (raw.memoryPolicy !== undefined && k === 0 && sweep === null) {
    throw new UsageError('--memory-policy has no use without --memory K (K >= 1) or --memory-sweep');
  }
  return { memory: k, memoryPolicy: policy, memorySweep: sweep };
}

/**
 * @param {string} text
 * @param {string} option
 */
function memoryK(text, option) {
  if (!/^[0-9]+$/.test(text) || Number(text) > MAX_MEMORY_K) {
    throw new UsageError(`${option} takes whole numbers from 0 to ${MAX_MEMORY_K} (got ${text})`);
  }
  return Number(text);
}

/**
 * @param {string} text
 * @param {string} option
 */
function positiveInt(text, option) {
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${option} takes a whole number >= 1 (got ${text})`);
  }
  return Number(text);
}

/**
 * @param {string} text
 * @param {string} option
 */
function wholeNumber(text, option) {
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${option} takes a whole number >= 0 (got ${text})`);
  }
  return Number(text);
}

/**
 * `i/n` with 1 <= i <= n: this process runs tasks i, i+n, i+2n, ... (1-based).
 * @param {string} text
 */
export function parseShard(text) {
  const match = /^([0-9]+)\/([0-9]+)$/.exec(text);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard takes i/n with 1 <= i <= n, e.g. 1/4 (got ${text})`);
  }
  return { index, count };
}
