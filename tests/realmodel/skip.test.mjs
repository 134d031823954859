// The tier's skip path, checked without touching the machine's build: the installer and
// the tier's test file run with their tools folder moved to an empty temp folder
// (HOPBENCH_REALMODEL_TOOLS) and a PATH that holds only node and sh (so no compiler is
// found). They must say "realmodel: skipped: <reason>" and skip visibly: the test file
// reports a skipped suite, neither a pass nor a failure.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

const here = resolve(fileURLToPath(new URL('.', import.meta.url)));

describe('real-model tier: a machine without a compiler skips the tier and says why', { timeout: 120_000 }, () => {
  /** @type {string} */ let bin;
  /** @type {(args: string[]) => import('node:child_process').SpawnSyncReturns<string>} */ let run;

  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'hopbench-realmodel-path-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    run = (args) => spawnSync(process.execPath, args, {
      cwd: here,
      env: { PATH: bin, HOME: bin, HOPBENCH_REALMODEL_TOOLS: join(bin, 'tools') },
      encoding: 'utf8',
      timeout: 90_000,
    });
  });

  after(() => {
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  const reason = /^realmodel: skipped: no C\/C\+\+ compiler \(cc, c\+\+ not on PATH\) to build llama-server: apt-get install -y --no-install-recommends g\+\+$/m;

  test('install.mjs prints one skip line with what to install, exits 0 and writes nothing', () => {
    const result = run([join(here, 'install.mjs')]);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, reason);
    assert.equal(result.stdout.trim().split('\n').length, 1, result.stdout);
    assert.equal(existsSync(join(bin, 'tools')), false, 'nothing is created when the tier is skipped before it starts');
  });

  test('the tier test file prints the same reason and reports its suite as skipped', () => {
    const result = run(['--test', '--test-reporter=spec', join(here, 'server.test.mjs')]);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, reason);
    assert.match(result.stdout, /^﹣ real-model tier: llama-server with SmolLM2-135M .* # realmodel: skipped: no C\/C\+\+ compiler/m);
    assert.match(result.stdout, /ℹ skipped 1\n/);
    assert.match(result.stdout, /ℹ pass 0\n/);
    assert.match(result.stdout, /ℹ fail 0\n/);
  });
});
