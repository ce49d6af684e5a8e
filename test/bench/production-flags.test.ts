import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionEnvironment, productionNodeFlags } from '../../bench/production-flags.js';
import { PROJECT_ROOT } from '../../scripts/compile.js';

/** The runtime stage's NODE_OPTIONS, as the image sets it. */
function imageNodeOptions(): string[] {
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  const value = /NODE_OPTIONS="([^"]*)"/.exec(runtime)?.[1];
  if (value === undefined) throw new Error('the runtime stage sets no quoted NODE_OPTIONS');
  return value.split(/\s+/);
}

/** The runtime stage's ENV assignments, as the image sets them. */
function imageEnvironment(): Record<string, string> {
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  const assignments = [...runtime.matchAll(/^ENV\s+((?:.*\\\n)*.*)$/gm)].flatMap((match) => [...match[1]!.matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)]);
  return Object.fromEntries(assignments.map(([, name, value]) => [name!, value!.replace(/^"|"$/g, '')]));
}

describe('the Node flags the bench starts its bots with', () => {
  it('are those of npm start and npm run start:http, without the .env file', () => {
    for (const script of ['start', 'start:http'] as const) {
      const flags = productionNodeFlags(script);
      expect(flags).toContain('--v8-pool-size=1');
      expect(flags.some((flag) => flag.startsWith('--env-file'))).toBe(false);
      expect(flags.some((flag) => flag.endsWith('.js'))).toBe(false);
    }
  });

  it('come with the allocator settings npm start sets, which the image sets too', () => {
    const image = imageEnvironment();
    for (const script of ['start', 'start:http'] as const) {
      const environment = productionEnvironment(script);
      expect(environment).toHaveProperty('MALLOC_ARENA_MAX');
      for (const [name, value] of Object.entries(environment)) expect(image[name]).toBe(value);
    }
  });

  it('are set by the image too, so the container runs what the bench measured', () => {
    const options = imageNodeOptions();
    for (const flag of [...productionNodeFlags('start'), ...productionNodeFlags('start:http')]) expect(options).toContain(flag);
  });
});
