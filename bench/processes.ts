import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../cli/node-flags.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export { freePort } from '../shared/free-port.js';

const CRM_BIN = path.join(ROOT, 'dist', 'cli', 'crm.js');

/** A service process whose logs go to /dev/null, so reading them costs the load generator nothing. */
export function spawnQuiet(args: string[], env: NodeJS.ProcessEnv, script = CRM_BIN, extraFlags: readonly string[] = []): ChildProcess {
  // The baseline gets the same V8 tuning as the service, so the comparison stays fair.
  const flags = [...SERVICE_NODE_FLAGS, ...extraFlags, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : [])];
  return spawn(process.execPath, [...flags, script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function runCrmJson<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, CRM_BIN, ...args, '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`crm ${args.join(' ')} exited ${code}`))));
  });
}

export async function waitReady(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url).catch(() => null);
    if (res?.ok) return;
    if (Date.now() > until) throw new Error(`${url} not ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}
