// Which keeper an operator's command asks. The cluster file's keepers are
// where the search starts, not the keeper ring: keepers join and leave at
// runtime, so a file's keeper may have left the ring (it answers, from off
// it) while keepers the file does not list joined. Every keeper's status lists
// the ring as it knows it, so a command follows those lists to a keeper on it.
import { fetchKeeperStatus, type KeeperStatus, keepersKeptByBackends } from "@binring/client";
import { StatusCode, type TlsFiles } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import { CliError } from "./cli-error.js";

/**
 * The status of the first keeper on the keeper ring that answers, searching
 * from `start` through the keepers each answer lists, then through those the
 * `backends` keep in their membership (every keeper the file names may have
 * been replaced); of a keeper off the ring only when no keeper on it answers.
 */
export async function ringStatus(
  start: readonly string[],
  tls: TlsFiles | undefined,
  backends: readonly string[] = [],
): Promise<KeeperStatus> {
  const queue = [...start];
  const asked = new Set<string>();
  const failures: string[] = [];
  let offRing: KeeperStatus | undefined;
  let backendsAsked = false;
  while (queue.length > 0 || (!backendsAsked && backends.length > 0)) {
    if (queue.length === 0) {
      backendsAsked = true;
      queue.push(...(await keepersKeptByBackends(backends, tls)));
      continue;
    }
    const keeper = queue.shift()!;
    if (asked.has(keeper)) continue;
    asked.add(keeper);
    try {
      const status = await fetchKeeperStatus(keeper, undefined, tls);
      if (!status.offRing) return status;
      offRing ??= status;
      // Off the ring a keeper still learns the membership: its list leads to the ring.
      queue.unshift(...status.keepers.filter((k) => !k.self).map((k) => k.address));
    } catch (error) {
      failures.push(`${keeper}: ${(error as grpc.ServiceError).details ?? (error as Error).message}`);
    }
  }
  if (offRing) return offRing;
  throw new CliError(`no keeper answered (${failures.join("; ")})`, 1);
}

/**
 * The keepers to ask for a change, in order: the answering keeper if it is on
 * the ring, the live keepers it lists that are not leaving, the others it
 * lists, then the file's.
 */
export function keepersToAsk(status: KeeperStatus, fileKeepers: readonly string[]): string[] {
  const listed = status.keepers.filter((k) => !k.self);
  const ordered = [
    ...(status.offRing ? [] : [status.address]),
    ...listed.filter((k) => k.alive && !k.leaving).map((k) => k.address),
    ...listed.map((k) => k.address),
    ...fileKeepers,
  ];
  return [...new Set(ordered)];
}

/** The keepers to ask for a change, found from `start` (or the `backends`); `start` itself when no keeper answers. */
export function lookUpKeepers(
  start: readonly string[],
  tls: TlsFiles | undefined,
  backends: readonly string[] = [],
): Promise<readonly string[]> {
  return ringStatus(start, tls, backends).then(
    (status) => keepersToAsk(status, start),
    () => start,
  );
}

/**
 * Asks each keeper in turn until one answers. A keeper that does not answer
 * is skipped; a refusal (the change is not allowed) ends the command.
 */
export async function askKeepers<T>(
  keepers: readonly string[],
  ask: (keeper: string) => Promise<T>,
): Promise<T> {
  const failures: string[] = [];
  for (const keeper of keepers) {
    try {
      return await ask(keeper);
    } catch (error) {
      const { code, details } = error as grpc.ServiceError;
      if (code !== StatusCode.UNAVAILABLE && code !== StatusCode.DEADLINE_EXCEEDED) {
        throw new CliError(details ?? (error as Error).message, 1);
      }
      failures.push(`${keeper}: ${details ?? (error as Error).message}`);
    }
  }
  throw new CliError(`no keeper answered (${failures.join("; ")})`, 1);
}
