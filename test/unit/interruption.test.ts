import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';

const module = pathToFileURL(path.resolve(import.meta.dirname, '../../cli/event-tail/interruption.js')).href;

/**
 * A process that takes the first signal (Ctrl-C) to stop cleanly, and is then sent a second
 * of the other kind (`kill`, SIGTERM): the second must end it, as the import's usage promises.
 */
t.test('after the first signal, a second one of the other kind ends the process at once', async (t) => {
  const script = `
    const { untilInterrupted } = await import(${JSON.stringify(module)});
    const stop = untilInterrupted();
    stop.addEventListener('abort', () => {
      process.stdout.write('stopping\\n');
      process.kill(process.pid, 'SIGTERM');
      // Still "finishing" when SIGTERM is ignored: exits 0 after a while instead.
      setTimeout(() => process.exit(0), 3000);
    });
    setInterval(() => undefined, 1000);
    process.kill(process.pid, 'SIGINT');
  `;
  const child = spawn(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  t.equal(out, 'stopping\n', 'the first signal aborted, once');
  t.same({ code, signal }, { code: null, signal: 'SIGTERM' }, 'ended by the second signal');
});
