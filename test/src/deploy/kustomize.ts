// Renders a kustomization the way `kustomize build` does, for the features
// deploy/k8s uses and no others: resources (files and directories),
// namespace, nameSuffix, replicas, images, configMapGenerator (create and
// replace, with a content-hash name suffix and references rewritten), inline
// JSON6902 patches (applied with fast-json-patch) and `$patch: delete`. Any
// other field or patch throws, so a manifest can never rely on something this
// renderer silently skips.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import fastJsonPatch from "fast-json-patch";
import { parse, parseAllDocuments } from "yaml";

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are free-form until validated against the schema
  [field: string]: any;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  nameSuffix?: string;
  replicas?: { name: string; count: number }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  configMapGenerator?: { name: string; behavior?: "create" | "replace"; files: string[] }[];
  patches?: { target?: { kind: string; name: string }; patch: string }[];
}

const SUPPORTED = new Set([
  "apiVersion",
  "kind",
  "resources",
  "namespace",
  "nameSuffix",
  "replicas",
  "images",
  "configMapGenerator",
  "patches",
]);
const CLUSTER_SCOPED = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "StorageClass"]);
/** Marks a ConfigMap made by a generator until the top-level build names it. */
const GENERATED = Symbol("generated");

export function readYamlDocuments(path: string): K8sObject[] {
  return parseAllDocuments(readFileSync(path, "utf8")).map((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0]!.message}`);
    return document.toJS() as K8sObject;
  });
}

/** The objects `kustomize build dir` prints. */
export function renderKustomization(dir: string): K8sObject[] {
  const objects = build(dir);
  const renamed = new Map<string, string>();
  for (const object of objects) {
    if (object.kind !== "ConfigMap" || !(GENERATED in object)) continue;
    const hash = createHash("sha256").update(JSON.stringify(object.data)).digest("hex").slice(0, 10);
    renamed.set(object.metadata.name, `${object.metadata.name}-${hash}`);
    object.metadata.name = `${object.metadata.name}-${hash}`;
    delete object[GENERATED];
  }
  for (const object of objects) {
    for (const volume of podSpec(object)?.volumes ?? []) {
      if (volume.configMap && renamed.has(volume.configMap.name))
        volume.configMap.name = renamed.get(volume.configMap.name);
    }
  }
  return objects;
}

function build(dir: string): K8sObject[] {
  const file = join(dir, "kustomization.yaml");
  const kustomization = parse(readFileSync(file, "utf8")) as Kustomization;
  for (const field of Object.keys(kustomization)) {
    if (!SUPPORTED.has(field))
      throw new Error(`${file}: field ${field} is not supported by the test renderer`);
  }
  const objects: K8sObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    objects.push(...(statSync(path).isDirectory() ? build(path) : readYamlDocuments(path)));
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    const data = Object.fromEntries(
      generator.files.map((name) => [basename(name), readFileSync(join(dir, name), "utf8")]),
    );
    const index = objects.findIndex((o) => o.kind === "ConfigMap" && o.metadata.name === generator.name);
    const behavior = generator.behavior ?? "create";
    if ((behavior === "create") !== (index === -1)) {
      throw new Error(`${file}: configMapGenerator ${generator.name} with behavior ${behavior}`);
    }
    const configMap: K8sObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: generator.name },
      data,
    };
    Object.assign(configMap, { [GENERATED]: true });
    if (index === -1) objects.push(configMap);
    else objects[index] = configMap;
  }
  for (const { target, patch } of kustomization.patches ?? []) {
    if (target === undefined) {
      const doomed = parse(patch) as K8sObject & { $patch?: string };
      const index = objects.findIndex(
        (o) => o.kind === doomed.kind && o.metadata.name === doomed.metadata.name,
      );
      if (doomed.$patch !== "delete" || index === -1) {
        throw new Error(
          `${file}: only a "$patch: delete" of an existing resource is supported without a target`,
        );
      }
      objects.splice(index, 1);
      continue;
    }
    const object = objects.find((o) => o.kind === target.kind && o.metadata.name === target.name);
    if (!object)
      throw new Error(`${file}: patch targets ${target.kind}/${target.name}, which is not a resource`);
    fastJsonPatch.applyPatch(object, parse(patch), true, true);
  }
  // kustomize's transformer order: patches, namespace, name suffix, replica counts, images.
  if (kustomization.namespace !== undefined) {
    for (const object of objects) {
      if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
    }
  }
  if (kustomization.nameSuffix !== undefined) {
    // kustomize would also rewrite references to renamed objects; nothing here needs that yet.
    if (objects.some((o) => o.kind === "ConfigMap" || o.kind === "Service")) {
      throw new Error(
        `${file}: nameSuffix over a ConfigMap or Service is not supported by the test renderer`,
      );
    }
    for (const object of objects) object.metadata.name += kustomization.nameSuffix;
  }
  for (const { name, count } of kustomization.replicas ?? []) {
    const target = objects.find(
      (o) => ["StatefulSet", "Deployment"].includes(o.kind) && o.metadata.name === name,
    );
    if (!target) throw new Error(`${file}: replicas names ${name}, which is not a resource`);
    target.spec.replicas = count;
  }
  for (const image of kustomization.images ?? []) {
    for (const object of objects) {
      for (const container of [
        ...(podSpec(object)?.containers ?? []),
        ...(podSpec(object)?.initContainers ?? []),
      ]) {
        const [name, tag] = container.image.split(":");
        if (name !== image.name) continue;
        container.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
      }
    }
  }
  return objects;
}

/** The pod template's spec of a workload, if the object is one. */
// biome-ignore lint/suspicious/noExplicitAny: see K8sObject
export function podSpec(object: K8sObject): any {
  return object.spec?.template?.spec;
}
