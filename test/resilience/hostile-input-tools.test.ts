/** Hostile input, the tool servers' half (test/resilience/hostile-input.ts). */
import { checkProcesses, fuzzTools } from './hostile-input.js';

fuzzTools();
checkProcesses();
