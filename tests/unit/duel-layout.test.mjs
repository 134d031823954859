// Human vs agent's two windows (extension/worker/duel/layout.js) at the display sizes
// people have: both pages usable beside the person's side panel where the display
// allows it, and the person's page usable always.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_PAGE_WIDTH, PANEL_WIDTH, sideBySide } from '../../extension/worker/duel/layout.js';

/** The width each page shows: the agent's whole window, the person's beside the panel. */
const pages = (/** @type {ReturnType<typeof sideBySide>} */ [agent, person]) => ({ agent: agent.width, person: person.width - PANEL_WIDTH });

test('1920x1080 and 1280x720: two pages of the same width, side by side, no overlap', () => {
  for (const [width, height] of [[1920, 1080], [1280, 720]]) {
    const area = { left: 0, top: 0, width, height };
    const [agent, person] = sideBySide(area);
    assert.equal(agent.left + agent.width, person.left, `${width}: they touch, no overlap`);
    assert.equal(person.left + person.width, width, `${width}: the person's window reaches the right edge`);
    const shown = pages([agent, person]);
    assert.ok(Math.abs(shown.agent - shown.person) <= 1, `${width}: ${JSON.stringify(shown)}`);
    assert.ok(shown.person >= MIN_PAGE_WIDTH, `${width}: the person's page is usable (${shown.person} px)`);
    assert.deepEqual([agent.top, agent.height, person.top, person.height], [0, height, 0, height]);
  }
  assert.deepEqual(pages(sideBySide({ left: 0, top: 0, width: 1280, height: 720 })), { agent: 460, person: 460 });
});

test("800x600: the person's page stays usable beside its panel; the agent's window lies partly under it", () => {
  const area = { left: 10, top: 20, width: 800, height: 600 };
  const [agent, person] = sideBySide(area);
  assert.equal(person.left + person.width, 810);
  assert.equal(person.width - PANEL_WIDTH, MIN_PAGE_WIDTH, "the person's page, not 114 px as before");
  assert.equal(agent.left, 10);
  assert.equal(agent.width, MIN_PAGE_WIDTH);
});

test('a display in another place keeps its offsets', () => {
  const [agent, person] = sideBySide({ left: -1920, top: 100, width: 1920, height: 1000 });
  assert.equal(agent.left, -1920);
  assert.equal(person.left + person.width, 0);
});
