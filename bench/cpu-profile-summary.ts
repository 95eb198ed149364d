import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) that a summary needs. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface CostLine {
  label: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time per function, most expensive first. */
  functions: CostLine[];
  /** Self time per package (node_modules/<name>), our own code, or Node's internals. */
  packages: CostLine[];
}

/** Self time by function and by package: where a process spent its CPU while sampled. */
export function summarizeCpuProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(profile.samples.length, 1);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = (node.hitCount ?? 0) * msPerSample;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const where = shortUrl(url);
    add(byFunction, `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`, ms);
    add(byPackage, packageOf(url, functionName), ms);
  }
  const totalMs = [...byPackage.values()].reduce((a, b) => a + b, 0);
  const lines = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, ms]) => ({ label, ms, share: ms / Math.max(totalMs, 1) }));
  void idleMs;
  return { totalMs, functions: lines(byFunction), packages: lines(byPackage) };
}

export function formatSummary(title: string, summary: ProfileSummary): string {
  const row = (l: CostLine) => `  ${(l.share * 100).toFixed(1).padStart(5)}%  ${l.ms.toFixed(0).padStart(7)} ms  ${l.label}`;
  return [
    `${title}: ${summary.totalMs.toFixed(0)} ms of CPU sampled (idle excluded)`,
    ' by package:',
    ...summary.packages.map(row),
    ' by function (self time):',
    ...summary.functions.map(row),
  ].join('\n');
}

function add(map: Map<string, number>, key: string, ms: number): void {
  map.set(key, (map.get(key) ?? 0) + ms);
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  return url.replace(/^file:\/\/.*?\/(dist|bench)\//, '$1/');
}

function packageOf(url: string, functionName: string): string {
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  if (url.includes('/dist/')) return 'our code';
  if (url.startsWith('node:')) return 'node internals (JS)';
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (functionName === '(program)') return '(program: native, outside JS)';
  return url || functionName || '(native)';
}
