// Where a caller finds the keeper ring when no keeper it knows answers: every
// backend keeps the cluster's membership, keepers' records included
// (backend/kept-membership.ts), and names the keepers on the ring (Keepers).
import { clientSecurity, loadProtocol, type TlsFiles } from "@binring/core";

/** How long a backend has to name its keepers. */
const KEPT_KEEPERS_TIMEOUT_MS = 1000;

/** The keepers the backend at `address` keeps as on the keeper ring; none when it does not answer in time. */
export function keepersKeptBy(address: string, tls: TlsFiles | undefined): Promise<string[]> {
  const security = clientSecurity(tls, "backend");
  const backend = new (loadProtocol().Storage)(address, security.credentials, security.options);
  return new Promise<string[]>((resolve) => {
    backend.Keepers({}, { deadline: new Date(Date.now() + KEPT_KEEPERS_TIMEOUT_MS) }, (error, reply) =>
      resolve(error || !reply ? [] : reply.keepers),
    );
  }).finally(() => backend.close());
}
