// People's sessions exported from the extension, imported into a run folder
// (runner/import-exports.mjs, `./build.sh import`) and reported beside an agent's
// folder: the Table-2 buckets get a human column, and one row per task shows both
// sides. The numbers below are worked by hand from the fixtures. No browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportFiles, importExports } from '../../runner/import-exports.mjs';
import { hopbenchBin } from './native.mjs';
import { repoRoot } from './paths.mjs';

/**
 * An export as the runs page writes it, for a person's session of `id`.
 * @param {string} id
 * @param {number} hops
 * @param {number} done
 * @param {number} steps
 * @param {number} activeMs
 */
function personExport(id, hops, done, steps, activeMs) {
  const hopSteps = Array.from({ length: done }, (_, i) => i + 2);
  return {
    format: 'hopbench-trajectory',
    version: 2,
    run: {
      id: `human-${id}`, taskId: id, provider: 'human', status: 'finished', step: steps,
      verdict: { passed: done === hops, hop_steps: hopSteps, reason: `${done} of ${hops} hops` },
      progress: { done, total: hops }, tokens: { input: 0, output: 0 },
      startedAt: 1_000_000 + hops, finishedAt: 1_000_000 + hops + activeMs + 5000, activeMs,
    },
    task: { id, hops: Array.from({ length: hops }, () => ({})), fileName: `${id}.json`, text: '{}' },
    settings: {},
    steps: Array.from({ length: steps }, (_, i) => ({ step: i + 1, observation: { text: `page ${i + 1}`, url: 'http://x.test/' }, action: { text: 'scroll [down]' } })),
    media: {},
  };
}

/**
 * @param {string} id
 * @param {number} hops
 * @param {number} done
 * @param {string} verdict
 */
function agentLine(id, hops, done, verdict) {
  return {
    id, hops_total: hops, hops_completed: done,
    hop_steps: [...Array.from({ length: done }, (_, i) => i + 1), ...Array(hops - done).fill(null)],
    verdict, answer: null, answer_score: null, steps: 7, tokens: { input: 0, output: 0 }, time_ms: 3000,
    error: null, reason: null, attempt: 1, error_kind: null,
  };
}

test("people's exported sessions are imported and reported beside an agent's results", () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-import-human-'));
  try {
    const exports = join(dir, 'exports');
    mkdirSync(exports);
    writeFileSync(join(exports, 'a.json'), JSON.stringify(personExport('t/one', 1, 1, 3, 20_000)));
    writeFileSync(join(exports, 'b.json'), JSON.stringify(personExport('t/three', 3, 3, 8, 61_500)));
    writeFileSync(join(exports, 'c.json'), JSON.stringify(personExport('t/six', 6, 5, 14, 90_000)));
    const humans = join(dir, 'humans');
    assert.deepEqual(importExports(exportFiles([exports]), humans), { runs: 3, provider: 'human' });
    assert.equal(JSON.parse(readFileSync(join(humans, 'run.json'), 'utf8')).provider, 'human');
    const lines = readFileSync(join(humans, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.id, l.verdict, l.hops_completed, l.steps, l.time_ms]), [
      ['t/one', 'PASS', 1, 3, 20_000],
      ['t/three', 'PASS', 3, 8, 61_500],
      ['t/six', 'FAIL', 5, 14, 90_000],
    ]);
    // Importing again into the same folder would count every run twice.
    assert.throws(() => importExports(exportFiles([exports]), humans), /already holds results: import into a new folder/);
    // A file that is not an export is named.
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ id: 'x' }));
    assert.throws(() => importExports([join(dir, 'other.json')], join(dir, 'o2')), /other\.json: not a run exported from the extension/);

    const agents = join(dir, 'agents');
    mkdirSync(agents);
    writeFileSync(join(agents, 'run.json'), JSON.stringify({ provider: 'replay' }));
    writeFileSync(join(agents, 'results.jsonl'), [
      agentLine('t/one', 1, 1, 'PASS'), agentLine('t/three', 3, 1, 'FAIL'), agentLine('t/six', 6, 4, 'FAIL'),
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const out = join(dir, 'report');
    const report = spawnSync(hopbenchBin(), ['report', agents, humans, '--out', out], { encoding: 'utf8' });
    assert.equal(report.status, 0, report.stderr);
    // The agent's own tables are the agent's alone (3 tasks, 1 PASS).
    assert.match(report.stdout, /^3 tasks: 1 PASS, 2 FAIL, 0 ERROR$/m);
    // Human: 1 hop 100/100; 2-4 hops 100/100; 5+ 0 (5/6 = 83.33); overall 2/3 = 66.67 (9/10 = 90.00).
    // Agent: 1 hop 100/100; 2-4 0 (1/3 = 33.33); 5+ 0 (4/6 = 66.67); overall 33.33 (6/10 = 60.00).
    for (const row of [
      '| 1 hop | 1 | 100.00 (100.00) | 1 | 100.00 (100.00) |',
      '| 2-4 hops | 1 | 100.00 (100.00) | 1 | 0.00 (33.33) |',
      '| 5+ hops | 1 | 0.00 (83.33) | 1 | 0.00 (66.67) |',
      '| overall | 3 | 66.67 (90.00) | 3 | 33.33 (60.00) |',
      '| t/three | 3 | PASS 3/3 hops, 8 steps, 61.5 s | FAIL 1/3 hops, 7 steps, 3.0 s, stopped at hop 2 |',
      '| t/six | 6 | FAIL 5/6 hops, 14 steps, 90.0 s, stopped at hop 6 | FAIL 4/6 hops, 7 steps, 3.0 s, stopped at hop 5 |',
    ]) {
      assert.ok(report.stdout.includes(row), `missing ${row} in\n${report.stdout}`);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.human.tasks.length, 3);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    assert.ok(html.includes('<h2>Human vs agent</h2>'));
    // Each person's session has its viewer page, linked from the table.
    assert.match(html, /<a href="trajectories\/[^"]+">PASS 3\/3 hops, 8 steps, 61\.5 s<\/a>/);

    // `./build.sh report` takes the folder of exports itself: imported once into
    // <folder>/imported, then reported with the same tables.
    const direct = spawnSync(join(repoRoot, 'build.sh'), ['report', agents, exports, '--out', join(dir, 'report2')], { encoding: 'utf8' });
    assert.equal(direct.status, 0, direct.stderr);
    assert.match(direct.stderr, /imported 3 human run\(s\) from .*exports into .*exports\/imported/);
    assert.ok(direct.stdout.includes('| overall | 3 | 66.67 (90.00) | 3 | 33.33 (60.00) |'), direct.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
