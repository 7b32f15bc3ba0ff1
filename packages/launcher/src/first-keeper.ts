// A call on the first keeper that takes it: the next is asked when one fails
// (down, restarting), and the last failure is thrown when none takes it.
import type { TlsFiles } from "@binring/core";

export async function firstKeeper<T>(
  keepers: readonly string[],
  tls: TlsFiles | undefined,
  ask: (keeper: string, tls: TlsFiles | undefined) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (const keeper of keepers) {
    try {
      return await ask(keeper, tls);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
