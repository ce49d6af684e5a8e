import { expect } from 'vitest';
import { UpstreamError } from '../../src/interaction/upstream-error.js';

/** The `UpstreamError` a promise rejects with; fails the test when it resolves or rejects otherwise. */
export async function upstreamFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}
