import { setFlagsFromString } from 'node:v8';

/**
 * V8 tuning of every service process, set before any other module runs (the first import
 * of cli/crm.ts; the bench's express + pg baseline imports it too).
 *
 * Allocation-site pretenuring off. Under the list load V8 decided, from young collections
 * that found many rows of a page still in flight, to allocate pg's row objects straight in
 * the old generation. Every page then became old-generation garbage, and the row's strings
 * were kept alive through young collections by it: a contacts worker promoted about
 * 60 MB/s and ran a full mark-compact every 1.7 s. Measured side by side (two stacks,
 * alternated rounds): worker CPU per page of 100 fell from about 375 to 290 µs (contacts)
 * and from about 560 to 300 µs (deals); see docs/benchmarks.md.
 *
 * The young generation's size (`--max-semi-space-size`) cannot change once the heap
 * exists, so it stays on the command line (cli/node-flags.ts).
 */
setFlagsFromString('--no-allocation-site-pretenuring');
