/**
 * The deployment files under deploy/ (see deploy/README.md). The compose file is validated
 * against the Compose Specification's JSON schema; the kustomization is rendered (as
 * `kubectl kustomize` does, see test/helpers/kustomize.ts) and every object validated with
 * its kubernetes-models class; then both are checked for the shape the service needs. Every check returns the problems it finds, and each also runs on a
 * deliberately broken copy, so a validator or a check that stopped looking fails here too.
 * No Docker engine and no cluster are needed.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import type { IContainer, IPodSpec, IPodTemplateSpec, IProbe } from 'kubernetes-models/v1';
import { ConfigMap, Namespace, Pod, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { INetworkPolicyPeer, INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { publicKeyVariableOf } from '../../shared/bus/nats-authorization.js';
import { newRoleKeyPairs } from '../../shared/bus/nats-keys.js';
import { NATS_ROLES, workerRole, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { WORKER_NAMES, type WorkerName } from '../../shared/bus/operation.js';
import { CONFIG_VARIABLES, loadConfig } from '../../shared/config.js';
import {
  COMPOSE_FILE,
  DEPLOY_DIR,
  HELM_VALUES_FILE,
  KUBERNETES_DIR,
  KUBERNETES_NATS_DIR,
  KUSTOMIZATION_FILE,
  NATS_AUTHORIZATION_FILE,
  NATS_CONFIG_FILE,
  composeErrors,
  composeValidator,
  interpolate,
  isRecord,
  kubernetesFileObjects,
  kubernetesManifestFiles,
  kubernetesObject,
  readCompose,
  readYaml,
  renderKubernetes,
  type Compose,
  type KubernetesObject,
} from '../helpers/deploy-manifests.js';
import { renderKustomization } from '../helpers/kustomize.js';
import { NATS_SERVER } from '../helpers/nats-server.js';
import { makeTestCertificates } from '../helpers/test-certificates.js';

const SECRET_NAME = 'crm-secrets';
const CONFIG_MAP_NAME = 'crm-config';
/** Settings only workers (and the migration, for the URL) may see. */
const SECRET_KEYS = ['DATABASE_URL', 'CRM_SECRET'] as const;
const HTTP_PORT = 3000;
const ADMIN_PORT = 9464;
/** Each process's NATS seed (key = its role) and the servers' CA (key ca.crt). */
const NATS_SECRET_NAME = 'crm-nats';
const NATS_CA_KEY = 'ca.crt';
const NATS_CLIENT_PORT = 4222;
const NATS_ROUTE_PORT = 6222;
const POSTGRES_PORT = 5432;
/** The NATS Helm release (deploy/kubernetes/nats/values.yaml): its namespace and its pods' labels. */
const NATS_NAMESPACE = 'nats';
const NATS_POD_LABELS = { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/instance': 'nats', 'app.kubernetes.io/component': 'nats' };
/** The public keys authorization.conf names, which the NATS servers' environment must hold. */
const AUTHORIZATION_VARIABLES = [...new Set([...readFileSync(NATS_AUTHORIZATION_FILE, 'utf8').matchAll(/\$(CRM_NKEY_[A-Z0-9_]+)/g)].map((m) => m[1] ?? ''))].sort();

/** The compose variable (deploy/.env) holding a role's seed: CRM_NKEY_SEED_GATEWAY, CRM_NKEY_SEED_WORKER_TOKENS, … */
function seedVariableOf(role: NatsRole): string {
  return publicKeyVariableOf(role).replace(/^CRM_NKEY_/, 'CRM_NKEY_SEED_');
}

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
    const shipped = flagValue(args, '--config', '-c') !== undefined && confBlock(parseNatsConf(readFileSync(NATS_CONFIG_FILE, 'utf8'), NATS_CONFIG_FILE), 'jetstream') !== undefined;
    if (!shipped && !args.includes('-js') && !args.includes('--jetstream')) problems.push(`${name}: JetStream not enabled (-js, or in the config)`);
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
const SAMPLE_KEYS = newRoleKeyPairs();
const SAMPLE_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'a'.repeat(48),
  CRM_SECRET: randomBytes(32).toString('hex'),
  ...Object.fromEntries(NATS_ROLES.flatMap((role) => [[seedVariableOf(role), SAMPLE_KEYS[role].seed], [publicKeyVariableOf(role), SAMPLE_KEYS[role].publicKey]])),
};

/** The NATS identity a compose service needs: by its command, or `cli` for the command line's service. */
function composeNatsRole(service: ComposeService): NatsRole | 'none' | 'several' {
  const role = roleOf(commandOf(service));
  if (role.role === 'gateway') return 'gateway';
  if (role.role === 'worker') return role.kinds.length === 1 ? workerRole(role.kinds[0] as WorkerName) : 'several';
  if (role.role === 'other' && environmentOf(service).NATS_URL) return 'cli';
  return 'none';
}

/** The host path a container path comes from, through the service's bind mounts (and whether read-only). */
function hostPathOf(service: ComposeService, containerPath: string): { host: string; readOnly: boolean } | undefined {
  for (const volume of service.volumes ?? []) {
    const [source = '', target = '', mode = ''] = typeof volume === 'string' ? volume.split(':') : [volume.source ?? '', volume.target ?? '', volume.read_only ? 'ro' : ''];
    if (!source.startsWith('.') && !source.startsWith('/')) continue;
    if (containerPath !== target && !containerPath.startsWith(`${target}/`)) continue;
    return { host: path.join(path.resolve(DEPLOY_DIR, source), containerPath.slice(target.length)), readOnly: mode.split(',').includes('ro') };
  }
  return undefined;
}

/** The `${NAME…}` a value is, or undefined when it is anything else (a literal, or text around it). */
function variableOf(raw: string | undefined): string | undefined {
  return /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?][^}]*)?\}$/.exec(raw ?? '')?.[1];
}

function composeNatsClientProblems(compose: Compose): string[] {
  const problems: string[] = [];
  for (const [name, service] of servicesOf(compose)) {
    const raw = environmentOf(service);
    const role = composeNatsRole(service);
    if (role === 'none') {
      if ('NATS_NKEY_SEED' in raw) problems.push(`${name}: does not use NATS, and must not hold a NATS seed`);
      continue;
    }
    if (role === 'several') {
      problems.push(`${name}: one worker kind per service, so that it can connect as that kind's NATS user`);
      continue;
    }
    const variable = variableOf(raw.NATS_NKEY_SEED);
    if (variable !== seedVariableOf(role)) problems.push(`${name}: NATS_NKEY_SEED must be \${${seedVariableOf(role)}} (its own role, ${role}, from deploy/.env), is ${raw.NATS_NKEY_SEED ?? 'unset'}`);
    for (const key of ['NATS_USER', 'NATS_PASSWORD', 'NATS_CREDS']) if (key in raw) problems.push(`${name}: ${key} besides its nkey seed`);
    const ca = raw.NATS_TLS_CA;
    if (!ca) {
      problems.push(`${name}: NATS_TLS_CA unset (the bus carries passwords and tokens: TLS only)`);
      continue;
    }
    const mount = hostPathOf(service, ca);
    if (mount?.host !== path.join(DEPLOY_DIR, 'nats', 'tls', 'ca.crt') || !mount.readOnly) problems.push(`${name}: NATS_TLS_CA ${ca} must be deploy/nats/tls/ca.crt, mounted read-only`);
  }
  return problems;
}

