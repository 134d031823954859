// Which network requests count as the page's own work when waiting for it to settle
// (settle.js) or for what a focus loads (focus-loads.js).

// Long-lived connections never finish; waiting for them would always time out.
const NEVER_FINISH = new Set(['WebSocket', 'EventSource', 'Ping']);

/**
 * A request the page made and whose end is worth waiting for. Left out: connections
 * that never finish, and what the browser fetches by itself for the tab (the favicon,
 * requested just after the load event): it never changes the page, and on every first
 * visit of a site it would restart the quiet window after the load.
 * @param {{ type?: string, initiator?: { type?: string } } | undefined} params
 *   `Network.requestWillBeSent`'s
 */
export function isPageWork(params) {
  const type = params?.type ?? '';
  if (NEVER_FINISH.has(type)) return false;
  return !(type === 'Other' && params?.initiator?.type === 'other');
}
