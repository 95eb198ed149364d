/**
 * The deployment files under deploy/ (see deploy/README.md). The compose file is validated
 * against the Compose Specification's JSON schema; the kustomization is rendered (as
 * `kubectl kustomize` does, see test/helpers/kustomize.ts) and every object validated with
 * its kubernetes-models class; then both are checked for the shape the service needs. Every check returns the problems it finds, and each also runs on a
 * deliberately broken copy, so a validator or a check that stopped looking fails here too.
 * No Docker engine and no cluster are needed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import type { IContainer, IPodTemplateSpec, IProbe } from 'kubernetes-models/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { WORKER_NAMES } from '../../shared/bus/operation.js';
import { CONFIG_VARIABLES, loadConfig } from '../../shared/config.js';
import {
  COMPOSE_FILE,
  DEPLOY_DIR,
  KUBERNETES_DIR,
  KUSTOMIZATION_FILE,
  composeErrors,
  composeValidator,
  interpolate,
  isRecord,
  kubernetesManifestFiles,
  kubernetesObject,
  readCompose,
  readYaml,
  renderKubernetes,
  type Compose,
  type KubernetesObject,
} from '../helpers/deploy-manifests.js';
import { renderKustomization } from '../helpers/kustomize.js';

const SECRET_NAME = 'crm-secrets';
const CONFIG_MAP_NAME = 'crm-config';
/** Settings only workers (and the migration, for the URL) may see. */
const SECRET_KEYS = ['DATABASE_URL', 'CRM_SECRET'] as const;
const HTTP_PORT = 3000;
const ADMIN_PORT = 9464;

function clone<T>(value: T): T {
  return structuredClone(value);
}

// --- Compose -------------------------------------------------------------------------------

type ComposeService = NonNullable<Compose['services']>[string];

function servicesOf(compose: Compose): [string, ComposeService][] {
  return Object.entries(compose.services ?? {});
}

function commandOf(service: ComposeService): string[] {
  const command = service.command;
  if (command === undefined || command === null) return [];
  return typeof command === 'string' ? command.split(/\s+/).filter(Boolean) : command;
}

/** The value after a command-line flag (`--flag value` or `--flag=value`), under any of its names. */
function flagValue(args: string[], ...names: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (names.includes(arg)) return args[i + 1];
    const name = names.find((n) => arg.startsWith(`${n}=`));
    if (name) return arg.slice(name.length + 1);
  }
  return undefined;
}

function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((line) => [line.split('=')[0] ?? '', line.includes('=') ? line.slice(line.indexOf('=') + 1) : '']));
  }
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function dependenciesOf(service: ComposeService): Record<string, string> {
  const deps = service.depends_on;
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps ?? {}).map(([name, d]) => [name, d.condition]));
}

function replicasOf(service: ComposeService): number {
  return service.deploy?.replicas ?? service.scale ?? 1;
}

/** Services built from deploy/Dockerfile, and those using the image it is tagged as. */
function ourImageServices(compose: Compose): Set<string> {
  const built = servicesOf(compose).filter(([, s]) => {
    const build = s.build;
    if (build === undefined || typeof build === 'string') return false;
    return path.resolve(DEPLOY_DIR, build.context ?? '.', build.dockerfile ?? 'Dockerfile') === path.join(DEPLOY_DIR, 'Dockerfile');
  });
  const images = new Set(built.map(([, s]) => s.image).filter((i) => i !== undefined));
  return new Set(servicesOf(compose).filter(([name, s]) => built.some(([b]) => b === name) || (s.image !== undefined && images.has(s.image))).map(([n]) => n));
}

type Role = { role: 'gateway' } | { role: 'worker'; kinds: string[] } | { role: 'migrate' } | { role: 'other' };

function roleOf(args: string[]): Role {
  if (args[0] === 'gateway') return { role: 'gateway' };
  if (args[0] === 'worker') return { role: 'worker', kinds: args.slice(1) };
  if (args[0] === 'migrate') return { role: 'migrate' };
  return { role: 'other' };
}

function natsServices(compose: Compose): [string, ComposeService][] {
  return servicesOf(compose).filter(([, s]) => /^nats:/.test(s.image ?? ''));
}

function postgresServices(compose: Compose): [string, ComposeService][] {
  return servicesOf(compose).filter(([, s]) => /^postgres:/.test(s.image ?? ''));
}

function composeNatsProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const nats = natsServices(compose);
  if (nats.length !== 3) problems.push(`expected 3 NATS services, found ${nats.length}`);
  const clusterNames = new Set<string | undefined>();
  const serverNames = new Set<string | undefined>();
  const clusterPort = new Map<string, string>();
  for (const [name, service] of nats) {
    const args = commandOf(service);
    clusterNames.add(flagValue(args, '--cluster_name'));
    serverNames.add(flagValue(args, '--name', '-n', '--server_name'));
    const listen = flagValue(args, '--cluster');
    if (!listen) problems.push(`${name}: no --cluster listen address`);
    else clusterPort.set(name, new URL(listen).port);
    if (!args.includes('-js') && !args.includes('--jetstream')) problems.push(`${name}: JetStream not enabled (-js)`);
    if (!flagValue(args, '--store_dir', '-sd')) problems.push(`${name}: no JetStream --store_dir`);
    if (!service.healthcheck?.test) problems.push(`${name}: no healthcheck`);
  }
  if (clusterNames.size !== 1 || clusterNames.has(undefined)) problems.push(`NATS nodes must share one --cluster_name, found ${[...clusterNames].join(', ')}`);
  if (serverNames.size !== nats.length || serverNames.has(undefined)) problems.push('every NATS node needs its own --name (JetStream clustering)');
  for (const [name, service] of nats) {
    const routes = (flagValue(commandOf(service), '--routes') ?? '').split(',').filter(Boolean).map((r) => new URL(r));
    for (const [other] of nats.filter(([n]) => n !== name)) {
      if (!routes.some((r) => r.hostname === other && r.port === clusterPort.get(other))) {
        problems.push(`${name}: no route to ${other}:${clusterPort.get(other) ?? '?'}`);
      }
    }
  }
  return problems;
}

function composePostgresProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const postgres = postgresServices(compose);
  if (postgres.length !== 1) return [`expected 1 Postgres service, found ${postgres.length}`];
  const [name, service] = postgres[0] ?? ['', {}];
  const major = Number(/^postgres:(\d+)/.exec(service.image ?? '')?.[1]);
  if (!(major >= 15)) problems.push(`${name}: Postgres 15 or newer required, image is ${service.image ?? '?'}`);
  if (!service.healthcheck?.test) problems.push(`${name}: no healthcheck (others wait for service_healthy)`);
  if (!(service.volumes ?? []).some((v) => (typeof v === 'string' ? v : (v.target ?? '')).includes('/var/lib/postgresql/data'))) {
    problems.push(`${name}: data is not on a volume`);
  }
  return problems;
}

function composeOrderingProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const migrate = servicesOf(compose).filter(([, s]) => roleOf(commandOf(s)).role === 'migrate');
  if (migrate.length !== 1) return [`expected 1 migrate service, found ${migrate.length}`];
  const [migrateName, migrateService] = migrate[0] ?? ['', {}];
  if (migrateService.restart !== 'no') problems.push(`${migrateName}: a one-shot job needs restart "no", has ${String(migrateService.restart)}`);
  for (const [pg] of postgresServices(compose)) {
    if (dependenciesOf(migrateService)[pg] !== 'service_healthy') problems.push(`${migrateName}: must wait for ${pg} to be healthy`);
  }
  for (const [name, service] of servicesOf(compose)) {
    const { role } = roleOf(commandOf(service));
    if (role !== 'gateway' && role !== 'worker') continue;
    const deps = dependenciesOf(service);
    if (deps[migrateName] !== 'service_completed_successfully') problems.push(`${name}: must start after ${migrateName} completes successfully`);
    for (const [nats] of natsServices(compose)) {
      if (deps[nats] !== 'service_healthy') problems.push(`${name}: must wait for ${nats} to be healthy`);
    }
    if (service.restart === undefined || service.restart === 'no') problems.push(`${name}: a long-running service needs a restart policy`);
  }
  return problems;
}

function composeReplicaProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const count = new Map<string, number>();
  for (const [, service] of servicesOf(compose)) {
    const role = roleOf(commandOf(service));
    const keys = role.role === 'gateway' ? ['gateway'] : role.role === 'worker' ? role.kinds.map((k) => `worker ${k}`) : [];
    for (const key of keys) count.set(key, (count.get(key) ?? 0) + replicasOf(service));
  }
  for (const key of ['gateway', ...WORKER_NAMES.map((k) => `worker ${k}`)]) {
    if (count.get(key) !== 2) problems.push(`expected 2 × ${key}, found ${count.get(key) ?? 0}`);
  }
  // Published host ports: one container each.
  const published = new Map<string, string>();
  for (const [name, service] of servicesOf(compose)) {
    for (const port of service.ports ?? []) {
      const host = typeof port === 'object' ? (port.published === undefined ? '' : `${port.host_ip ?? ''}:${port.published}`)
        : String(port).split(':').length > 1 ? String(port).slice(0, String(port).lastIndexOf(':')) : '';
      if (!host) continue;
      if (replicasOf(service) > 1) problems.push(`${name}: ${replicasOf(service)} replicas cannot share host port ${host}`);
      const other = published.get(host);
      if (other) problems.push(`${name} and ${other} both publish ${host}`);
      published.set(host, name);
    }
  }
  return problems;
}

function composeSecurityProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const ours = ourImageServices(compose);
  for (const [name, service] of servicesOf(compose)) {
    const { role } = roleOf(commandOf(service));
    if (role !== 'other' && !ours.has(name)) problems.push(`${name}: runs crm ${role} but not from deploy/Dockerfile's image`);
    if (!ours.has(name)) continue;
    const user = (service.user ?? '').split(':')[0];
    if (!user || user === '0' || user === 'root') problems.push(`${name}: must run as a non-root user, has user ${JSON.stringify(service.user ?? null)}`);
    if (service.privileged) problems.push(`${name}: privileged`);
    if (service.read_only !== true) problems.push(`${name}: root filesystem should be read-only`);
    if (!(service.cap_drop ?? []).includes('ALL')) problems.push(`${name}: should drop ALL capabilities`);
  }
  if (ours.size === 0) problems.push('no service is built from deploy/Dockerfile');
  return problems;
}

/** What `docker compose --env-file deploy/.env` would see, as deploy/README.md has it created. */
const SAMPLE_ENV = { POSTGRES_PASSWORD: 'a'.repeat(48), CRM_SECRET: 'b'.repeat(64) };

