import { describe, expect, it } from 'vitest';
import { runEntryPoint } from '../helpers/run-script.js';
import { FENCE_MARKER, takeBlockedAttempts } from './network-fence.js';

/** A documentation address (RFC 5737): routable nowhere, and never loopback. */
const FAR_ADDRESS = '192.0.2.1';

// The entry points that tests spawn start behind the fence too (test/fence/child-preload.ts).
describe('the network fence, in a child process', () => {
  it('fences entry points run as child processes, and reports their attempts here', async () => {
    const result = await runEntryPoint('src/cli.ts', ['ip', 'lookup', '--addresses', '8.8.8.8'], { GEOJS_URL: `http://${FAR_ADDRESS}` });
    expect(result.stderr).toContain(`${FENCE_MARKER} ${FAR_ADDRESS}:80 (connect)`);
    expect(takeBlockedAttempts()).toContainEqual({ target: `${FAR_ADDRESS}:80`, via: 'connect' });
  });
});
