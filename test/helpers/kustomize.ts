/**
 * A small renderer of kustomizations, for test/service/deploy-manifests.test.ts: no kustomize binary
 * can be installed from the registries this project reaches (Debian's kubectl 1.20 embeds a
 * kustomize too old for `labels` and `patches`, npm has none), and the manifests must be
 * checked as the cluster will see them. Where `kubectl` is on the PATH, the test compares
 * this renderer's output with `kubectl kustomize`.
 *
 * It implements exactly the subset deploy/kubernetes uses, in kustomize's order, and throws
 * on anything else rather than render it wrongly:
 * - `resources`: YAML files (several documents each) and folders holding a kustomization;
 * - `patches`: inline JSON 6902 operations (`add`, `replace`, `remove`), aimed by `kind`
 *   and/or `name`;
 * - `namespace`: set on every namespaced object;
 * - `namePrefix` / `nameSuffix`, and a renamed Deployment's name in the
 *   HorizontalPodAutoscalers of the same kustomization (the only reference followed: renaming
 *   any other kind that objects refer to throws);
 * - `labels` (`pairs`, `includeSelectors`, `includeTemplates`): metadata, pod templates, and
 *   the selectors of Deployments, Services, PodDisruptionBudgets and topology spread
 *   constraints (NetworkPolicies may be labelled, but not their selectors);
 * - `images` (`name`, `newName`, `newTag`) in containers and init containers.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

type Json = Record<string, unknown>;

interface Kustomization {
  resources?: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }[];
  patches?: { target?: { kind?: string; name?: string }; patch?: string }[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'namePrefix', 'nameSuffix', 'labels', 'patches', 'images']);
/** Kinds nothing here refers to by name except as handled (HPA → Deployment). */
const RENAMEABLE = new Set(['Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Job']);
const CLUSTER_SCOPED = new Set(['Namespace']);

export interface Rendered {
  objects: Json[];
  /** Every manifest file read, absolute. */
  files: string[];
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The mapping at `keys` under `root`, created on the way when `create` is set. */
function at(root: Json, keys: string[], create = false): Json | undefined {
  let node: Json = root;
  for (const key of keys) {
    const next = node[key];
    if (isJson(next)) node = next;
    else if (create && next === undefined) node = node[key] = {};
    else return undefined;
  }
  return node;
}

function readKustomization(dir: string): Kustomization {
  const file = path.join(dir, 'kustomization.yaml');
  const value: unknown = parse(readFileSync(file, 'utf8'));
  if (!isJson(value) || value.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || value.kind !== 'Kustomization') {
    throw new Error(`${file}: not a kustomize.config.k8s.io/v1beta1 Kustomization`);
  }
  const unknown = Object.keys(value).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length > 0) throw new Error(`${file}: ${unknown.join(', ')} not implemented by test/helpers/kustomize.ts`);
  return value as Kustomization;
}

/** RFC 6901 pointer segments. */
function pointer(text: string): string[] {
  return text.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function applyOperation(object: Json, op: unknown, where: string): void {
  if (!isJson(op) || typeof op.path !== 'string') throw new Error(`${where}: not a JSON 6902 operation`);
  const keys = pointer(op.path);
  const last = keys.pop() ?? '';
  let parent: unknown = object;
  for (const key of keys) parent = Array.isArray(parent) ? parent[Number(key)] : isJson(parent) ? parent[key] : undefined;
  if (parent === undefined) throw new Error(`${where}: ${op.path} does not exist`);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (op.op === 'add') parent.splice(index, 0, op.value);
    else if (op.op === 'replace' && index < parent.length) parent[index] = op.value;
    else if (op.op === 'remove' && index < parent.length) parent.splice(index, 1);
    else throw new Error(`${where}: ${String(op.op)} ${op.path} not applicable`);
  } else if (isJson(parent)) {
    if (op.op === 'add' || (op.op === 'replace' && last in parent)) parent[last] = op.value;
    else if (op.op === 'remove' && last in parent) delete parent[last];
    else throw new Error(`${where}: ${String(op.op)} ${op.path} not applicable`);
  }
}

function applyPatches(objects: Json[], patches: NonNullable<Kustomization['patches']>, where: string): void {
  for (const { target = {}, patch, ...rest } of patches) {
    const extra = [...Object.keys(rest), ...Object.keys(target).filter((k) => k !== 'kind' && k !== 'name')];
    if (patch === undefined || extra.length > 0) throw new Error(`${where}: only inline patches aimed by kind and name are implemented`);
    const operations: unknown = parse(patch);
    if (!Array.isArray(operations)) throw new Error(`${where}: strategic-merge patches are not implemented; use JSON 6902 operations`);
    const aimed = objects.filter((o) => (target.kind === undefined || o.kind === target.kind) && (target.name === undefined || at(o, ['metadata'])?.name === target.name));
    if (aimed.length === 0) throw new Error(`${where}: a patch aimed at ${JSON.stringify(target)} matches nothing`);
    for (const object of aimed) for (const op of operations) applyOperation(object, op, where);
  }
}

