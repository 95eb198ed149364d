/** Hostile input against every REST endpoint and every tool, on a stack of its own (test/resilience/hostile-input.ts). */
import { checkProcesses, fuzzRest, fuzzTools } from './hostile-input.js';

fuzzRest();
fuzzTools();
checkProcesses();
