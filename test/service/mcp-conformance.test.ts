import { spawn } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { nodeCommand, ROOT } from '../helpers/environment.js';
import { startHeaderProxy } from '../helpers/header-proxy.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22 like the
 * project) against both tool servers. It sends no credentials, so it talks through a proxy
 * that adds an API token. The scenarios not run are not applicable: they call fixture tools,
 * prompts and resources of the suite's reference server (`test_simple_text`,
 * `test://static-text`, `test_prompt_with_arguments`, the `json-schema-2020-12` tool), need
 * sessions or server-to-client streams (`server-sse-*`, `resources-subscribe`, sampling,
 * elicitation, progress, log messages during a call), which a stateless server has not.
 */
const COMMON = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list', 'logging-set-level'];
const SCENARIOS: Record<string, string[]> = { crm: [...COMMON, 'prompts-list', 'completion-complete'], studio: COMMON };
const CLI = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

const stack = await useStack(t);
const ws = await stack.bootstrap();
const token = await stack.token(ws.workspace.id, ['contacts:read', 'deals:read', 'schema:read', 'studio:read']);
const proxy = await startHeaderProxy(stack.baseUrl, { name: 'Authorization', value: `Bearer ${token}` });
t.teardown(() => proxy.close());

function conformance(url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...nodeCommand([CLI, 'server', '--url', url, '--scenario', scenario]), { cwd: ROOT, env: { PATH: process.env.PATH } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

for (const server of ['crm', 'studio']) {
  t.test(`/mcp/${server}`, async (t) => {
    for (const scenario of SCENARIOS[server]!) {
      const { code, output } = await conformance(`${proxy.url}/mcp/${server}`, scenario);
      t.equal(code, 0, `${scenario}${code === 0 ? '' : `\n${output}`}`);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      t.ok(summary && summary[1] === summary[2] && Number(summary[1]) > 0 && summary[3] === '0', `${scenario}: ${summary?.[0] ?? 'no summary'}`);
    }
  });
}
