// `binring certs`: the CA and the role certificates mutual TLS uses
// (certificate-authority.ts). Run again on the same directory to renew them.
import { isIP } from "node:net";
import { flagName, parseFlags, parsePositiveInt, requireFlag } from "../args.js";
import { LOCAL_HOSTS, writeClusterCertificates } from "../certificate-authority.js";
import { CliError } from "../cli-error.js";
import { defineCommand } from "../command.js";
import { makeDirectory } from "../make-directory.js";

/** Longest validity `--days` takes: certificates are meant to be renewed. */
const MAX_DAYS = 3650;

export const CERTS = defineCommand({
  name: "certs",
  summary:
    "create a CA and keeper, backend, admin and client certificates for mutual TLS (again: renew them)",
  synopsis: "--dir DIR [--hosts H1,H2,...] [--days N]",
  flags: {
    dir: {
      type: "string",
      value: "DIR",
      description:
        "directory to write ca.pem, ca-key.pem and ROLE.pem, ROLE-key.pem into; its CA is kept if present",
    },
    hosts: {
      type: "string",
      value: "H1,H2,...",
      description: `host names or IP addresses the certificates are valid for, besides ${LOCAL_HOSTS.join(", ")}`,
    },
    days: {
      type: "string",
      value: "N",
      default: "365",
      description: `validity of the role certificates (at most ${MAX_DAYS})`,
    },
  },
  example: "binring certs --dir certs --hosts backend-1,backend-2,keeper-0",
});

/** An IPv6 address may come bracketed, as it stands in a member's address; certificates name it bare. */
function bareIPv6(host: string): string {
  const inner = /^\[(.*)\]$/.exec(host)?.[1];
  return inner !== undefined && isIP(inner) === 6 ? inner : host;
}

function parseHosts(value: string | undefined): string[] {
  if (value === undefined) return [];
  const hosts = value.split(",").map((host) => bareIPv6(host.trim()));
  for (const host of hosts) {
    const wildcard = host.startsWith("*.") ? host.slice(2) : host;
    if (
      isIP(host) === 0 &&
      !/^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$/.test(wildcard)
    ) {
      throw new CliError(
        `${flagName("hosts")}: ${JSON.stringify(host)} is neither a host name nor an IP address`,
      );
    }
  }
  return hosts;
}

export async function certsCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(CERTS, args);
  const dir = requireFlag("certs", "dir", values.dir);
  const hosts = parseHosts(values.hosts);
  const days = parsePositiveInt("days", values.days);
  if (days > MAX_DAYS) throw new CliError(`${flagName("days")} must be at most ${MAX_DAYS}, got ${days}`);
  try {
    makeDirectory(dir);
    const written = writeClusterCertificates(dir, hosts, days);
    console.log(
      `${written.newCa ? "created a new CA" : "kept the CA"} in ${dir}; wrote ${written.files.length} files: ${written.files.join(", ")}`,
    );
  } catch (error) {
    throw new CliError(`binring certs: ${(error as Error).message}`);
  }
}
