// `--join` of `binring backend` and `binring keeper`: once the process
// listens, it asks the keepers of the cluster file to add it (as `binring
// admin add-backend` / `add-keeper` would), trying each in turn until one
// answers. A refusal the cluster's state explains (FAILED_PRECONDITION: the
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
  /** The cluster file's keepers, asked in turn. */
  keepers: readonly string[];
  /** With TLS, the certificate the call presents: an admin's or a keeper's, the roles that change membership. */
  tls: TlsFiles | undefined;
  logger: Logger;
  stopped(): boolean;
  ask(keeper: string, tls: TlsFiles | undefined): Promise<MembershipChange>;
  /** Between attempts. @default JOIN_RETRY_MS */
  retryMs?: number;
}

export async function joinRing(request: JoinRequest): Promise<void> {
  const { what, address, keepers, logger } = request;
  const { tls } = request;
  const giveUpAt = Date.now() + REFUSALS_FOR_MS;
  while (!request.stopped()) {
    let refusal: string | undefined;
    for (const keeper of keepers) {
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
