// The runner's proxy auto-config script for --sites task (runner/private-names.mjs),
// run as Chrome runs it: FindProxyForURL with dnsResolve and isInNet, here with a
// resolver of the test's own, so which names go where is checked without a browser.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { allowedNames, pacScript, startNameGuard } from '../../runner/private-names.mjs';

/**
 * The script's FindProxyForURL with `names` as the DNS.
 * @param {string} script
 * @param {Record<string, string>} names
 * @returns {(url: string, host: string) => string}
 */
function loadPac(script, names) {
  const toNumber = (/** @type {string} */ ip) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  const isInNet = (/** @type {string} */ ip, /** @type {string} */ net, /** @type {string} */ mask) =>
    (toNumber(ip) & toNumber(mask)) >>> 0 === (toNumber(net) & toNumber(mask)) >>> 0;
  const dnsResolve = (/** @type {string} */ host) => names[host] ?? null;
  return new Function('dnsResolve', 'isInNet', `${script}\nreturn FindProxyForURL;`)(dnsResolve, isInNet);
}

test('a name resolving to loopback or a private network goes to the refuser unless a task names it', () => {
  const find = loadPac(pacScript(['intranet.example', '127.0.0.1'], 4242), {
    'my-machine': '127.0.1.1',
    'printer.lan': '192.168.1.20',
    'intranet.example': '10.0.0.5',
    'shop.example': '93.184.216.34',
    'sneaky.example': '172.20.0.9',
  });
  const refused = 'PROXY 127.0.0.1:4242';
  assert.equal(find('http://my-machine:8080/x.png', 'my-machine'), refused);
  assert.equal(find('http://printer.lan/', 'printer.lan'), refused);
  assert.equal(find('https://sneaky.example/', 'sneaky.example'), refused);
  assert.equal(find('http://MY-MACHINE:8080/', 'MY-MACHINE'), refused, 'names are compared in lower case');
  assert.equal(find('http://intranet.example/', 'intranet.example'), 'DIRECT', 'a name a task names');
  assert.equal(find('http://shop.example/', 'shop.example'), 'DIRECT', 'a public name');
  assert.equal(find('http://unknown.example/', 'unknown.example'), 'DIRECT', 'a name that does not resolve fails by itself');
  // Literal addresses are the fence's rules' to judge (Chrome sends loopback to no proxy).
  assert.equal(find('http://10.1.2.3/', '10.1.2.3'), 'DIRECT');
  assert.equal(find('http://[fd00::1]/', 'fd00::1'), 'DIRECT');
});

test('the allowed names are the tasks\' site hosts and the model server\'s', () => {
  assert.deepEqual(
    allowedNames([{ siteHosts: ['127.0.0.1', 'wiki.lan'] }, { siteHosts: ['wiki.lan', 'shop.lan'] }], 'http://gpu-box.lan:8080/v1').sort(),
    ['127.0.0.1', 'gpu-box.lan', 'shop.lan', 'wiki.lan'],
  );
  assert.deepEqual(allowedNames([], undefined), []);
});

test('the refuser answers 403 naming what was blocked, for plain requests and CONNECT', async () => {
  const guard = await startNameGuard([]);
  try {
    const flag = guard.args[0];
    assert.match(flag, /^--proxy-pac-url=data:application\/x-ns-proxy-autoconfig;base64,/);
    const port = Number(/PROXY 127\.0\.0\.1:(\d+)/.exec(Buffer.from(flag.split(',')[1], 'base64').toString())?.[1]);
    for (const request of ['GET http://my-machine:8080/x.png HTTP/1.1\r\nhost: my-machine:8080\r\n\r\n', 'CONNECT my-machine:443 HTTP/1.1\r\n\r\n']) {
      const answer = await new Promise((resolve, reject) => {
        let text = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        socket.on('data', (d) => (text += d));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(String(answer), /^HTTP\/1\.1 403 Forbidden\r\n/);
      assert.match(String(answer), /blocked by hopbench \(--sites task\): (http:\/\/)?my-machine:(8080\/x\.png|443) resolves to this machine or a private network, and no task of this batch names it/);
    }
  } finally {
    await guard.close();
  }
});
