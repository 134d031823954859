// The Python client's scripted example agent (clients/python/examples/follow_links.py)
// as a child process, for the tests where a person's own agent, written in Python,
// solves tasks through hopbench. It runs with the client's venv, which `./build.sh
// test` installs (target/python-client); the agent keeps every request it was sent
// (--record), so a test can check what reached it.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

/** The venv `./build.sh test` installs the client into (build.sh PYTHON_CLIENT_VENV). */
export const pythonClient = join(repoRoot, 'target', 'python-client', 'bin', 'python');

/**
 * Starts follow_links.py on a free port with `plans` written to `dir/plans.json`;
 * resolves once it listens. `requests()` reads what it was sent so far.
 * @param {string} dir a temporary folder for the plans and the record
 * @param {Record<string, { links: string[], answer: string }>} plans
 * @returns {Promise<{ url: string, pid: number, requests: () => Record<string, any>[], stop: () => Promise<void> }>}
 */
export async function startFollowLinks(dir, plans) {
  if (!existsSync(pythonClient)) {
    throw new Error(`${pythonClient} is missing: ./build.sh test installs the Python client there (or: python3 -m venv target/python-client && target/python-client/bin/pip install './clients/python[test]')`);
  }
  const planFile = join(dir, 'plans.json');
  const record = join(dir, 'requests.jsonl');
  writeFileSync(planFile, JSON.stringify(plans));
  writeFileSync(record, '');
  const child = spawn(pythonClient, [join(repoRoot, 'clients', 'python', 'examples', 'follow_links.py'), '--plan', planFile, '--port', '0', '--record', record], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`follow_links.py did not start within 20 s: ${out}${stderr}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`follow_links.py exited (${code}) before listening: ${out}${stderr}`));
    });
  });
  return {
    url,
    pid: /** @type {number} */ (child.pid),
    requests: () => readFileSync(record, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** @param {string | undefined} c */
const isWordChar = (c) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Whether `text` holds `word` as a whole: not as part of a longer word or number. A
 * short secret such as a height of "333" is found in the answer "333 m", but not in
 * the port of a start URL that happens to be 30333 (the tests' sandboxes take random
 * ports).
 * @param {string} text
 * @param {string} word
 */
export function holdsWord(text, word) {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const gluedBefore = isWordChar(word[0]) && isWordChar(text[at - 1]);
    const gluedAfter = isWordChar(word.at(-1)) && isWordChar(text[at + word.length]);
    if (!gluedBefore && !gluedAfter) return true;
  }
  return false;
}

/**
 * Everything of a task that scores it and that its brief must never carry: each hop's
 * condition and the final answer's (as JSON and every string in them), and the
 * reference trajectory's steps. Strings the task's public text (intent, sites, start
 * URLs, hop descriptions) already holds as whole words are left out: a person reads
 * those too (an answer inside the port of a start URL stays a secret).
 * @param {Record<string, any>} task a task file's JSON
 * @returns {{ objects: string[], strings: string[], steps: string[] }}
 */
export function secretsOf(task) {
  const conditions = [...(task.hops ?? []).map((/** @type {any} */ h) => h.condition), ...(task.final_answer ? [task.final_answer.condition] : [])];
  const publicText = [task.intent, ...(task.start_urls ?? []), ...(task.reference_sites ?? []).flatMap((/** @type {any} */ s) => [s.label, s.url]), ...(task.hops ?? []).map((/** @type {any} */ h) => h.description ?? '')].join('\n').toLowerCase();
  /** @type {string[]} */
  const strings = [];
  /** @param {unknown} value */
  const walk = (value) => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.entries(value).forEach(([key, v]) => key !== 'kind' && key !== 'op' && key !== 'part' && walk(v));
  };
  conditions.forEach(walk);
  return {
    objects: conditions.map((c) => JSON.stringify(c)),
    strings: [...new Set(strings)].filter((s) => s.length > 1 && !holdsWord(publicText, s.toLowerCase())),
    steps: task.reference_trajectory ?? [],
  };
}

/**
 * What of `secrets` a request carries: condition objects or reference steps anywhere,
 * secret strings (as whole words) anywhere but in what the pages showed (the
 * observation and the history's URLs and results, where an answer the agent found
 * legitimately appears).
 * @param {Record<string, any>} request
 * @param {ReturnType<typeof secretsOf>} secrets
 * @returns {string[]} what leaked, empty when nothing did
 */
export function leaksIn(request, secrets) {
  const whole = JSON.stringify(request);
  const told = Object.fromEntries(Object.entries(request).filter(([key]) => key !== 'observation' && key !== 'history'));
  const toldText = JSON.stringify(told).toLowerCase();
  return [
    ...secrets.objects.filter((o) => whole.includes(o)).map((o) => `condition ${o}`),
    ...secrets.steps.filter((s) => whole.includes(s)).map((s) => `reference step ${s}`),
    ...['"condition"', '"reference_trajectory"', '"final_answer"', '"must_include"', '"fuzzy_match"', '"exact_match"'].filter((k) => whole.includes(k)).map((k) => `field ${k}`),
    ...secrets.strings.filter((s) => holdsWord(toldText, s.toLowerCase())).map((s) => `secret ${JSON.stringify(s)} outside the pages`),
  ];
}
