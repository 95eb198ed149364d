/**
 * The V8 flags every service process takes on its command line: the young generation's
 * size cannot change once the heap exists (the rest of the tuning, set at start-up, is
 * cli/v8-tuning.ts). The bench and the tests start processes with these; package.json,
 * deploy/Dockerfile and the shebang of cli/crm.ts cannot import them, and a test checks
 * that they spell the same flags.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
