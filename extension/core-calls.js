// Core exports that extension pages may call through CORE_CALL.
//
// A whitelist, not `core[msg.fn]`: wasm-bindgen's module also exports `initSync`,
// `default` (init) and memory helpers, which a page message must never reach.
// Each entry checks its own arguments, then calls the export.

/** @type {Record<string, (core: object, args: unknown[]) => unknown>} */
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
});

function expectArgs(fn, args, count) {
  if (args.length !== count) {
    throw new Error(`${fn} takes ${count} argument(s), got ${args.length}`);
  }
}
