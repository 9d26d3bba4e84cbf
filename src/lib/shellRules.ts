/** Small shell rules of SPEC §2 and §9, pure so they can be tested: debug dump, load errors, retries. */

/** SPEC §2: Ctrl+S pressed three times within two seconds logs the state. */
const DEBUG_PRESSES = 3;
const DEBUG_WINDOW_MS = 2000;

/** Keeps the recent Ctrl+S times; returns them and whether this press completes a debug gesture. */
export function debugPress(previous: readonly number[], now: number): { presses: number[]; dump: boolean } {
  const recent = [...previous.filter((t) => now - t < DEBUG_WINDOW_MS), now];
  if (recent.length >= DEBUG_PRESSES) return { presses: [], dump: true };
  return { presses: recent, dump: false };
}

/** Whether an error is a failed dynamic import (a chunk gone after a deploy), which a reload fixes. */
export function isDynamicImportFailure(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}

/**
 * SPEC §2: what a failed lazy load (an island's code on a page) leads to. A dynamic-import failure (the chunk is
 * gone or unreachable: a deploy replaced it) reloads the page; any other load error (the code loaded but failed
 * to start) goes to login.
 */
export function loadErrorAction(error: unknown): 'reload' | 'login' {
  return isDynamicImportFailure(error) ? 'reload' : 'login';
}

/** SPEC §9 translation loading: up to 5 retries, 350 ms first delay, doubling, at most 10 reads at once. */
export const TRANSLATION_RETRY = { retries: 5, firstDelayMs: 350, factor: 2, maxParallel: 10 } as const;

/** The wait before retry n (1-based): 350, 700, 1400, 2800, 5600 ms. */
export function retryDelay(attempt: number, policy = TRANSLATION_RETRY): number {
  return policy.firstDelayMs * policy.factor ** (attempt - 1);
}

/** Runs `load` with the retry policy; `sleep` is injectable for tests. */
export async function withRetries<T>(
  load: () => Promise<T>,
  policy = TRANSLATION_RETRY,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= policy.retries) throw error;
      await sleep(retryDelay(attempt + 1, policy));
    }
  }
}

/** A limiter that runs at most `max` tasks at once (translation reads: 10). */
export function parallelLimit(max: number = TRANSLATION_RETRY.maxParallel) {
  let running = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    running--;
    queue.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => queue.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      next();
    }
  };
}
