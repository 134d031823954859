// Nothing lost, nothing mixed up: the pictures of runs in one browser (docs/agent-run.md
// "Trajectories"). The same task runs twice, then a third time in parallel with
// another task; the fake model plays the agent in `text+images` mode, so what it was
// sent is exactly what each step captured. Afterwards every run's export must hold
// every image its steps refer to, byte for byte what the model got at that step, plus
// a screenshot of the page per step for the reader, and no run's picture in another's.
//
// The gallery site serves every image request in a colour never served before, and
// its first step scrolls, so one run shows the same element at two steps (with two
// different pictures), and every run sees the same element ids: what made version 1
// of the store key images by element id overwrite each other.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeProviders } from './fake-providers.mjs';
import { startGallery } from './gallery-site.mjs';
import { launchExtension, sendOk } from '../../runner/driver.mjs';
import { observationOf } from './play-agent.mjs';
import { waitForRunEnd } from './run-helpers.mjs';

const PNG = [0x89, 0x50, 0x4e, 0x47];

/**
 * Two tasks over the gallery: the whole walk, and from page 2 on.
 * @param {Awaited<ReturnType<typeof startGallery>>} gallery
 */
function tasks(gallery) {
  /** @param {string} page */
  const hop = (page) => ({ condition: { kind: 'url', part: 'path', op: 'contains', value: page } });
  return {
    walk: {
      id: 'e2e/media-walk',
      intent: 'Walk through the gallery to its last page.',
      start_urls: [gallery.url('/index.html')],
      hops: [hop('page2'), hop('page3')],
    },
    tail: {
      id: 'e2e/media-tail',
      intent: 'From the second gallery page, go to the last one.',
      start_urls: [gallery.url('/page2.html')],
      hops: [hop('page3')],
    },
  };
}

/**
 * The agent: first a scroll (the same page again), then the link onwards.
 * @param {import('../types.mjs').FakeRequest} request
 */
function galleryAgent(request) {
  const user = request.text.slice(request.text.lastIndexOf('OBSERVATION:'));
  /** @param {string} a */
  const action = (a) => `Let's think step-by-step. In summary, the next action I will perform is \`\`\`${a}\`\`\``;
  if (/\nPREVIOUS ACTION: None/.test(user)) return action('scroll [down]');
  for (const name of ['Next page', 'Last page']) {
    const id = observationOf(request).split('\n').find((l) => l.includes(`link '${name}'`))?.match(/\[(\d+)\]/)?.[1];
    if (id) return action(`click [${id}]`);
  }
  return action('stop [the end]');
}

/** @param {string} dataUrl */
const bytesOfDataUrl = (dataUrl) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