function composeEnvironmentProblems(compose: Compose, known: Set<string>): string[] {
  const problems: string[] = [];
  const nats = natsServices(compose).map(([n]) => n);
  const postgres = postgresServices(compose)[0];
  const pgEnv = postgres ? environmentOf(postgres[1]) : {};
  const expectDb = (name: string, env: Record<string, string>): void => {
    let url: URL;
    try {
      url = new URL(interpolate(env.DATABASE_URL ?? '', SAMPLE_ENV));
    } catch {
      problems.push(`${name}: DATABASE_URL is not a URL`);
      return;
    }
    if (url.hostname !== postgres?.[0]) problems.push(`${name}: DATABASE_URL does not point at the ${postgres?.[0] ?? '?'} service`);
    if (url.username !== interpolate(pgEnv.POSTGRES_USER ?? 'postgres', SAMPLE_ENV)) problems.push(`${name}: DATABASE_URL user is not POSTGRES_USER`);
    if (decodeURIComponent(url.password) !== interpolate(pgEnv.POSTGRES_PASSWORD ?? '', SAMPLE_ENV)) problems.push(`${name}: DATABASE_URL password is not POSTGRES_PASSWORD`);
    if (url.pathname !== `/${interpolate(pgEnv.POSTGRES_DB ?? pgEnv.POSTGRES_USER ?? 'postgres', SAMPLE_ENV)}`) problems.push(`${name}: DATABASE_URL database is not POSTGRES_DB`);
  };
  const ours = ourImageServices(compose);
  for (const [name, service] of servicesOf(compose)) {
    if (!ours.has(name)) continue;
    const raw = environmentOf(service);
    let env: Record<string, string>;
    try {
      env = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, interpolate(v, SAMPLE_ENV)]));
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const key of Object.keys(env)) if (!known.has(key)) problems.push(`${name}: ${key} is not a setting the service reads (shared/config.ts)`);
    try {
      loadConfig(env);
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { role } = roleOf(commandOf(service));
    if (role === 'gateway' || role === 'worker') {
      const servers = (env.NATS_URL ?? '').split(',').map((s) => new URL(s.trim()).hostname);
      for (const n of nats) if (!servers.includes(n)) problems.push(`${name}: NATS_URL does not list ${n}`);
      if (env.ADMIN_PORT !== String(ADMIN_PORT) || env.ADMIN_HOST !== '0.0.0.0') problems.push(`${name}: admin server must listen on 0.0.0.0:${ADMIN_PORT}`);
    }
    if (role === 'gateway') {
      for (const key of SECRET_KEYS) if (key in env) problems.push(`${name}: the gateway never opens Postgres; it must not get ${key}`);
      if (env.HOST !== '0.0.0.0') problems.push(`${name}: HOST must be 0.0.0.0 in a container`);
      if (!env.PUBLIC_URL) problems.push(`${name}: PUBLIC_URL unset`);
    }
    if (role === 'worker') {
      if ((env.CRM_SECRET ?? '').length < 32) problems.push(`${name}: CRM_SECRET missing or shorter than 32 characters`);
      if (!raw.CRM_SECRET?.includes('${')) problems.push(`${name}: CRM_SECRET must come from the environment, not the file`);
      expectDb(name, env);
    }
    if (role === 'migrate') expectDb(name, env);
  }
  const secrets = new Set(servicesOf(compose).filter(([, s]) => roleOf(commandOf(s)).role === 'worker').map(([, s]) => environmentOf(s).CRM_SECRET));
  if (secrets.size > 1) problems.push('every worker must get the same CRM_SECRET');
  return problems;
}

function composeProblems(compose: Compose, known: Set<string>): string[] {
  return [
    ...composePostgresProblems(compose),
    ...composeNatsProblems(compose),
    ...composeOrderingProblems(compose),
    ...composeReplicaProblems(compose),
    ...composeSecurityProblems(compose),
    ...composeEnvironmentProblems(compose, known),
  ];
}

// --- Kubernetes ----------------------------------------------------------------------------

/** What the test reads of deploy/kubernetes/kustomization.yaml (the renderer reads the rest). */
interface Kustomization {
  namespace?: string;
  images?: { name: string; newName?: string; newTag?: string }[];
}

function readKustomization(): Kustomization {
  const value = readYaml(path.join(KUBERNETES_DIR, KUSTOMIZATION_FILE));
  if (!isRecord(value) || value.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || value.kind !== 'Kustomization') {
    throw new Error(`${KUSTOMIZATION_FILE} is not a kustomize.config.k8s.io/v1beta1 Kustomization`);
  }
  return value as Kustomization;
}

type LabelSelector = { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };

