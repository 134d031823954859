// The worker's pure helpers, run in node without a browser: key combinations and the
// goto URL check.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkGotoUrl } from '../../extension/worker/act/actions.js';
import { parseKeyCombo } from '../../extension/worker/act/input.js';

describe('key combinations', () => {
  test('modifiers and aliases', () => {
    assert.deepEqual(parseKeyCombo('Control+k'), {
      modifiers: ['Control'],
      key: { key: 'k', code: 'KeyK', vk: 75, text: 'k' },
    });
    assert.deepEqual(parseKeyCombo('ctrl+Shift+P').modifiers, ['Control', 'Shift']);
    assert.equal(parseKeyCombo('Shift+a').key.key, 'A');
    assert.equal(parseKeyCombo('Meta+a').modifiers[0], 'Meta');
  });

  test('named keys type what they type', () => {
    assert.deepEqual(parseKeyCombo('Enter').key, { key: 'Enter', code: 'Enter', vk: 13, text: '\r' });
    assert.equal(parseKeyCombo('esc').key.key, 'Escape');
    assert.equal(parseKeyCombo('PageDown').key.vk, 34);
    assert.equal(parseKeyCombo('Control+-').key.code, 'Minus');
  });

  test('unknown keys and modifiers are errors naming them', () => {
    assert.throws(() => parseKeyCombo('Control+Banana'), /unknown key "Banana"/);
    assert.throws(() => parseKeyCombo('Hyper+k'), /unknown modifier "Hyper"/);
    assert.throws(() => parseKeyCombo(''), /empty/);
  });
});

describe('goto URLs', () => {
  test('http and https pass, normalised', () => {
    assert.equal(checkGotoUrl('https://example.org'), 'https://example.org/');
    assert.equal(checkGotoUrl('http://127.0.0.1:8080/a?b=c'), 'http://127.0.0.1:8080/a?b=c');
  });

  test('other schemes and non-URLs are refused', () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'chrome://settings']) {
      assert.throws(() => checkGotoUrl(url), /only opens http\(s\) URLs/, url);
    }
    assert.throws(() => checkGotoUrl('example.org'), /not a URL/);
  });
});
