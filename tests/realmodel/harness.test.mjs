// What the harness does with a real model server's answers, through the runner as a
// person runs it (`./build.sh run --provider openai --base-url ...`): llama.cpp's
// llama-server with SmolLM2-135M-Instruct, a text-only model with a small context.
// The assertions are about the harness (how each answer is classed, retried, told and
// timed), never about whether the tiny model solves the task.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readLines, runRunner, startRunner } from '../e2e/runner-process.mjs';
import { describeRealModel, startModelServer } from './server.mjs';
import { scratch, startMuseum, writeHoursTask } from './site.mjs';

/**
 * The runner's arguments for the model server `llm`, plus `extra`.
 * @param {{ baseUrl: string, alias: string }} llm
 * @param {string} tasks
 * @param {string} out
 * @param {string[]} extra
 */
const runnerArgs = (llm, tasks, out, extra) => [
  '--tasks', tasks, '--out', out, '--provider', 'openai', '--base-url', `${llm.baseUrl}/v1`, '--model', llm.alias,
  ...(extra.includes('--max-tokens') ? [] : ['--max-tokens', '48']), ...extra,
];

/** The one trajectory file of a run folder, parsed. */
const trajectoryOf = (/** @type {string} */ out) => {
  const dir = join(out, 'trajectories');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
};

