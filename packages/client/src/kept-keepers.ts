// Where a caller finds the keeper ring when no keeper it knows answers: every
// backend keeps the cluster's membership, keepers' records included
// (backend/kept-membership.ts), and names the keepers on the ring (Keepers).
import { clientSecurity, isBackendAddress, loadProtocol, type TlsFiles } from "@binring/core";

/** Backends asked at once for the keepers they keep. */
const BACKENDS_ASKED = 8;

/** How long a backend has to name its keepers. */
const KEPT_KEEPERS_TIMEOUT_MS = 1000;

/** The keepers the backend at `address` keeps as on the keeper ring; none when it does not answer in time. */
function keepersKeptBy(address: string, tls: TlsFiles | undefined): Promise<string[]> {
  const security = clientSecurity(tls, "backend");
  const backend = new (loadProtocol().Storage)(address, security.credentials, security.options);
  return new Promise<string[]>((resolve) => {
    backend.Keepers({}, { deadline: new Date(Date.now() + KEPT_KEEPERS_TIMEOUT_MS) }, (error, reply) =>
      resolve(error || !reply ? [] : reply.keepers),
    );
  }).finally(() => backend.close());
}

/** The keepers the first few of `backends` keep, asked at once, each named once; malformed ones dropped. */
export async function keepersKeptByBackends(
  backends: readonly string[],
  tls: TlsFiles | undefined,
): Promise<string[]> {
  const lists = await Promise.all(backends.slice(0, BACKENDS_ASKED).map((b) => keepersKeptBy(b, tls)));
  return [...new Set(lists.flat())].filter(isBackendAddress);
}
