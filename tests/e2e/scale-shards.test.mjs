// Runs beyond one machine (docs/scale.md), checked as far as this machine can:
// - the Kubernetes manifests in deploy/k8s validate against the Kubernetes API schema
//   (kubernetes-validate, installed by ./build.sh test; no cluster), and a misspelled
//   field is caught;
// - the image's layout is assembled from deploy/Containerfile's COPY and ENV lines,
//   and the shards Job's own command line runs there as its pods would, one process
//   per completion index; the report Job's command merges their folders into the same
//   summary and per-task results as one process over the same tasks.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { holdDefaultPorts } from './default-ports.mjs';
import { repoRoot } from './paths.mjs';

const k8sDir = join(repoRoot, 'deploy', 'k8s');
const validator =
  process.env.HOPBENCH_K8S_VALIDATE ?? join(repoRoot, 'target', 'tools', 'kubernetes-validate', 'bin', 'kubernetes-validate');
/** Bundled tasks of 1 to 5 hops: enough for every shard to get two. */
const TASKS = [
  'sb-01-beanie-colour.json',
  'sb-04-london-paris-flights.json',
  'sb-18-pizza-crawl-tickets.json',
  'sb-29-bondi-yoga-then-hotel.json',
  'sb-35-london-barcelona-then-hotels.json',
  'sb-41-barcelona-trip.json',
];

/**
 * @typedef {{ command: string[], args: string[], env: Record<string, string> }} Container
 * @typedef {{ status: number|null, stdout: string, stderr: string }} Exit
 */

