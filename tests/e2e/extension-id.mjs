// Chrome derives an extension's id from the manifest "key": the first 32 hex digits
// of sha256(DER public key), each digit 0-f written as a letter a-p.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * @param {string} base64Key
 */
export function extensionIdFromKey(base64Key) {
  const hex = createHash('sha256').update(Buffer.from(base64Key, 'base64')).digest('hex');
  return [...hex.slice(0, 32)]
    .map((digit) => String.fromCharCode('a'.charCodeAt(0) + parseInt(digit, 16)))
    .join('');
}

/**
 * @param {string} manifestPath
 */
export function extensionIdFromManifest(manifestPath) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (typeof manifest.key !== 'string') throw new Error(`${manifestPath} has no "key"`);
  return extensionIdFromKey(manifest.key);
}