describe('run pictures: every run keeps its own, as captured', { timeout: 240_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {Awaited<ReturnType<typeof startGallery>>} */ let gallery;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let popup;
  /** [{label, runId, intent}] in start order */
  /** @type {{ label: string, runId: string, intent: string, elements?: unknown[], keys?: string[] }[]} */ const runs = [];

  /**
   * @param {string} label
   * @param {{ id: string, intent: string }} task
   */
  const start = async (label, task) => {
    const { runId } = await sendOk(popup, 'startRun', {
      taskText: JSON.stringify(task),
      fileName: `${task.id.split('/')[1]}.json`,
      overrides: { provider: 'openai' },
    });
    runs.push({ label, runId, intent: task.intent });
    return runId;
  };

  before(async () => {
    gallery = await startGallery();
    fake = await startFakeProviders();
    ext = await launchExtension();
    popup = await ext.openExtensionPage('popup.html');
    await sendOk(popup, 'saveSettings', {
      settings: {
        model: { provider: 'openai', base_url: fake.baseUrl('openai'), model: 'fake-agent', api_key: 'sk-fake-provider-key-0123456789' },
        max_steps: 6,
      },
      observation: { mode: 'text+images' },
    });
    const { walk, tail } = tasks(gallery);
    // Enough replies for every step of every run; each reads its own request.
    fake.script(...Array.from({ length: 20 }, () => ({ text: galleryAgent })));
    for (const label of ['first', 'second']) {
      const run = await waitForRunEnd(popup, await start(label, walk), 90_000);
      assert.equal(run.verdict?.passed, true, `${label} run: ${JSON.stringify(run)}`);
    }
    // The third run starts with the settings above; the other after a change of model
    // and image size: each keeps its own (docs/agent-run.md "What a run keeps from its start").
    const third = await start('third', walk);
    await sendOk(popup, 'saveSettings', { settings: { model: { provider: 'openai', model: 'fake-agent-2' } }, observation: { imageMaxSide: 48 } });
    const parallel = [third, await start('other', tail)];
    for (const runId of parallel) {
      const run = await waitForRunEnd(popup, runId, 120_000);
      assert.equal(run.verdict?.passed, true, JSON.stringify(run));
    }
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
    await gallery?.close();
  });

  /** Each run's model requests, in order: one per step (no call failed). */
  /** @param {(typeof runs)[number]} run */
  function requestsOf(run) {
    const sameTask = runs.filter((r) => r.intent === run.intent);
    const all = fake.requests.filter((r) => r.api === 'openai' && r.text.includes(`OBJECTIVE: ${run.intent}`));
    const stepsBefore = sameTask.slice(0, sameTask.indexOf(run)).length;
    return { all, stepsBefore };
  }

  test('every run exported every picture its steps refer to, byte for byte what the model was sent', async () => {
    const offsets = new Map();
    for (const run of runs) {
      const { trajectory } = await sendOk(popup, 'exportRun', { runId: run.runId });
      const { steps, media } = trajectory;
      assert.deepEqual(steps.map((/** @type {import('../types.mjs').Json} */ s) => s.step), run.intent.startsWith('Walk') ? [1, 2, 3] : [1, 2], `${run.label}: ${steps.map((/** @type {import('../types.mjs').Json} */ s) => `${s.action?.text} ${s.observation.url}`).join(', ')}`);
      const { all, stepsBefore } = requestsOf(run);
      const offset = offsets.get(run.intent) ?? 0;
      assert.equal(stepsBefore > 0, offset > 0);
      const requests = all.slice(offset, offset + steps.length);
      offsets.set(run.intent, offset + steps.length);
      const referenced = [];
      for (const [i, step] of steps.entries()) {
        const sent = requests[i].imageBytes;
        const refs = step.observation.images;
        assert.ok(refs.length > 0, `${run.label} step ${step.step} saw images`);
        assert.equal(refs.length, sent.length, `${run.label} step ${step.step}: one stored image per image sent`);
        for (const [j, ref] of refs.entries()) {
          assert.equal(typeof ref, 'string', `${run.label} step ${step.step}: a media key, not ${JSON.stringify(ref)}`);
          assert.ok(media[ref], `${run.label} step ${step.step}: ${ref} is in the export`);
          assert.equal(media[ref].runId, run.runId);
          assert.equal(media[ref].step, step.step);
          assert.ok(bytesOfDataUrl(media[ref].dataUrl).equals(sent[j]), `${run.label} step ${step.step} image ${j}: bytes differ from what the model got`);
        }
        const shot = media[step.observation.page_screenshot];
        assert.ok(shot, `${run.label} step ${step.step}: a screenshot of the page for the reader`);
        assert.deepEqual([...bytesOfDataUrl(shot.dataUrl).subarray(0, 4)], PNG);
        assert.equal(step.observation.screenshot, null, 'no picture of the page went to the model');
        referenced.push(...refs, step.observation.page_screenshot);
      }
      assert.deepEqual(Object.keys(media).sort(), referenced.sort(), `${run.label}: the export holds exactly its steps' pictures`);
      run.elements = steps.map((/** @type {import('../types.mjs').Json} */ s) => s.observation.images.map((/** @type {import('../types.mjs').Json} */ ref) => media[ref].elementId));
      run.keys = referenced;
    }
  });

  test('the runs met the old collisions: the same element ids at two steps and in every run', () => {
    const [first, second, third] = runs;
    // The test before recorded each run's elements.
    const firstElements = /** @type {unknown[]} */ (first.elements);
    assert.deepEqual(firstElements[0], firstElements[1], 'step 2 showed the elements of step 1 again');
    assert.deepEqual(second.elements, first.elements);
    assert.deepEqual(third.elements, first.elements);
    const keys = runs.flatMap((r) => r.keys);
    assert.equal(new Set(keys).size, keys.length, 'no two runs or steps share a media key');
  });

  test('runs at once keep the settings each started with: model and image size', () => {
    /** @param {Buffer} bytes */
    const pngSize = (bytes) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    for (const run of runs.slice(2)) {
      const { all } = requestsOf(run);
      const mine = run.label === 'third' ? all.slice(-3) : all;
      const expected = run.label === 'third' ? { model: 'fake-agent', size: [96, 64] } : { model: 'fake-agent-2', size: [48, 32] };
      assert.deepEqual([...new Set(mine.map((r) => r.model))], [expected.model], run.label);
      const sizes = mine.flatMap((r) => r.imageBytes.map(pngSize));
      assert.ok(sizes.length > 0 && sizes.every((size) => size.join('x') === expected.size.join('x')), `${run.label}: ${JSON.stringify(sizes)}`);
    }
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
