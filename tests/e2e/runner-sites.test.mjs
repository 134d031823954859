// The runner's site fence option. The runner's browser is a fresh profile with nobody's
// logins, so by default (--sites any) the agent goes anywhere, as MMInA's did; with
// --sites task the extension's fence applies as in a person's browser. The fake model
// answers `goto` to a third origin, then stops.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { runRunner } from './runner-process.mjs';
import { startSites } from './sites.mjs';

/** @param {string} action */
const reply = (action) => `In summary, the next action I will perform is \`\`\`${action}\`\`\``;

describe('the runner with --sites', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {string} */ let dir;
  /** @type {string} */ let tasks;
  /** @type {string} */ let probeTasks;
  /** @type {string} */ let outside;

  const outsideRequests = () => sites.requests.filter((r) => r.site === 'alpha' && r.path === '/index.html');

  /**
   * One runner run of the fence task; returns its exit status and step 1's record.
   * @param {string} sitesOption
   */
  async function run(sitesOption, { taskDir = tasks, name = 'fence' } = {}) {
    sites.requests.length = 0;
    fake.reset();
    fake.script({ text: reply(`goto [${outside}/index.html]`) }, { text: reply('stop [done]') });
    const out = join(dir, `out-${name}-${sitesOption}`);
    const args = ['--tasks', taskDir, '--out', out, '--provider', 'openai', '--base-url', fake.baseUrl('openai'),
      '--model', 'fake-model', '--api-key-env', 'HOPBENCH_TEST_KEY', '--max-steps', '3', '--observation', 'text'];
    if (sitesOption !== 'default') args.push('--sites', sitesOption);
    const result = await runRunner(args, { HOPBENCH_TEST_KEY: FAKE_KEY });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    const trajectory = JSON.parse(readFileSync(join(out, 'trajectories', `e2e-runner~2F${name}.json`), 'utf8'));
    return { trajectory, step1: trajectory.steps[0], stdout: result.stdout };
  }

  before(async () => {
    sites = await startSites({ names: ['fence', 'alpha'] });
    outside = sites.origin('alpha');
    fake = await startFakeProviders();
    dir = mkdtempSync(join(tmpdir(), 'hopbench-runner-sites-'));
    tasks = join(dir, 'tasks');
    probeTasks = join(dir, 'probe-tasks');
    mkdirSync(tasks);
    mkdirSync(probeTasks);
    writeFileSync(join(probeTasks, 'probe.json'), JSON.stringify({
      id: 'e2e-runner/probe',
      intent: 'Open the inside page of the fenced site.',
      start_urls: [sites.url('fence', '/probe.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    }));
    mkdirSync(join(dir, 'names-tasks'));
    writeFileSync(join(dir, 'names-tasks', 'probe.json'), JSON.stringify({
      id: 'e2e-runner/names',
      intent: 'Open the inside page of the fenced site.',
      start_urls: [sites.url('fence', '/probe-names.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    }));
    writeFileSync(join(tasks, 'fence.json'), JSON.stringify({
      id: 'e2e-runner/fence',
      intent: 'Open the inside page of the fenced site.',
      start_urls: [sites.url('fence', '/index.html')],
      hops: [{ condition: { kind: 'url', part: 'path', op: 'equals', value: '/inside.html' } }],
    }));
  });

  after(async () => {
    await sites?.close();
    await fake?.close();
    if (dir && !process.env.HOPBENCH_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });

  test('--sites task: the goto is blocked and the origin gets no request', async () => {
    const { trajectory, step1 } = await run('task');
    assert.equal(step1.result.error, `blocked: ${outside} is outside this task's sites`);
    assert.deepEqual(outsideRequests(), []);
    assert.equal(trajectory.settings.sites.mode, 'task');
  });

  test('--sites any: the same goto reaches the origin', async () => {
    const { step1 } = await run('any');
    assert.equal(step1.result.error, null, JSON.stringify(step1.result));
    assert.equal(outsideRequests().length, 1);
  });

  test('without --sites the runner goes anywhere, as MMInA did, and says so', async () => {
    const { trajectory, step1, stdout } = await run('default');
    assert.equal(step1.result.error, null, JSON.stringify(step1.result));
    assert.equal(outsideRequests().length, 1);
    assert.equal(trajectory.settings.sites.mode, 'any');
    assert.match(stdout, /^warning: --sites any: the agent may open any site, including this machine's loopback services .* \(in a fresh profile: no logins\); --sites task keeps each task on its own sites$/m);
  });

  test('--sites task: a page on the task\'s site cannot reach a loopback service no task names', async () => {
    const probes = () => sites.requests.filter((r) => r.site === 'alpha' && r.path.startsWith('/probe-'));
    const fenced = await run('task', { taskDir: probeTasks, name: 'probe' });
    assert.ok(fenced.trajectory.steps.length > 0);
    assert.deepEqual(probes(), [], 'the image and the fetch were blocked in the browser');
    assert.doesNotMatch(fenced.stdout, /warning: --sites any/);
    // The same page in a run that goes anywhere reaches it: the probe is real.
    await run('any', { taskDir: probeTasks, name: 'probe' });
    assert.deepEqual(probes().map((r) => r.path).sort(), ['/probe-fetch', '/probe-img.png']);
  });

  test('--sites task: nor by names and forms that are not written as loopback: localhost., ::ffff:127.0.0.1, the machine\'s own name', async () => {
    const probes = () => sites.requests.filter((r) => r.site === 'alpha' && r.path.startsWith('/probe-')).map((r) => r.path).sort();
    // The machine's own name is one /etc/hosts maps to loopback (so it is on every
    // machine this runs on; checked, so the test says so if not).
    const own = await lookup(hostname());
    assert.ok(own.address.startsWith('127.'), `${hostname()} resolves to ${own.address}, not to loopback: this test needs /etc/hosts to map it`);
    const fenced = await run('task', { taskDir: join(dir, 'names-tasks'), name: 'names' });
    assert.ok(fenced.trajectory.steps.length > 0);
    assert.deepEqual(probes(), [], 'no name reached the loopback service');
    // The same page in a run that goes anywhere reaches it by each of them: the probes are real.
    await run('any', { taskDir: join(dir, 'names-tasks'), name: 'names' });
    assert.deepEqual(probes(), ['/probe-dot.png', '/probe-hostname.png', '/probe-mapped.png']);
  });
});
