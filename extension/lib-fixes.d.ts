// Where lib.dom's types say less than the platform does.

interface LockManager {
  // A lock request resolves to what the callback returns, awaited (Web Locks spec,
  // "request a lock": the promise resolves with the callback's result); lib.dom
  // types it as the callback's return type itself, a promise for an async callback.
  request<T>(name: string, callback: (lock: Lock | null) => T): Promise<Awaited<T>>;
  request<T>(name: string, options: LockOptions, callback: (lock: Lock | null) => T): Promise<Awaited<T>>;
}

// The page recorder's object in its isolated world (worker/human/recorder-page.js).
declare var __hopbenchRecorder: { announce(): void; assign(...pairs: unknown[]): number; idOf(handle: number): number | null } | undefined;
