// Core exports that extension pages may call through CORE_CALL.
//
// A whitelist, not `core[msg.fn]`: wasm-bindgen's module also exports `initSync`,
// `default` (init) and memory helpers, which a page message must never reach.
// Each entry checks its own arguments, then calls the export.

/** @type {Record<string, (core: import('./worker/core/types.js').Core, args: unknown[]) => unknown>} */
export const CORE_CALLS = Object.freeze({
  core_version: (core, args) => {
    expectArgs('core_version', args, 0);
    return core.core_version();
  },
  canonical_action: (core, args) => {
    expectArgs('canonical_action', args, 1);
    if (typeof args[0] !== 'string') throw new Error('canonical_action takes the action text');
    return core.canonical_action(args[0]);
  },
  // The popup's picker and its import check: `[{fileName, text}]` in, one
  // `{overview}` or `{error}` per file out, so one bad file does not hide the rest.
  task_overviews: (core, args) => {
    expectArgs('task_overviews', args, 1);
    const files = args[0];
    if (!Array.isArray(files) || !files.every(isTaskFile)) {
      throw new Error('task_overviews takes a list of {fileName, text}');
    }
    return files.map(({ fileName, text }) => {
      try {
        return { overview: core.task_overview(text, fileName) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    });
  },
  // A recorded run as reference_trajectory steps: `[{action, observation}]` in,
  // `{reference, problems}` out (src/agent/to_reference.rs).
  reference_of: (core, args) => {
    expectArgs('reference_of', args, 1);
    const steps = args[0];
    if (!Array.isArray(steps) || !steps.every((s) => typeof s?.action === 'string' && typeof s?.observation === 'string')) {
      throw new Error('reference_of takes a list of {action, observation}');
    }
    return core.reference_of(steps);
  },
});

/**
 * @param {unknown} file
 * @returns {file is { fileName: string, text: string }}
 */
function isTaskFile(file) {
  return (
    typeof file === 'object' && file !== null &&
    'fileName' in file && typeof file.fileName === 'string' && 'text' in file && typeof file.text === 'string'
  );
}

/**
 * @param {string} fn
 * @param {unknown[]} args
 * @param {number} count
 */
function expectArgs(fn, args, count) {
  if (args.length !== count) {
    throw new Error(`${fn} takes ${count} argument(s), got ${args.length}`);
  }
}
