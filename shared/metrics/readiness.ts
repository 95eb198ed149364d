import type { BusTransport } from '../bus/transport.js';

/** Named checks, each `ok` or what is wrong; a process is ready when every one says `ok`. */
export type ReadinessChecks = Record<string, string>;

export function busCheck(transport: BusTransport): string {
  return transport.isConnected() ? 'ok' : 'disconnected';
}

/** The /readyz answer, the same on the public and the admin port. */
export function readinessOf(checks: ReadinessChecks): { status: 200 | 503; body: { status: 'ready' | 'not_ready'; checks: ReadinessChecks } } {
  const ready = Object.values(checks).every((v) => v === 'ok');
  return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'not_ready', checks } };
}
