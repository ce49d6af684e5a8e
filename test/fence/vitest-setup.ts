import { afterAll, afterEach } from 'vitest';
import { assertNoBlockedAttempts, installNetworkFence } from './network-fence.js';

/**
 * Every test file runs fenced (vitest.config.ts `setupFiles`): a connection attempt to anything but
 * loopback fails the test during which it was made (or the file, when made in a hook after the last
 * test), whatever the code under test did with the refusal.
 */
installNetworkFence();
afterEach(assertNoBlockedAttempts);
afterAll(assertNoBlockedAttempts);
