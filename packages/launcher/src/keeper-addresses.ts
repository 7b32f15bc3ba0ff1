// Where a local cluster's keepers listen.
import { KeeperRing } from "@binring/keeper";
import { freePort } from "./free-port.js";

/**
 * Free addresses for `count` keepers such that each owns at least one of the
 * backends (when there are enough to go round). Random ports leave some
 * keeper an empty slice in about 3 of 10 clusters of 3 keepers and 6
 * backends: a test of slices or their hand-over would then test nothing. A
 * keeper with an empty slice gets another port until it owns one.
 */
export async function spreadKeepers(
  count: number,
  backends: readonly string[],
  /** Keeper i's host. @default 127.0.0.1 for all */
  hostOf: (i: number) => string = () => "127.0.0.1",
): Promise<string[]> {
  const pick = async (i: number) => `${hostOf(i)}:${await freePort()}`;
  const keepers: string[] = [];
  for (let i = 0; i < count; i++) keepers.push(await pick(i));
  if (count === 0 || count > backends.length) return keepers;
  for (let attempt = 1; ; attempt++) {
    const slices = new KeeperRing(keepers).slices(backends, () => true);
    const idle = keepers.flatMap((keeper, i) => (slices.get(keeper)!.length === 0 ? [i] : []));
    if (idle.length === 0) return keepers;
    if (attempt === 1000) throw new Error(`no keeper layout gives each of ${count} keepers a backend`);
    for (const i of idle) keepers[i] = await pick(i);
  }
}
