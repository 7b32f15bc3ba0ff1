// `binring cluster-file`: writes a cluster file from replica counts and
// address templates, so a StatefulSet's replica count is the only number an
// operator changes (deploy/k8s/scale.sh runs this with the overlay's counts).
import { type ClusterConfig, parseClusterConfig, roleFiles } from "@binring/core";
import { flagName, parseFlags, parseNonNegativeInt, parsePositiveInt, requireFlag } from "../args.js";
import { CliError } from "../cli-error.js";
import { defineCommand } from "../command.js";

export const CLUSTER_FILE = defineCommand({
  name: "cluster-file",
  summary: "print a cluster file for StatefulSets of backends and keepers (deploy/k8s/scale.sh runs it)",
  synopsis: "--backends N [options]",
  flags: {
    backends: { type: "string", value: "N", description: "backends (per zone with --zones); required" },
    keepers: { type: "string", value: "M", default: "0", description: "keepers" },
    zones: {
      type: "string",
      value: "A,B,C",
      description: "zone names (a-z, 0-9, -): --backends backends in each, a bin's copies in different zones",
    },
    "backend-address": {
      type: "string",
      value: "TEMPLATE",
      default: "backend-{i}.backend:7000",
      description: "backend i's address; {zone} stands for its zone",
    },
    "keeper-address": {
      type: "string",
      value: "TEMPLATE",
      default: "keeper-{i}.keeper:7600",
      description: "keeper i's address",
    },
    "tls-dir": {
      type: "string",
      value: "DIR",
      description:
        'name the client certificate `binring certs` wrote in DIR (as the file\'s readers see DIR) in a "tls" section',
    },
  },
  example: "binring cluster-file --backends 6 --keepers 3 > binring.json",
});

export async function clusterFileCommand(args: string[]): Promise<void> {
  const { values } = parseFlags(CLUSTER_FILE, args);
  const backends = parsePositiveInt("backends", requireFlag("cluster-file", "backends", values.backends));
  const keepers = parseNonNegativeInt("keepers", values.keepers);
  const backendTemplate = values["backend-address"];
  const keeperTemplate = values["keeper-address"];
  const zones = values.zones?.split(",") ?? [];
  if (zones.some((zone) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(zone))) {
    throw new CliError(
      `${flagName("zones")} must be comma-separated zone names (a-z, 0-9, -), got ${JSON.stringify(values.zones)}`,
    );
  }
  if (zones.length > 0 && !backendTemplate.includes("{zone}")) {
    throw new CliError(
      `${flagName("backend-address")} must contain {zone} when --zones is given (one StatefulSet per zone)`,
    );
  }
  for (const [flag, template] of [
    ["backend-address", backendTemplate],
    ["keeper-address", keeperTemplate],
  ]) {
    if (!template!.includes("{i}"))
      throw new CliError(`${flagName(flag!)} must contain {i}, got ${JSON.stringify(template)}`);
  }
  const address = (template: string, i: number, zone = "") =>
    template.replaceAll("{i}", String(i)).replaceAll("{zone}", zone);
  const ordinals = (n: number) => Array.from({ length: n }, (_, i) => i);
  const file: ClusterConfig = {
    backends: [],
    keepers: ordinals(keepers).map((i) => address(keeperTemplate, i)),
  };
  if (zones.length === 0) {
    file.backends = ordinals(backends).map((i) => address(backendTemplate, i));
  } else {
    // --backends is per zone: zone z runs StatefulSet backend-z with that many replicas.
    file.zones = {};
    for (const zone of zones) {
      for (const i of ordinals(backends)) {
        const backend = address(backendTemplate, i, zone);
        file.backends.push(backend);
        file.zones[backend] = zone;
      }
    }
  }
  const tlsDir = values["tls-dir"];
  if (tlsDir !== undefined) {
    if (tlsDir === "") throw new CliError(`${flagName("tls-dir")} must be a directory, got ""`);
    file.tls = roleFiles(tlsDir, "client");
  }
  try {
    parseClusterConfig(file, "generated cluster file");
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
}