/** Whether a label selector selects these labels (an empty selector selects nothing here). */
function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  const matchLabels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (matchLabels.length === 0 && expressions.length === 0) return false;
  return matchLabels.every(([k, v]) => l[k] === v) && expressions.every((e) => {
    const has = e.key in l;
    const value = l[e.key] ?? '';
    switch (e.operator) {
      case 'In': return has && (e.values ?? []).includes(value);
      case 'NotIn': return !has || !(e.values ?? []).includes(value);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
}

function argsOf(container: IContainer): string[] {
  return [...(container.command ?? []), ...(container.args ?? [])];
}

function mainContainer(template: IPodTemplateSpec | undefined): IContainer | undefined {
  return template?.spec?.containers[0];
}

function deploymentRole(d: Deployment): Role {
  const main = mainContainer(d.spec?.template);
  return main ? roleOf(argsOf(main)) : { role: 'other' };
}

function nameOf(o: KubernetesObject): string {
  return `${o.kind}/${o.metadata?.name ?? '?'}`;
}

/** Where a container gets a secret setting from: a Secret (by name and key), a literal, or nowhere. */
function settingSource(container: IContainer, key: string): { from: 'secret'; secret: string } | { from: 'literal' } | { from: 'none' } {
  const entry = (container.env ?? []).find((e) => e.name === key);
  if (entry?.value !== undefined) return { from: 'literal' };
  const ref = entry?.valueFrom?.secretKeyRef;
  if (ref && ref.key === key) return { from: 'secret', secret: ref.name ?? '' };
  const bulk = (container.envFrom ?? []).find((e) => e.secretRef && !e.prefix);
  if (bulk?.secretRef) return { from: 'secret', secret: bulk.secretRef.name ?? '' };
  return { from: 'none' };
}

function portNumber(container: IContainer, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return (container.ports ?? []).find((p) => p.name === port)?.containerPort;
}

function probeProblems(where: string, container: IContainer, probe: IProbe | undefined, kind: string, pathName: string, port: number): string[] {
  if (!probe) return [`${where}: no ${kind} probe`];
  const get = probe.httpGet;
  if (!get) return [`${where}: ${kind} probe is not an HTTP GET`];
  const problems: string[] = [];
  if (get.path !== pathName) problems.push(`${where}: ${kind} probe GETs ${String(get.path)}, expected ${pathName}`);
  if (portNumber(container, get.port) !== port) problems.push(`${where}: ${kind} probe on port ${String(get.port)}, expected ${port}`);
  return problems;
}

/** Security, resources and secrets that hold for every pod running our image. */
function podProblems(where: string, template: IPodTemplateSpec | undefined, image: string, secretKeys: readonly string[]): string[] {
  const spec = template?.spec;
  if (!spec) return [`${where}: no pod spec`];
  const problems: string[] = [];
  const pod = spec.securityContext;
  if (pod?.runAsNonRoot !== true) problems.push(`${where}: pod securityContext.runAsNonRoot must be true`);
  if (pod?.runAsUser === 0) problems.push(`${where}: runs as uid 0`);
  if (pod?.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${where}: seccompProfile RuntimeDefault required (restricted pod security)`);
  if (spec.automountServiceAccountToken !== false) problems.push(`${where}: does not need a service account token`);
  const emptyDirs = new Set((spec.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
  for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
    const c = `${where} container ${container.name}`;
    const sc = container.securityContext;
    if (sc?.allowPrivilegeEscalation !== false) problems.push(`${c}: allowPrivilegeEscalation must be false`);
    if (sc?.readOnlyRootFilesystem !== true) problems.push(`${c}: readOnlyRootFilesystem must be true`);
    if (!(sc?.capabilities?.drop ?? []).includes('ALL')) problems.push(`${c}: must drop ALL capabilities`);
    if (sc?.privileged === true || sc?.runAsNonRoot === false || sc?.runAsUser === 0) problems.push(`${c}: overrides the pod's non-root settings`);
    if (!(container.volumeMounts ?? []).some((m) => m.mountPath === '/tmp' && emptyDirs.has(m.name))) problems.push(`${c}: no emptyDir on /tmp`);
    for (const kind of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[kind]?.[resource] === undefined) problems.push(`${c}: no ${resource} ${kind}`);
      }
    }
    if (container.image !== image) problems.push(`${c}: image ${String(container.image)}, expected ${image} like every other`);
    for (const key of SECRET_KEYS) {
      const source = settingSource(container, key);
      if (source.from === 'literal') problems.push(`${c}: ${key} written into the manifest; take it from the ${SECRET_NAME} Secret`);
      if (source.from === 'secret' && !secretKeys.includes(key)) problems.push(`${c}: gets ${key}, which it does not need`);
    }
  }
  return problems;
}

function secretProblems(where: string, container: IContainer | undefined, keys: readonly string[]): string[] {
  if (!container) return [`${where}: no container`];
  return keys.flatMap((key) => {
    const source = settingSource(container, key);
    return source.from === 'secret' && source.secret === SECRET_NAME ? [] : [`${where}: ${key} must come from the ${SECRET_NAME} Secret`];
  });
}

function configMapProblems(where: string, container: IContainer | undefined, configMaps: ConfigMap[]): string[] {
  const refs = (container?.envFrom ?? []).flatMap((e) => (e.configMapRef ? [e.configMapRef.name ?? ''] : []));
  if (!refs.includes(CONFIG_MAP_NAME)) return [`${where}: no envFrom ${CONFIG_MAP_NAME}`];
  return refs.filter((r) => !configMaps.some((m) => m.metadata?.name === r)).map((r) => `${where}: ConfigMap ${r} is not defined`);
}

function scrapeProblems(where: string, template: IPodTemplateSpec | undefined): string[] {
  const annotations = template?.metadata?.annotations ?? {};
  const problems: string[] = [];
  if (annotations['prometheus.io/scrape'] !== 'true') problems.push(`${where}: no prometheus.io/scrape annotation`);
  if (annotations['prometheus.io/port'] !== String(ADMIN_PORT)) problems.push(`${where}: prometheus.io/port must be ${ADMIN_PORT}`);
  const main = mainContainer(template);
  if (!main || !(main.ports ?? []).some((p) => p.containerPort === ADMIN_PORT)) problems.push(`${where}: does not declare port ${ADMIN_PORT}`);
  return problems;
}

