import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'workspace-crm';

/** The `version` of our package.json, found upward from `dir` (this file runs from the sources and from dist/). */
function versionAbove(dir: string): string {
  for (;;) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === PACKAGE_NAME && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not ours): look further up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** The service's version, declared once in package.json: `crm --version` and the tool servers' `serverInfo` give it. */
export const PACKAGE_VERSION = versionAbove(path.dirname(fileURLToPath(import.meta.url)));
