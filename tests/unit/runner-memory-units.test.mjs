// Unit tests (no browser) of the runner's memory options and files: parsing of
// --memory, --memory-policy and --memory-sweep, the START_RUN overrides, run.json's
// memory fields, and DIR/memory.jsonl.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError, parseArgs } from '../../runner/args.mjs';
import { runOverrides } from '../../runner/extension.mjs';
import { MEMORY_FILE, appendMemory, memoryRecordOf, readMemoryPool, withMemory } from '../../runner/memory.mjs';
import { prepareRunFolder, runConfig } from '../../runner/run-folder.mjs';

test('memory options: K, the policy, the sweep, and what they refuse', () => {
  const plain = parseArgs(['--tasks', 't']);
  assert.deepEqual([plain.memory, plain.memoryPolicy, plain.memorySweep], [0, 'recent', null]);
  const two = parseArgs(['--tasks', 't', '--memory', '2', '--memory-policy', 'similar']);
  assert.deepEqual([two.memory, two.memoryPolicy], [2, 'similar']);
  assert.deepEqual(parseArgs(['--tasks', 't', '--memory-sweep', '0..3']).memorySweep, { from: 0, to: 3 });
  /** @type {[string[], RegExp][]} */
  const bad = [
    [['--memory', '11'], /--memory takes whole numbers from 0 to 10/],
    [['--memory', '-1'], /--memory takes whole numbers/],
    [['--memory', '2', '--memory-policy', 'random'], /--memory-policy must be one of recent, similar/],
    [['--memory-policy', 'similar'], /--memory-policy has no use without --memory/],
    [['--memory-sweep', '3..1'], /--memory-sweep needs A <= B/],
    [['--memory-sweep', '0-3'], /--memory-sweep takes A\.\.B/],
    [['--memory', '1', '--memory-sweep', '0..2'], /exclude each other/],
  ];
  for (const [argv, message] of bad) {
    assert.throws(() => parseArgs(['--tasks', 't', ...argv]), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  }
});

test('overrides carry K and the policy only when memory is on', () => {
  assert.deepEqual(runOverrides({ provider: 'replay', memory: 0 }), { provider: 'replay' });
  assert.deepEqual(runOverrides({ provider: 'replay', memory: 2, memoryPolicy: 'similar' }), {
    provider: 'replay', memory_k: 2, memory_policy: 'similar',
  });
});

test('run.json: memory fields only when on; a folder never mixes memory settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-memory-units-'));
  try {
    const off = runConfig({ provider: 'replay', memory: 0 });
    assert.equal('memory_k' in off, false);
    const on = runConfig({ provider: 'replay', memory: 2, memoryPolicy: 'recent' });
    assert.deepEqual([on.memory_k, on.memory_policy], [2, 'recent']);
    const a = join(dir, 'a');
    prepareRunFolder(a, on);
    prepareRunFolder(a, on);
    assert.throws(() => prepareRunFolder(a, off), /memory_k=2 memory_policy="recent", not memory_k=null memory_policy=null/);
    const b = join(dir, 'b');
    prepareRunFolder(b, off);
    assert.throws(() => prepareRunFolder(b, on), /holds results run with memory_k=null/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('memory.jsonl: appended in order, read back whole, a bad line named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopbench-memory-units-'));
  try {
    assert.deepEqual(readMemoryPool(dir), []);
    appendMemory(dir, { task_id: 'a' });
    appendMemory(dir, { task_id: 'b' });
    assert.deepEqual(readMemoryPool(dir).map((r) => r.task_id), ['a', 'b']);
    assert.deepEqual(withMemory({ provider: 'replay' }, dir), { provider: 'replay' });
    assert.deepEqual(withMemory({ provider: 'replay', memory_k: 1 }, dir).memory_records.length, 2);
    assert.deepEqual(memoryRecordOf({ run: { memoryRecord: { task_id: 'x' } } }), { task_id: 'x' });
    assert.equal(memoryRecordOf(null), null);
    writeFileSync(join(dir, MEMORY_FILE), `${readFileSync(join(dir, MEMORY_FILE), 'utf8')}{not json\n`);
    assert.throws(() => readMemoryPool(dir), /memory\.jsonl:3 is not valid JSON/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
