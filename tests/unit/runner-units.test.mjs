// Unit tests of the runner's pure parts (no browser): file stems, options, shards,
// result lines, media extraction.

import { skippedHops, waitingReports } from '../../runner/task-run.mjs';
import { makeProgress, whyEnded } from '../../runner/progress.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, DEFAULT_KEY_ENV, MAX_MEMORY_K, OBSERVATION_MODES, UsageError, parseArgs, sitesWarning } from '../../runner/args.mjs';
import { HELLO, helloAgent } from '../../runner/own-agent.mjs';
import { runOverrides, settingsToSave } from '../../runner/extension.mjs';
import { attemptFileStem, taskFileStem } from '../../runner/paths.mjs';
import { errorKindOf, isHarnessEnd, modelEndpointFailure, planRuns } from '../../runner/attempts.mjs';
import * as TERMS from '../../extension/core-terms.js';
import { TRANSIENT_CALL_ERROR_KINDS } from '../../extension/core-terms.js';
import { RUN_ERROR_KINDS } from '../../extension/run-error-kinds.js';
import { blameOutage } from '../../runner/batch.mjs';
import { resultLine } from '../../runner/result-line.mjs';
import { appendResult, prepareRunFolder, readFinished, runConfig } from '../../runner/run-folder.mjs';
import { makeRedactor, readApiKey } from '../../runner/secret.mjs';
import { repeatedIds, selectShard } from '../../runner/tasks.mjs';
import { extractMedia } from '../../runner/trajectory.mjs';

const repoRootOfTests = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The same examples are in src/report/stem.rs: the report finds the runner's files.
test('task file stems match the report', () => {
  assert.equal(taskFileStem('mmina/normal/3'), 'mmina~2Fnormal~2F3');
  assert.equal(taskFileStem('demo/tower-events'), 'demo~2Ftower-events');
  assert.equal(taskFileStem('a b.c~é'), 'a~20b~2Ec~7E~C3~A9');
  assert.equal(taskFileStem('../x'), '~2E~2E~2Fx');
  const stem = taskFileStem('x'.repeat(300));
  assert.equal(stem.length, 160 + 17);
  assert.equal(stem, `${'x'.repeat(160)}~e78ddf9f1ba85555`);
  assert.equal(attemptFileStem('mmina/normal/3', 1), 'mmina~2Fnormal~2F3');
  assert.equal(attemptFileStem('mmina/normal/3', 2), 'mmina~2Fnormal~2F3.attempt-2');
});

