// Fuzzy answers judged during real runs. The fake OpenAI-compatible server plays both
// the agent (it opens the Tokyo Tower article, then answers) and the judge (told apart
// by the request's own wording, not by the model name the test checks). The task's
// final answer is a fuzzy reference, so the run must go on after its only hop and the
// answer is scored by the judge model set on the options page:
//   - the judge says yes: PASS, its verdict in the verdict, the step and the panel;
//   - without a separate judge the agent's model judges, and says no: FAIL, saying so;
//   - the judge call fails: FAIL with the judge's failure in the verdict, no crash;
//   - replay has no model: the exact-containment fallback decides and says so.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAKE_KEY, startFakeProviders } from './fake-providers.mjs';
import { launchExtension } from '../../runner/driver.mjs';
import { observationOf } from './play-agent.mjs';
import { runToEnd, saveOptions } from './run-outcome.mjs';
import { startSites } from './sites.mjs';

const REFERENCE = 'a red tower';
const ANSWER = 'It is a red tower in Tokyo.';
/** How the fake recognises a judge request: the judge prompt's opening words. */
const JUDGE_WORDS = 'You grade the answers of a web-browsing agent.';

/**
 * @param {import('../types.mjs').Sites} sites
 * @param {{ id: string, reference?: boolean }} options
 */
function taskText(sites, { id, reference = false }) {
  /** @type {Record<string, unknown>} */
  const task = {
    id,
    intent: 'Open the Tokyo Tower article on the wiki and say what kind of structure it is.',
    start_urls: [sites.url('wiki', '/index.html')],
    hops: [{ description: 'Read about the Tokyo Tower', condition: { kind: 'url', part: 'path', op: 'contains', value: 'Tokyo_Tower' } }],
    final_answer: { condition: { fuzzy_match: [REFERENCE] }, required: true },
  };
  if (reference) task.reference_trajectory = ["click {link 'Tokyo Tower'}", `stop [${ANSWER}]`];
  return JSON.stringify(task);
}

/**
 * The fake's two roles; `judgeSays` is the judge's reply.
 * @param {string} judgeSays
 */
function respond(judgeSays) {
  return (/** @type {import('../types.mjs').FakeRequest} */ request) => {
    if (request.text.includes(JUDGE_WORDS)) return judgeSays;
    const line = observationOf(request).split('\n').find((l) => l.includes("link 'Tokyo Tower'"));
    const id = line?.match(/\[(\d+)\]/)?.[1];
    const action = id ? `click [${id}]` : `stop [${ANSWER}]`;
    return `Let's think step-by-step. In summary, the next action I will perform is \`\`\`${action}\`\`\``;
  };
}