describeRealModel('the real model server: what the harness makes of its answers', { timeout: 900_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startMuseum>>} */ let museum;
  /** @type {Awaited<ReturnType<typeof startModelServer>>} */ let llm;
  /** @type {Awaited<ReturnType<typeof startModelServer>>} */ let small;
  /** @type {ReturnType<typeof scratch>[]} */ const folders = [];
  const folder = (/** @type {string} */ what) => {
    const made = scratch(what);
    folders.push(made);
    return made.dir;
  };

  before(async () => {
    museum = await startMuseum();
    // A context that holds the prompt of the museum's front page but not that of its
    // long list of exhibits; and one smaller than any prompt.
    llm = await startModelServer({ ctx: 4096 });
    small = await startModelServer({ ctx: 1024, alias: 'smollm2-small-context' });
  });

  after(async () => {
    await llm?.stop();
    await small?.stop();
    await museum?.close();
    folders.forEach((f) => f.remove());
  });

  test('a text-only model asked with images: the first call ends the batch, once, with the text mode named', async () => {
    const dir = folder('images');
    const tasks = join(dir, 'tasks');
    writeHoursTask(tasks, 'first', museum.url('/index.html'));
    writeHoursTask(tasks, 'second', museum.url('/index.html'));
    const out = join(dir, 'out');
    // The extension's default observation mode: text with the viewport's images.
    const result = await runRunner(runnerArgs(llm, tasks, out, ['--observation', 'text+images']));
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.equal(lines.length, 1, `the batch stopped after the first task: ${JSON.stringify(lines)}`);
    const [line] = lines;
    assert.deepEqual(
      [line.verdict, line.end, line.error_kind, line.attempt, line.steps],
      ['ERROR', 'unsupported_input', 'run', 1, 1],
      JSON.stringify(line),
    );
    assert.match(line.reason, /image input is not supported/);
    assert.match(line.error, /--observation text/);
    // One HTTP request: nothing retried, no backoff waited.
    const [step] = trajectoryOf(out).steps;
    assert.equal(step.model_error.error.kind, 'unsupported_input');
    assert.equal(step.model_error.attempts.length, 1, JSON.stringify(step.model_error.attempts));
    assert.ok(line.time_ms < 30_000, `ended in ${line.time_ms} ms`);
    assert.match(result.stdout, /ERROR {2}hops 0\/1 {2}steps 1 .*unsupported input: the run cannot go on/);
    assert.match(result.stderr, /run: the model cannot take the observation mode's input: .*--observation text/);
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    assert.match(report, /unsupported input/);
    assert.match(report, /--observation text/);
  });

  test('a prompt over the context: the task ends ERROR with context_overflow and both sizes', async () => {
    const dir = folder('overflow');
    const tasks = join(dir, 'tasks');
    writeHoursTask(tasks, 'exhibits', museum.url('/exhibits.html'));
    const out = join(dir, 'out');
    const result = await runRunner(runnerArgs(small, tasks, out, ['--observation', 'text']));
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.deepEqual([line.verdict, line.end, line.error_kind, line.steps], ['ERROR', 'context_overflow', 'run', 1], JSON.stringify(line));
    // llama.cpp's words carry both sizes; the reason keeps them.
    assert.match(line.reason, /\(\d+ tokens\) exceeds the available context size \(1024 tokens\)/);
    assert.match(line.error, /max-obs-tokens/);
    // The batch's only attempt ended in ERROR: no agent result, so the batch fails and says why.
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, /every attempt of this batch ended in ERROR \(1 attempt, no PASS or FAIL\)/);
    assert.match(result.stdout, /context overflow: the run cannot go on/);
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /context overflow/);
  });

  test('the same page with --max-obs-tokens fits: the step has the model\'s reply and says it cut the observation', async () => {
    const dir = folder('cut');
    const tasks = join(dir, 'tasks');
    writeHoursTask(tasks, 'exhibits', museum.url('/exhibits.html'));
    const out = join(dir, 'out');
    // The long page alone overflows 4096 tokens; 1200 of it leaves room for the rest.
    const uncut = await runRunner(runnerArgs(llm, tasks, join(dir, 'uncut'), ['--observation', 'text', '--max-steps', '1']));
    assert.equal(readLines(join(dir, 'uncut', 'results.jsonl'))[0].end, 'context_overflow', uncut.stdout);
    await runRunner(runnerArgs(llm, tasks, out, ['--observation', 'text', '--max-steps', '2', '--max-obs-tokens', '1200']));
    const [line] = readLines(join(out, 'results.jsonl'));
    assert.notEqual(line.end, 'context_overflow', JSON.stringify(line));
    const [first] = trajectoryOf(out).steps;
    assert.ok(first.reply, `the model replied: ${JSON.stringify(first.model_error)}`);
    assert.equal(first.prompt.observation_cut.max_tokens, 1200);
    assert.ok(first.prompt.observation_cut.estimated_tokens > 1200, JSON.stringify(first.prompt.observation_cut));
    assert.ok(first.prompt.user.length < first.observation.text.length);
    assert.equal(first.reply.usage.input_tokens > 0, true);
    // The core only estimates tokens: the model's own tokenizer must find the cut
    // observation within about the budget.
    const shown = first.prompt.user.split('\nURL: ')[0].replace(/^OBSERVATION:\n/, '');
    const tokenized = await (await fetch(`${llm.baseUrl}/tokenize`, { method: 'POST', body: JSON.stringify({ content: shown }) })).json();
    assert.ok(tokenized.tokens.length <= 1200 * 1.1, `the cut observation is ${tokenized.tokens.length} tokens for SmolLM2`);
  });

  test('however the run ends, results.jsonl, the progress line and the report say why', async () => {
    const dir = folder('why');
    const tasks = join(dir, 'tasks');
    writeHoursTask(tasks, 'front', museum.url('/index.html'));
    const out = join(dir, 'out');
    const result = await runRunner(runnerArgs(llm, tasks, out, ['--observation', 'text', '--max-steps', '2']));
    const [line] = readLines(join(out, 'results.jsonl'));
    assertBatchStatus(result, line.verdict);
    const ends = ['answered', 'all_hops_done', 'early_stop'];
    assert.ok(ends.includes(line.end), `a model run ends by its answer, its hops or an early stop: ${JSON.stringify(line)}`);
    assert.ok(typeof line.reason === 'string' && line.reason.length > 0);
    // The agent's own early-stop rule, unless the runner ruled the run an ERROR (the
    // agent never acted): its error is then the reason (runner/result-line.mjs).
    if (line.error !== null) assert.equal(line.reason, line.error);
    else if (line.end === 'early_stop') assert.match(line.reason, /^Early stop: /);
    const words = line.end.replaceAll('_', ' ');
    assert.ok(result.stdout.includes(`${words}: ${line.reason}`), result.stdout);
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    assert.ok(report.includes(words), 'the report names the end');
  });

  test('a slow call: the progress line says the runner waits for the model, which try, how long', async () => {
    const dir = folder('slow');
    const tasks = join(dir, 'tasks');
    writeHoursTask(tasks, 'exhibits', museum.url('/exhibits.html'));
    const out = join(dir, 'out');
    // A server of its own on one thread, so no cached prefix speeds it up: reading a
    // prompt of some 3,000 tokens takes it well over the 10 s after which a wait is told.
    const slow = await startModelServer({ ctx: 8192, threads: 1, alias: 'smollm2-one-thread' });
    try {
      /** @type {string[]} */
      const lines = [];
      const runner = startRunner(
        runnerArgs(slow, tasks, out, ['--observation', 'text', '--max-steps', '1', '--max-obs-tokens', '1500', '--tries', '1', '--call-timeout', '600']),
        { onLine: (line) => lines.push(line) },
      );
      const result = await runner.done;
      assertBatchStatus(result, readLines(join(out, 'results.jsonl'))[0].verdict);
      const [step] = trajectoryOf(out).steps;
      const modelMs = step.timings?.model_ms ?? 0;
      const waiting = lines.filter((l) => / {2}step 1: waiting for the model, try 1 of 1, \d+ s$/.test(l));
      // Told once it had waited 10 s, then every 30 s: as many lines as the call's length allows.
      const expected = modelMs < 10_000 ? 0 : 1 + Math.floor((modelMs - 10_000) / 30_000);
      assert.ok(
        waiting.length >= Math.max(0, expected - 1) && waiting.length <= expected + 1,
        `a ${modelMs} ms call was told ${waiting.length} times:\n${result.stdout}`,
      );
      assert.ok(modelMs >= 10_000, `the call took ${modelMs} ms: too quick to show the waiting line`);
      const seconds = Number(/(\d+) s$/.exec(waiting[0])?.[1]);
      assert.ok(seconds >= 10 && seconds <= modelMs / 1000 + 1, waiting[0]);
    } finally {
      await slow.stop();
    }
  });
});

/**
 * A batch of one task exits 0 when it recorded an agent result (PASS or FAIL); when the
 * agent never acted (ERROR: the small model's replies had no usable action) it exits 1
 * and says no agent result was recorded.
 * @param {{ status: number | null, stdout: string, stderr: string }} result
 * @param {string} verdict
 */
function assertBatchStatus(result, verdict) {
  if (verdict === 'ERROR') {
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, /no agent result was recorded/);
  } else {
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  }
}