function kubernetesProblems(objects: KubernetesObject[], kustomization: Kustomization, known: Set<string>): string[] {
  const problems: string[] = [];
  const deployments = objects.filter((o): o is Deployment => o instanceof Deployment);
  const jobs = objects.filter((o): o is Job => o instanceof Job);
  const services = objects.filter((o): o is Service => o instanceof Service);
  const hpas = objects.filter((o): o is HorizontalPodAutoscaler => o instanceof HorizontalPodAutoscaler);
  const pdbs = objects.filter((o): o is PodDisruptionBudget => o instanceof PodDisruptionBudget);
  const configMaps = objects.filter((o): o is ConfigMap => o instanceof ConfigMap);
  const secrets = objects.filter((o): o is Secret => o instanceof Secret);

  // Everything in one namespace.
  const namespace = kustomization.namespace;
  if (!objects.some((o) => o instanceof Namespace && o.metadata?.name === namespace)) problems.push(`no Namespace ${String(namespace)}`);
  for (const o of objects) {
    if (!(o instanceof Namespace) && o.metadata?.namespace !== namespace) problems.push(`${nameOf(o)}: namespace ${String(o.metadata?.namespace)}, expected ${String(namespace)}`);
  }
  // One image (and version) everywhere, the one kustomization.yaml's `images` sets.
  const images = kustomization.images ?? [];
  const image = images.length === 1 && images[0]?.newTag ? `${images[0].newName ?? images[0].name}:${images[0].newTag}` : '?';
  if (image === '?') problems.push(`${KUSTOMIZATION_FILE}: images must name the one image and its tag`);

  // The Secret: an example only, with the keys the pods read.
  const secret = secrets.find((s) => s.metadata?.name === SECRET_NAME);
  if (!secret) problems.push(`no example of the ${SECRET_NAME} Secret`);
  for (const key of SECRET_KEYS) {
    if (secret && secret.stringData?.[key] === undefined && secret.data?.[key] === undefined) problems.push(`Secret ${SECRET_NAME} has no ${key}`);
  }

  // The ConfigMap: known settings that parse, and nothing secret.
  const config = configMaps.find((m) => m.metadata?.name === CONFIG_MAP_NAME);
  if (!config) problems.push(`no ConfigMap ${CONFIG_MAP_NAME}`);
  const data = config?.data ?? {};
  for (const key of Object.keys(data)) {
    if (!known.has(key)) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} is not a setting the service reads (shared/config.ts)`);
    if ((SECRET_KEYS as readonly string[]).includes(key)) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} belongs in the Secret`);
  }
  try {
    loadConfig({ ...data, ...(secret?.stringData ?? {}) });
  } catch (error) {
    problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const key of ['NATS_URL', 'PUBLIC_URL']) if (!data[key]) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} unset`);
  if (data.HOST !== '0.0.0.0' || data.ADMIN_HOST !== '0.0.0.0' || data.ADMIN_PORT !== String(ADMIN_PORT)) {
    problems.push(`ConfigMap ${CONFIG_MAP_NAME}: HOST and ADMIN_HOST must be 0.0.0.0 and ADMIN_PORT ${ADMIN_PORT}`);
  }

  // Deployments: one gateway, one per worker kind.
  const gateways = deployments.filter((d) => deploymentRole(d).role === 'gateway');
  if (gateways.length !== 1) problems.push(`expected 1 gateway Deployment, found ${gateways.length}`);
  const workers = new Map<string, Deployment>();
  for (const kind of WORKER_NAMES) {
    const found = deployments.filter((d) => {
      const role = deploymentRole(d);
      return role.role === 'worker' && role.kinds.includes(kind);
    });
    if (found.length !== 1) problems.push(`expected 1 Deployment running worker ${kind}, found ${found.length}`);
    if (found[0]) workers.set(kind, found[0]);
  }
  for (const d of deployments) {
    const where = nameOf(d);
    const template = d.spec?.template;
    const main = mainContainer(template);
    const role = deploymentRole(d);
    if (!selects(d.spec?.selector, template?.metadata?.labels)) problems.push(`${where}: selector does not select its pod template`);
    if ((template?.spec?.terminationGracePeriodSeconds ?? 30) < 30) problems.push(`${where}: give a draining process at least 30 s`);
    problems.push(...podProblems(where, template, image, role.role === 'worker' ? SECRET_KEYS : []));
    problems.push(...configMapProblems(where, main, configMaps));
    problems.push(...scrapeProblems(where, template));
    if (!main) continue;
    if (role.role === 'gateway') {
      problems.push(...probeProblems(where, main, main.livenessProbe, 'liveness', '/healthz', HTTP_PORT));
      problems.push(...probeProblems(where, main, main.readinessProbe, 'readiness', '/readyz', HTTP_PORT));
      if ((d.spec?.replicas ?? 1) < 2) problems.push(`${where}: at least 2 gateways`);
      if (!main.lifecycle?.preStop) problems.push(`${where}: needs a preStop pause so the Service stops routing before SIGTERM`);
    } else if (role.role === 'worker') {
      problems.push(...probeProblems(where, main, main.livenessProbe, 'liveness', '/healthz', ADMIN_PORT));
      problems.push(...probeProblems(where, main, main.readinessProbe, 'readiness', '/readyz', ADMIN_PORT));
      problems.push(...secretProblems(where, main, SECRET_KEYS));
      if (d.spec?.replicas !== undefined) problems.push(`${where}: replicas belongs to its HorizontalPodAutoscaler (apply would reset it)`);
      const init = (template?.spec?.initContainers ?? []).find((c) => roleOf(argsOf(c)).role === 'migrate');
      if (!init) problems.push(`${where}: no init container running migrate (workers start only on a current schema)`);
      else problems.push(...secretProblems(`${where} init ${init.name}`, init, ['DATABASE_URL']));
    } else {
      problems.push(`${where}: runs neither the gateway nor a worker`);
    }
  }

  // The migration Job.
  const migrations = jobs.filter((j) => {
    const main = mainContainer(j.spec?.template);
    return main !== undefined && roleOf(argsOf(main)).role === 'migrate';
  });
  if (migrations.length !== 1) problems.push(`expected 1 Job running migrate, found ${migrations.length}`);
  for (const job of migrations) {
    const where = nameOf(job);
    const template = job.spec?.template;
    if (!['Never', 'OnFailure'].includes(template?.spec?.restartPolicy ?? '')) problems.push(`${where}: restartPolicy must be Never or OnFailure`);
    if (job.spec?.backoffLimit === undefined) problems.push(`${where}: set backoffLimit`);
    problems.push(...podProblems(where, template, image, ['DATABASE_URL']));
    problems.push(...secretProblems(where, mainContainer(template), ['DATABASE_URL']));
  }

  // The gateway's Service: the HTTP port and the metrics port.
  const gateway = gateways[0];
  const gatewayMain = mainContainer(gateway?.spec?.template);
  const gatewayServices = services.filter((s) => selects({ matchLabels: s.spec?.selector }, gateway?.spec?.template?.metadata?.labels));
  if (gatewayServices.length !== 1) problems.push(`expected 1 Service selecting the gateway pods, found ${gatewayServices.length}`);
  for (const s of gatewayServices) {
    const targets = (s.spec?.ports ?? []).map((p) => (gatewayMain ? portNumber(gatewayMain, p.targetPort ?? p.port) : undefined));
    if (!targets.includes(HTTP_PORT)) problems.push(`${nameOf(s)}: no port to the gateway's ${HTTP_PORT}`);
    if (!targets.includes(ADMIN_PORT)) problems.push(`${nameOf(s)}: no metrics port (${ADMIN_PORT})`);
  }
  for (const s of services) {
    if (!deployments.some((d) => selects({ matchLabels: s.spec?.selector }, d.spec?.template?.metadata?.labels))) problems.push(`${nameOf(s)}: selects no pods`);
  }

  // An autoscaler per worker Deployment.
  for (const [kind, d] of workers) {
    const mine = hpas.filter((h) => {
      const ref = h.spec?.scaleTargetRef;
      return ref?.apiVersion === 'apps/v1' && ref.kind === 'Deployment' && ref.name === d.metadata?.name;
    });
    if (mine.length !== 1) {
      problems.push(`expected 1 HorizontalPodAutoscaler for worker ${kind}, found ${mine.length}`);
      continue;
    }
    const spec = mine[0]?.spec;
    if ((spec?.minReplicas ?? 1) < 2) problems.push(`${nameOf(d)}: autoscaler minReplicas must be at least 2`);
    if ((spec?.maxReplicas ?? 0) < (spec?.minReplicas ?? 1)) problems.push(`${nameOf(d)}: autoscaler maxReplicas below minReplicas`);
    if (!(spec?.metrics ?? []).some((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.type === 'Utilization')) {
      problems.push(`${nameOf(d)}: autoscaler has no CPU utilisation target`);
    }
  }
  for (const h of hpas) {
    if (!deployments.some((d) => d.metadata?.name === h.spec?.scaleTargetRef.name)) problems.push(`${nameOf(h)}: targets no Deployment here`);
  }

  // A disruption budget per gateway and worker Deployment, selecting exactly its pods.
  for (const d of [...gateways, ...workers.values()]) {
    const labels = d.spec?.template?.metadata?.labels;
    const mine = pdbs.filter((p) => selects(p.spec?.selector, labels));
    if (mine.length !== 1) problems.push(`${nameOf(d)}: expected 1 PodDisruptionBudget selecting its pods, found ${mine.length}`);
  }
  for (const p of pdbs) {
    const covered = deployments.filter((d) => selects(p.spec?.selector, d.spec?.template?.metadata?.labels));
    if (covered.length !== 1) problems.push(`${nameOf(p)}: selects ${covered.length} Deployments' pods, expected 1`);
    if (p.spec?.maxUnavailable === undefined && p.spec?.minAvailable === undefined) problems.push(`${nameOf(p)}: sets neither maxUnavailable nor minAvailable`);
  }
  return problems;
}

