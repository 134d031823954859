// Schema upgrades of the trajectory store (IndexedDB `hopbench`, run/trajectories.js), run in
// the versionchange transaction of indexedDB.open: all or nothing.
//
// Version 2 repairs the media keys of version 1. Version 1 keyed each observation
// image by its element id alone (`17`): the image's own `id` overwrote the key when
// the row was built. So a later step or run that showed an element with the same id
// replaced the picture (and took it over: the row's runId and step became the later
// ones). A numeric row is therefore the picture of exactly the (runId, step) it names;
// every other step that referred to that number lost its picture. The upgrade moves
// each numeric row to its proper key `<runId>/<step>/image-<element id>` and rewrites
// the steps' references: the step the row names gets the new key, any other gets a
// marker `{lost, element}`, so a viewer says the picture is lost instead of showing
// another run's.
//
// Version 3 adds `memory`: one procedural-memory record per finished run.

export const DB_VERSION = 3;

/** Why a version 1 step has no picture for an element (kept in its `lost` marker). */
export const LOST_IN_V1 =
  'this picture was overwritten before hopbench stored media per run and step ' +
  '(a later step or run showed an element with the same id)';

/**
 * @param {IDBDatabase} db
 * @param {IDBTransaction} tx the versionchange transaction
 * @param {number} oldVersion 0 for a new database
 * @param {{ runs: string, steps: string, media: string, memory: string }} names the store names
 */
export function upgradeStores(db, tx, oldVersion, names) {
  if (!db.objectStoreNames.contains(names.runs)) {
    db.createObjectStore(names.runs, { keyPath: 'id' });
  }
  if (!db.objectStoreNames.contains(names.steps)) {
    // Keys sort by run, then step number: a run's steps come back in order.
    db.createObjectStore(names.steps, { keyPath: ['runId', 'step'] });
  }
  if (!db.objectStoreNames.contains(names.media)) {
    db.createObjectStore(names.media, { keyPath: 'id' }).createIndex('runId', 'runId');
  }
  if (!db.objectStoreNames.contains(names.memory)) {
    // Keyed by run: finishing a run twice keeps one record, deleting it forgets it.
    db.createObjectStore(names.memory, { keyPath: 'runId' });
  }
  if (oldVersion === 1) rekeyImages(tx, names);
}

const owner = (/** @type {string} */ runId, /** @type {number} */ step, /** @type {unknown} */ elementId) => `${runId}\n${step}\n${elementId}`;

/**
 * @param {IDBTransaction} tx
 * @param {{ media: string, steps: string }} names
 */
function rekeyImages(tx, names) {
  /** owner(runId, step, element id) → the row's new key */
  /** @type {Map<string, string>} */
  const moved = new Map();
  const media = tx.objectStore(names.media);
  // Only numeric keys need moving; they sort before every string key.
  const cursorRequest = media.openCursor(IDBKeyRange.upperBound(Number.MAX_VALUE));
  cursorRequest.onsuccess = () => {
    const cursor = cursorRequest.result;
    if (!cursor) {
      rewriteReferences(tx.objectStore(names.steps), moved);
      return;
    }
    const row = cursor.value;
    const elementId = row.elementId ?? cursor.primaryKey;
    const id = `${row.runId}/${row.step}/image-${elementId}`;
    moved.set(owner(row.runId, row.step, elementId), id);
    cursor.delete();
    media.put({ ...row, id, elementId });
    cursor.continue();
  };
}

/**
 * @param {IDBObjectStore} steps
 * @param {Map<string, string>} moved
 */
function rewriteReferences(steps, moved) {
  const cursorRequest = steps.openCursor();
  cursorRequest.onsuccess = () => {
    const cursor = cursorRequest.result;
    if (!cursor) return;
    const step = cursor.value;
    const images = step.observation?.images;
    if (Array.isArray(images) && images.some((/** @type {unknown} */ ref) => typeof ref === 'number')) {
      const rewritten = images.map((/** @type {unknown} */ ref) =>
        typeof ref === 'number'
          ? (moved.get(owner(step.runId, step.step, ref)) ?? { lost: LOST_IN_V1, element: ref })
          : ref,
      );
      cursor.update({ ...step, observation: { ...step.observation, images: rewritten } });
    }
    cursor.continue();
  };
}
