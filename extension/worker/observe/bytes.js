// Base64 and data URLs for binary data (images, screenshots) in the service worker,
// which has no FileReader-free shortcut for either direction.

/** Base64 of `bytes`, built in chunks: String.fromCharCode takes a bounded argument count. */
/** @param {Uint8Array} bytes */
export function bytesToBase64(bytes) {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** @param {string} base64 */
export function base64ToBytes(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `data:<mime>;base64,<data>` → `{mime, base64}`; throws on anything else. */
/** @param {string} dataUrl */
export function parseDataUrl(dataUrl) {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error(`not a base64 data URL: ${String(dataUrl).slice(0, 40)}…`);
  return { mime: match[1], base64: match[2] };
}

/** @param {Blob} blob */
export async function blobToDataUrl(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return `data:${blob.type || 'application/octet-stream'};base64,${bytesToBase64(bytes)}`;
}
