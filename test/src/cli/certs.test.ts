// `binring certs --hosts`: each host name or IP address (an IPv6 one bare or
// bracketed, as in a member's address) lands in every role certificate's
// subject alternative names; anything else is refused in one line naming it.

import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/index.js";

describe("binring certs --hosts", () => {
  it("names host names, IPv4 and IPv6 addresses, bracketed or not, besides the local ones", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "binring-certs-")), "certs");
    const made = await runCli(["certs", "--dir", dir, "--hosts", "backend-1, 10.2.0.7,[fd00::2],fd00::3"]);
    expect(made.code, made.stderr).toBe(0);
    for (const role of ["backend", "keeper"]) {
      const names = new X509Certificate(readFileSync(join(dir, `${role}.pem`))).subjectAltName ?? "";
      for (const name of [
        "DNS:backend-1",
        "IP Address:10.2.0.7",
        "IP Address:FD00:0:0:0:0:0:0:2",
        "IP Address:FD00:0:0:0:0:0:0:3",
        "DNS:localhost",
      ]) {
        expect(names, role).toContain(name);
      }
    }
  });

  it("refuses a host that is neither a name nor an address", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "binring-certs-")), "certs");
    const made = await runCli(["certs", "--dir", dir, "--hosts", "backend-1,[not-v6]"]);
    expect(made.code).toBe(2);
    expect(made.stderr.trim()).toBe('--hosts: "[not-v6]" is neither a host name nor an IP address');
  });
});
