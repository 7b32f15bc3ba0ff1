// TEST ONLY: ways to break binring's guarantees on purpose, so the chaos
// checkers can show they notice (a harness that never fails proves nothing).
// Enabled only by the BinClient option `unsafeSabotage`; `binring chaos`
// passes it from BINRING_SABOTAGE, and only on a cluster it started itself.
import { InvalidArgumentError } from "@binring/core";

/**
 * - "ack-after-primary": a write is applied to its coordinator only (the
 *   bin's primary while it serves reads) and acknowledged at once; the
 *   backups never receive it. A primary's death then loses acknowledged
 *   writes, and reads falling through see old values.
 */
export type Sabotage = "ack-after-primary";

export const SABOTAGES: readonly Sabotage[] = ["ack-after-primary"];

export function parseSabotage(value: unknown): Sabotage | undefined {
  if (value === undefined) return undefined;
  if (!SABOTAGES.includes(value as Sabotage)) {
    throw new InvalidArgumentError(
      `unsafeSabotage must be one of ${SABOTAGES.join(", ")} (test only), got ${JSON.stringify(value)}`,
    );
  }
  return value as Sabotage;
}

/**
 * The replicas a write lists for its coordinator, primary first: every live
 * one (the coordinator applies it to each, last backup first, HAZARDS.md 1) —
 * unless sabotaged.
 */
export function writeReplicas(
  replicas: readonly string[],
  coordinator: string,
  sabotage: Sabotage | undefined,
): string[] {
  if (sabotage === "ack-after-primary") return [coordinator];
  return [...replicas];
}
