// Every permission the manifest asks for is explained in README's table, and nothing
// else is asked for: in particular not `tabs`, whose reads host access already covers
// for the http(s) pages runs visit (README, "Permissions").

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../e2e/paths.mjs';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'manifest.json'), 'utf8'));
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** First-column names of the table under "### Permissions": `name` → its reason. */
function permissionTable() {
  const section = readme.slice(readme.indexOf('### Permissions'));
  const rows = section.slice(0, section.indexOf('\n## ')).split('\n').filter((l) => l.startsWith('| `'));
  return new Map(rows.map((row) => {
    const [, name, why] = /^\| `([^`]+)` \| (.*) \|$/.exec(row) ?? [];
    return [name, why];
  }));
}

test("README's permission table matches the manifest, one reason each", () => {
  const table = permissionTable();
  assert.deepEqual([...table.keys()].sort(), [...manifest.permissions].sort());
  for (const [name, why] of table) assert.ok(why && why.length > 40, `${name}: ${why}`);
  assert.ok(readme.includes('| host `http://*/*`, `https://*/*` |'), 'the host permissions have their row');
  assert.deepEqual(manifest.host_permissions, ['http://*/*', 'https://*/*']);
});

test('no permission that host access already covers', () => {
  assert.ok(!manifest.permissions.includes('tabs'), 'tab URLs and titles of http(s) pages come with host access');
  // The fence's rules act only where host access reaches, without an install warning.
  assert.ok(manifest.permissions.includes('declarativeNetRequestWithHostAccess'));
  assert.ok(!manifest.permissions.includes('declarativeNetRequest'));
});

test('nothing is exposed to web pages or other extensions', () => {
  assert.equal(manifest.externally_connectable, undefined);
  assert.equal(manifest.web_accessible_resources, undefined);
  assert.equal(manifest.content_scripts, undefined);
});
