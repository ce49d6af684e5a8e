import { expect, it } from 'vitest';
import { SECTIONS } from '../../bench/sections.js';
import { SMOKE_GROUPS, smokeTestSections } from './smoke.js';

smokeTestSections('vitest-and-http');

it('smoke-tests every section of the bench, each once', () => {
  const grouped = Object.values(SMOKE_GROUPS).flat();
  expect([...grouped].sort()).toEqual(SECTIONS.map((section) => section.name).sort());
});
