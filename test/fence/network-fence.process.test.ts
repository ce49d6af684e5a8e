import { describe, expect, it } from 'vitest';
import { runEntryPoint } from '../helpers/run-script.js';
import { FAR_ADDRESS, FENCE_MARKER, takeBlockedAttempts } from './network-fence.js';

// The entry points that tests spawn start behind the fence too (test/fence/child-preload.ts).
describe('the network fence, in a child process', () => {
  it('fences entry points run as child processes, and reports their attempts here', async () => {
    const result = await runEntryPoint('src/cli.ts', ['ip', 'lookup', '--addresses', '8.8.8.8'], { GEOJS_URL: `http://${FAR_ADDRESS}` });
    expect(result.stderr).toContain(`${FENCE_MARKER} ${FAR_ADDRESS}:80 (connect)`);
    expect(takeBlockedAttempts()).toContainEqual({ target: `${FAR_ADDRESS}:80`, via: 'connect' });
  });
});
