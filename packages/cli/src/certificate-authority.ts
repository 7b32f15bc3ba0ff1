// The certificates of a binring cluster: one CA, and one certificate per role
// signed by it, the role in the subject's OU (core/transport-security.ts reads
// it from there). Keys come from node:crypto; node-forge builds and signs the
// X.509 certificates, which Node itself cannot create.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import { ROLES, type Role, roleFiles } from "@binring/core";
import forge from "node-forge";

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  certificate: string;
  key: string;
}

/** Names every certificate is valid for, besides the ones asked for: the local machine. */
export const LOCAL_HOSTS = ["localhost", "127.0.0.1", "::1"];

/** A CA outlives the certificates it signs: renewing them keeps it. */
const CA_DAYS = 3650;

function newKey(): { publicKey: forge.pki.PublicKey; privateKey: forge.pki.rsa.PrivateKey; pem: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  return {
    privateKey: forgeKey,
    publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
    pem,
  };
}

function validity(certificate: forge.pki.Certificate, days: number): void {
  const now = Date.now();
  // A minute back, so a peer whose clock is slightly behind accepts it at once.
  certificate.validity.notBefore = new Date(now - 60_000);
  certificate.validity.notAfter = new Date(now + days * 86_400_000);
  // Positive and unique: the top bit cleared keeps the DER integer positive.
  certificate.serialNumber = `0${randomBytes(16).toString("hex").slice(1)}`;
}

/** A new self-signed CA. */
export function createCa(): KeyPair {
  const key = newKey();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = key.publicKey;
  validity(certificate, CA_DAYS);
  const name = [
    { shortName: "O", value: "binring" },
    { shortName: "CN", value: "binring CA" },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  certificate.sign(key.privateKey, forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(certificate), key: key.pem };
}

/** A certificate for `role`, valid for `hosts` (names or IP addresses) as a server and as a client. */
export function issue(ca: KeyPair, role: Role, hosts: readonly string[], days: number): KeyPair {
  const caCertificate = forge.pki.certificateFromPem(ca.certificate);
  const caKey = forge.pki.privateKeyFromPem(ca.key) as forge.pki.rsa.PrivateKey;
  const key = newKey();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = key.publicKey;
  validity(certificate, days);
  certificate.setSubject([
    { shortName: "O", value: "binring" },
    { shortName: "OU", value: role },
    { shortName: "CN", value: role },
  ]);
  certificate.setIssuer(caCertificate.subject.attributes);
  certificate.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    {
      name: "subjectAltName",
      altNames: hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })),
    },
    { name: "subjectKeyIdentifier" },
    {
      name: "authorityKeyIdentifier",
      keyIdentifier: caCertificate.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  certificate.sign(caKey, forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(certificate), key: key.pem };
}

/** Writes through a temporary file and a rename, so a process watching the file never reads half of it. */
function writeAtomically(path: string, content: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  renameSync(temporary, path);
}

export interface WrittenCertificates {
  /** Whether the CA was created now (false: the one in the directory was kept). */
  newCa: boolean;
  files: string[];
}

/**
 * Writes a certificate and key for every role into `dir`, signed by the CA
 * found there (ca.pem, ca-key.pem) or by a new one. Running it again renews the
 * role certificates under the same CA: processes watching the files pick them up.
 */
export function writeClusterCertificates(
  dir: string,
  hosts: readonly string[],
  days: number,
): WrittenCertificates {
  const caFile = join(dir, "ca.pem");
  const caKeyFile = join(dir, "ca-key.pem");
  const newCa = !existsSync(caFile) || !existsSync(caKeyFile);
  const ca = newCa
    ? createCa()
    : { certificate: readFileSync(caFile, "utf8"), key: readFileSync(caKeyFile, "utf8") };
  const files: string[] = [];
  if (newCa) {
    writeAtomically(caKeyFile, ca.key, 0o600);
    writeAtomically(caFile, ca.certificate, 0o644);
    files.push(caFile, caKeyFile);
  }
  const names = [...new Set([...LOCAL_HOSTS, ...hosts])];
  for (const role of ROLES) {
    const { cert, key } = roleFiles(dir, role);
    const issued = issue(ca, role, names, days);
    // The key first: until the certificate follows, a watcher sees a pair that does not match and keeps the old one.
    writeAtomically(key, issued.key, 0o600);
    writeAtomically(cert, issued.certificate, 0o644);
    files.push(cert, key);
  }
  return { newCa, files };
}
