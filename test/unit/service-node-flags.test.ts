import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { SERVICE_NODE_FLAGS } from '../../cli/node-flags.js';
import { ROOT } from '../helpers/environment.js';

// The command lines that start the service cannot import cli/node-flags.ts: each must spell its flags.
t.test('every command line that starts the service carries the service V8 flags', async (t) => {
  const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const commandLines: Record<string, string> = {
    'package.json start': scripts.start ?? '',
    'package.json crm': scripts.crm ?? '',
    'deploy/Dockerfile ENTRYPOINT': /^ENTRYPOINT .*$/m.exec(read('deploy/Dockerfile'))?.[0] ?? '',
    'cli/crm.ts shebang': read('cli/crm.ts').split('\n')[0] ?? '',
  };
  t.ok(SERVICE_NODE_FLAGS.length > 0);
  for (const [where, line] of Object.entries(commandLines)) {
    t.match(line, /\bnode\b/, `${where} is found`);
    for (const flag of SERVICE_NODE_FLAGS) t.ok(line.includes(flag), `${where} passes ${flag}`);
  }
});
