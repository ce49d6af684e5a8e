import { describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/upstream/upstream.js';
import { CALLBACK_DEADLINE_MS, FINAL_ANSWER_WITHIN_MS } from '../helpers/reliability.js';

describe('REQUEST_TIMEOUT_MS', () => {
  // The fault tests run their timeouts shorter (TEST_REQUEST_TIMEOUT_MS): this is what keeps production's within the promise they check.
  it.each(Object.entries(REQUEST_TIMEOUT_MS))('%s: a request abandoned at its deadline still leaves a plain answer within 20 s', (_upstream, timeoutMs) => {
    expect(timeoutMs).toBeGreaterThanOrEqual(CALLBACK_DEADLINE_MS);
    expect(timeoutMs + CALLBACK_DEADLINE_MS).toBeLessThan(FINAL_ANSWER_WITHIN_MS);
  });
});