function rename(objects: Json[], prefix: string, suffix: string, where: string): void {
  const renamed = new Map<string, string>();
  for (const object of objects) {
    const metadata = at(object, ['metadata'], true) ?? {};
    const kind = String(object.kind);
    if (!RENAMEABLE.has(kind)) throw new Error(`${where}: renaming a ${kind} (and following references to it) is not implemented`);
    const name = `${prefix}${String(metadata.name)}${suffix}`;
    renamed.set(`${kind}/${String(metadata.name)}`, name);
    metadata.name = name;
  }
  for (const object of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const ref = at(object, ['spec', 'scaleTargetRef']);
    const name = ref ? renamed.get(`${String(ref.kind)}/${String(ref.name)}`) : undefined;
    if (ref && name) ref.name = name;
  }
}

function addLabels(objects: Json[], entry: NonNullable<Kustomization['labels']>[number]): void {
  const set = (node: Json | undefined): void => {
    if (node) Object.assign(node, entry.pairs);
  };
  for (const object of objects) {
    set(at(object, ['metadata', 'labels'], true));
    if (entry.includeSelectors || entry.includeTemplates) set(at(object, ['spec', 'template', 'metadata', 'labels'], at(object, ['spec', 'template']) !== undefined));
    if (!entry.includeSelectors) continue;
    if (object.kind === 'Deployment') set(at(object, ['spec', 'selector', 'matchLabels'], true));
    if (object.kind === 'PodDisruptionBudget') set(at(object, ['spec', 'selector', 'matchLabels']));
    if (object.kind === 'Service') set(at(object, ['spec', 'selector']));
    if (object.kind === 'NetworkPolicy') throw new Error('labels with includeSelectors on a NetworkPolicy (its pod and peer selectors) are not implemented');
    const pod = at(object, ['spec', 'template', 'spec']);
    if (pod?.affinity !== undefined) throw new Error('labels on pods with affinity rules are not implemented');
    for (const constraint of Array.isArray(pod?.topologySpreadConstraints) ? pod.topologySpreadConstraints : []) {
      if (isJson(constraint)) set(at(constraint, ['labelSelector', 'matchLabels']));
    }
  }
}

function setImages(objects: Json[], images: NonNullable<Kustomization['images']>): void {
  for (const object of objects) {
    const pod = at(object, ['spec', 'template', 'spec']);
    const containers = [pod?.initContainers, pod?.containers].flatMap((list) => (Array.isArray(list) ? list : []));
    for (const container of containers) {
      if (!isJson(container) || typeof container.image !== 'string') continue;
      const [, name = '', tag = ''] = /^([^:@]+)(.*)$/.exec(container.image) ?? [];
      const image = images.find((i) => i.name === name);
      if (image) container.image = `${image.newName ?? name}${image.newTag === undefined ? tag : `:${image.newTag}`}`;
    }
  }
}

/** The objects `kubectl kustomize DIR` would print (as plain JSON), and the files read. */
export function renderKustomization(dir: string): Rendered {
  const k = readKustomization(dir);
  const where = path.join(dir, 'kustomization.yaml');
  const objects: Json[] = [];
  const files: string[] = [];
  for (const resource of k.resources ?? []) {
    const target = path.resolve(dir, resource);
    if (!existsSync(target)) throw new Error(`${where}: ${resource} does not exist`);
    if (statSync(target).isDirectory()) {
      const inner = renderKustomization(target);
      objects.push(...inner.objects);
      files.push(...inner.files, path.join(target, 'kustomization.yaml'));
      continue;
    }
    files.push(target);
    for (const doc of parseAllDocuments(readFileSync(target, 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${target}: ${doc.errors.map((e) => e.message).join('; ')}`);
      const value: unknown = doc.toJS();
      if (value === null || value === undefined) continue;
      if (!isJson(value)) throw new Error(`${target}: a document that is not a mapping`);
      objects.push(value);
    }
  }
  applyPatches(objects, k.patches ?? [], where);
  if (k.namespace !== undefined) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(String(o.kind))) (at(o, ['metadata'], true) ?? {}).namespace = k.namespace;
  }
  if (k.namePrefix !== undefined || k.nameSuffix !== undefined) rename(objects, k.namePrefix ?? '', k.nameSuffix ?? '', where);
  for (const entry of k.labels ?? []) addLabels(objects, entry);
  setImages(objects, k.images ?? []);
  return { objects, files };
}
