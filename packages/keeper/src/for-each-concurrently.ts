// A bounded pool for independent pieces of a keeper's work (copy tasks,
// drops): at most `limit` run at once, started in the order given.

/** Runs `work` on every item, at most `limit` at a time; resolves when all have finished. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