// --- The tests --------------------------------------------------------------------------------

/** The environment variables the service reads. */
const known = new Set(CONFIG_VARIABLES.map((v) => v.variable));
const validateCompose = composeValidator();
const composeFile = readCompose(validateCompose);

/** The compose file for the tests that read it: each of them fails, not the whole file, when it does not validate. */
function validCompose(): Compose {
  if (!composeFile.compose) throw new Error(`${COMPOSE_FILE} does not match the Compose schema:\n${composeFile.errors.join('\n')}`);
  return composeFile.compose;
}

t.test('deploy/compose.yaml matches the Compose Specification schema', async (t) => {
  t.same(composeFile.errors, []);
});

t.test('the compose schema validator is live', async (t) => {
  const compose = validCompose();
  const [name] = Object.keys(compose.services ?? {});
  t.ok(name);
  const unknownKey = clone(compose);
  Object.assign(unknownKey.services?.[name ?? ''] ?? {}, { restrat: 'always' });
  t.match(composeErrors(validateCompose, unknownKey).join('\n'), /additional properties/, 'an unknown service key');
  const badDuration = clone(compose);
  Object.assign(badDuration.services?.[name ?? ''] ?? {}, { stop_grace_period: '30 seconds' });
  t.match(composeErrors(validateCompose, badDuration).join('\n'), /must match format "duration"/, 'a duration Compose cannot read');
  const badReplicas = clone(compose);
  Object.assign(badReplicas.services?.[name ?? ''] ?? {}, { deploy: { replicas: 'two' } });
  t.match(composeErrors(validateCompose, badReplicas).join('\n'), /replicas must be integer/, 'replicas as a string');
});

t.test('compose: Postgres, a NATS cluster, a one-shot migration, 2 gateways and 2 of each worker', async (t) => {
  const compose = validCompose();
  t.same(composePostgresProblems(compose), [], 'Postgres');
  t.same(composeNatsProblems(compose), [], 'NATS cluster');
  t.same(composeOrderingProblems(compose), [], 'migrations first');
  t.same(composeReplicaProblems(compose), [], 'replicas');
  t.same(composeSecurityProblems(compose), [], 'non-root, read-only');
  t.same(composeEnvironmentProblems(compose, known), [], 'environment');
});

