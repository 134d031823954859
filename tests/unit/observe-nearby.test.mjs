// The input of a page read near the viewport only (extension/worker/observe/input.js
// `nearbyInput`, `unwalked`): the walk's boxes land in a snapshot of one document
// beside the accessibility nodes asked for one by one, in the shape the core reads
// for a page read whole, and only a list marker's kind of child is asked for again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearbyInput, unwalked } from '../../extension/worker/observe/input.js';

/**
 * @param {string} id
 * @param {string} role
 * @param {string[]} [childIds]
 * @returns {import('../types.mjs').Json}
 */
const ax = (id, role, childIds = []) => ({
  nodeId: id, backendDOMNodeId: Number(id), ignored: false, role: { type: 'role', value: role },
  name: { type: 'computedString', value: `${role} ${id}`, sources: [{ type: 'contents' }] }, childIds,
});

// The document, a list (its 100,000 items named; two read), an item with its marker,
// an image, an iframe, and a text of the item that left the page before it was read.
const axNodes = [
  ax('1', 'RootWebArea', ['2']),
  ax('2', 'list', ['3', '9', '4', '10']),
  ax('3', 'listitem', ['8', '30', '-1000']),
  ax('4', 'image'),
  ax('5', 'Iframe'),
  null,
];
const meta = {
  rects: [[0, 0, 800, 4000], [8, 20, 300, 18], [8, 40, 100, 50], [0, 100, 400, 300], null],
  clients: [null, null, null, [2, 2, 396, 296], null],
  sources: [null, null, 'http://a.test/p.png', null, null],
  whole: [false, true, false, false, false],
  scrollX: 0,
  scrollY: 120,
  visits: 40,
  cut: false,
};

test('the nodes read make one tree and one snapshot document with their boxes only', () => {
  const input = nearbyInput({
    targetId: null, owner: null, frameId: 'MAIN', meta, axNodes, more: [ax('8', 'ListMarker')], elements: 200_000,
  });
  assert.deepEqual(input.cut, { elements: 200_000, read: 6 });
  const nodes = input.frames[0].nodes;
  assert.deepEqual(nodes.map((n) => n.nodeId), ['1', '2', '3', '4', '5', '8']);
  // Children not read are left out of each childIds; name sources are trimmed.
  assert.deepEqual(nodes.map((n) => n.childIds), [['2'], ['3', '4'], ['8'], [], [], []]);
  assert.deepEqual(nodes[1].name, { value: 'list 2' });
  const [doc] = input.snapshot.documents;
  assert.equal(input.snapshot.strings[doc.frameId], 'MAIN');
  assert.equal(doc.scrollOffsetY, 120);
  assert.deepEqual(doc.nodes.backendNodeId, [2, 3, 4, 5]);
  assert.deepEqual(doc.layout.nodeIndex, [0, 1, 2, 3]);
  assert.deepEqual(doc.layout.bounds, meta.rects.slice(0, 4));
  // Client rects are an iframe's only (the core reads its content box from them).
  assert.deepEqual(doc.layout.clientRects, [[], [], [], [2, 2, 396, 296]]);
  assert.deepEqual(doc.nodes.currentSourceURL, { index: [2], value: [1] });
  assert.equal(input.snapshot.strings[1], 'http://a.test/p.png');
});

test('only children of an element whose DOM children were all read are asked for again', () => {
  // The item (whole) misses its marker 8 and a pseudo-element 30 (its text run -1000
  // has no node); the list (not whole) misses items the walk left out: not asked.
  assert.deepEqual(unwalked(axNodes, meta, 100), [8, 30]);
  assert.deepEqual(unwalked(axNodes, meta, 1), [8]);
});
