// The runner on pages that fight back, in one browser with another extension beside
// ours (extensions/frame-injector, which shows its own frames in every page as password
// managers do): bundled sandbox tasks, a web-components form, a page that floods its
// history, one busy for a minute after load, and a click into a redirect loop. Each
// passes by replay; with a scripted model the form is sent and the observation names
// the frame it could not see.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFileStem } from '../../runner/paths.mjs';
import { startSandbox } from '../../runner/sandbox.mjs';
import { copyBundledTasks } from './bundled-tasks.mjs';
import { componentsAgent, componentsTask } from './components-form.mjs';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { FRAME_INJECTOR, NOT_OBSERVED, WITH_FRAMES } from './frame-injector.mjs';
import { freePortBase } from './free-ports.mjs';
import { hopbenchBin } from './native.mjs';
import { readLines, runRunnerWithin } from './runner-process.mjs';
import { startSites } from './sites.mjs';

describe('the runner on pages that fight back, beside another extension', { timeout: 600_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {Awaited<ReturnType<typeof startSandbox>>} */ let sandbox;
  /** @type {Awaited<ReturnType<typeof startFakeProviders>>} */ let fake;
  /** @type {string} */ let dir;
  /** @type {number} */ let base;

  /** @param {string} folder @param {string} name @param {object} task */
  const write = (folder, name, task) => writeFileSync(join(dir, folder, `${name}.json`), JSON.stringify(task));

  before(async () => {
    sites = await startSites({ names: ['components', 'fight'] });
    base = await freePortBase();
    sandbox = await startSandbox(hopbenchBin(), () => undefined, ['--port-base', String(base)]);
    fake = await startFakeProviders();
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-fight-'));
    for (const folder of ['replay', 'model']) mkdirSync(join(dir, folder));
    copyBundledTasks([...WITH_FRAMES], join(dir, 'replay'), base);
    const fight = (/** @type {string} */ path) => sites.url('fight', path);
    write('replay', 'components', componentsTask((path) => sites.url('components', path)));
    write('replay', 'flood', {
      id: 'fight/flood',
      intent: 'Say "flooded" once the flooding page has loaded.',
      start_urls: [fight('/flood.html')],
      hops: [{ condition: { kind: 'answer', must_include: ['flooded'] } }],
      reference_trajectory: ['stop [flooded]'],
    });
    write('replay', 'busy', {
      id: 'fight/busy',
      intent: 'Go on from the busy page.',
      start_urls: [fight('/busy-load.html?seconds=60')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'waited' } }],
      reference_trajectory: ["click {link 'Go on'}"],
    });
    write('replay', 'loop', {
      id: 'fight/loop',
      intent: 'Open the offers, then go on.',
      start_urls: [fight('/loop.html')],
      hops: [{ condition: { kind: 'url', part: 'param', param: 'name', op: 'equals', value: 'escaped' } }],
      reference_trajectory: ["click {link 'Open the offers'}", 'go_back', "click {link 'Go on'}"],
    });
    write('model', '1-components', componentsTask((path) => sites.url('components', path)));
    const beanie = copyBundledTasks(['sb-01-beanie-colour'], join(dir, 'model'), base)[0];
    writeFileSync(join(dir, 'model', '2-beanie.json'), readFileSync(beanie.file));
    rmSync(beanie.file);
  });

  after(async () => {
    await sandbox?.stop();
    await sites?.close();
    await fake?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('every task passes by replay, each well inside its timeout, and the frames are named as not observed', async () => {
    const out = join(dir, 'out-replay');
    const result = await runRunnerWithin(
      ['--tasks', join(dir, 'replay'), '--out', out, '--task-timeout', '150', '--sites', 'task', '--with-extension', FRAME_INJECTOR],
      480_000,
    );
    assert.equal(result.timedOut, false, `the runner hung:\n${result.stdout}\n${result.stderr}`);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(
      lines.map((l) => [l.id, l.verdict]).sort(),
      [...WITH_FRAMES.map((name) => JSON.parse(readFileSync(join(dir, 'replay', `${name}.json`), 'utf8')).id), 'e2e/components-form', 'fight/busy', 'fight/flood', 'fight/loop']
        .map((id) => [id, 'PASS'])
        .sort(),
    );
    for (const name of WITH_FRAMES) {
      const { id } = JSON.parse(readFileSync(join(dir, 'replay', `${name}.json`), 'utf8'));
      const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem(id)}.json`), 'utf8'));
      for (const step of trajectory.steps) assert.match(step.observation.text, NOT_OBSERVED, `${id} step ${step.step}`);
    }
    const loop = JSON.parse(readFileSync(join(out, 'trajectories', `${taskFileStem('fight/loop')}.json`), 'utf8'));
    assert.match(loop.steps[1].observation.text, /did not load \(net::ERR_TOO_MANY_REDIRECTS\); the browser shows its error page instead\./);
    for (const line of lines.filter((l) => l.id !== 'fight/busy')) assert.ok(line.time_ms < 60_000, `${line.id} took ${line.time_ms} ms`);
  });

  test('a scripted model sends the web-components form, and its observation names the frame it could not see', async () => {
    fake.reset();
    fake.script(...componentsAgent().map((text) => ({ text })), { text: 'It is purple. In summary, the next action I will perform is ```stop [purple]```' });
    const out = join(dir, 'out-model');
    const result = await runRunnerWithin(
      ['--tasks', join(dir, 'model'), '--out', out, '--provider', 'openai', '--base-url', fake.baseUrl('openai'), '--model', 'fake-model',
        '--api-key-env', 'HOPBENCH_TEST_KEY', '--task-timeout', '90', '--with-extension', FRAME_INJECTOR],
      240_000,
      { HOPBENCH_TEST_KEY: FAKE_KEY },
    );
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const lines = readLines(join(out, 'results.jsonl'));
    assert.deepEqual(lines.map((l) => [l.id, l.verdict]), [['e2e/components-form', 'PASS'], ['sb-01-beanie-colour', 'PASS']]);
    const prompts = fake.requests.filter((r) => r.api === 'openai').map((r) => r.text);
    assert.equal(prompts.length, 5);
    for (const text of prompts) assert.match(text, /\(1 frame of another extension: not observed\)/);
  });
});