t.test('the image: multi-stage, npm ci --ignore-scripts, non-root, a tight build context', async (t) => {
  const dockerfile = path.join(DEPLOY_DIR, 'Dockerfile');
  t.ok(existsSync(dockerfile), 'deploy/Dockerfile exists');
  const text = readFileSync(dockerfile, 'utf8');
  t.ok((text.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage');
  t.match(text, /npm ci --ignore-scripts/, 'installs with npm ci --ignore-scripts');
  const user = [...text.matchAll(/^USER\s+(\S+)/gm)].at(-1)?.[1] ?? '';
  t.match(user, /^[1-9]\d*(:\d+)?$/, `runs as a numeric non-root user, which runAsNonRoot can verify (${user})`);
  t.match(text, new RegExp(`^EXPOSE .*\\b${HTTP_PORT}\\b.*\\b${ADMIN_PORT}\\b`, 'm'), 'exposes the HTTP and admin ports');
  // BuildKit reads <Dockerfile>.dockerignore: an allow-list that must let in what COPY copies.
  const ignore = readFileSync(path.join(DEPLOY_DIR, 'Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  t.equal(ignore[0], '*', 'the build context starts empty');
  const sources = [...text.matchAll(/^COPY\s+(?!--from)(.+)$/gm)].flatMap((m) =>
    (m[1] ?? '').split(/\s+/).filter((a) => !a.startsWith('--')).slice(0, -1),
  );
  t.ok(sources.length > 0, `COPY sources: ${sources.join(' ')}`);
  for (const source of sources) t.ok(ignore.includes(`!${source}`) || ignore.includes(`!${source}/`), `${source} is let into the build context`);
  t.notOk(ignore.some((l) => /^!(\.data|node_modules|\.git|dist)\b/.test(l)), 'never .data, node_modules, .git or dist');
});

t.test('compose checks catch broken copies', async (t) => {
  const compose = validCompose();
  const broken = (edit: (c: Compose) => void): string => {
    const copy = clone(compose);
    edit(copy);
    t.same(composeErrors(validateCompose, copy), [], 'the broken copy is still valid Compose');
    return composeProblems(copy, known).join('\n');
  };
  const service = (c: Compose, match: (args: string[]) => boolean): ComposeService => {
    const found = servicesOf(c).find(([, s]) => match(commandOf(s)));
    if (!found) throw new Error('no such service');
    return found[1];
  };
  t.match(broken((c) => Object.assign(service(c, (a) => a[0] === 'migrate'), { restart: 'on-failure' })), /restart "no"/, 'migrate restarting');
  t.match(broken((c) => {
    const nats = natsServices(c)[2]?.[1];
    if (nats) nats.command = commandOf(nats).map((a, i, all) => (all[i - 1] === '--routes' ? a.split(',')[0] ?? a : a));
  }), /no route to/, 'a NATS node without a route');
  t.match(broken((c) => {
    const [name] = servicesOf(c).find(([, s]) => commandOf(s)[0] === 'gateway') ?? [];
    if (name) delete c.services?.[name];
  }), /expected 2 × gateway, found 1/, 'one gateway');
  t.match(broken((c) => Object.assign(service(c, (a) => a.join(' ') === 'worker deals'), { deploy: { replicas: 1 } })), /expected 2 × worker deals, found 1/, 'one deals worker');
  t.match(broken((c) => Object.assign(service(c, (a) => a[0] === 'gateway'), { user: 'root' })), /non-root user/, 'a gateway as root');
  t.match(broken((c) => Object.assign(service(c, (a) => a[0] === 'gateway'), { depends_on: ['migrate'] })), /after migrate completes successfully/, 'a gateway not waiting for migrations');
  t.match(broken((c) => {
    const s = service(c, (a) => a.join(' ') === 'worker tokens');
    s.environment = { ...environmentOf(s), RATE_LIMIT_TOKENS_PER_MINUTE: '1' };
  }), /RATE_LIMIT_TOKENS_PER_MINUTE is not a setting/, 'a misspelt setting');
  t.match(broken((c) => {
    const s = service(c, (a) => a[0] === 'gateway');
    s.environment = { ...environmentOf(s), CRM_SECRET: '${CRM_SECRET}' };
  }), /must not get CRM_SECRET/, 'the secret on a gateway');
});

const rendered = renderKubernetes();
const kustomization = readKustomization();
/** The Secret is created by hand; its example, never applied, shows the keys the pods read. */
const secretExample = kubernetesObject(readYaml(path.join(KUBERNETES_DIR, 'base/secret.example.yaml')), 'base/secret.example.yaml');
const objects = [...rendered.objects, secretExample];

t.test('the kustomization renders every manifest, each valid for its kubernetes-models class', async (t) => {
  t.ok(rendered.objects.length >= 18, `${rendered.objects.length} objects: ${rendered.objects.map(nameOf).join(', ')}`);
  const unread = kubernetesManifestFiles().filter((f) => !f.endsWith('.example.yaml') && !rendered.files.has(path.join(KUBERNETES_DIR, f)));
  t.same(unread, [], 'no manifest is left out of the kustomizations');
  t.notOk(rendered.objects.some((o) => o instanceof Secret), 'no Secret is applied: its values never enter the repository');
});

/** `kind/namespace/name` → object, for comparing renderings whatever their order. */
function byName(objects: unknown[]): Record<string, unknown> {
  return Object.fromEntries(objects.map((o) => {
    const metadata = isRecord(o) && isRecord(o.metadata) ? o.metadata : {};
    return [`${isRecord(o) ? String(o.kind) : '?'}/${String(metadata.namespace)}/${String(metadata.name)}`, o];
  }));
}

const kubectl = spawnSync('kubectl', ['kustomize', KUBERNETES_DIR], { encoding: 'utf8', timeout: 60_000 });

t.test('the renderer agrees with kubectl kustomize, where kubectl is installed', { skip: kubectl.error ? `no kubectl here (${kubectl.error.message})` : false }, async (t) => {
  t.equal(kubectl.status, 0, kubectl.stderr);
  const theirs = parseAllDocuments(kubectl.stdout).map((d) => d.toJS() as unknown);
  t.same(byName(renderKustomization(KUBERNETES_DIR).objects), byName(theirs));
});

t.test('the renderer refuses what it does not implement', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kustomize-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const header = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n';
  writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n');
  const render = (rest: string): unknown => {
    writeFileSync(path.join(dir, KUSTOMIZATION_FILE), header + rest);
    return renderKustomization(dir);
  };
  t.throws(() => render('commonAnnotations: {a: b}\n'), /commonAnnotations not implemented/, 'an unknown field');
  t.throws(() => render('patches: [{target: {kind: ConfigMap}, patch: "data: {a: b}"}]\n'), /strategic-merge patches are not implemented/, 'a strategic-merge patch');
  t.throws(() => render('nameSuffix: -x\n'), /renaming a ConfigMap/, 'renaming what others refer to');
  t.throws(() => render('patches: [{target: {kind: Secret}, patch: "[]"}]\n'), /matches nothing/, 'a patch aimed at nothing');
});

t.test('the Kubernetes validator is live', async (t) => {
  const deployment = rendered.objects.find((o) => o instanceof Deployment);
  t.ok(deployment);
  const json: unknown = clone(deployment?.toJSON());
  const spec = isRecord(json) ? json.spec : undefined;
  if (!isRecord(json) || !isRecord(spec)) throw new Error('a Deployment without a spec');
  t.doesNotThrow(() => kubernetesObject(json), 'the copy itself is valid');
  t.throws(() => kubernetesObject({ ...json, spec: { ...spec, replicas: 'two' } }), /replicas must be integer/, 'replicas as a string');
  t.throws(() => kubernetesObject({ ...json, spec: { ...spec, selector: undefined } }), /selector/, 'no selector');
  t.throws(() => kubernetesObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }), /unknown apiVersion\/kind/, 'an unknown kind');
  t.throws(() => kubernetesObject({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } }), /unknown apiVersion\/kind/, 'a version not expected');
});