describe('fuzzy answers judged during runs', { timeout: 180_000 }, () => {
  /** @type {import('../types.mjs').Extension} */ let ext;
  /** @type {import('../types.mjs').Sites} */ let sites;
  /** @type {import('../types.mjs').FakeProviders} */ let fake;
  /** @type {import('../types.mjs').Page} */ let options;

  const judgeCalls = () => fake.requests.filter((r) => r.text.includes(JUDGE_WORDS));

  before(async () => {
    sites = await startSites({ names: ['wiki', 'events'] });
    fake = await startFakeProviders();
    ext = await launchExtension();
    options = await ext.openExtensionPage('options.html');
    await options.waitForFunction(() => /** @type {HTMLElement} */ (document.getElementById('settings')).dataset.state === 'ready');
    await saveOptions(options, {
      baseUrl: fake.baseUrl('openai'),
      model: 'fake-agent',
      apiKey: FAKE_KEY,
      maxTries: 2,
      timeoutS: 5,
      maxSteps: 5,
      mode: 'text',
      judge: { baseUrl: fake.baseUrl('openai'), model: 'fake-judge', apiKey: FAKE_KEY },
    });
  });

  after(async () => {
    await ext?.close();
    await fake?.close();
    await sites?.close();
  });

  /**
   * @param {string} id
   * @param {import('./fake-providers.mjs').ScriptEntry[]} script
   * @param {Record<string, unknown>} [overrides]
   */
  async function judgedRun(id, script, overrides) {
    fake.reset();
    fake.script(...script);
    return runToEnd(options, ext, { taskText: taskText(sites, { id, reference: overrides !== undefined }), fileName: 'judged.json', overrides });
  }

  test('the judge model says yes: PASS, with its verdict in the verdict, the step and the panel', async () => {
    const play = { text: respond('Yes.'), usage: { input_tokens: 100, output_tokens: 10 } };
    const r = await judgedRun('judge/yes', [play, play, play]);
    assert.equal(r.run.status, 'finished', JSON.stringify(r.run));
    assert.equal(r.run.cause, 'answered');
    assert.equal(r.run.answer, ANSWER);
    assert.equal(r.steps.length, 2, 'the run went on after its only hop, until the answer');
    assert.match(r.steps[0].action.text, /^click \[\d+\]$/);
    assert.equal(r.steps[0].progress.at_end, true);
    assert.equal(r.steps[1].action.text, `stop [${ANSWER}]`);
    assert.equal(r.run.verdict.passed, true, JSON.stringify(r.run.verdict));
    assert.equal(r.run.verdict.reason, 'all hops completed');
    const [judgement] = r.run.verdict.answer.judgements;
    assert.deepEqual(
      { reference: judgement.reference, answer: judgement.answer, infers: judgement.infers, by: judgement.by, reply: judgement.reply, error: judgement.error },
      { reference: REFERENCE, answer: ANSWER, infers: true, by: 'judge model openai fake-judge', reply: 'Yes.', error: null },
    );
    assert.deepEqual(r.steps[1].judgements, r.run.verdict.answer.judgements, 'the step keeps what the judge said');
    assert.deepEqual(r.run.tokens, { input: 300, output: 30, cached_input: 0 }, 'the judge call is counted');

    const [call] = judgeCalls();
    assert.equal(judgeCalls().length, 1);
    assert.equal(call.model, 'fake-judge');
    assert.equal(call.headers.authorization, `Bearer ${FAKE_KEY}`);
    assert.match(call.text, new RegExp(`Reference:\\n${REFERENCE}\\n\\nAnswer:\\n${ANSWER.replace('.', '\\.')}\\n`));
    assert.equal(fake.requests.indexOf(call), 2, 'the judge is asked after the stop, before the run ends');

    assert.deepEqual(r.panel.verdictJudgements, [`Judge: "${REFERENCE}": yes (judge model openai fake-judge)`]);
    assert.deepEqual(r.panel.steps[1].judgements, r.panel.verdictJudgements);
    assert.match(/** @type {string} */ (r.panel.verdict), /^PASS/);
  });

  test("without a separate judge the agent's model judges; it says no: FAIL, saying so", async () => {
    await saveOptions(options, { judge: null });
    try {
      const play = { text: respond('No, the answer names something else.') };
      const r = await judgedRun('judge/no', [play, play, play]);
      assert.equal(r.run.status, 'finished');
      assert.equal(r.run.verdict.passed, false);
      assert.equal(r.run.verdict.reason, `all hops completed, but the answer failed: judge: "${REFERENCE}" cannot be inferred from the answer`);
      const [judgement] = r.run.verdict.answer.judgements;
      assert.equal(judgement.infers, false);
      assert.equal(judgement.by, 'agent model openai fake-agent');
      assert.equal(judgeCalls()[0].model, 'fake-agent');
      assert.deepEqual(r.panel.verdictJudgements, [`Judge: "${REFERENCE}": no (agent model openai fake-agent)`]);
      assert.match(/** @type {string} */ (r.panel.verdict), /^FAIL/);
    } finally {
      await saveOptions(options, { judge: { baseUrl: fake.baseUrl('openai'), model: 'fake-judge', apiKey: FAKE_KEY } });
    }
  });

  test("the judge call fails: FAIL with the judge's failure in the verdict, the run ends cleanly", async () => {
    const play = { text: respond('unused') };
    const r = await judgedRun('judge/fails', [play, play, { status: 500, message: 'judge down' }, { status: 500, message: 'judge down' }]);
    assert.equal(r.run.status, 'finished', JSON.stringify(r.run));
    assert.equal(r.run.cause, 'answered');
    assert.equal(r.run.verdict.passed, false, 'a failed judge is not a pass');
    assert.match(
      r.run.verdict.reason,
      new RegExp(`^all hops completed, but the answer failed: judge: no verdict on "${REFERENCE}" \\(the judge call failed: .*HTTP 500.*judge down \\(gave up after 2 tries\\)\\)$`),
    );
    const [judgement] = r.run.verdict.answer.judgements;
    assert.equal(judgement.infers, null);
    assert.equal(judgement.reply, null);
    assert.match(r.panel.verdictJudgements[0], /^Judge: "a red tower": no verdict: the judge call failed: .*judge down/);
    assert.equal(judgeCalls().length, 2, 'the judge call was retried like any model call');
  });

  test('replay has no model: the exact-containment fallback decides, and the verdict says so', async () => {
    const r = await judgedRun('judge/replay', [], { provider: 'replay' });
    assert.equal(r.run.status, 'finished', JSON.stringify(r.run));
    assert.equal(r.run.provider, 'replay');
    assert.equal(r.run.verdict.passed, true, JSON.stringify(r.run.verdict));
    const [judgement] = r.run.verdict.answer.judgements;
    assert.equal(judgement.infers, true);
    assert.match(judgement.by, /^exact containment \(no judge model/);
    assert.match(r.panel.verdictJudgements[0], /^Judge: "a red tower": yes \(exact containment/);
    assert.equal(fake.requests.length, 0, 'no model was called');
  });

  test('nothing logged an error', () => {
    assert.deepEqual(ext.errors, [], ext.describeErrors());
  });
});
