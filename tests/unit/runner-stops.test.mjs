// When a batch stops, and how it says so (runner/batch.mjs, runner/run.mjs;
// docs/runner.md "Exit status"): --max-infra-errors infrastructure errors in a row stop
// it, with the command that resumes; a batch that recorded nothing but ERRORs fails.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAX_INFRA_ERRORS, UsageError, parseArgs } from '../../runner/args.mjs';
import { infraErrorStreak } from '../../runner/batch.mjs';
import { noAgentResult, resumeCommand } from '../../runner/run.mjs';

test('--max-infra-errors: default 3, 0 never stops, anything else is refused naming the option and value', () => {
  assert.equal(DEFAULT_MAX_INFRA_ERRORS, 3);
  assert.equal(/** @type {{ maxInfraErrors: number }} */ (parseArgs(['--tasks', 't'])).maxInfraErrors, 3);
  assert.equal(/** @type {{ maxInfraErrors: number }} */ (parseArgs(['--tasks', 't', '--max-infra-errors', '0'])).maxInfraErrors, 0);
  assert.equal(/** @type {{ maxInfraErrors: number }} */ (parseArgs(['--tasks', 't', '--max-infra-errors=7'])).maxInfraErrors, 7);
  for (const value of ['-1', 'three', '1.5', '']) {
    const message = value === '' ? '--max-infra-errors needs a value' : `--max-infra-errors takes a whole number >= 0 (got ${value})`;
    assert.throws(() => parseArgs(['--tasks', 't', `--max-infra-errors=${value}`]), (e) => e instanceof UsageError && e.message === message, value);
  }
});

test('infrastructure errors in a row stop the batch; any other line ends the streak; 0 never stops', () => {
  const infra = { error_kind: 'infrastructure', error: 'START_RUN gave no answer in 900 s (per-task timeout, --task-timeout)' };
  const pass = { error_kind: null, error: null };
  const runError = { error_kind: 'run', error: 'start URL unreachable' };
  const streak = infraErrorStreak(3);
  assert.deepEqual([infra, infra, pass, infra, runError, infra, infra].map(streak), [null, null, null, null, null, null, null]);
  const why = streak(infra);
  assert.match(String(why), /^3 infrastructure errors in a row \(--max-infra-errors 3\), the last: START_RUN gave no answer in 900 s/);
  const never = infraErrorStreak(0);
  assert.deepEqual(Array.from({ length: 20 }, () => never(infra)).filter(Boolean), []);
});

test('a batch that recorded only ERRORs has no agent result; one PASS or FAIL is one', () => {
  assert.match(String(noAgentResult({ PASS: 0, FAIL: 0, ERROR: 4 })), /^every attempt of this batch ended in ERROR \(4 attempts, no PASS or FAIL\)/);
  assert.equal(noAgentResult({ PASS: 0, FAIL: 1, ERROR: 4 }), null);
  assert.equal(noAgentResult({ PASS: 1, FAIL: 0, ERROR: 0 }), null);
  assert.equal(noAgentResult({ PASS: 0, FAIL: 0, ERROR: 0 }), null, 'nothing ran: nothing failed');
});

test('the command that resumes: the same arguments, --out the run folder, quoted for the shell', () => {
  const argv = ['--tasks', 'my tasks/', '--out', 'rel/out', '--provider=openai', '--model', "it's", '--out=x'];
  assert.equal(
    resumeCommand('run', argv, '/abs/out'),
    `${resumeCommand('run', [], '/o').split(' ')[0]} run --tasks 'my tasks/' --provider=openai --model 'it'\\''s' --out /abs/out`,
  );
  assert.match(resumeCommand('demo', [], '/work/out/demo'), /build\.sh demo --out \/work\/out\/demo$/);
});
