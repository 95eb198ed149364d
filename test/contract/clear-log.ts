/** Runs before the suite: response records from an earlier run must not count. */
import { rmSync } from 'node:fs';
import { CONTRACT_LOG_DIR } from '../helpers/openapi-contract.js';

rmSync(CONTRACT_LOG_DIR, { recursive: true, force: true });
