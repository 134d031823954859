// `./build.sh bench-realmodel`: what prompt caching saves on a real model server.
// Runs the same few museum tasks twice through the runner against llama.cpp's
// llama-server (SmolLM2-135M-Instruct), without memory and with procedural memory
// K=2, and prints per run: model calls, input tokens, the part served from the
// server's prompt cache, seconds per call, and output tokens. Figures, not a test:
// the machine's load changes the seconds; the token counts are the server's own.
//
//   node tests/realmodel/bench.mjs [--steps N] [--tasks N]

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readLines, runRunner } from '../e2e/runner-process.mjs';
import { findModelServer, startModelServer } from './server.mjs';
import { scratch, startMuseum, writeHoursTask } from './site.mjs';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '3' }, tasks: { type: 'string', default: '4' } } });
const steps = Number(values.steps);
const taskCount = Number(values.tasks);
if (!Number.isInteger(steps) || steps < 1 || !Number.isInteger(taskCount) || taskCount < 1) {
  console.error('usage: node tests/realmodel/bench.mjs [--steps N >= 1] [--tasks N >= 1]');
  process.exit(2);
}

const found = findModelServer();
if (!found.ok) {
  console.log(`realmodel: skipped: ${found.reason}`);
  process.exit(0);
}

/**
 * Every model call of a run folder's trajectories: its tokens and seconds.
 * @param {string} out
 */
function callsOf(out) {
  const dir = join(out, 'trajectories');
  const calls = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const trajectory = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const step of trajectory.steps ?? []) {
      if (!step.reply) continue;
      calls.push({
        input: step.reply.usage.input_tokens,
        cached: step.reply.usage.cached_input_tokens ?? 0,
        output: step.reply.usage.output_tokens,
        seconds: (step.timings?.model_ms ?? 0) / 1000,
      });
    }
  }
  return calls;
}

/** @param {ReturnType<typeof callsOf>} calls */
function row(calls) {
  const sum = (/** @type {'input' | 'cached' | 'output' | 'seconds'} */ k) => calls.reduce((n, c) => n + c[k], 0);
  const input = sum('input');
  const cached = sum('cached');
  return {
    calls: calls.length,
    input,
    cached,
    share: input === 0 ? '—' : `${((100 * cached) / input).toFixed(1)} %`,
    perCall: calls.length === 0 ? '—' : (sum('seconds') / calls.length).toFixed(1),
    output: sum('output'),
  };
}

const museum = await startMuseum();
const llm = await startModelServer({ ctx: 8192 });
const work = scratch('bench');
const starts = ['/index.html', '/hours.html', '/index.html', '/exhibits.html'];
try {
  const tasks = join(work.dir, 'tasks');
  for (let i = 0; i < taskCount; i += 1) writeHoursTask(tasks, `task-${i + 1}`, museum.url(starts[i % starts.length]));
  console.log(`llama-server ${llm.args.join(' ')}`);
  console.log(`${taskCount} tasks, at most ${steps} steps each, text observation cut to 1200 tokens, max 48 output tokens\n`);
  const rows = [];
  for (const memory of [0, 2]) {
    const out = join(work.dir, `k${memory}`);
    const started = Date.now();
    const result = await runRunner([
      '--tasks', tasks, '--out', out, '--provider', 'openai', '--base-url', `${llm.baseUrl}/v1`, '--model', llm.alias,
      '--observation', 'text', '--max-obs-tokens', '1200', '--max-tokens', '48', '--max-steps', String(steps),
      ...(memory > 0 ? ['--memory', String(memory)] : []),
    ]);
    if (result.status !== 0) throw new Error(`the runner failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    rows.push({ memory, wall: (Date.now() - started) / 1000, tasks: lines.length, ...row(callsOf(out)) });
  }
  const header = ['memory', 'tasks', 'calls', 'input tokens', 'cached', 'cached share', 's / call', 'output tokens', 'wall s'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---:').join('|')}|`);
  for (const r of rows) {
    console.log(`| K=${r.memory} | ${r.tasks} | ${r.calls} | ${r.input} | ${r.cached} | ${r.share} | ${r.perCall} | ${r.output} | ${r.wall.toFixed(0)} |`);
  }
} finally {
  await llm.stop();
  await museum.close();
  work.remove();
}
