/** tap's `after` for `npm test`: stop the shared stack, then check the contract coverage. */
import { stopSharedStack } from '../helpers/shared-stack.js';

await stopSharedStack();
await import('../contract/check-coverage.js');
