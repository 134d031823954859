// Before a task starts: can its start URLs be reached at all? A start page that does
// not load makes the extension fail somewhere later with a message about whatever broke
// first (a screenshot of Chrome's error page, an element not found); checking here
// gives the task the clear error "start URL unreachable" instead.
//
// Only network failures count (refused, no such host, TLS, timeout): a page that
// answers with 404 or 500 still loads in the browser and is the agent's to deal with.

const TIMEOUT_MS = 10_000;

/** @returns {Promise<string | null>} the error for the first unreachable URL, or null */
export async function unreachableStart(startUrls) {
  for (const url of startUrls ?? []) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return `start URL is not a URL: ${url}`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
    try {
      const reply = await fetch(parsed, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
      await reply.body?.cancel();
    } catch (error) {
      return `start URL unreachable: ${url} (${networkCause(error)})`;
    }
  }
  return null;
}

function networkCause(error) {
  if (error?.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = error?.cause;
  return cause?.code ?? cause?.message ?? error?.message ?? String(error);
}
