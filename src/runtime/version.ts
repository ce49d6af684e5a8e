import { readFileSync } from 'node:fs';

// Read once at start-up; works from src/runtime/ (tsx) and dist/src/runtime/ (compiled) alike.
function findPackageVersion(): string {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'almanac' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = findPackageVersion();
export const USER_AGENT = `Almanac/${VERSION} (Discord bot; +https://github.com/almanac-bot/almanac)`;
