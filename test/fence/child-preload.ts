import { formatFenceLine, installNetworkFence } from './network-fence.js';

/**
 * `--import`ed (after tsx) into the entry points tests start as child processes
 * (test/helpers/run-script.ts): the same fence, each refusal reported as one stderr line that the
 * parent reads back into its own record.
 */
installNetworkFence((attempt) => process.stderr.write(`${formatFenceLine(attempt)}\n`));
