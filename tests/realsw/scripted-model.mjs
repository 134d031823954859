// A scripted agent behind the fake OpenAI-compatible server (tests/e2e/fake-providers.mjs):
// for each task a list of steps written the way a person reads the page,
//
//   click link 'Tokyo'                               the element named so on the page
//   type searchbox 'Search Citywiki' [Tokyo] [1]     (a name holding ' is written "...")
//   goto [http://...]  scroll [down]  stop [Tokyo]   any other action, as it is
//
// Each model request carries the observation (`[id] role 'name' ...` lines); the fake
// finds the element's id there and answers with the action in the reply format the
// prompt asks for. The task is recognised by a `key` text of its objective (e.g. the
// question), the step by how many requests that task has made.
//
// A named element missing from the observation, an unknown task, or a script that has
// run out are recorded in `problems` and answered with `stop [fake model: ...]`, which
// ends the run at once with that text as its answer: a test first asserts that
// `problems` is empty and shows what the page had instead.

import { startFakeProviders } from '../e2e/fake-providers.mjs';

const ELEMENT_STEP = /^(click|hover|type) (\S+) (?:'([^']*)'|"([^"]*)")(.*)$/;

/**
 * `{ action, role, name, rest }` for an element step, or `{ action: text }`.
 * @param {string} step
 * @returns {{ action: string, role?: string, name?: string, rest?: string }}
 */
export function parseStep(step) {
  const match = ELEMENT_STEP.exec(step);
  if (!match) return { action: step };
  const [, verb, role, single, double, rest] = match;
  return { action: verb, role, name: single ?? double, rest };
}

/**
 * The id of the first observation line `[id] <role> '<name>'` (or "<name>").
 * @param {string} observation
 * @param {string} role
 * @param {string | undefined} name
 */
export function findElement(observation, role, name) {
  for (const raw of observation.split('\n')) {
    const line = raw.replace(/^\t+/, '');
    const match = /^\[(\d+)\] (\S+) (.*)$/.exec(line);
    if (!match || match[2] !== role) continue;
    const rest = match[3];
    for (const quoted of [`'${name}'`, `"${name}"`]) {
      if (rest === quoted || rest.startsWith(`${quoted} `)) return Number(match[1]);
    }
  }
  return null;
}

/**
 * Observation, URL and objective of the request's last user turn.
 * @param {import('../types.mjs').Json} body a chat request as parsed from JSON
 */
export function readTurn(body) {
  const user = [...(body?.messages ?? [])].reverse().find((/** @type {import('../types.mjs').Json} */ m) => m.role === 'user');
  /** @type {string} */
  const content = typeof user?.content === 'string'
    ? user.content
    : (user?.content ?? []).filter((/** @type {import('../types.mjs').Json} */ p) => p.type === 'text').map((/** @type {import('../types.mjs').Json} */ p) => p.text).join('\n');
  /** @param {string} label */
  const at = (label) => content.indexOf(`\n${label}: `);
  const [url, objective, previous] = [at('URL'), at('OBJECTIVE'), at('PREVIOUS ACTION')];
  if (!content.startsWith('OBSERVATION:\n') || url < 0 || objective < url || previous < objective) {
    return null;
  }
  return {
    observation: content.slice('OBSERVATION:\n'.length, url),
    url: content.slice(url + '\nURL: '.length, objective),
    objective: content.slice(objective + '\nOBJECTIVE: '.length, previous),
  };
}

/**
 * The system prompt's reply rule decides the format: chain of thought or the action alone.
 * @param {import('../types.mjs').Json} body
 * @param {string} reasoning
 * @param {string} action
 */
function reply(body, reasoning, action) {
  const system = (body?.messages ?? []).find((/** @type {import('../types.mjs').Json} */ m) => m.role === 'system');
  const text = typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
  const fenced = `\`\`\`${action}\`\`\``;
  return text.includes('In summary, the next action I will perform is')
    ? `${reasoning} In summary, the next action I will perform is ${fenced}`
    : fenced;
}

/**
 * @param {{ task: string, key: string, steps: string[] }[]} scripts
 */
export async function startScriptedModel(scripts) {
  const fake = await startFakeProviders({ apiKey: null });
  const served = new Map(scripts.map((s) => [s.task, 0]));
  /** @type {{ task: string|null, step: number, problem: string, url: string, observation: string }[]} */
  const problems = [];
  /** @type {{ task: string, step: number, url: string, action: string }[]} every action answered */
  const actions = [];

  /** @param {import('../types.mjs').FakeRequest} record */
  const answer = (record) => {
    const turn = readTurn(record.body);
    /**
     * @param {string | null} task
     * @param {number} step
     * @param {string} problem
     */
    const fail = (task, step, problem) => {
      problems.push({ task, step, problem, url: turn?.url ?? '', observation: turn?.observation ?? '' });
      return { text: reply(record.body, 'The script cannot go on.', `stop [fake model: ${problem}]`) };
    };
    if (!turn) return fail(null, 0, 'the request has no OBSERVATION/URL/OBJECTIVE turn');
    const matching = scripts.filter((s) => turn.objective.includes(s.key));
    if (matching.length !== 1) {
      return fail(null, 0, `${matching.length} scripts match the objective (keys: ${scripts.map((s) => s.key).join(' | ')})`);
    }
    const [script] = matching;
    // Every script's task was put in `served` above.
    const index = /** @type {number} */ (served.get(script.task));
    served.set(script.task, index + 1);
    const step = index + 1;
    if (index >= script.steps.length) return fail(script.task, step, `the script has only ${script.steps.length} steps`);
    const parsed = parseStep(script.steps[index]);
    let action = parsed.action;
    if (parsed.role) {
      const id = findElement(turn.observation, parsed.role, parsed.name);
      if (id === null) {
        return fail(script.task, step, `no ${parsed.role} '${parsed.name}' on ${turn.url} for "${script.steps[index]}"`);
      }
      action = `${parsed.action} [${id}]${parsed.rest}`;
    }
    actions.push({ task: script.task, step, url: turn.url, action });
    return { text: reply(record.body, `Step ${step} of the plan: ${script.steps[index]}.`, action) };
  };
  fake.setResponder(answer);

  return {
    baseUrl: fake.baseUrl('openai'),
    problems,
    actions,
    /** The problems as readable text, each with the page's lines, for assertion messages. */
    describeProblems: () => problems.map((p) =>
      `${p.task ?? '(no task)'} step ${p.step}: ${p.problem}\n  the observation was:\n${p.observation.replace(/^/gm, '    ')}`,
    ).join('\n'),
    close: fake.close,
  };
}
