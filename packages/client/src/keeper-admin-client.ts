// Membership changes on a keeper (gRPC KeeperAdmin): add a running backend to
// the ring, or decommission one; add a running keeper to the keeper ring, or
// take one off it. Any keeper takes them; an operator's tools
// (binring admin) try each keeper of the cluster file until one answers.
import { clientSecurity, loadProtocol, type MembershipReply__Output, type TlsFiles } from "@binring/core";

/** How long one membership call may take: an add first checks that the member answers, then waits for a backend to store the change. */
export const KEEPER_ADMIN_TIMEOUT_MS = 10_000;

export interface MembershipChange {
  /** false when the request changed nothing (already a member, already leaving). */
  changed: boolean;
  status: "member" | "leaving" | "removed";
}

const STATUS_FROM_WIRE: Record<string, MembershipChange["status"]> = {
  MEMBER_STATUS_MEMBER: "member",
  MEMBER_STATUS_LEAVING: "leaving",
  MEMBER_STATUS_REMOVED: "removed",
};

/**
 * Asks the keeper at `keeper` to add the backend at `address` (in `zone`, "" for none).
 * Rejects with the call's grpc-js ServiceError: its `details` say why.
 */
export function addBackend(
  keeper: string,
  address: string,
  zone: string,
  tls?: TlsFiles,
): Promise<MembershipChange> {
  return call(keeper, tls, (client, deadline, done) =>
    client.AddBackend({ address, zone }, { deadline }, done),
  );
}

/** Asks the keeper at `keeper` to decommission the backend at `address`. */
export function removeBackend(keeper: string, address: string, tls?: TlsFiles): Promise<MembershipChange> {
  return call(keeper, tls, (client, deadline, done) => client.RemoveBackend({ address }, { deadline }, done));
}

/** Asks the keeper at `keeper` to add the running keeper at `address` to the keeper ring. */
export function addKeeper(keeper: string, address: string, tls?: TlsFiles): Promise<MembershipChange> {
  return call(keeper, tls, (client, deadline, done) => client.AddKeeper({ address }, { deadline }, done));
}

/** Asks the keeper at `keeper` to take the keeper at `address` off the keeper ring. */
export function removeKeeper(keeper: string, address: string, tls?: TlsFiles): Promise<MembershipChange> {
  return call(keeper, tls, (client, deadline, done) => client.RemoveKeeper({ address }, { deadline }, done));
}

type AdminClient = InstanceType<ReturnType<typeof loadProtocol>["KeeperAdmin"]>;

function call(
  keeper: string,
  tls: TlsFiles | undefined,
  send: (
    client: AdminClient,
    deadline: Date,
    done: (error: Error | null, reply?: MembershipReply__Output) => void,
  ) => void,
): Promise<MembershipChange> {
  const security = clientSecurity(tls, "keeper");
  const client = new (loadProtocol().KeeperAdmin)(keeper, security.credentials, security.options);
  return new Promise((resolve, reject) => {
    send(client, new Date(Date.now() + KEEPER_ADMIN_TIMEOUT_MS), (error, reply) => {
      client.close();
      if (error || !reply) reject(error ?? new Error(`${keeper}: empty reply`));
      else resolve({ changed: reply.changed, status: STATUS_FROM_WIRE[reply.status] ?? "member" });
    });
  });
}
