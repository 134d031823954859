// Before a task starts: can its start URLs be reached at all? A start page that does
// not load makes the extension fail somewhere later with a message about whatever broke
// first (a screenshot of Chrome's error page, an element not found); checking here
// gives the task the clear error "start URL unreachable" instead.
//
// Only failures to connect count (refused, no such host, TLS, reset). Any HTTP answer,
// even 404, 405 or 500, means the page loads in the browser and is the agent's to deal
// with; a server that is merely slow to answer is left to the browser and the per-task
// timeout (a busy server is not an unreachable one). HEAD keeps the check cheap.

const TIMEOUT_MS = 5_000;

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
      const reply = await fetch(parsed, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
      await reply.body?.cancel();
    } catch (error) {
      if (error?.name === 'TimeoutError') continue;
      return `start URL unreachable: ${url} (${networkCause(error)})`;
    }
  }
  return null;
}

function networkCause(error) {
  const cause = error?.cause;
  return cause?.code ?? cause?.message ?? error?.message ?? String(error);
}
