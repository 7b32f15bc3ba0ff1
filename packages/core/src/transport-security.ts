// Mutual TLS between binring processes, and the role a caller's certificate
// grants. One CA signs one certificate per role (`binring certs`); the role is
// the certificate subject's OU. Every server asks for a client certificate and
// refuses a call whose role the service does not admit (roleGuard), before the
// call's handler runs.
//
// Certificates are renewed in place: a TlsIdentity re-reads its files when they
// change (and on reload()), checks the new key matches the new certificate, and
// hands them to grpc-js's certificate-provider credentials, which use them for
// every connection made from then on. Connections already open stay up.
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { InvalidArgumentError } from "./errors.js";

export const ROLES = ["keeper", "backend", "admin", "client"] as const;
export type Role = (typeof ROLES)[number];

/** The PEM files a process presents (cert, key) and trusts (ca). */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/** The files `binring certs` writes into dir for one role. */
export function roleFiles(dir: string, role: Role): TlsFiles {
  return { ca: join(dir, "ca.pem"), cert: join(dir, `${role}.pem`), key: join(dir, `${role}-key.pem`) };
}

/** How often a TlsIdentity looks for renewed files. */
const RENEWAL_CHECK_MS = 1000;

interface Loaded {
  ca: Buffer;
  certificate: Buffer;
  privateKey: Buffer;
  /** The files' change times when read: a renewal changes them. */
  stamps: string;
}

type CaListener = grpc.experimental.CaCertificateUpdateListener;
type IdentityListener = grpc.experimental.IdentityCertificateUpdateListener;

/**
 * The certificate, key and CA of one process, kept current as the files are
 * renewed. A renewal that leaves the files inconsistent (a key that does not
 * match its certificate, half-written PEM) is not used: the previous
 * certificate stays until the files are consistent again.
 */
export class TlsIdentity implements grpc.experimental.CertificateProvider {
  #loaded: Loaded;
  #timer: NodeJS.Timeout | undefined;
  readonly #caListeners = new Set<CaListener>();
  readonly #identityListeners = new Set<IdentityListener>();

  /** Reads and checks the files; throws InvalidArgumentError naming the file that is missing or bad. */
  constructor(readonly files: TlsFiles) {
    this.#loaded = load(files);
  }

