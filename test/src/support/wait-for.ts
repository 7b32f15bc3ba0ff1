// Waiting on a condition with a named timeout, instead of sleeping.

export interface WaitOptions {
  /** @default 10000 */
  timeoutMs?: number;
  /** @default 25 */
  intervalMs?: number;
}

/** Polls probe until it returns a truthy value (a throw counts as "not yet"); fails naming what it waited for. */
export async function waitFor<T>(
  name: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${name}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}