t.test('Kubernetes: Deployments, probes, secrets, the migration Job, Services, autoscalers, disruption budgets', async (t) => {
  t.same(kubernetesProblems(objects, kustomization, known), []);
});

t.test('Kubernetes checks catch broken copies', async (t) => {
  /** The problems found after editing the plain JSON of the objects `pick` chooses. */
  const broken = (pick: (o: KubernetesObject) => boolean, edit: (json: Record<string, unknown>) => void): string => {
    let edited = 0;
    const copy = objects.map((o) => {
      if (!pick(o)) return o;
      edited++;
      const json: unknown = clone(o.toJSON());
      if (!isRecord(json)) throw new Error('not a mapping');
      edit(json);
      return kubernetesObject(json);
    });
    t.ok(edited > 0, 'the edit applies to something');
    return kubernetesProblems(copy, kustomization, known).join('\n');
  };
  const isRole = (role: string, kind?: string) => (o: KubernetesObject): boolean => {
    if (!(o instanceof Deployment)) return false;
    const r = deploymentRole(o);
    return r.role === role && (kind === undefined || (r.role === 'worker' && r.kinds.includes(kind)));
  };
  type Json = Record<string, never>;
  const podSpec = (json: Record<string, unknown>): Json => (json as { spec: { template: { spec: Json } } }).spec.template.spec;
  const main = (json: Record<string, unknown>): Json => (podSpec(json) as unknown as { containers: Json[] }).containers[0] ?? {};

  t.match(broken(isRole('gateway'), (j) => Object.assign(main(j), { readinessProbe: { httpGet: { path: '/healthz', port: 'http' } } })), /readiness probe GETs \/healthz/, 'gateway readiness on /healthz');
  t.match(broken(isRole('worker', 'deals'), (j) => Object.assign(main(j), { livenessProbe: { httpGet: { path: '/healthz', port: 3000 } } })), /liveness probe on port 3000/, 'worker liveness on the wrong port');
  t.match(broken(isRole('worker', 'contacts'), (j) => Object.assign(podSpec(j), { securityContext: { runAsNonRoot: false } })), /runAsNonRoot must be true/, 'a worker allowed to run as root');
  t.match(broken(isRole('worker', 'schema'), (j) => Object.assign(main(j), { env: [{ name: 'CRM_SECRET', value: 'x'.repeat(40) }] })), /CRM_SECRET written into the manifest/, 'a secret written into a manifest');
  t.match(broken(isRole('gateway'), (j) => Object.assign(main(j), { envFrom: [{ configMapRef: { name: CONFIG_MAP_NAME } }, { secretRef: { name: SECRET_NAME } }] })), /gets DATABASE_URL, which it does not need/, 'the Secret given to the gateway');
  t.match(broken(isRole('worker', 'tokens'), (j) => Object.assign(podSpec(j), { initContainers: [] })), /no init container running migrate/, 'a worker without the migration first');
  t.match(broken((o) => o instanceof HorizontalPodAutoscaler && o.spec?.scaleTargetRef.name === 'crm-worker-deals', (j) => Object.assign(j, { spec: { ...(j.spec as object), scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'crm-worker-dealz' } } })), /1 HorizontalPodAutoscaler for worker deals, found 0/, 'an autoscaler aimed elsewhere');
  t.match(broken((o) => o instanceof PodDisruptionBudget && o.metadata?.name === 'crm-gateway', (j) => Object.assign(j, { spec: { maxUnavailable: 1, selector: { matchLabels: { 'app.kubernetes.io/component': 'gateways' } } } })), /crm-gateway: expected 1 PodDisruptionBudget selecting its pods, found 0/, 'a budget selecting nothing');
  t.match(broken((o) => o instanceof Job, (j) => Object.assign(main(j), { args: ['bootstrap'] })), /expected 1 Job running migrate, found 0/, 'a Job running something else');
  t.match(broken((o) => o instanceof Service, (j) => Object.assign(j, { spec: { ...(j.spec as object), ports: [{ name: 'http', port: 80, targetPort: 'http' }] } })), /no metrics port/, 'a Service without the metrics port');
  t.match(broken((o) => o instanceof ConfigMap, (j) => Object.assign(j, { data: { ...(j.data as object), ADMIN_PORT: 'nine' } })), /ADMIN_PORT/, 'a setting that does not parse');
  t.match(broken(isRole('worker', 'contacts'), (j) => Object.assign(main(j), { image: 'workspace-crm:latest' })), /like every other/, 'two image versions');
  t.match(kubernetesProblems(objects, { ...kustomization, images: [] }, known).join('\n'), /images must name/, 'no image tag in kustomization.yaml');
});