describe('shards on Kubernetes, run here as processes', { timeout: 300_000 }, () => {
  /** @type {string} */
  let dir;
  /** @type {string} */
  let app;
  /** @type {Record<string, string>} */
  let imageEnv;
  /** @type {string} */
  let tasks;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hopbench-scale-'));
    app = join(dir, 'app');
    imageEnv = assembleImage(app);
    tasks = join(dir, 'tasks');
    mkdirSync(tasks);
    for (const name of TASKS) cpSync(join(repoRoot, 'tasks', name), join(tasks, name));
  });

  after(() => {
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('the manifests validate against the Kubernetes API schema', async () => {
    assert.ok(existsSync(validator), `no kubernetes-validate at ${validator}: ./build.sh test installs it`);
    const files = readdirSync(k8sDir).filter((f) => f.endsWith('.yaml')).map((f) => join(k8sDir, f));
    assert.ok(files.length >= 3, `expected the PVC and two Jobs in ${k8sDir}: ${files}`);
    const run = await exec(validator, ['--strict', ...files]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    for (const resource of ['job/hopbench-shards', 'job/hopbench-report', 'persistentvolumeclaim/hopbench-results']) {
      assert.match(run.stdout + run.stderr, new RegExp(`passed for resource ${resource}\\b`));
    }
  });

  test('a misspelled field fails that validation, naming the field', async () => {
    const text = readFileSync(join(k8sDir, 'shards-job.yaml'), 'utf8').replace('parallelism:', 'paralelism:');
    const bad = join(dir, 'bad-job.yaml');
    writeFileSync(bad, text);
    const run = await exec(validator, ['--strict', bad]);
    assert.notEqual(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /paralelism/);
  });

  test('three shard pods and the report job give the summary of one run', async () => {
    const shards = jobContainer('shards-job.yaml');
    const job = jobSpec('shards-job.yaml');
    const count = Number(shards.env.SHARDS);
    assert.equal(count, 3, 'the manifest splits the suite in three');
    assert.equal(job.completions, count, 'one completion per shard');
    assert.equal(job.completionMode, 'Indexed');

    const sharded = join(dir, 'sharded');
    const single = join(dir, 'single');
    const report = jobContainer('report-job.yaml');
    // One pod after another, and in turn with any other test run on this machine: here
    // the pods share the sandbox's ports, which a pod has to itself on a cluster.
    const release = await holdDefaultPorts(180_000, (line) => process.stdout.write(`${line}\n`));
    try {
      for (let index = 0; index < count; index += 1) {
        const pod = await runContainer(shards, { TASKS: tasks, OUT_ROOT: sharded, JOB_COMPLETION_INDEX: String(index) });
        assert.equal(pod.status, 0, `shard ${index}: ${pod.stdout}\n${pod.stderr}`);
        assert.match(pod.stdout, new RegExp(`\\(shard ${index + 1}/${count}: 2\\)`));
      }
      const one = await runContainer(shards, { TASKS: tasks, OUT_ROOT: single, SHARDS: '1', JOB_COMPLETION_INDEX: '0' });
      assert.equal(one.status, 0, one.stdout + one.stderr);
    } finally {
      release();
    }
    const shardIds = [0, 1, 2].map((i) => resultIds(join(sharded, `shard-${i}`)));
    shardIds.forEach((ids) => assert.equal(ids.length, 2, `each shard runs two of the six tasks: ${shardIds}`));
    assert.equal(new Set(shardIds.flat()).size, TASKS.length, `the shards together run every task once: ${shardIds}`);

    const merged = await runContainer(report, { OUT_ROOT: sharded });
    assert.equal(merged.status, 0, merged.stdout + merged.stderr);
    const oneReport = await runContainer(report, { OUT_ROOT: single });
    assert.equal(oneReport.status, 0, oneReport.stdout + oneReport.stderr);

    const a = readJson(join(sharded, 'report', 'summary.json'));
    const b = readJson(join(single, 'report', 'summary.json'));
    assert.equal(a.sources.length, 3, 'the merge read the three shard folders');
    // What went wrong, if anything did: each line that did not pass, with its error.
    const notPassed = [0, 1, 2]
      .flatMap((i) => readFileSync(join(sharded, `shard-${i}`, 'results.jsonl'), 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(line))
      .filter((line) => line.verdict !== 'PASS')
      .map((line) => `${line.id}: ${line.verdict} ${line.error ?? line.reason ?? ''}`);
    assert.deepEqual(a.counts, { tasks: 6, pass: 6, fail: 0, error: 0 }, notPassed.join('\n'));
    assert.deepEqual(comparable(a), comparable(b));
    const shardResults = [0, 1, 2].flatMap((i) => outcomes(join(sharded, `shard-${i}`)));
    assert.deepEqual(sortById(shardResults), sortById(outcomes(join(single, 'shard-0'))));
    assert.deepEqual(readdirSync(join(sharded, 'report', 'trajectories')).sort(), readdirSync(join(single, 'report', 'trajectories')).sort());
  });

  /** @param {string} file */
  function jobSpec(file) {
    const job = manifest(file);
    return job.spec;
  }

  /** @param {string} file @returns {Container} */
  function jobContainer(file) {
    const [container] = manifest(file).spec.template.spec.containers;
    /** @type {Record<string, string>} */
    const env = {};
    for (const { name, value } of container.env ?? []) env[name] = String(value);
    return { command: container.command, args: container.args ?? [], env };
  }

  /**
   * The container's command as its pod runs it: the image's ENV, then the manifest's,
   * then what Kubernetes or this test sets, in the image's working directory.
   * @param {Container} container @param {Record<string, string>} set
   */
  function runContainer(container, set) {
    const [program, ...rest] = container.command;
    return exec(program, [...rest, ...container.args], { cwd: app, env: { ...imageEnv, ...container.env, ...set } });
  }
});

/** @param {string} file */
function manifest(file) {
  const docs = parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'));
  const [doc] = docs;
  if (!doc || docs.length !== 1) throw new Error(`${file}: expected one document`);
  return doc.toJS();
}

/**
 * Copies what deploy/Containerfile's last stage copies (`COPY --from=build /src/X Y`,
 * /src being this repository after ./build.sh build) into `app`, standing for its
 * WORKDIR, and returns its ENV with that WORKDIR's paths pointed at `app`.
 * @param {string} app
 * @returns {Record<string, string>}
 */
function assembleImage(app) {
  const text = readFileSync(join(repoRoot, 'deploy', 'Containerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m);
  const last = stages[stages.length - 1];
  const workdir = last.match(/^WORKDIR (\S+)/m)?.[1];
  if (!workdir) throw new Error('the Containerfile\'s last stage has no WORKDIR');
  const copies = [...last.matchAll(/^COPY --from=build \/src\/(\S+) (\S+)$/gm)];
  assert.ok(copies.length > 0, 'the last stage copies from the build stage');
  for (const [, from, to] of copies) {
    const source = join(repoRoot, from);
    assert.ok(existsSync(source), `the image copies ${from}, which ./build.sh build did not make`);
    const target = join(app, to);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(source, target, { recursive: true });
  }
  /** @type {Record<string, string>} */
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? app };
  for (const [, pairs] of last.matchAll(/^ENV (.+)$/gm)) {
    for (const [, key, value] of pairs.matchAll(/(\w+)=(\S+)/g)) {
      env[key] = value.startsWith(workdir) ? app + value.slice(workdir.length) : value;
    }
  }
  // This machine's Chromium, wherever the tests were told it is.
  if (process.env.HOPBENCH_CHROMIUM) env.HOPBENCH_CHROMIUM = process.env.HOPBENCH_CHROMIUM;
  return env;
}

/**
 * @param {string} program @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string> }} [options]
 * @returns {Promise<Exit>}
 */
function exec(program, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** @param {string} path */
function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The ids in a run folder's results.jsonl. @param {string} folder */
function resultIds(folder) {
  return readFileSync(join(folder, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).id);
}

/**
 * A summary without what differs between two runs of the same tasks: where the results
 * were read and how long things took.
 * @param {import('../types.mjs').Json} summary
 */
function comparable(summary) {
  const rest = { ...summary };
  delete rest.sources;
  const totals = { ...summary.totals };
  delete totals.time_ms;
  return { ...rest, totals };
}

/**
 * What each task's run came to (id, verdict, hop steps, steps, answer), from a run
 * folder's results.jsonl.
 * @param {string} folder
 */
function outcomes(folder) {
  return readFileSync(join(folder, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { id, verdict, hop_steps, steps, answer, hops_completed } = JSON.parse(line);
      return { id, verdict, hop_steps, steps, answer, hops_completed };
    });
}

/** @template {{ id: string }} T @param {T[]} list */
function sortById(list) {
  return [...list].sort((x, y) => x.id.localeCompare(y.id));
}