  /**
   * Reads the files again if they changed; returns the error that kept a
   * changed set from being used, if any.
   */
  reload(): Error | undefined {
    if (fileStamps(this.files) === this.#loaded.stamps) return undefined;
    try {
      this.#loaded = load(this.files);
    } catch (error) {
      return error as Error;
    }
    const { ca, certificate, privateKey } = this.#loaded;
    for (const listener of this.#caListeners) listener({ caCertificate: ca });
    for (const listener of this.#identityListeners) listener({ certificate, privateKey });
    return undefined;
  }

  /** The certificate, key and CA now in use, for a TLS socket of the process's own (links, link-listener.ts). */
  get material(): { ca: Buffer; cert: Buffer; key: Buffer } {
    const { ca, certificate, privateKey } = this.#loaded;
    return { ca, cert: certificate, key: privateKey };
  }

  /** Credentials for a server that requires a client certificate from this CA. */
  serverCredentials(): grpc.ServerCredentials {
    return grpc.experimental.createCertificateProviderServerCredentials(this, this, true);
  }

  addCaCertificateListener(listener: CaListener): void {
    this.#caListeners.add(listener);
    this.#watch();
    process.nextTick(listener, { caCertificate: this.#loaded.ca });
  }

  removeCaCertificateListener(listener: CaListener): void {
    this.#caListeners.delete(listener);
    this.#unwatchIfUnused();
  }

  addIdentityCertificateListener(listener: IdentityListener): void {
    this.#identityListeners.add(listener);
    this.#watch();
    const { certificate, privateKey } = this.#loaded;
    process.nextTick(listener, { certificate, privateKey });
  }

  removeIdentityCertificateListener(listener: IdentityListener): void {
    this.#identityListeners.delete(listener);
    this.#unwatchIfUnused();
  }

  #watch(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.reload(), RENEWAL_CHECK_MS);
    // Watching must not keep a process alive that has nothing else to do.
    this.#timer.unref();
  }

  #unwatchIfUnused(): void {
    if (this.#caListeners.size > 0 || this.#identityListeners.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

const identities = new Map<string, TlsIdentity>();

/** One TlsIdentity per set of files in a process, shared by every channel and server using them. */
export function tlsIdentity(files: TlsFiles): TlsIdentity {
  const key = `${files.ca}\0${files.cert}\0${files.key}`;
  let identity = identities.get(key);
  if (!identity) {
    identity = new TlsIdentity(files);
    identities.set(key, identity);
  }
  return identity;
}

/**
 * The TLS server name every channel asks for. Servers are checked by the role
 * their certificate carries, not by host name: one certificate per role serves
 * every process of that role, wherever it runs, so a host name would prove
 * nothing the CA does not. (Asking for an IP address as a server name is also
 * deprecated in Node.)
 */
export const TLS_SERVER_NAME = "binring";

/**
 * How a client reaches a server of `serverRole`: mutual TLS with these files,
 * refusing a server whose certificate carries another role, or plaintext
 * without files. Pass `options` to the grpc-js client beside its own.
 */
export function clientSecurity(
  tls: TlsFiles | undefined,
  serverRole: Role,
): { credentials: grpc.ChannelCredentials; options: grpc.ChannelOptions } {
  if (!tls) return { credentials: grpc.credentials.createInsecure(), options: {} };
  const identity = tlsIdentity(tls);
  return {
    credentials: grpc.experimental.createCertificateProviderChannelCredentials(identity, identity, {
      checkServerIdentity: (_name, certificate) => {
        const role = certificateRole(certificate);
        if (role === serverRole) return undefined;
        return new Error(
          `the server presented ${role === undefined ? "a certificate without a binring role" : `${withArticle(role)} certificate`}, not ${withArticle(serverRole)} certificate`,
        );
      },
    }),
    options: { "grpc.ssl_target_name_override": TLS_SERVER_NAME },
  };
}

/** Server credentials: mutual TLS with these files, or plaintext without. */
export function serverCredentials(tls: TlsFiles | undefined): grpc.ServerCredentials {
  return tls ? tlsIdentity(tls).serverCredentials() : grpc.ServerCredentials.createInsecure();
}

/** Which roles may call each service (by its full name); a service not listed admits no one. */
export type ServicePolicy = Readonly<Record<string, readonly Role[]>>;

/**
 * A server interceptor that refuses, with PERMISSION_DENIED naming the call and
 * the role, any call whose caller's certificate carries no role its service
 * admits. It decides on the call's first event, before the handler runs or any
 * message is read. Install it only on a server with TLS credentials.
 */
export function roleGuard(policy: ServicePolicy): grpc.ServerInterceptor {
  return (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, pass) => {
            const peer = call.getAuthContext().sslPeerCertificate;
            const denial = denialOf(policy, method.path, peer?.subject);
            if (denial) call.sendStatus({ code: grpc.status.PERMISSION_DENIED, details: denial });
            else pass(metadata);
          },
        });
      },
    });
}

/** Why the caller may not make the call at `path` ("/package.Service/Method"), or undefined if it may. */
function denialOf(
  policy: ServicePolicy,
  path: string,
  subject: { OU?: string | string[] } | undefined,
): string | undefined {
  const [, service = "", call = path] = path.split("/");
  const allowed = policy[service] ?? [];
  const role = certificateRole({ subject });
  if (role !== undefined && (allowed as readonly string[]).includes(role)) return undefined;
  const needs =
    allowed.length > 0 ? `${withArticle(allowed.join(" or "))} certificate` : "a role no certificate has";
  const has =
    role === undefined ? "a certificate without a binring role" : `${withArticle(role)} certificate`;
  return `permission denied: ${service.replace(/^binring\.v1\./, "")}.${call} needs ${needs}; the caller presented ${has}`;
}

/** "an admin", "a keeper". */
function withArticle(words: string): string {
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The binring role a certificate carries (its subject's OU), if any. */
export function certificateRole(
  certificate: { subject?: { OU?: string | string[] } } | undefined,
): string | undefined {
  return firstOf(certificate?.subject?.OU);
}

function fileStamps(files: TlsFiles): string {
  return [files.ca, files.cert, files.key]
    .map((file) => {
      try {
        return String(statSync(file).mtimeMs);
      } catch {
        return "missing";
      }
    })
    .join(",");
}

function load(files: TlsFiles): Loaded {
  const stamps = fileStamps(files);
  const ca = readPem(files.ca, "CA certificate");
  const certificate = readPem(files.cert, "certificate");
  const privateKey = readPem(files.key, "private key");
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(certificate);
  } catch (error) {
    throw new InvalidArgumentError(
      `certificate ${files.cert} is not a PEM certificate: ${(error as Error).message}`,
    );
  }
  try {
    if (!parsed.checkPrivateKey(createPrivateKey(privateKey))) {
      throw new InvalidArgumentError(`private key ${files.key} does not belong to certificate ${files.cert}`);
    }
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    throw new InvalidArgumentError(
      `private key ${files.key} is not a PEM private key: ${(error as Error).message}`,
    );
  }
  return { ca, certificate, privateKey, stamps };
}

function readPem(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new InvalidArgumentError(
      `${what} ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/**
 * Who may call what. Data calls: applications (client), operators (admin),
 * keepers, and backends (a write's coordinator forwards it to the other
 * replicas as data calls, each within the bounds any caller is held to).
 * Reading the view: clients, operators, keepers, and backends (one forwarding
 * a set it withholds places it by the view, backend-placement.ts). Repair,
 * readiness and the beats keepers exchange: keepers only. So a stolen backend
 * certificate reaches no more than a client's does, beside a backend's link
 * (withholding and releasing sets, storage-service.ts).
 */
export const SERVICE_ROLES: ServicePolicy = {
  "binring.v1.Storage": ["client", "admin", "keeper", "backend"],
  "binring.v1.StorageControl": ["keeper"],
  "binring.v1.Keeper": ["client", "admin", "keeper", "backend"],
  "binring.v1.KeeperAdmin": ["admin", "keeper"],
  "binring.v1.KeeperPeer": ["keeper"],
};

/** Options for a grpc.Server: with TLS, every call passes the role guard first. */
export function securedServerOptions(tls: TlsFiles | undefined): grpc.ServerOptions {
  return tls ? { interceptors: [roleGuard(SERVICE_ROLES)] } : {};
}
