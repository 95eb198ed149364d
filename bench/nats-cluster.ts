import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'nats';
import { freePort } from './processes.js';

const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? 'nats-server';

/** Local nats-server processes joined by cluster routes, with JetStream: a production-shaped bus on one machine. */
export interface NatsCluster {
  urls: string[];
  /** Kills one node at once (SIGKILL), as a crashed machine would go. */
  kill(node: number): void;
  stop(): Promise<void>;
}

export async function startNatsCluster(size: number): Promise<NatsCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crm-nats-cluster-'));
  const clientPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const nodes: ChildProcess[] = clientPorts.map((port, i) =>
    spawn(
      NATS_SERVER,
      ['-a', '127.0.0.1', '-p', String(port), '-n', `bench-n${i}`, '-js', '-sd', path.join(dir, `n${i}`), '--cluster_name', 'crm-bench', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes],
      { stdio: 'ignore' },
    ),
  );
  const urls = clientPorts.map((p) => `nats://127.0.0.1:${p}`);
  const stop = async () => {
    await Promise.all(nodes.map((n) => stopProcess(n)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForJetStream(urls);
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, kill: (node) => nodes[node]?.kill('SIGKILL'), stop };
}

/** JetStream answers once the cluster has elected its meta leader. */
async function waitForJetStream(urls: string[]): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      const nc = await connect({ servers: urls, reconnect: false });
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return;
      } finally {
        await nc.close();
      }
    } catch (error) {
      if (Date.now() > until) throw new Error(`the NATS cluster did not offer JetStream within 30 s: ${String(error)}`, { cause: error });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
