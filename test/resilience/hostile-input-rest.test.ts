/** Hostile input, the REST half (test/resilience/hostile-input.ts). */
import { checkProcesses, fuzzRest } from './hostile-input.js';

fuzzRest();
checkProcesses();
