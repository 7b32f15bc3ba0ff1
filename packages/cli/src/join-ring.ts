// `--join` of `binring backend` and `binring keeper`: once the process
// listens, it asks the keepers to add it (as `binring admin add-backend` /
// `add-keeper` would), those on the keeper ring first (keeper-lookup.ts),
// trying each in turn until one answers. A refusal the cluster's state explains (FAILED_PRECONDITION: the
// keeper could not reach it yet — a new pod's DNS name appears a little after
// it listens — or it is still leaving) is tried again for a while; a request
// the keeper calls malformed, or refusals past that while, end the attempts.
import { setTimeout as sleep } from "node:timers/promises";
import type { MembershipChange } from "@binring/client";
import { StatusCode, type TlsFiles } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";

/** Between attempts while no keeper answers, or one refuses for now. */
const JOIN_RETRY_MS = 1000;

/** How long refusals are tried again before the process gives up joining (and logs why). */
const REFUSALS_FOR_MS = 120_000;

export interface JoinRequest {
  what: "backend" | "keeper";
  /** The address the cluster reaches this process at. */
  address: string;
  /** The cluster file's keepers: where the lookup starts, and who is asked without one. */
  keepers: readonly string[];
  /** With TLS, the certificate the call presents: an admin's or a keeper's, the roles that change membership. */
  tls: TlsFiles | undefined;
  logger: Logger;
  stopped(): boolean;
  ask(keeper: string, tls: TlsFiles | undefined): Promise<MembershipChange>;
  /** The keepers to ask on each attempt, in order, found from the file's. @default the file's, as listed */
  lookup?(keepers: readonly string[], tls: TlsFiles | undefined): Promise<readonly string[]>;
  /** Between attempts. @default JOIN_RETRY_MS */
  retryMs?: number;
}

export async function joinRing(request: JoinRequest): Promise<void> {
  const { what, address, keepers, logger } = request;
  const { tls } = request;
  const giveUpAt = Date.now() + REFUSALS_FOR_MS;
  while (!request.stopped()) {
    let refusal: string | undefined;
    const asked = (await request.lookup?.(keepers, tls)) ?? keepers;
    for (const keeper of asked.filter((keeper) => keeper !== address)) {
      try {
        const change = await request.ask(keeper, tls);
        logger.info(
          { keeper, address, changed: change.changed },
          `joined the ${what === "backend" ? "ring" : "keeper ring"}`,
        );
        return;
      } catch (error) {
        const { code, details } = error as grpc.ServiceError;
        const reason = details ?? (error as Error).message;
        if (code === StatusCode.UNAVAILABLE || code === StatusCode.DEADLINE_EXCEEDED) continue;
        if (code !== StatusCode.FAILED_PRECONDITION || Date.now() >= giveUpAt) {
          logger.error(
            { keeper, address, err: reason },
            `the keepers refused to add this ${what}; not joining`,
          );
          return;
        }
        refusal = reason;
        break;
      }
    }
    if (refusal) logger.warn({ address, err: refusal }, "the keepers refuse to add it for now; trying again");
    else logger.warn({ keepers }, "no keeper answered; trying to join again");
    await sleep(request.retryMs ?? JOIN_RETRY_MS);
  }
}
