// Whether a process runs, by its pid: for processes that are not this one's children
// (no exit event to wait for), such as a sandbox another demo started or the runner
// that owned a profile folder.

/**
 * A process that exists counts, also one of another user's (signalling it is refused,
 * not missing).
 * @param {number} pid
 */
export function processExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}
