// With --sites task, the runner's browser reaches no service of this machine or of a
// private network by a host name that no task names.
//
// The extension's fence blocks a page's requests to loopback and private addresses
// written as such (127.0.0.1, 10.x, localhost, [::1]: extension/worker/fence/rules.js),
// but Chrome's request rules match URLs, not the addresses names resolve to: a page's
// <img src="http://my-machine:8080/"> (the machine's own name, which /etc/hosts maps to
// loopback) or any DNS name pointing at 127.0.0.1 reached the batch machine's services.
// A proxy auto-config script can ask what a name resolves to before the request goes
// (dnsResolve), so the browsers the runner launches get one: a name that resolves to a
// loopback or private IPv4 address and that no task of the batch names goes to a small
// local server of ours that answers 403 saying why, never to the service. Names the
// tasks name (an intranet site a task is about) and the model server's go direct.
// Chrome sends loopback addresses and `localhost` names to no proxy at all, which is
// why the fence's rules still judge those.

import { createServer } from 'node:net';

/** Private and loopback IPv4 ranges, as PAC's isInNet takes them. */
const PRIVATE_NETS = Object.freeze([
  ['127.0.0.0', '255.0.0.0'],
  ['10.0.0.0', '255.0.0.0'],
  ['172.16.0.0', '255.240.0.0'],
  ['192.168.0.0', '255.255.0.0'],
  ['169.254.0.0', '255.255.0.0'],
  ['0.0.0.0', '255.255.255.255'],
]);

/**
 * The PAC script: `allowed` names go direct, literal addresses go direct (the fence's
 * rules judge them), a name resolving to a private address goes to `refuserPort`.
 * @param {string[]} allowed host names (lower case)
 * @param {number} refuserPort
 */
export function pacScript(allowed, refuserPort) {
  const nets = PRIVATE_NETS.map(([net, mask]) => `isInNet(ip, '${net}', '${mask}')`).join(' || ');
  return `var ALLOWED = ${JSON.stringify(Object.fromEntries(allowed.map((h) => [h.toLowerCase(), true])))};
function FindProxyForURL(url, host) {
  host = host.toLowerCase();
  if (ALLOWED[host] || /^[0-9.]+$/.test(host) || host.indexOf(':') >= 0) return 'DIRECT';
  var ip = dnsResolve(host);
  if (ip && (${nets})) return 'PROXY 127.0.0.1:${refuserPort}';
  return 'DIRECT';
}`;
}

/**
 * Starts the server that refuses what the PAC script sends it; resolves to the Chromium
 * flag that installs the script and to `close`. `allowed`: the tasks' host names and
 * the model server's.
 * @param {string[]} allowed
 * @returns {Promise<{ args: string[], close: () => Promise<void> }>}
 */
export async function startNameGuard(allowed) {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      // The request line names what was asked for: "GET http://name:port/ HTTP/1.1"
      // through a proxy, or "CONNECT name:port HTTP/1.1" for https.
      const target = String(data).split(' ')[1] ?? '';
      const body = `blocked by hopbench (--sites task): ${target} resolves to this machine or a private network, and no task of this batch names it\n`;
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
  });
  await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  }));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const pac = Buffer.from(pacScript(allowed, port)).toString('base64');
  return {
    args: [`--proxy-pac-url=data:application/x-ns-proxy-autoconfig;base64,${pac}`],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The names a batch's browsers may reach whatever they resolve to: every task's site
 * hosts and the model server's host.
 * @param {{ siteHosts: string[] }[]} tasks
 * @param {string | undefined} baseUrl
 */
export function allowedNames(tasks, baseUrl) {
  const names = new Set(tasks.flatMap((t) => t.siteHosts));
  if (baseUrl) {
    try {
      names.add(new URL(baseUrl).hostname);
    } catch {
      // A base URL that does not parse was refused with the options already.
    }
  }
  return [...names];
}
