import { describe, expect, it } from 'vitest';
import { isSupportedNode, nodeVersionProblem } from '../../src/runtime/node-version.js';

describe('the Node.js version check', () => {
  it.each(['v20.19.0', 'v20.20.2', 'v22.13.0', 'v22.20.1', 'v24.1.0', 'v25.0.0'])('accepts %s', (version) => {
    expect(isSupportedNode(version)).toBe(true);
    expect(nodeVersionProblem(version)).toBeNull();
  });

  // 20.18 lacks --env-file-if-exists; 21 never had it; 22.12 is below the dev toolchain's floor.
  it.each(['v18.20.4', 'v20.18.1', 'v21.7.3', 'v22.12.0', 'nonsense'])('refuses %s, naming it', (version) => {
    expect(isSupportedNode(version)).toBe(false);
    expect(nodeVersionProblem(version)).toContain(`this is Node.js ${version}`);
  });
});
