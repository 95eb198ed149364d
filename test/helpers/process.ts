import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVICE_NODE_FLAGS } from '../../cli/node-flags.js';
import { CRM_BIN, nodeCommand, ROOT } from './environment.js';
import { LOG_FLUSH_INTERVAL_MS } from '../../shared/logger.js';

/**
 * How long a test waits for a process it started to say it is up. `npm test` runs four files
 * at once on two cores, and each may start a whole stack: a worker that is ready in under 2 s
 * alone took over 30 s when six stacks started together (module loading is CPU-bound).
 */
export const PROCESS_START_TIMEOUT_MS = 90_000;

/** Resolves once every log line a process wrote before the call has reached its output (service logs are buffered). */
export const logsSettled = () => new Promise<void>((resolve) => setTimeout(resolve, 2 * LOG_FLUSH_INTERVAL_MS));

/** What the kernel says of a process that keeps silent (its state, CPU used, what it waits in), for a failure message. */
function processState(pid: number | undefined): string {
  if (pid === undefined) return 'no pid';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const wchan = readFileSync(`/proc/${pid}/wchan`, 'utf8');
    return `state ${fields[0]}, ${ticks} CPU ticks, waiting in ${wchan || 'nothing'}`;
  } catch {
    return 'no /proc entry';
  }
}

/** A spawned `crm` process whose output is kept for assertions (e.g. "no token in any log"). */
export class CrmProcess {
  readonly output: string[] = [];
  /** Standard output alone (e.g. a --json summary); `output` has both streams interleaved. */
  private readonly stdout: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(
    readonly label: string,
    args: string[],
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(...nodeCommand([...SERVICE_NODE_FLAGS, CRM_BIN, ...args]), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.output.push(chunk);
      this.stdout.push(chunk);
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.output.push(chunk));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  text(): string {
    return this.output.join('');
  }

  stdoutText(): string {
    return this.stdout.join('');
  }

  /** Everything printed so far, including log lines still buffered when called. */
  async settledText(): Promise<string> {
    await logsSettled();
    return this.text();
  }

  /** Resolves with the first output line matching `pattern`. */
  async waitFor(pattern: RegExp, timeoutMs = PROCESS_START_TIMEOUT_MS): Promise<RegExpMatchArray> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = this.text().match(pattern);
      if (match) return match;
      if (!this.running) throw new Error(`${this.label} exited before printing ${pattern}:\n${this.text()}`);
      if (Date.now() > until) throw new Error(`${this.label} did not print ${pattern} in ${timeoutMs} ms (${processState(this.child.pid)}):\n${this.text()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<number | null> {
    if (!this.running) return this.child.exitCode;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Runs a `crm` command to completion; `input`, when given, is its standard input. */
export async function runCrm(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...nodeCommand([CRM_BIN, ...args]), { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    // Without input, standard input is empty (at its end at once), as it was when ignored.
    // A command that stops before reading it (a usage error) closes the pipe: EPIPE is no failure of the test.
    child.stdin.on('error', () => undefined).end(input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    // 'close', not 'exit': a process may exit before its output has all been read from the pipes.
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