/** nats-server's configuration file, as much of it as deploy/nats/nats-server.conf uses: blocks, `key: value`, `include`. */
type NatsConf = { [key: string]: string | NatsConf | string[] };

function parseNatsConf(text: string, where: string): NatsConf {
  const root: NatsConf = {};
  const stack: NatsConf[] = [root];
  const includes: string[] = [];
  for (const [i, full] of text.split('\n').entries()) {
    const line = full.replace(/(^|\s)(#|\/\/).*$/, '').trim();
    const top = stack.at(-1) ?? root;
    let m: RegExpExecArray | null;
    if (!line) continue;
    if (line === '}') {
      if (stack.length === 1) throw new Error(`${where}:${i + 1}: unbalanced }`);
      stack.pop();
    } else if ((m = /^include\s+["']?([^"'\s;]+)["']?;?$/.exec(line))) {
      if (stack.length === 1) includes.push(m[1] ?? '');
      else throw new Error(`${where}:${i + 1}: include inside a block`);
    } else if ((m = /^([A-Za-z_][\w]*)\s*[:=]?\s*\{$/.exec(line))) {
      const block: NatsConf = {};
      top[m[1] ?? ''] = block;
      stack.push(block);
    } else if ((m = /^([A-Za-z_][\w]*)\s*[:=\s]\s*(.+?);?$/.exec(line))) {
      top[m[1] ?? ''] = (m[2] ?? '').replace(/^["'](.*)["']$/, '$1');
    } else {
      throw new Error(`${where}:${i + 1}: not understood by this test's reader: ${line}`);
    }
  }
  if (stack.length !== 1) throw new Error(`${where}: unclosed block`);
  root.include = includes;
  return root;
}

function confBlock(conf: NatsConf | undefined, key: string): NatsConf | undefined {
  const value = conf?.[key];
  return value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function confString(conf: NatsConf | undefined, key: string): string | undefined {
  const value = conf?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** Every NATS node runs deploy/nats/nats-server.conf, which includes the users and requires TLS, and gets the users' public keys. */
function composeNatsConfigProblems(compose: Compose): string[] {
  const problems: string[] = [];
  const conf = parseNatsConf(readFileSync(NATS_CONFIG_FILE, 'utf8'), NATS_CONFIG_FILE);
  const includes = Array.isArray(conf.include) ? conf.include : [];
  if (!includes.some((f) => path.resolve(path.dirname(NATS_CONFIG_FILE), f) === NATS_AUTHORIZATION_FILE)) problems.push('nats-server.conf: no `include authorization.conf` (the users of `crm nats config`)');
  if (confString(conf, 'port') !== String(NATS_CLIENT_PORT)) problems.push(`nats-server.conf: clients on port ${NATS_CLIENT_PORT}`);
  const tlsFiles = (where: string, tls: NatsConf | undefined): string[] => {
    if (!tls) {
      problems.push(`nats-server.conf: no TLS for ${where}`);
      return [];
    }
    const files = ['cert_file', 'key_file', 'ca_file'].map((k) => confString(tls, k));
    if (files.some((f) => !f)) problems.push(`nats-server.conf: ${where} TLS needs cert_file, key_file and ca_file`);
    return files.filter((f) => f !== undefined);
  };
  const clientFiles = tlsFiles('clients', confBlock(conf, 'tls'));
  const routeFiles = tlsFiles('routes', confBlock(confBlock(conf, 'cluster'), 'tls'));
  const storeDir = confString(confBlock(conf, 'jetstream'), 'store_dir');
  for (const [name, service] of natsServices(compose)) {
    const args = commandOf(service);
    const file = flagValue(args, '--config', '-c');
    const mounted = file ? hostPathOf(service, file) : undefined;
    if (!file || mounted?.host !== NATS_CONFIG_FILE || !mounted.readOnly) {
      problems.push(`${name}: must run the shipped config (--config, deploy/nats/nats-server.conf mounted read-only), runs ${args.join(' ')}`);
      continue;
    }
    for (const include of includes) {
      const host = hostPathOf(service, path.posix.resolve(path.posix.dirname(file), include));
      if (host?.host !== path.resolve(path.dirname(NATS_CONFIG_FILE), include)) problems.push(`${name}: ${include} is not mounted next to the config`);
    }
    for (const tlsFile of [...clientFiles, ...routeFiles]) {
      const host = hostPathOf(service, tlsFile);
      if (!host?.readOnly || path.dirname(host.host) !== path.join(DEPLOY_DIR, 'nats', 'tls')) problems.push(`${name}: ${tlsFile} is not deploy/nats/tls/${path.basename(tlsFile)}, read-only`);
    }
    if (!storeDir && !flagValue(args, '--store_dir', '-sd')) problems.push(`${name}: no JetStream store_dir`);
    const store = storeDir ?? flagValue(args, '--store_dir', '-sd');
    if (!(service.volumes ?? []).some((v) => (typeof v === 'string' ? v.split(':')[1] : v.target) === store && !(typeof v === 'string' ? v : v.source ?? '').startsWith('.'))) {
      problems.push(`${name}: the JetStream store ${String(store)} is not on a volume of its own`);
    }
    if (flagValue(args, '--user', '--pass', '--auth')) problems.push(`${name}: authentication belongs to authorization.conf, not the command line`);
    const env = environmentOf(service);
    for (const variable of AUTHORIZATION_VARIABLES) {
      if (variableOf(env[variable]) !== variable) problems.push(`${name}: ${variable} (named by authorization.conf) must come from deploy/.env as \${${variable}}`);
    }
  }
  return problems;
}

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

/**
 * Postgres connections when every pool is full: each worker's DB_POOL_MAX (default 10), `crm
 * migrate`'s 3 (a pool of 2 and the connection holding its advisory lock, shared/db/migrate.ts)
 * and another `crm` command's 4 (cli/local-services.ts),
 * within max_connections (Postgres' default 100, or the service's `-c max_connections=`) less
 * the 3 connections Postgres reserves for superusers. Past it, a busy worker's queries fail with
 * "too many clients".
 */
const POSTGRES_DEFAULT_MAX_CONNECTIONS = 100;
const POSTGRES_RESERVED_CONNECTIONS = 3;
const MIGRATE_CONNECTIONS = 3;
const COMMAND_CONNECTIONS = 4;
const DEFAULT_POOL_MAX = loadConfig({}).dbPoolMax;

function poolMaxOf(env: Record<string, string | undefined>): number {
  return env.DB_POOL_MAX === undefined ? DEFAULT_POOL_MAX : Number(env.DB_POOL_MAX);
}

function connectionBudgetProblem(where: string, parts: string[], total: number, maxConnections: number): string[] {
  const allowed = maxConnections - POSTGRES_RESERVED_CONNECTIONS;
  return total > allowed ? [`${where}: up to ${total} Postgres connections (${parts.join(' + ')}), over the ${allowed} that max_connections ${maxConnections} allows`] : [];
}

function composeConnectionProblems(compose: Compose): string[] {
  const postgres = postgresServices(compose)[0];
  const setting = postgres ? commandOf(postgres[1]).map((a) => /^max_connections=(\d+)$/.exec(a)?.[1]).find((v) => v !== undefined) : undefined;
  const maxConnections = setting === undefined ? POSTGRES_DEFAULT_MAX_CONNECTIONS : Number(setting);
  const ours = ourImageServices(compose);
  const parts: string[] = [];
  let total = 0;
  for (const [name, service] of servicesOf(compose)) {
    if (!ours.has(name)) continue;
    const { role } = roleOf(commandOf(service));
    const env = environmentOf(service);
    // Gateways never open Postgres; any other service of our image runs a `crm` command.
    const each = role === 'gateway' ? 0 : role === 'worker' ? poolMaxOf(env) : role === 'migrate' ? MIGRATE_CONNECTIONS : env.DATABASE_URL ? COMMAND_CONNECTIONS : 0;
    if (each === 0) continue;
    total += replicasOf(service) * each;
    parts.push(`${name} ${replicasOf(service)}×${each}`);
  }
  return connectionBudgetProblem('compose', parts, total, maxConnections);
}

function composeProblems(compose: Compose, known: Set<string>): string[] {
  return [
    ...composePostgresProblems(compose),
    ...composeNatsProblems(compose),
    ...composeOrderingProblems(compose),
    ...composeReplicaProblems(compose),
    ...composeSecurityProblems(compose),
    ...composeEnvironmentProblems(compose, known),
    ...composeNatsClientProblems(compose),
    ...composeNatsConfigProblems(compose),
    ...composeConnectionProblems(compose),
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

/**
 * Whether a label selector selects these labels. An empty selector selects nothing here,
 * except where Kubernetes reads it as "everything" (NetworkPolicies): `emptySelectsAll`.
 */
function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined, emptySelectsAll = false): boolean {
  const l = labels ?? {};
  const matchLabels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (matchLabels.length === 0 && expressions.length === 0) return emptySelectsAll;
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

function kubernetesProblems(objects: KubernetesObject[], kustomization: Kustomization, known: Set<string>, natsObjects: KubernetesObject[] = natsSide.objects): string[] {
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
  // The Secret as its example tells the operator to fill it: its CRM_SECRET placeholder is refused at startup.
  const filledSecret = { ...(secret?.stringData ?? {}), CRM_SECRET: SAMPLE_ENV.CRM_SECRET };
  const config = configMaps.find((m) => m.metadata?.name === CONFIG_MAP_NAME);
  if (!config) problems.push(`no ConfigMap ${CONFIG_MAP_NAME}`);
  const data = config?.data ?? {};
  for (const key of Object.keys(data)) {
    if (!known.has(key)) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} is not a setting the service reads (shared/config.ts)`);
    if ((SECRET_KEYS as readonly string[]).includes(key)) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} belongs in the Secret`);
  }
  try {
    loadConfig({ ...data, ...filledSecret });
  } catch (error) {
    problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const key of ['NATS_URL', 'PUBLIC_URL']) if (!data[key]) problems.push(`ConfigMap ${CONFIG_MAP_NAME}: ${key} unset`);

  // Settings written on a container itself (env): known, and parsing with the ConfigMap's.
  for (const workload of [...deployments, ...jobs]) {
    const spec = workload.spec?.template?.spec;
    for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
      const where = `${nameOf(workload)} container ${container.name}`;
      const literals: Record<string, string> = {};
      for (const entry of container.env ?? []) {
        if (!known.has(entry.name)) problems.push(`${where}: ${entry.name} is not a setting the service reads (shared/config.ts)`);
        else if (entry.value !== undefined) literals[entry.name] = entry.value;
      }
      try {
        loadConfig({ ...data, ...filledSecret, ...literals });
      } catch (error) {
        problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
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

  problems.push(...kubernetesBusProblems(objects, natsObjects, String(namespace), data));
  return problems;
}

// --- Kubernetes: NATS identities, TLS and network policies ----------------------------------

/** A pod of the service (a Deployment's, the Job's, the command line's), with what it may use. */
interface Workload {
  where: string;
  role: NatsRole | 'migrate';
  labels: Record<string, string>;
  spec: IPodSpec | undefined;
}

function workloadsOf(objects: KubernetesObject[]): Workload[] {
  const workloads: Workload[] = [];
  for (const o of objects) {
    if (o instanceof Deployment) {
      const role = deploymentRole(o);
      const natsRole = role.role === 'gateway' ? 'gateway' : role.role === 'worker' && role.kinds.length === 1 ? workerRole(role.kinds[0] as WorkerName) : undefined;
      if (natsRole) workloads.push({ where: nameOf(o), role: natsRole, labels: o.spec?.template.metadata?.labels ?? {}, spec: o.spec?.template.spec });
    } else if (o instanceof Job && roleOf(argsOf(mainContainer(o.spec?.template) ?? { name: '' })).role === 'migrate') {
      workloads.push({ where: nameOf(o), role: 'migrate', labels: o.spec?.template.metadata?.labels ?? {}, spec: o.spec?.template.spec });
    } else if (o instanceof Pod && o.metadata?.labels?.['app.kubernetes.io/component'] === 'cli') {
      workloads.push({ where: nameOf(o), role: 'cli', labels: o.metadata.labels, spec: o.spec });
    }
  }
  return workloads;
}

/**
 * The same budget on Kubernetes, against a managed Postgres left at the default: each worker
 * kind at its autoscaler's maxReplicas plus the pod a rolling update adds (maxSurge), the
 * migration Job and the command line's pod.
 */
function kubernetesConnectionProblems(objects: KubernetesObject[]): string[] {
  const configData = Object.assign({}, ...objects.filter((o): o is ConfigMap => o instanceof ConfigMap).map((c) => c.data ?? {})) as Record<string, string>;
  const poolOf = (container: IContainer | undefined): number => {
    const literal = (container?.env ?? []).find((e) => e.name === 'DB_POOL_MAX')?.value;
    return poolMaxOf({ DB_POOL_MAX: literal ?? ((container?.envFrom ?? []).some((e) => e.configMapRef) ? configData.DB_POOL_MAX : undefined) });
  };
  const parts: string[] = [];
  let total = 0;
  for (const hpa of objects.filter((o): o is HorizontalPodAutoscaler => o instanceof HorizontalPodAutoscaler)) {
    const target = objects.find((o): o is Deployment => o instanceof Deployment && o.metadata?.name === hpa.spec?.scaleTargetRef.name);
    if (!target || deploymentRole(target).role !== 'worker') continue;
    const surge = target.spec?.strategy?.rollingUpdate?.maxSurge;
    const pods = (hpa.spec?.maxReplicas ?? 0) + (typeof surge === 'number' ? surge : 1);
    const each = poolOf(mainContainer(target.spec?.template));
    total += pods * each;
    parts.push(`${nameOf(target)} ${pods}×${each}`);
  }
  for (const o of objects) {
    if (o instanceof Job && roleOf(argsOf(mainContainer(o.spec?.template) ?? { name: '' })).role === 'migrate') {
      total += MIGRATE_CONNECTIONS;
      parts.push(`${nameOf(o)} ${MIGRATE_CONNECTIONS}`);
    } else if (o instanceof Pod && o.metadata?.labels?.['app.kubernetes.io/component'] === 'cli') {
      total += COMMAND_CONNECTIONS;
      parts.push(`${nameOf(o)} ${COMMAND_CONNECTIONS}`);
    }
  }
  return connectionBudgetProblem('kubernetes', parts, total, POSTGRES_DEFAULT_MAX_CONNECTIONS);
}

/** Every `secretKeyRef` to the crm-nats Secret in a pod: its seeds go to the one process they belong to. */
function natsSecretRefs(spec: IPodSpec | undefined): { container: string; variable: string; key: string }[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].flatMap((c) =>
    (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef?.name === NATS_SECRET_NAME ? [{ container: c.name, variable: e.name, key: e.valueFrom.secretKeyRef.key }] : [])));
}

/** A pod's NATS identity and TLS: its role's seed as NATS_NKEY_SEED, nothing else of crm-nats but the CA, mounted where NATS_TLS_CA says. */
function natsClientProblems(w: Workload, configData: Record<string, string>): string[] {
  const problems: string[] = [];
  const main = w.spec?.containers[0];
  const refs = natsSecretRefs(w.spec);
  if (w.role === 'migrate') {
    if (refs.length > 0 || [...(w.spec?.containers ?? []), ...(w.spec?.initContainers ?? [])].some((c) => (c.env ?? []).some((e) => e.name === 'NATS_NKEY_SEED'))) {
      problems.push(`${w.where}: the migration does not use NATS and must not hold a NATS seed`);
    }
  } else {
    const seed = refs.filter((r) => r.container === main?.name && r.variable === 'NATS_NKEY_SEED');
    if (seed.length !== 1 || seed[0]?.key !== w.role) problems.push(`${w.where}: NATS_NKEY_SEED must come from key ${w.role} of the ${NATS_SECRET_NAME} Secret (its own role), has ${seed.map((r) => r.key).join(', ') || 'none'}`);
  }
  for (const r of refs) {
    if (r.variable !== 'NATS_NKEY_SEED' || r.key !== w.role || r.container !== main?.name) problems.push(`${w.where} container ${r.container}: ${r.variable} from key ${r.key} of ${NATS_SECRET_NAME}: a seed belongs to its role's process only`);
  }
  for (const volume of w.spec?.volumes ?? []) {
    const items = volume.secret?.secretName === NATS_SECRET_NAME ? volume.secret.items : undefined;
    if (volume.secret?.secretName === NATS_SECRET_NAME && (!items || items.some((i) => i.key !== NATS_CA_KEY))) problems.push(`${w.where}: volume ${volume.name} must mount only ${NATS_CA_KEY} of ${NATS_SECRET_NAME}, never the seeds`);
  }
  if (w.role === 'migrate' || !main) return problems;
  const fromConfig = (main.envFrom ?? []).some((e) => e.configMapRef?.name === CONFIG_MAP_NAME) ? configData.NATS_TLS_CA : undefined;
  const ca = (main.env ?? []).find((e) => e.name === 'NATS_TLS_CA')?.value ?? fromConfig;
  if (!ca) return [...problems, `${w.where}: NATS_TLS_CA unset (the bus carries passwords and tokens: TLS only)`];
  const mount = (main.volumeMounts ?? []).find((m) => ca.startsWith(`${m.mountPath}/`) || (m.mountPath === ca && m.subPath));
  const volume = (w.spec?.volumes ?? []).find((v) => v.name === mount?.name);
  const file = mount?.subPath ?? (mount ? ca.slice(mount.mountPath.length + 1) : '');
  const source = volume?.secret ? { name: volume.secret.secretName, items: volume.secret.items } : volume?.configMap ? { name: volume.configMap.name, items: volume.configMap.items } : undefined;
  const key = source?.items ? source.items.find((i) => i.path === file)?.key : file;
  if (!source || !key || mount?.readOnly !== true) problems.push(`${w.where}: NATS_TLS_CA ${ca} is not a CA certificate mounted read-only from a Secret or ConfigMap`);
  return problems;
}

type Direction = 'Ingress' | 'Egress';
interface Rule {
  policy: string;
  ports: INetworkPolicyPort[];
  peers: INetworkPolicyPeer[];
}

function policyTypesOf(p: NetworkPolicy): string[] {
  return p.spec?.policyTypes ?? ['Ingress', ...(p.spec?.egress ? ['Egress'] : [])];
}

/** The rules that apply to a pod in one direction; `isolated` once any policy selects it for that direction. */
function rulesFor(policies: NetworkPolicy[], namespace: string, labels: Record<string, string>, direction: Direction): { isolated: boolean; rules: Rule[] } {
  const selecting = policies.filter((p) => p.metadata?.namespace === namespace && selects(p.spec?.podSelector, labels, true) && policyTypesOf(p).includes(direction));
  const rules = selecting.flatMap((p) => ((direction === 'Ingress' ? p.spec?.ingress : p.spec?.egress) ?? []).map((r) => ({
    policy: nameOf(p),
    ports: r.ports ?? [],
    peers: ('from' in r ? r.from : 'to' in r ? r.to : undefined) ?? [],
  })));
  return { isolated: selecting.length > 0, rules };
}

/** Whether a rule opens a port (a named port is looked up in the pod's containers). */
function opens(rule: Rule, port: number, protocol = 'TCP', spec?: IPodSpec): boolean {
  if (rule.ports.length === 0) return true;
  return rule.ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    const number = typeof p.port === 'string' ? spec?.containers.flatMap((c) => c.ports ?? []).find((c) => c.name === p.port)?.containerPort : p.port;
    return p.port === undefined || number === port || (number !== undefined && p.endPort !== undefined && port >= number && port <= p.endPort);
  });
}

/** Whether a peer admits a pod with these labels in this namespace (a pod peer without namespaceSelector is the policy's own namespace). */
function peerSelects(peer: INetworkPolicyPeer, policyNamespace: string, namespace: string, labels: Record<string, string>): boolean {
  if (peer.ipBlock) return false;
  const inNamespace = peer.namespaceSelector ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': namespace }, true) : namespace === policyNamespace;
  return inNamespace && (peer.podSelector ? selects(peer.podSelector, labels, true) : true);
}

const NATS_CLIENT_ROLES: readonly string[] = NATS_ROLES;
const POSTGRES_ROLES: readonly string[] = [...WORKER_NAMES.map(workerRole), 'migrate', 'cli'];
/** Who may open connections out of the cluster, to HTTPS only: the webhooks worker (its deliveries), gateways (client metadata documents). */
const HTTPS_OUT_ROLES: readonly string[] = [workerRole('webhooks'), 'gateway'];
const HTTPS_PORT = 443;

/** The network policies of the crm namespace, for one pod: what it may reach and what may reach it. */
function workloadNetworkProblems(w: Workload, policies: NetworkPolicy[], namespace: string): string[] {
  const problems: string[] = [];
  const egress = rulesFor(policies, namespace, w.labels, 'Egress');
  const ingress = rulesFor(policies, namespace, w.labels, 'Ingress');
  if (!egress.isolated || !ingress.isolated) return [`${w.where}: no NetworkPolicy isolates it (a default deny of ingress and egress)`];
  const reaches = (port: number, protocol = 'TCP') => egress.rules.filter((r) => opens(r, port, protocol));
  if (reaches(53, 'UDP').length === 0) problems.push(`${w.where}: cannot reach DNS (UDP 53)`);
  const nats = reaches(NATS_CLIENT_PORT);
  if (NATS_CLIENT_ROLES.includes(w.role) && nats.length === 0) problems.push(`${w.where}: cannot reach NATS (${NATS_CLIENT_PORT})`);
  if (!NATS_CLIENT_ROLES.includes(w.role) && nats.length > 0) problems.push(`${w.where}: may reach NATS (${NATS_CLIENT_PORT}) but does not use it (${nats.map((r) => r.policy).join(', ')})`);
  for (const rule of nats) {
    if (rule.peers.length === 0 || !rule.peers.every((p) => p.namespaceSelector && peerSelects(p, namespace, NATS_NAMESPACE, NATS_POD_LABELS) && !peerSelects(p, namespace, NATS_NAMESPACE, {}))) {
      problems.push(`${w.where}: ${rule.policy} opens ${NATS_CLIENT_PORT} to more than the NATS pods of namespace ${NATS_NAMESPACE}`);
    }
  }
  const postgres = reaches(POSTGRES_PORT);
  if (POSTGRES_ROLES.includes(w.role) && postgres.length === 0) problems.push(`${w.where}: cannot reach Postgres (${POSTGRES_PORT})`);
  if (!POSTGRES_ROLES.includes(w.role) && postgres.length > 0) problems.push(`${w.where}: may reach Postgres (${POSTGRES_PORT}), which only workers, the migration and the command line may (${postgres.map((r) => r.policy).join(', ')})`);
  for (const rule of postgres) if (rule.peers.length === 0) problems.push(`${w.where}: ${rule.policy} opens ${POSTGRES_PORT} to every address, not Postgres'`);
  const allowedOut = new Set([
    53,
    ...(NATS_CLIENT_ROLES.includes(w.role) ? [NATS_CLIENT_PORT] : []),
    ...(POSTGRES_ROLES.includes(w.role) ? [POSTGRES_PORT] : []),
    ...(HTTPS_OUT_ROLES.includes(w.role) ? [HTTPS_PORT] : []),
  ]);
  const https = reaches(HTTPS_PORT);
  if (HTTPS_OUT_ROLES.includes(w.role) && https.length === 0) problems.push(`${w.where}: cannot reach HTTPS (${HTTPS_PORT}) for its webhook deliveries or client metadata documents`);
  for (const rule of https) {
    const privateRanges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'];
    if (rule.peers.length === 0 || rule.peers.some((p) => !p.ipBlock || privateRanges.some((range) => !(p.ipBlock?.except ?? []).includes(range)))) {
      problems.push(`${w.where}: ${rule.policy} opens ${HTTPS_PORT} to private addresses of the cluster, not only the internet`);
    }
  }
  for (const rule of egress.rules) {
    const ports = rule.ports.map((p) => p.port);
    if (ports.length === 0 || ports.some((p) => typeof p !== 'number' || !allowedOut.has(p))) problems.push(`${w.where}: ${rule.policy} lets it reach ${ports.length === 0 ? 'every port' : ports.join(', ')}`);
  }
  const allowedIn = new Set(w.role === 'gateway' ? [HTTP_PORT, ADMIN_PORT] : w.role.startsWith('worker-') ? [ADMIN_PORT] : []);
  for (const rule of ingress.rules) {
    const ports = rule.ports.map((p) => (typeof p.port === 'string' ? portNumber(w.spec?.containers[0] ?? { name: '' }, p.port) : p.port));
    if (ports.length === 0 || ports.some((p) => p === undefined || !allowedIn.has(p))) problems.push(`${w.where}: ${rule.policy} admits traffic on ${ports.length === 0 ? 'every port' : ports.join(', ')}`);
  }
  if (w.role === 'gateway' && !ingress.rules.some((r) => opens(r, HTTP_PORT, 'TCP', w.spec))) problems.push(`${w.where}: its HTTP port ${HTTP_PORT} admits nobody`);
  return problems;
}

/** deploy/kubernetes/nats: the NATS pods admit clients only from the service's NATS clients, routes only from each other. */
function natsNetworkProblems(natsObjects: KubernetesObject[], workloads: Workload[], crmNamespace: string): string[] {
  const problems: string[] = [];
  const policies = natsObjects.filter((o): o is NetworkPolicy => o instanceof NetworkPolicy);
  const ingress = rulesFor(policies, NATS_NAMESPACE, NATS_POD_LABELS, 'Ingress');
  if (!ingress.isolated) return [`no NetworkPolicy in namespace ${NATS_NAMESPACE} selects the NATS pods (${JSON.stringify(NATS_POD_LABELS)}): anyone may connect`];
  const admits = (port: number, namespace: string, labels: Record<string, string>) =>
    ingress.rules.some((r) => opens(r, port) && (r.peers.length === 0 || r.peers.some((p) => peerSelects(p, NATS_NAMESPACE, namespace, labels))));
  for (const w of workloads) {
    const admitted = admits(NATS_CLIENT_PORT, crmNamespace, w.labels);
    if (NATS_CLIENT_ROLES.includes(w.role) && !admitted) problems.push(`NATS does not admit ${w.where} on ${NATS_CLIENT_PORT}`);
    if (!NATS_CLIENT_ROLES.includes(w.role) && admitted) problems.push(`NATS admits ${w.where} on ${NATS_CLIENT_PORT}, which does not use it`);
  }
  if (admits(NATS_CLIENT_PORT, crmNamespace, { 'app.kubernetes.io/name': 'something-else' })) problems.push(`NATS admits pods of ${crmNamespace} that are not the service's on ${NATS_CLIENT_PORT}`);
  if (admits(NATS_CLIENT_PORT, 'default', workloads[0]?.labels ?? {})) problems.push(`NATS admits pods of other namespaces on ${NATS_CLIENT_PORT}`);
  if (!admits(NATS_ROUTE_PORT, NATS_NAMESPACE, NATS_POD_LABELS)) problems.push(`NATS pods cannot route to each other (${NATS_ROUTE_PORT})`);
  if (admits(NATS_ROUTE_PORT, crmNamespace, workloads[0]?.labels ?? {}) || admits(NATS_ROUTE_PORT, NATS_NAMESPACE, {})) problems.push(`the route port ${NATS_ROUTE_PORT} admits more than the NATS pods`);
  for (const rule of ingress.rules) if (rule.ports.length === 0) problems.push(`${rule.policy}: a rule for every port`);
  return problems;
}

/** What the service's pods do on the bus and the network: identities, TLS, policies, on both sides. */
function kubernetesBusProblems(objects: KubernetesObject[], natsObjects: KubernetesObject[], namespace: string, configData: Record<string, string>): string[] {
  const problems: string[] = [];
  const workloads = workloadsOf(objects);
  for (const role of [...NATS_ROLES, 'migrate']) if (!workloads.some((w) => w.role === role)) problems.push(`no pod runs as ${role} (an example for cli)`);
  const natsSecret = objects.find((o): o is Secret => o instanceof Secret && o.metadata?.name === NATS_SECRET_NAME);
  if (!natsSecret) problems.push(`no example of the ${NATS_SECRET_NAME} Secret`);
  for (const key of [...NATS_ROLES, NATS_CA_KEY]) {
    if (natsSecret && natsSecret.stringData?.[key] === undefined && natsSecret.data?.[key] === undefined) problems.push(`Secret ${NATS_SECRET_NAME} has no ${key}`);
  }
  for (const w of workloads) {
    problems.push(...natsClientProblems(w, configData));
    if (w.role === 'gateway') {
      for (const container of [...(w.spec?.initContainers ?? []), ...(w.spec?.containers ?? [])]) {
        for (const key of SECRET_KEYS) if (settingSource(container, key).from !== 'none') problems.push(`${w.where}: the gateway never opens Postgres; it must not get ${key}`);
      }
    }
    if (w.role === 'cli') problems.push(...podProblems(w.where, { metadata: { labels: w.labels }, spec: w.spec }, String(w.spec?.containers[0]?.image), SECRET_KEYS), ...secretProblems(w.where, w.spec?.containers[0], SECRET_KEYS));
  }
  const natsUrl = new URL(configData.NATS_URL ?? 'nats://?');
  if (natsUrl.hostname !== `${NATS_POD_LABELS['app.kubernetes.io/instance']}.${NATS_NAMESPACE}.svc.cluster.local`) problems.push(`NATS_URL ${natsUrl.href} is not the Service of the NATS release`);
  const policies = objects.filter((o): o is NetworkPolicy => o instanceof NetworkPolicy);
  for (const w of workloads) problems.push(...workloadNetworkProblems(w, policies, namespace));
  problems.push(...natsNetworkProblems(natsObjects, workloads, namespace));
  return problems;
}

/** deploy/kubernetes/nats/values.yaml: the chart's TLS (clients and routes), our users, their public keys from a Secret. */
function helmValuesProblems(values: unknown): string[] {
  const problems: string[] = [];
  const get = (...keys: string[]): unknown => keys.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), values);
  for (const [where, tls] of [['config.nats.tls', ['config', 'nats', 'tls']], ['config.cluster.tls', ['config', 'cluster', 'tls']]] as const) {
    if (get(...tls, 'enabled') !== true || typeof get(...tls, 'secretName') !== 'string') problems.push(`${where}: TLS must be enabled, from a Secret (secretName)`);
  }
  if (get('config', 'cluster', 'enabled') !== true || get('config', 'cluster', 'replicas') !== 3) problems.push('config.cluster: 3 nodes');
  if (get('config', 'jetstream', 'enabled') !== true) problems.push('config.jetstream: must be enabled (the shared rate limits)');
  if (get('tlsCA', 'enabled') !== true || !(get('tlsCA', 'secretName') ?? get('tlsCA', 'configMapName'))) problems.push('tlsCA: the CA verifying route peers must be set');
  const merge = get('config', 'merge');
  const includes = isRecord(merge) ? Object.entries(merge).filter(([k]) => k.endsWith('$include')).map(([, v]) => String(v)) : [];
  if (!includes.some((i) => path.posix.normalize(i) === 'authorization.conf')) problems.push('config.merge: no $include of ./authorization.conf (the users)');
  for (const variable of AUTHORIZATION_VARIABLES) {
    const ref = get('container', 'env', variable, 'valueFrom', 'secretKeyRef');
    if (!isRecord(ref) || ref.key !== variable || typeof ref.name !== 'string') problems.push(`container.env.${variable}: must come from a Secret (authorization.conf names it)`);
  }
  if (get('config', 'nats', 'port') !== undefined && get('config', 'nats', 'port') !== NATS_CLIENT_PORT) problems.push(`config.nats.port must stay ${NATS_CLIENT_PORT}`);
  return problems;
}

/**
 * The roles that create or change the event stream and the rate-limit bucket, and the setting
 * each applies: the webhooks worker creates both; the command line's `crm events setup-stream`
 * brings the stream to its own EVENTS_STREAM_REPLICAS, so a default there cut the stream to one copy.
 */
const REPLICATED: readonly { role: NatsRole; variable: 'EVENTS_STREAM_REPLICAS' | 'NATS_KV_REPLICAS' }[] = [
  { role: workerRole('webhooks'), variable: 'EVENTS_STREAM_REPLICAS' },
  { role: workerRole('webhooks'), variable: 'NATS_KV_REPLICAS' },
  { role: 'cli', variable: 'EVENTS_STREAM_REPLICAS' },
];

/** The copies a setting gives (its default when unset). */
function replicasSetting(env: Record<string, string | undefined>, variable: 'EVENTS_STREAM_REPLICAS' | 'NATS_KV_REPLICAS'): number {
  const config = loadConfig({ [variable]: env[variable] });
  return variable === 'EVENTS_STREAM_REPLICAS' ? config.events.streamReplicas : config.natsKvReplicas;
}

/** Each role's processes (`where` → environment) against the NATS cluster's node count. */
function replicaSettingProblems(processes: { where: string; role: NatsRole | 'none' | 'several' | 'migrate'; env: Record<string, string | undefined> }[], nodes: number): string[] {
  return REPLICATED.flatMap(({ role, variable }) => {
    const holders = processes.filter((p) => p.role === role);
    if (holders.length === 0) return [`no ${role} process`];
    return holders.flatMap((p) => {
      const copies = replicasSetting(p.env, variable);
      return copies === nodes ? [] : [`${p.where}: ${variable} is ${copies} on a ${nodes}-node NATS cluster`];
    });
  });
}

function composeReplicaSettingProblems(compose: Compose): string[] {
  const processes = servicesOf(compose).map(([name, s]) => ({ where: `compose service ${name}`, role: composeNatsRole(s), env: environmentOf(s) }));
  return replicaSettingProblems(processes, natsServices(compose).length);
}

function kubernetesReplicaSettingProblems(objects: KubernetesObject[], helmValues: unknown): string[] {
  const configData = Object.assign({}, ...objects.filter((o): o is ConfigMap => o instanceof ConfigMap).map((c) => c.data ?? {})) as Record<string, string>;
  const nodes = isRecord(helmValues) && isRecord(helmValues.config) && isRecord(helmValues.config.cluster) ? Number(helmValues.config.cluster.replicas) : 1;
  const processes = workloadsOf(objects).map((w) => {
    const container = mainContainer({ spec: w.spec });
    const fromConfig = (container?.envFrom ?? []).some((e) => e.configMapRef?.name === CONFIG_MAP_NAME) ? configData : {};
    const literal = Object.fromEntries((container?.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
    return { where: w.where, role: w.role, env: { ...fromConfig, ...literal } };
  });
  return replicaSettingProblems(processes, nodes);
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
  t.same(composeNatsClientProblems(compose), [], "each process: its own role's NATS seed, and TLS");
  t.same(composeNatsConfigProblems(compose), [], 'NATS: the shipped config, its users, TLS');
});

t.test('deploy/nats/nats-server.conf: nats-server accepts it, with the users and TLS', { skip: existsSync(NATS_SERVER) ? false : `no nats-server here (${NATS_SERVER})` }, async (t) => {
  // As a node runs it, with the container's /etc/nats and /data made temporary directories.
  const dir = mkdtempSync(path.join(tmpdir(), 'nats-conf-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'tls'));
  makeTestCertificates(path.join(dir, 'tls'));
  copyFileSync(NATS_AUTHORIZATION_FILE, path.join(dir, 'authorization.conf'));
  const conf = readFileSync(NATS_CONFIG_FILE, 'utf8').replaceAll('/etc/nats/', `${dir}/`).replace(/store_dir: \/data$/m, `store_dir: ${dir}/data`);
  writeFileSync(path.join(dir, 'nats-server.conf'), conf);
  const keys = Object.fromEntries(NATS_ROLES.map((role) => [publicKeyVariableOf(role), SAMPLE_KEYS[role].publicKey]));
  const check = (env: Record<string, string>) => spawnSync(NATS_SERVER, ['-c', path.join(dir, 'nats-server.conf'), '-t'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 });
  const ok = check(keys);
  t.equal(ok.status, 0, `${ok.stdout}${ok.stderr}`);
  t.same(Object.keys(keys).sort(), AUTHORIZATION_VARIABLES, 'authorization.conf names exactly the public keys of the roles');
  const { CRM_NKEY_GATEWAY: _gateway, ...withoutGateway } = keys;
  t.not(check(withoutGateway).status, 0, 'refused without a public key: the users are included, and no user is left keyless');
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
  t.match(broken((c) => {
    const s = service(c, (a) => a[0] === 'gateway');
    s.environment = { ...environmentOf(s), DATABASE_URL: 'postgres://crm:${POSTGRES_PASSWORD}@postgres:5432/crm' };
  }), /must not get DATABASE_URL/, 'the database on a gateway');
  t.match(broken((c) => {
    const s = service(c, (a) => a[0] === 'gateway');
    s.environment = { ...environmentOf(s), NATS_NKEY_SEED: '${CRM_NKEY_SEED_WORKER_TOKENS:?}' };
  }), /gateway-1: NATS_NKEY_SEED must be \$\{CRM_NKEY_SEED_GATEWAY\}/, "a gateway with the tokens worker's seed");
  t.match(broken((c) => {
    const s = service(c, (a) => a.join(' ') === 'worker deals');
    s.environment = { ...environmentOf(s), NATS_NKEY_SEED: 'SU' + 'A'.repeat(56) };
  }), /worker-deals: NATS_NKEY_SEED must be/, 'a seed written into the file');
  t.match(broken((c) => {
    const s = service(c, (a) => a.join(' ') === 'worker schema');
    const { NATS_TLS_CA: _ca, ...rest } = environmentOf(s);
    s.environment = rest;
  }), /worker-schema: NATS_TLS_CA unset/, 'a worker without TLS');
  t.match(broken((c) => {
    const s = service(c, (a) => a.join(' ') === 'worker contacts');
    s.volumes = [];
  }), /worker-contacts: NATS_TLS_CA \S+ must be deploy\/nats\/tls\/ca.crt/, 'a CA that is not mounted');
  t.match(broken((c) => {
    const s = service(c, (a) => a[0] === 'migrate');
    s.environment = { ...environmentOf(s), NATS_NKEY_SEED: '${CRM_NKEY_SEED_CLI}' };
  }), /migrate: does not use NATS/, 'a seed where NATS is not used');
  t.match(broken((c) => {
    const nats = natsServices(c)[1]?.[1];
    if (nats) nats.command = commandOf(nats).filter((a, i, all) => a !== '--config' && all[i - 1] !== '--config');
  }), /nats-2: must run the shipped config/, 'a NATS node without the config');
  t.match(broken((c) => {
    const nats = natsServices(c)[0]?.[1];
    if (nats) nats.volumes = (nats.volumes ?? []).map((v) => (typeof v === 'string' ? v.replace(/:ro$/, '') : v));
  }), /nats-1: must run the shipped config/, 'the config mounted writable');
  t.match(broken((c) => {
    const nats = natsServices(c)[2]?.[1];
    if (nats) {
      const { CRM_NKEY_CLI: _cli, ...rest } = environmentOf(nats);
      nats.environment = rest;
    }
  }), /nats-3: CRM_NKEY_CLI \(named by authorization.conf\)/, 'a NATS node without a public key');
});

const rendered = renderKubernetes();
/** Applied on its own, to the NATS release's namespace. */
const natsSide = renderKubernetes(KUBERNETES_NATS_DIR);
const kustomization = readKustomization();
/** The Secrets are created by hand; their examples, never applied, show the keys the pods read. */
const secretExample = kubernetesObject(readYaml(path.join(KUBERNETES_DIR, 'base/secret.example.yaml')), 'base/secret.example.yaml');
/** Examples too: the command line's pod exists only while an operator works. */
const examples = ['base/nats-secret.example.yaml', 'base/cli-pod.example.yaml'].flatMap((f) => kubernetesFileObjects(path.join(KUBERNETES_DIR, f)));
const objects = [...rendered.objects, secretExample, ...examples];

t.test('the kustomization renders every manifest, each valid for its kubernetes-models class', async (t) => {
  t.ok(rendered.objects.length >= 18, `${rendered.objects.length} objects: ${rendered.objects.map(nameOf).join(', ')}`);
  const unread = kubernetesManifestFiles().filter((f) => !f.endsWith('.example.yaml') && !rendered.files.has(path.join(KUBERNETES_DIR, f)) && !natsSide.files.has(path.join(KUBERNETES_DIR, f)));
  t.same(unread, [], 'no manifest is left out of the kustomizations');
  t.notOk([...rendered.objects, ...natsSide.objects].some((o) => o instanceof Secret), 'no Secret is applied: its values never enter the repository');
  t.ok(natsSide.objects.length > 0 && natsSide.objects.every((o) => o.metadata?.namespace === NATS_NAMESPACE), `deploy/kubernetes/nats: ${natsSide.objects.map(nameOf).join(', ')} in namespace ${NATS_NAMESPACE}`);
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

t.test('Kubernetes: NATS seeds per role, TLS, network policies on both sides, the Helm values', async (t) => {
  t.same(kubernetesBusProblems(objects, natsSide.objects, String(kustomization.namespace), objects.find((o): o is ConfigMap => o instanceof ConfigMap)?.data ?? {}), []);
  t.same(helmValuesProblems(readYaml(HELM_VALUES_FILE)), [], 'deploy/kubernetes/nats/values.yaml');
});

t.test('the event stream and the rate-limit bucket: one copy per NATS node, also from crm events setup-stream', async (t) => {
  t.same(composeReplicaSettingProblems(validCompose()), [], 'compose');
  t.same(kubernetesReplicaSettingProblems(objects, readYaml(HELM_VALUES_FILE)), [], 'kubernetes');
  const unset = objects.map((o) => (o instanceof ConfigMap ? new ConfigMap({ metadata: o.metadata, data: { ...o.data, NATS_KV_REPLICAS: '1' } }) : o));
  t.match(kubernetesReplicaSettingProblems(unset, readYaml(HELM_VALUES_FILE)).join('\n'), /NATS_KV_REPLICAS is 1 on a 3-node NATS cluster/, 'a copy with one bucket copy');
});

t.test('Postgres connections: every pool at its largest fits max_connections', async (t) => {
  t.same(composeConnectionProblems(validCompose()), [], 'compose');
  t.same(kubernetesConnectionProblems(objects), [], 'kubernetes');
  const scaled = clone(validCompose());
  const worker = servicesOf(scaled).find(([, s]) => roleOf(commandOf(s)).role === 'worker')?.[1];
  if (worker) worker.deploy = { ...worker.deploy, replicas: 200 };
  t.match(composeConnectionProblems(scaled).join('\n'), /^compose: up to \d+ Postgres connections .* over the \d+ that max_connections/, 'a copy with too many workers');
  const bigPools = objects.map((o) => (o instanceof ConfigMap ? new ConfigMap({ metadata: o.metadata, data: { ...o.data, DB_POOL_MAX: '50' } }) : o));
  t.match(kubernetesConnectionProblems(bigPools).join('\n'), /^kubernetes: up to \d+ Postgres connections/, 'a copy with larger pools');
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
  /** A workload's pod spec, or a Pod's own. */
  const podSpec = (json: Record<string, unknown>): Json => {
    const spec = (json as { spec: { template?: { spec: Json } } }).spec;
    return spec.template?.spec ?? (spec as Json);
  };
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
  // Before, only the ConfigMap's keys were checked: a container's own env went unread.
  t.match(broken((o) => o instanceof Job, (j) => Object.assign(main(j), { env: [{ name: 'LOG_LEVL', value: 'info' }] })), /Job\/crm-migrate container migrate: LOG_LEVL is not a setting the service reads/, 'a misspelt setting on a container');
  t.match(broken(isRole('worker', 'deals'), (j) => Object.assign((podSpec(j) as unknown as { initContainers: Json[] }).initContainers[0] ?? {}, { env: [{ name: 'LOG_LEVEL', value: 'loud' }] })), /crm-worker-deals container migrate: Invalid configuration:\s+LOG_LEVEL/, 'a setting on an init container that does not parse');

  // The bus: identities, TLS, network policies.
  const env = (j: Record<string, unknown>): { name: string; valueFrom?: { secretKeyRef?: { key: string } } }[] => (main(j) as { env?: [] }).env ?? [];
  const seedOf = (j: Record<string, unknown>) => env(j).find((e) => e.name === 'NATS_NKEY_SEED')?.valueFrom?.secretKeyRef ?? { key: '' };
  t.match(broken(isRole('worker', 'deals'), (j) => Object.assign(seedOf(j), { key: 'worker-tokens' })), /crm-worker-deals: NATS_NKEY_SEED must come from key worker-deals/, "a worker with another kind's seed");
  t.match(broken(isRole('gateway'), (j) => Object.assign(main(j), { env: [...env(j), { name: 'NATS_USER', valueFrom: { secretKeyRef: { name: NATS_SECRET_NAME, key: 'cli' } } }] })), /a seed belongs to its role's process only/, "the command line's seed on a gateway");
  t.match(broken((o) => o instanceof Pod, (j) => Object.assign(seedOf(j), { key: 'worker-tokens' })), /Pod\/crm-cli: NATS_NKEY_SEED must come from key cli/, "the command line with a worker's seed");
  t.match(broken((o) => o instanceof Job, (j) => Object.assign(main(j), { env: [...env(j), { name: 'NATS_NKEY_SEED', valueFrom: { secretKeyRef: { name: NATS_SECRET_NAME, key: 'cli' } } }] })), /the migration does not use NATS/, 'a seed in the migration');
  t.match(broken(isRole('gateway'), (j) => Object.assign(main(j), { volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] })), /crm-gateway: NATS_TLS_CA \S+ is not a CA certificate mounted/, 'a gateway without the CA');
  t.match(broken(isRole('worker', 'schema'), (j) => {
    const volume = (podSpec(j) as unknown as { volumes: { name: string; secret?: { items?: unknown } }[] }).volumes.find((v) => v.name === 'nats-ca');
    if (volume?.secret) delete volume.secret.items;
  }), /must mount only ca.crt of crm-nats, never the seeds/, 'every seed mounted as files');
  t.match(broken((o) => o instanceof ConfigMap, (j) => {
    const { NATS_TLS_CA: _ca, ...data } = j.data as Record<string, string>;
    Object.assign(j, { data });
  }), /NATS_TLS_CA unset/, 'no TLS to NATS');
  t.match(broken((o) => o instanceof Secret && o.metadata?.name === NATS_SECRET_NAME, (j) => {
    const { 'worker-schema': _seed, ...stringData } = j.stringData as Record<string, string>;
    Object.assign(j, { stringData });
  }), /Secret crm-nats has no worker-schema/, 'a role missing from the Secret');
  t.match(broken(isRole('gateway'), (j) => Object.assign(main(j), { env: [...env(j), { name: 'CRM_SECRET', valueFrom: { secretKeyRef: { name: SECRET_NAME, key: 'CRM_SECRET' } } }] })), /the gateway never opens Postgres; it must not get CRM_SECRET/, 'CRM_SECRET on a gateway');
  const policy = (name: string) => (o: KubernetesObject): boolean => o instanceof NetworkPolicy && o.metadata?.name === name;
  const spec = (j: Record<string, unknown>) => j.spec as Record<string, unknown>;
  t.match(broken(policy('crm-default-deny'), (j) => Object.assign(spec(j), { podSelector: { matchLabels: { nothing: 'here' } } })), /Job\/crm-migrate: no NetworkPolicy isolates it/, 'no default deny');
  t.match(broken(policy('crm-postgres-clients'), (j) => Object.assign(spec(j), { podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'workspace-crm' } } })), /crm-gateway: may reach Postgres/, 'the gateway let through to Postgres');
  t.match(broken(policy('crm-postgres-clients'), (j) => Object.assign(spec(j), { egress: [{ ports: [{ protocol: 'TCP', port: POSTGRES_PORT }] }] })), /opens 5432 to every address/, 'Postgres as every address');
  t.match(broken(policy('crm-nats-clients'), (j) => Object.assign(spec(j), { podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'workspace-crm' } } })), /Job\/crm-migrate: may reach NATS/, 'the migration let through to NATS');
  t.match(broken(policy('crm-nats-clients'), (j) => Object.assign(spec(j), { egress: [{ to: [{ namespaceSelector: {} }], ports: [{ protocol: 'TCP', port: NATS_CLIENT_PORT }] }] })), /opens 4222 to more than the NATS pods/, 'NATS as any pod anywhere');
  t.match(broken(policy('crm-gateway-http'), (j) => Object.assign(spec(j), { ingress: [{}] })), /crm-gateway: crm-gateway-http admits traffic on every port|NetworkPolicy\/crm-gateway-http admits traffic on every port/, 'a gateway open on every port');
  t.match(broken(policy('crm-dns'), (j) => Object.assign(spec(j), { egress: [{ ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 443 }] }] })), /lets it reach 53, 443/, 'egress to the internet');
  const natsBroken = (edit: (json: Record<string, unknown>) => void): string => {
    const copy = natsSide.objects.map((o) => {
      const json: unknown = clone(o.toJSON());
      if (!isRecord(json)) throw new Error('not a mapping');
      if (o instanceof NetworkPolicy) edit(json);
      return kubernetesObject(json);
    });
    return kubernetesProblems(objects, kustomization, known, copy).join('\n');
  };
  t.match(natsBroken((j) => Object.assign(spec(j), { ingress: [{ ports: [{ protocol: 'TCP', port: NATS_CLIENT_PORT }] }] })), /NATS admits Job\/crm-migrate on 4222/, 'NATS open to everyone');
  t.match(natsBroken((j) => Object.assign(spec(j), { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats-box' } } })), /no NetworkPolicy in namespace nats selects the NATS pods/, 'a policy selecting other pods');
  t.match(natsBroken((j) => Object.assign(spec(j), { ingress: (spec(j).ingress as unknown[]).slice(0, 1) })), /NATS pods cannot route to each other/, 'routes refused');
  t.match(helmValuesProblems({ ...(readYaml(HELM_VALUES_FILE) as object), tlsCA: { enabled: false } }).join('\n'), /tlsCA/, 'Helm values without the CA');
  const values = readYaml(HELM_VALUES_FILE) as { config: { nats: { tls: object }; merge: object }; container: { env: Record<string, unknown> } };
  t.match(helmValuesProblems({ ...values, config: { ...values.config, nats: { tls: { enabled: false } } } }).join('\n'), /config.nats.tls: TLS must be enabled/, 'Helm values without client TLS');
  t.match(helmValuesProblems({ ...values, config: { ...values.config, merge: {} } }).join('\n'), /no \$include of .\/authorization.conf/, 'Helm values without our users');
  t.match(helmValuesProblems({ ...values, container: { env: { ...values.container.env, CRM_NKEY_WORKER_TOKENS: 'UA' } } }).join('\n'), /container.env.CRM_NKEY_WORKER_TOKENS/, 'a public key written into the values');
});
