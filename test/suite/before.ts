/** tap's `before` for `npm test`: a clean contract log, and the stack the test files share. */
import '../contract/clear-log.js';
import { startSharedStack } from '../helpers/shared-stack.js';

await startSharedStack();