test('options: defaults, values, and usage errors that say what is wrong', () => {
  const o = parseArgs(['--tasks', 'tasks/', '--parallel=2', '--shard', '2/3', '--max-steps', '12']);
  assert.equal(o.provider, 'replay');
  assert.equal(o.parallel, 2);
  assert.deepEqual(o.shard, { index: 2, count: 3 });
  assert.equal(o.maxSteps, 12);
  assert.equal(o.taskTimeoutMs, 900_000);
  assert.equal(o.retries, 1);
  assert.equal(o.retryErrors, 'infrastructure');
  assert.equal(parseArgs(['--tasks', 't', '--retries', '0']).retries, 0);
  assert.equal(parseArgs(['--tasks', 't', '--retry-errors']).retryErrors, 'all');
  assert.equal(parseArgs(['--tasks', 't', '--no-retry-errors']).retryErrors, 'none');
  assert.equal(o.sites, 'any', 'the runner goes anywhere unless told --sites task');
  assert.equal(parseArgs(['--tasks', 't', '--sites', 'task']).sites, 'task');
  assert.equal(parseArgs([], { tasks: 'tasks' }).tasks, 'tasks');
  assert.deepEqual(parseArgs(['--help']), { help: true });
  /** @type {[string[], RegExp][]} */
  const bad = [
    [[], /--tasks PATH is required/],
    [['--tasks', 't', '--provider', 'ollama'], /--provider must be one of/],
    [['--tasks', 't', '--shard', '0/2'], /--shard takes i\/n/],
    [['--tasks', 't', '--shard', '3/2'], /--shard takes i\/n/],
    [['--tasks', 't', '--parallel', '0'], /--parallel takes a whole number/],
    [['--tasks', 't', '--model', 'x'], /--model has no use with --provider replay/],
    [['--tasks', 't', '--provider', 'openai', '--api-key-env', 'sk-abc123'], /takes a variable name/],
    [['--tasks', 't', '--observation', 'video'], /--observation must be one of/],
    [['--tasks', 't', '--sites', 'all'], /--sites must be one of task, any \(got all\)/],
    [['--tasks', 't', '--bogus'], /unknown argument: --bogus/],
    [['--tasks'], /--tasks needs a value/],
    [['--tasks', 't', '--retries', '-1'], /--retries takes a whole number >= 0/],
    [['--tasks', 't', '--retry-errors', '--no-retry-errors'], /contradict each other/],
  ];
  for (const [argv, message] of bad) {
    assert.throws(() => parseArgs(argv), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});

test('options: your own agent needs its URL, is the http agent, and takes no other agent', () => {
  const own = parseArgs(['--tasks', 't', '--provider', 'agent', '--base-url', 'http://127.0.0.1:8700/']);
  assert.equal(own.agent, 'http');
  assert.equal(own.model, undefined, 'the agent names itself at hello');
  assert.equal(DEFAULT_KEY_ENV.agent, 'HOPBENCH_AGENT_KEY');
  for (const [argv, message] of /** @type {[string[], RegExp][]} */ ([
    [['--tasks', 't', '--provider', 'agent'], /--provider agent needs --base-url URL/],
    [['--tasks', 't', '--provider', 'agent', '--base-url', 'http://127.0.0.1:8700/', '--agent', 'modular'], /--agent modular has no use with --provider agent/],
    [['--tasks', 't', '--provider', 'openai', '--agent', 'http'], /--agent http is your own agent: use --provider agent/],
  ])) {
    assert.throws(() => parseArgs(argv), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});

test('hello: the agent\'s name and version, or what to fix', async () => {
  /** @param {number} status @param {string} body */
  const answering = (status, body) => /** @type {typeof fetch} */ (async (_url, init) => {
    assert.equal(init?.body, JSON.stringify(HELLO));
    assert.equal(/** @type {Record<string, string>} */ (init?.headers ?? {})['content-type'], 'application/json');
    return new Response(body, { status });
  });
  const url = 'http://127.0.0.1:8700/';
  assert.equal(await helloAgent(url, undefined, { fetchImpl: answering(200, '{"name": "mine", "version": "2.1"}') }), 'mine 2.1');
  assert.equal(await helloAgent(url, undefined, { fetchImpl: answering(200, '{"name": "mine"}') }), 'mine');
  await assert.rejects(helloAgent(url, 'k', { fetchImpl: answering(401, '{"error": {"message": "bad key"}}') }), /refused hello with HTTP 401: bad key \(it wants a key: --api-key-env/);
  await assert.rejects(helloAgent(url, undefined, { fetchImpl: answering(200, '<html>') }), /not JSON/);
  await assert.rejects(helloAgent(url, undefined, { fetchImpl: answering(200, '{"action": "click [1]"}') }), /without a "name"/);
  await assert.rejects(helloAgent(url, undefined, { fetchImpl: answering(200, '{"name": "x", "protocol": 2}') }), /speaks protocol 2; this hopbench speaks 1/);
  /** @type {Record<string, string>} */
  let sent = {};
  await helloAgent(url, 'secret-key', { fetchImpl: /** @type {typeof fetch} */ (async (_u, init) => ((sent = /** @type {Record<string, string>} */ (init?.headers)), new Response('{"name": "k"}'))) });
  assert.equal(sent.authorization, 'Bearer secret-key');
});

test('sites: a launched fresh profile goes anywhere with a warning; an attached browser is fenced by default', () => {
  const fresh = parseArgs(['--tasks', 't']);
  assert.equal(fresh.sites, 'any');
  assert.match(String(sitesWarning(fresh)), /may open any site, including this machine's loopback services .* \(in a fresh profile: no logins\)/);
  const ws = 'ws://127.0.0.1:9222/devtools/browser/abc';
  const attached = parseArgs(['--tasks', 't', '--browser-endpoint', ws]);
  assert.equal(attached.sites, 'task');
  assert.equal(sitesWarning(attached), null);
  const anywhere = parseArgs(['--tasks', 't', '--browser-endpoint', ws, '--sites', 'any']);
  assert.match(String(sitesWarning(anywhere)), new RegExp(`with the cookies and logins of the browser at ${ws.replace(/[/.]/g, '\\$&')}`));
});

test('options: browser endpoints set the lanes; the observation format', () => {
  const ws1 = 'ws://127.0.0.1:9222/devtools/browser/a';
  /** @type {[string[], RegExp][]} */
  let bad;
  const two = parseArgs(['--tasks', 't', '--browser-endpoint', ws1, '--browser-endpoint=http://10.0.0.2:9222']);
  assert.deepEqual(two.browserEndpoints, [ws1, 'http://10.0.0.2:9222']);
  assert.equal(two.parallel, 2, 'one lane per browser');
  assert.deepEqual(parseArgs(['--tasks', 't']).browserEndpoints, []);
  assert.equal(parseArgs(['--tasks', 't', '--observation-format', 'compact']).observationFormat, 'compact');
  assert.equal(parseArgs(['--tasks', 't']).observationFormat, undefined, 'the extension default (MMInA) unless asked');
  bad = [
    [['--tasks', 't', '--browser-endpoint', ws1, '--parallel', '3'], /--parallel 3 with 1 --browser-endpoint/],
    [['--tasks', 't', '--browser-endpoint', 'localhost:9222'], /--browser-endpoint: .*ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//],
    [['--tasks', 't', '--browser-endpoint', 'not a url'], /--browser-endpoint: "not a url" is not a URL/],
    [['--tasks', 't', '--browser-endpoint', ws1, '--browser-endpoint', ws1], /named twice/],
    [['--tasks', 't', '--browser-endpoint'], /--browser-endpoint needs a value/],
    [['--tasks', 't', '--observation-format', 'tiny'], /--observation-format must be one of mmina, compact \(got tiny\)/],
  ];
  for (const [argv, message] of bad) {
    assert.throws(() => parseArgs(argv), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});

test('the API key: read from the named variable, an unset named variable is an error', () => {
  const env = { MY_KEY: 'sk-secret-123456', OPENAI_API_KEY: '' };
  /** @param {{ apiKeyEnv?: string }} extra */
  const opts = (extra) => ({ provider: 'openai', ...extra });
  assert.equal(readApiKey(opts({ apiKeyEnv: 'MY_KEY' }), env, DEFAULT_KEY_ENV).key, 'sk-secret-123456');
  assert.match(/** @type {string} */ (readApiKey(opts({ apiKeyEnv: 'MY_KEY' }), env, DEFAULT_KEY_ENV).note), /\$MY_KEY/);
  assert.doesNotMatch(/** @type {string} */ (readApiKey(opts({ apiKeyEnv: 'MY_KEY' }), env, DEFAULT_KEY_ENV).note), /sk-secret/);
  assert.equal(readApiKey(opts({}), env, DEFAULT_KEY_ENV).key, undefined);
  assert.throws(() => readApiKey(opts({ apiKeyEnv: 'NOPE' }), env, DEFAULT_KEY_ENV), (/** @type {Error} */ e) => /the variable named there is not set/.test(e.message) && !e.message.includes('NOPE'));
  const redact = makeRedactor('sk-secret-123456');
  assert.equal(redact('401: bad key sk-secret-123456.'), '401: bad key [redacted].');
});

test('shards take every n-th task; repeated ids are named', () => {
  const tasks = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, file: `${id}.json` }));
  /** @param {{ id: string }[]} list */
  const ids = (list) => list.map((/** @type {import('../types.mjs').Json} */ t) => t.id);
  assert.deepEqual(ids(selectShard(tasks, { index: 1, count: 2 })), ['a', 'c', 'e']);
  assert.deepEqual(ids(selectShard(tasks, { index: 2, count: 2 })), ['b', 'd']);
  assert.deepEqual(ids(selectShard(tasks, null)), ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(repeatedIds([...tasks, { id: 'a', file: 'z.json' }]), [{ id: 'a', files: ['a.json', 'z.json'] }]);
});

test('resuming: recorded tasks are skipped except infrastructure errors, which run as the next attempt', () => {
  const tasks = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));
  const recorded = new Map([
    ['a', { verdict: 'PASS', errorKind: null, attempt: 1 }],
    ['b', { verdict: 'ERROR', errorKind: 'infrastructure', attempt: 2 }],
    ['c', { verdict: 'ERROR', errorKind: 'run', attempt: 1 }],
    ['d', { verdict: 'FAIL', errorKind: null, attempt: 1 }],
    ['e', { verdict: 'ERROR', errorKind: 'infrastructure', attempt: 1 }],
  ]);
  /** @param {'infrastructure' | 'all' | 'none'} mode */
  const plan = (mode) => {
    const p = planRuns(tasks, recorded, mode);
    return [p.runs.map((r) => `${r.task.id}${r.attempt}`), p.errorsToRetry];
  };
  assert.deepEqual(plan('infrastructure'), [['b3', 'e2', 'f1'], 2]);
  assert.deepEqual(plan('all'), [['b3', 'c2', 'e2', 'f1'], 3]);
  assert.deepEqual(plan('none'), [['f1'], 0]);
});

test('error kinds: lines of older runners are read by their message', () => {
  /** @param {string} message */
  const error = (message) => ({ verdict: 'ERROR', error: message });
  // The messages of the crash this was built for (issue 16), written before error_kind.
  assert.equal(errorKindOf(error('the run did not start: page.evaluate: Target page, context or browser has been closed')), 'infrastructure');
  assert.equal(errorKindOf(error('lost contact with the run: page.evaluate: Target crashed')), 'infrastructure');
  assert.equal(errorKindOf(error('timed out after 900 s (per-task timeout, --task-timeout)')), 'infrastructure');
  assert.equal(errorKindOf(error('start URL unreachable: http://127.0.0.1:8699/ (ECONNREFUSED)')), 'run');
  assert.equal(errorKindOf(error('task t has no reference_trajectory; replay needs one')), 'run');
  assert.equal(errorKindOf({ verdict: 'ERROR', error: 'timed out after 9 s (per-task timeout', error_kind: 'run' }), 'run');
  assert.equal(errorKindOf({ verdict: 'FAIL', error: null }), null);
});

test('model endpoint failures are infrastructure; the settings and the agent are not', () => {
  const unreachable = { status: 'error', cause: 'model_unavailable', callErrorKind: 'network', reason: 'the run cannot go on: the model call failed (network): fetch failed' };
  assert.match(/** @type {string} */ (modelEndpointFailure(unreachable, null)), /^the model endpoint could not be reached: /);
  const badKey = { status: 'error', cause: 'model_unavailable', callErrorKind: 'auth', reason: 'the run cannot go on: the model call failed (auth): 401' };
  assert.equal(modelEndpointFailure(badKey, null), null);
  /** @param {string} kind */
  const failed = (kind) => ({ action: null, model_error: { error: { kind, message: `HTTP 503 (${kind})` } } });
  const acted = { action: { text: 'click [3]' }, model_error: null };
  const stopped = { status: 'finished', cause: 'early_stop', rule: 'parse_failures', reason: 'Early stop: the last 3 steps gave no action (the last: the model call failed (server): 503)' };
  const endpointDown = { steps: [acted, failed('server'), failed('server'), failed('rate_limited')] };
  assert.match(/** @type {string} */ (modelEndpointFailure(stopped, endpointDown)), /kept failing \(rate_limited, server\) on the last 3 steps/);
  // A malformed reply among them: the model answered, so the early stop is the agent's.
  const malformed = { action: null, model_error: null, note: 'malformed reply' };
  assert.equal(modelEndpointFailure(stopped, { steps: [acted, failed('server'), malformed, failed('server')] }), null);
  assert.equal(modelEndpointFailure({ status: 'finished', cause: 'answered' }, endpointDown), null);
  const budgetSpent = { ...stopped, rule: 'max_steps', reason: 'Early stop: reached the step limit (30 of 30 steps)' };
  assert.equal(modelEndpointFailure(budgetSpent, endpointDown), null);
});

test('model endpoint failures are read from the run\'s fields, never from its words', () => {
  // The call's error kind decides, whatever the reason says.
  const words = 'the run cannot go on: the model call failed (network): fetch failed';
  assert.equal(modelEndpointFailure({ status: 'error', cause: 'model_unavailable', callErrorKind: 'auth', reason: words }, null), null);
  assert.equal(modelEndpointFailure({ status: 'error', cause: 'model_unavailable', reason: words }, null), null, 'no kind: not known to be the endpoint');
  assert.equal(
    modelEndpointFailure({ status: 'error', cause: 'model_unavailable', callErrorKind: 'network', reason: 'nothing answered' }, null),
    'the model endpoint could not be reached: nothing answered',
  );
  // The early-stop rule decides, whatever the reason says.
  /** @param {string} kind */
  const failed = (kind) => ({ action: null, model_error: { error: { kind, message: 'HTTP 503' } } });
  const steps = { steps: [failed('server'), failed('timeout'), failed('server')] };
  const noAction = { status: 'finished', cause: 'early_stop', rule: 'parse_failures', reason: 'Early stop' };
  assert.match(/** @type {string} */ (modelEndpointFailure(noAction, steps)), /kept failing \(server, timeout\) on the last 3 steps/);
  const repeated = { ...noAction, rule: 'repeated_action', reason: 'Early stop: the last 3 steps gave no action' };
  assert.equal(modelEndpointFailure(repeated, steps), null);
  assert.equal(modelEndpointFailure({ ...noAction, rule: undefined }, steps), null);
  // Only the kinds the core calls transient count (extension/core-terms.js).
  assert.equal(modelEndpointFailure(noAction, { steps: [failed('server'), failed('bad_request'), failed('server')] }), null);
  for (const kind of TRANSIENT_CALL_ERROR_KINDS) {
    assert.ok(modelEndpointFailure(noAction, { steps: [failed(kind)] }), kind);
  }
});

test('a run the extension ended for the harness\'s reasons is read by its errorKind', () => {
  for (const errorKind of Object.values(RUN_ERROR_KINDS)) {
    assert.equal(isHarnessEnd({ status: 'error', errorKind, error: 'any words' }), true, errorKind);
  }
  // Its words alone say nothing any more.
  assert.equal(isHarnessEnd({ status: 'error', errorKind: null, error: 'interrupted by browser exit: ...' }), false);
  assert.equal(isHarnessEnd({ status: 'error', error: "the run's session ended before the run did" }), false);
  assert.equal(isHarnessEnd({ status: 'finished', errorKind: 'browser_exit' }), false);
  assert.equal(isHarnessEnd(null), false);
});

test('error kinds: every older harness message is known by its fixed beginning', () => {
  /** @param {string} message */
  const error = (message) => ({ verdict: 'ERROR', error: message });
  assert.equal(errorKindOf(error('the run did not start: page.evaluate: Target crashed')), 'infrastructure');
  assert.equal(errorKindOf(error("the run's session ended before the run did (was the browser closed?); its recorded steps (2) are kept")), 'infrastructure');
  assert.equal(errorKindOf(error('interrupted by browser exit: the run\'s window, pages and hop tracker do not outlive the browser')), 'infrastructure');
  assert.equal(
    errorKindOf(error('call_model of step 4 was started 5 times without finishing (the worker stopped each time); the run cannot go on')),
    'infrastructure',
  );
  // A START_RUN the extension refused, and an END_SESSION from a page, are the run's.
  assert.equal(errorKindOf(error('the run did not start: the agent settings are not valid: max_steps must be at least 1')), 'run');
  assert.equal(errorKindOf(error("the run's session s1 was ended while the run went on (END_SESSION from a page?)")), 'run');
});

test('the runner\'s option names and the grounding rule are the core\'s terms', () => {
  assert.deepEqual([...OBSERVATION_MODES], [...TERMS.OBSERVATION_MODES]);
  assert.deepEqual([...AGENTS], [...TERMS.AGENT_KINDS]);
  assert.equal(MAX_MEMORY_K, TERMS.MAX_MEMORY_K);
  const modular = ['--tasks', 't.json', '--provider', 'openai', '--agent', 'modular'];
  for (const observation of TERMS.OBSERVATION_MODES) {
    const args = [...modular, '--grounding', 'visual', '--observation', observation];
    if (TERMS.OBSERVATION_MODES_WITH_PICTURES.includes(observation)) {
      assert.equal(/** @type {{ grounding?: string }} */ (parseArgs(args)).grounding, 'visual', observation);
    } else {
      assert.throws(() => parseArgs(args), { message: '--grounding visual needs pictures: use --observation text+images, text+screenshot or som' });
    }
  }
});

const task = { id: 'suite/t', hops: 3, file: 't.json', fileName: 'suite/t.json' };

test('a finished run becomes a PASS or FAIL line in the report format', () => {
  const run = {
    status: 'finished', step: 7, tokens: { input: 1200, output: 80 },
    progress: { done: 3, total: 3, at_end: true },
    verdict: { passed: true, hops_done: 3, hops_total: 3, hop_steps: [2, 4, 6],
      answer: { text: 'Tokyo', step: 7, time_ms: 900, check: { passed: true, notes: [] } }, reason: 'all hops completed' },
  };
  assert.deepEqual(resultLine({ task, run, elapsedMs: 4321.4 }), {
    id: 'suite/t', hops_total: 3, hops_completed: 3, hop_steps: [2, 4, 6], verdict: 'PASS',
    answer: 'Tokyo', answer_score: 1, steps: 7, tokens: { input: 1200, output: 80, cached_input: 0 }, time_ms: 4321,
    error: null, end: null, reason: 'all hops completed', attempt: 1, error_kind: null,
  });
  const failed = { ...run, verdict: { ...run.verdict, passed: false, hops_done: 1, hop_steps: [2], answer: null, reason: 'hop 2 not reached' } };
  const line = resultLine({ task, run: failed, elapsedMs: 10 });
  assert.equal(line.verdict, 'FAIL');
  assert.deepEqual(line.hop_steps, [2, null, null]);
  assert.equal(line.hops_completed, 1);
  assert.equal(line.answer, null);
  assert.equal(line.answer_score, null);
});

test('errors: a run that did not start, ended in error, or timed out is ERROR with its message', () => {
  const notStarted = resultLine({ task, error: 'the run did not start: start URL unreachable', elapsedMs: 5 });
  assert.equal(notStarted.verdict, 'ERROR');
  assert.deepEqual(notStarted.hop_steps, [null, null, null]);
  assert.equal(notStarted.error, 'the run did not start: start URL unreachable');
  assert.equal(notStarted.error_kind, 'run');
  const broke = resultLine({ task, run: { status: 'error', error: 'net::ERR_CONNECTION_REFUSED', step: 0, progress: { done: 0, total: 3, hops: [] } }, elapsedMs: 5 });
  assert.equal(broke.verdict, 'ERROR');
  assert.equal(broke.error, 'net::ERR_CONNECTION_REFUSED');
  // Hops done before a timeout still count; the progress view supplies them.
  const progress = { done: 1, total: 3, hops: [{ index: 0, state: 'done', step: 3 }, { index: 1, state: 'current' }, { index: 2, state: 'waiting' }] };
  const slow = resultLine({ task, run: { status: 'stopped', step: 9, progress }, error: 'timed out after 60 s', errorKind: 'infrastructure', attempt: 2, elapsedMs: 60_000 });
  assert.deepEqual(
    [slow.verdict, slow.hops_completed, slow.hop_steps, slow.error, slow.error_kind, slow.attempt],
    ['ERROR', 1, [3, null, null], 'timed out after 60 s', 'infrastructure', 2],
  );
});

test('media data URLs become files beside the JSON, named by the task stem', () => {
  const png = `data:image/png;base64,${Buffer.from('PNGDATA').toString('base64')}`;
  const jpg = `data:image/jpeg;base64,${Buffer.from('JPG').toString('base64')}`;
  const exported = {
    steps: [{ observation: { screenshot: 'm1' } }],
    media: { m1: { id: 'm1', mime: 'image/png', dataUrl: png }, m2: jpg, m3: png },
    note: 'data:text/plain;base64,aGk=',
  };
  const { value: extracted, files } = extractMedia(exported, 'suite~2Ft');
  // The export's shape with its media written out: what the assertions read.
  const value = /** @type {import('../types.mjs').Json} */ (extracted);
  assert.deepEqual(value.media, { m1: { id: 'm1', mime: 'image/png', file: 'suite~2Ft-1.png' }, m2: 'suite~2Ft-2.jpg', m3: 'suite~2Ft-1.png' });
  assert.equal(value.note, 'data:text/plain;base64,aGk=');
  assert.deepEqual(files.map((f) => [f.name, f.bytes.toString()]), [['suite~2Ft-1.png', 'PNGDATA'], ['suite~2Ft-2.jpg', 'JPG']]);
});

test('the run folder: an unfinished last line is set aside, a bad line stops, configs must agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-unit-'));
  try {
    prepareRunFolder(dir, { provider: 'replay', model: null });
    appendResult(dir, { id: 'a', verdict: 'PASS' });
    writeFileSync(join(dir, 'results.jsonl'), '{"id":"b","verd', { flag: 'a' });
    const { finished, notes } = readFinished(dir);
    assert.deepEqual([...finished], [['a', { verdict: 'PASS', errorKind: null, attempt: 1 }]]);
    assert.match(notes[0], /unfinished last line .* moved to .*results\.jsonl\.partial/);
    assert.equal(readFileSync(join(dir, 'results.jsonl'), 'utf8'), '{"id":"a","verdict":"PASS"}\n');
    assert.equal(readFileSync(join(dir, 'results.jsonl.partial'), 'utf8'), '{"id":"b","verd\n');
    writeFileSync(join(dir, 'results.jsonl'), 'garbage\n', { flag: 'a' });
    assert.throws(() => readFinished(dir), /results\.jsonl:2 is not valid JSON/);
    assert.throws(() => prepareRunFolder(dir, { provider: 'openai', model: 'gpt-4o' }),
      /holds results run with provider="replay" model=null, not provider="openai" model="gpt-4o"/);
    prepareRunFolder(dir, { provider: 'replay', model: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the run folder: results run inside the site fence are not mixed with open ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-unit-'));
  try {
    // A run.json from before --sites existed: those runs went anywhere.
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ provider: 'replay' }));
    prepareRunFolder(dir, { provider: 'replay', sites: 'any' });
    assert.throws(() => prepareRunFolder(dir, { provider: 'replay', sites: 'task' }),
      /holds results run with sites="any", not sites="task"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('settings: only what the options set goes to the extension, which fills in its defaults', () => {
  assert.deepEqual(settingsToSave({ provider: 'anthropic', model: 'claude-x', maxSteps: 10 }, 'key-123456789'), {
    model: { provider: 'anthropic', model: 'claude-x', api_key: 'key-123456789' },
    max_steps: 10,
  });
  assert.deepEqual(settingsToSave({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }, undefined), {
    model: { provider: 'openai', base_url: 'http://127.0.0.1:11434/v1' },
  });
  assert.deepEqual(runOverrides({ provider: 'replay', observation: 'text', maxSteps: 5 }), { provider: 'replay', max_steps: 5, observation_mode: 'text' });
  assert.deepEqual(runOverrides({ provider: 'openai', sites: 'task' }), { provider: 'openai', sites: 'task' });
});

test('a task that did not pass while the sandbox was down is that outage\'s infrastructure error', () => {
  /** @param {number} since */
  const outage = (since) => (since < 1000 ? 'the sandbox stopped during the task (signal SIGKILL)' : null);
  const failed = { startedAt: 500, line: resultLine({ task, error: 'start URL unreachable: http://127.0.0.1:8600/ (ECONNREFUSED)', errorKind: 'run', elapsedMs: 5 }) };
  blameOutage(failed, outage);
  assert.deepEqual([failed.line.verdict, failed.line.error_kind], ['ERROR', 'infrastructure']);
  assert.equal(failed.line.error, 'the sandbox stopped during the task (signal SIGKILL) (the run reported: start URL unreachable: http://127.0.0.1:8600/ (ECONNREFUSED))');
  const fail = { startedAt: 500, line: { ...resultLine({ task, elapsedMs: 5, run: { status: 'finished', verdict: { passed: false } } }) } };
  blameOutage(fail, outage);
  assert.deepEqual([fail.line.verdict, fail.line.error_kind], ['ERROR', 'infrastructure']);
  const passed = { startedAt: 500, line: { verdict: 'PASS', error: null, error_kind: null } };
  blameOutage(passed, outage);
  assert.equal(passed.line.verdict, 'PASS');
  const later = { startedAt: 2000, line: resultLine({ task, error: 'start URL unreachable', errorKind: 'run', elapsedMs: 5 }) };
  blameOutage(later, outage);
  assert.equal(later.line.error_kind, 'run');
});

test('progress: hops done between two polls still get their line, at their own step', () => {
  const run = {
    step: 3,
    progress: {
      done: 3,
      total: 4,
      hops: [
        { state: 'done', step: 1 },
        { state: 'done', step: 2 },
        { state: 'done', step: 3 },
        { state: 'current' },
      ],
    },
  };
  assert.deepEqual(skippedHops(run, 0), [
    { hop: 1, hops: 4, step: 1 },
    { hop: 2, hops: 4, step: 2 },
  ]);
  assert.deepEqual(skippedHops(run, 2), [], 'hop 3 is the current progress line itself');
  assert.deepEqual(skippedHops({ step: 0, progress: null }, 0), []);
});

test('why a run ended: its cause and the agent\'s own reason, before the verdict\'s count of hops', () => {
  const earlyStop = {
    status: 'finished', cause: 'early_stop', step: 3, tokens: { input: 900, output: 30, cached_input: 600 },
    reason: 'Early stop: the last 3 steps gave no action (the last: the model call failed (bad_request): HTTP 400)',
    progress: { done: 0, total: 1, hops: [] },
    verdict: { passed: false, hops_done: 0, hops_total: 1, hop_steps: [], answer: null, reason: 'stopped at hop 1 of 1' },
  };
  const line = resultLine({ task: { ...task, hops: 1 }, run: earlyStop, elapsedMs: 1400 });
  assert.deepEqual([line.verdict, line.end, line.reason, line.tokens], [
    'FAIL', 'early_stop', earlyStop.reason, { input: 900, output: 30, cached_input: 600 },
  ]);
  assert.equal(
    whyEnded(line, (t) => t),
    '  early stop: Early stop: the last 3 steps gave no action (the last: the model call failed (bad_request): HTTP 400)',
  );
  // A run the model could not serve: the hint (what to change) is the error, the
  // failed call the reason; both are told.
  const overflow = {
    status: 'error', cause: 'context_overflow', step: 1, progress: { done: 0, total: 1, hops: [] },
    reason: 'the run cannot go on: the model call failed (context_overflow): request (2480 tokens) exceeds the available context size (1024 tokens)',
    error: 'The prompt (2480 tokens) does not fit the model\'s context (1024 tokens): cut the observation (--max-obs-tokens N)',
  };
  const errorLine = resultLine({ task: { ...task, hops: 1 }, run: overflow, elapsedMs: 900 });
  assert.deepEqual([errorLine.verdict, errorLine.end, errorLine.error_kind], ['ERROR', 'context_overflow', 'run']);
  assert.equal(errorLine.reason, overflow.reason);
  assert.equal(whyEnded(errorLine, (t) => t), `  context overflow: ${overflow.reason}; ${overflow.error}`);
  // The runner's own ends: the timeout's message is its reason.
  const slow = resultLine({ task, run: { status: 'stopped', step: 9 }, error: 'timed out after 60 s', errorKind: 'infrastructure', end: 'timeout', elapsedMs: 60_000 });
  assert.deepEqual([slow.end, slow.reason], ['timeout', 'timed out after 60 s']);
  assert.equal(whyEnded(slow, (t) => t), '  timeout: timed out after 60 s');
  // A run that failed in the driver has the reason 'error': the error says it all.
  const broke = resultLine({ task, run: { status: 'error', cause: 'error', reason: 'error', error: 'boom' }, elapsedMs: 1 });
  assert.deepEqual([broke.end, broke.reason, whyEnded(broke, (t) => t)], ['error', null, '  error; boom']);
});

test('a slow model call is told on the progress lines after 10 s, again every 30 s and on each new try', () => {
  let now = 0;
  /** @type {unknown[]} */
  const told = [];
  const report = waitingReports((call) => told.push(call), () => now);
  const view = (/** @type {object | null} */ call) => ({ status: 'running', call });
  report(view(null));
  now = 5_000;
  report(view({ step: 3, try: 1, of: 4, since: 0 }));
  assert.deepEqual(told, [], 'a quick call is not told');
  now = 12_000;
  report(view({ step: 3, try: 1, of: 4, since: 0 }));
  now = 20_000;
  report(view({ step: 3, try: 1, of: 4, since: 0 }));
  now = 43_000;
  report(view({ step: 3, try: 1, of: 4, since: 0 }));
  now = 44_000;
  report(view({ step: 3, try: 2, of: 4, since: 0 }));
  assert.deepEqual(told, [
    { step: 3, try: 1, of: 4, seconds: 12 },
    { step: 3, try: 1, of: 4, seconds: 43 },
    { step: 3, try: 2, of: 4, seconds: 44 },
  ]);
  /** @type {string[]} */
  const lines = [];
  makeProgress({ total: 2, write: (l) => lines.push(l), redact: (t) => t }).waiting(1, { id: 'suite/t', hops: 1 }, { step: 3, try: 2, of: 4, seconds: 35.4 });
  assert.deepEqual(lines, ['task 1/2 suite/t  step 3: waiting for the model, try 2 of 4, 35 s']);
});

test('options: the model call settings, as the options page has them', () => {
  const options = parseArgs(['--tasks', 't', '--provider', 'openai', '--max-tokens', '64', '--temperature', '0.7', '--call-timeout', '300', '--tries', '1', '--max-obs-tokens', '900']);
  assert.ok(!options.help);
  assert.deepEqual(settingsToSave(options, undefined), {
    model: { provider: 'openai', max_tokens: 64, temperature: 0.7 },
    call_timeout_ms: 300_000,
    max_tries: 1,
  });
  assert.equal(runOverrides(options).max_obs_tokens, 900);
  assert.deepEqual([runConfig(options).max_tokens, runConfig(options).temperature, runConfig(options).max_obs_tokens], [64, 0.7, 900]);
  for (const [argv, message] of [
    [['--tries', '0'], '--tries takes a whole number from 1 to 10 (got 0)'],
    [['--call-timeout', '601'], '--call-timeout takes a whole number from 1 to 600 (got 601)'],
    [['--max-tokens', 'lots'], '--max-tokens takes a whole number from 1 to 200000 (got lots)'],
    [['--temperature', '-0.5'], '--temperature takes a number from 0, e.g. 0 or 0.7 (got -0.5)'],
  ]) {
    assert.throws(() => parseArgs(['--tasks', 't', '--provider', 'openai', ...argv]), { message });
  }
  assert.throws(() => parseArgs(['--tasks', 't', '--max-tokens', '64']), { message: '--max-tokens has no use with --provider replay (no model is called)' });
});

test('options: --prompt-cache on|off, by the core\'s names, goes into the model settings saved', () => {
  const off = parseArgs(['--tasks', 't', '--provider', 'openai', '--base-url', 'http://127.0.0.1:8080/v1', '--prompt-cache', 'off']);
  assert.ok(!off.help);
  assert.deepEqual(settingsToSave(off, undefined), { model: { provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', prompt_cache: 'off' } });
  const on = parseArgs(['--tasks', 't', '--provider', 'anthropic', '--prompt-cache=on']);
  assert.ok(!on.help);
  assert.equal(/** @type {Record<string, unknown>} */ (settingsToSave(on, 'k').model).prompt_cache, 'on');
  const unset = parseArgs(['--tasks', 't', '--provider', 'gemini']);
  assert.ok(!unset.help);
  assert.equal(unset.promptCache, undefined, 'not given: the extension keeps its own (the core\'s default, on)');
  assert.equal('prompt_cache' in /** @type {Record<string, unknown>} */ (settingsToSave(unset, 'k').model), false);
  assert.deepEqual([...TERMS.PROMPT_CACHE_SETTINGS], ['on', 'off']);
  for (const [argv, message] of /** @type {[string[], string][]} */ ([
    [['--provider', 'openai', '--prompt-cache', 'yes'], '--prompt-cache must be one of on, off (got yes)'],
    [['--prompt-cache', 'off'], '--prompt-cache has no use with --provider replay (no model is called)'],
    [['--provider', 'agent', '--base-url', 'http://127.0.0.1:8700/', '--prompt-cache', 'off'], '--prompt-cache has no use with --provider agent (your agent gets no prompt)'],
    [['--provider', 'openai', '--prompt-cache'], '--prompt-cache needs a value'],
  ])) {
    assert.throws(() => parseArgs(['--tasks', 't', ...argv]), (e) => e instanceof UsageError && e.message === message, argv.join(' '));
  }
});

test('--with-extension: folders of unpacked extensions, made absolute; a folder without a manifest, or an attached browser, is refused', () => {
  const injector = join(repoRootOfTests, 'tests', 'e2e', 'extensions', 'frame-injector');
  const options = /** @type {import('../../runner/args.mjs').Options} */ (parseArgs(['--tasks', 't', '--with-extension', injector, '--with-extension', injector]));
  assert.deepEqual(options.otherExtensions, [injector, injector]);
  assert.deepEqual(/** @type {import('../../runner/args.mjs').Options} */ (parseArgs(['--tasks', 't'])).otherExtensions, []);
  assert.throws(() => parseArgs(['--tasks', 't', '--with-extension', join(repoRootOfTests, 'tests')]), /--with-extension .*tests: no manifest\.json there; give the folder of an unpacked extension/);
  assert.throws(() => parseArgs(['--tasks', 't', '--with-extension']), /--with-extension needs a value/);
  assert.throws(
    () => parseArgs(['--tasks', 't', '--with-extension', injector, '--browser-endpoint', 'ws://127.0.0.1:9222/devtools/browser/x']),
    /--with-extension loads an extension into a browser the runner launches/,
  );
});
