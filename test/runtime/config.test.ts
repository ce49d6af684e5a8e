import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, secretsOf } from '../../src/runtime/config.js';

function problemsOf(env: NodeJS.ProcessEnv, require: Parameters<typeof loadConfig>[1] = {}): string[] {
  try {
    loadConfig(env, require);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      discordApiUrl: 'https://discord.com/api',
      discordCdnUrl: 'https://cdn.discordapp.com',
      geojsUrl: 'https://get.geojs.io',
      wallhavenUrl: 'https://wallhaven.cc',
      ygoprodeckUrl: 'https://db.ygoprodeck.com',
      ygoprodeckImagesUrl: 'https://images.ygoprodeck.com/images',
      dataDir: './data',
      logLevel: 'info',
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      wallhavenApiKey: undefined,
      shards: undefined,
    });
  });

  it('reports every problem at once, one line each, naming the variable', () => {
    const problems = problemsOf(
      { GEOJS_URL: 'ftp://example.com', METRICS_PORT: 'ninety', LOG_LEVEL: 'loud', DEV_GUILD_ID: '123' },
      { require: ['DISCORD_TOKEN'] },
    );
    expect(problems).toHaveLength(5);
    for (const variable of ['GEOJS_URL', 'METRICS_PORT', 'LOG_LEVEL', 'DEV_GUILD_ID', 'DISCORD_TOKEN']) {
      expect(problems.filter((line) => line.startsWith(`${variable}:`))).toHaveLength(1);
    }
    expect(problems.find((line) => line.startsWith('DISCORD_TOKEN'))).toContain('.env.example');
  });

  it('never echoes a value, secret or not', () => {
    const problems = problemsOf({ DISCORD_API_URL: 'not a url canary-value-1234', METRICS_PORT: '99999' });
    expect(problems.join('\n')).not.toContain('canary-value-1234');
    expect(problems.join('\n')).not.toContain('99999');
  });

  it('treats empty optional values as unset and trims trailing slashes from URLs', () => {
    const config = loadConfig({ WALLHAVEN_API_KEY: '  ', METRICS_PORT: '', DEV_GUILD_ID: '', GEOJS_URL: 'http://127.0.0.1:9/' });
    expect(config.wallhavenApiKey).toBeUndefined();
    expect(config.metricsPort).toBeUndefined();
    expect(config.devGuildId).toBeUndefined();
    expect(config.geojsUrl).toBe('http://127.0.0.1:9');
  });

  it('points card art at YGOPRODECK_IMAGES_URL (a mirror or caching proxy), checked like every other base', () => {
    expect(loadConfig({ YGOPRODECK_IMAGES_URL: 'https://art.example.org/ygo/' }).ygoprodeckImagesUrl).toBe('https://art.example.org/ygo');
    expect(problemsOf({ YGOPRODECK_IMAGES_URL: 'file:///srv/art' })).toEqual(['YGOPRODECK_IMAGES_URL: must be an http(s) URL']);
  });

  it('binds the ops server to loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({ METRICS_HOST: '' }).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost).toBe('0.0.0.0');
    expect(problemsOf({ METRICS_HOST: 'http://x/' })).toEqual(['METRICS_HOST: must be an IP address or a host name']);
  });

  it('reads DNS_SERVERS as ip, ip:port or [ipv6]:port, and refuses anything else without echoing it', () => {
    expect(loadConfig({}).dnsServers).toBeUndefined();
    expect(loadConfig({ DNS_SERVERS: ' , ' }).dnsServers).toBeUndefined();
    expect(loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,2606:4700:4700::1111,[::1]:53' }).dnsServers).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '2606:4700:4700::1111',
      '[::1]:53',
    ]);
    for (const bad of ['dns.google', '1.1.1.1:0', '1.1.1.1:70000', '[1.1.1.1]:53', 'https://1.1.1.1/dns-query']) {
      const problems = problemsOf({ DNS_SERVERS: `9.9.9.9,${bad}` });
      expect(problems, bad).toHaveLength(1);
      expect(problems[0]).toMatch(/^DNS_SERVERS: must be comma-separated IP addresses/);
      expect(problems[0]).not.toContain(bad);
    }
  });

  it('reads RDAP_BOOTSTRAP_URL and DOH_RESOLVERS, with the public defaults', () => {
    expect(loadConfig({}).rdapBootstrapUrl).toBe('https://data.iana.org/rdap');
    expect(loadConfig({}).dohResolvers.map((resolver) => resolver.name)).toEqual(['cloudflare', 'google', 'quad9']);
    expect(loadConfig({ DOH_RESOLVERS: 'mine=https://doh.example/dns-query, lab=http://127.0.0.1:8053/dns-query' }).dohResolvers).toEqual([
      { name: 'mine', url: 'https://doh.example/dns-query' },
      { name: 'lab', url: 'http://127.0.0.1:8053/dns-query' },
    ]);
    for (const bad of ['system=https://x.example/dns-query', 'Mine=https://x.example/', 'mine=ftp://x.example/', 'mine=https://u:p@x.example/', 'https://x.example/']) {
      const problems = problemsOf({ DOH_RESOLVERS: bad });
      expect(problems, bad).toHaveLength(1);
      expect(problems[0]).toMatch(/^DOH_RESOLVERS: must be comma-separated/);
      expect(problems[0]).not.toContain(bad);
    }
  });

  it('reads MESSAGE_SEARCH as true or false, off by default', () => {
    expect(loadConfig({}).messageSearch).toBe(false);
    expect(loadConfig({ MESSAGE_SEARCH: '' }).messageSearch).toBe(false);
    expect(loadConfig({ MESSAGE_SEARCH: 'true' }).messageSearch).toBe(true);
    expect(loadConfig({ MESSAGE_SEARCH: ' TRUE ' }).messageSearch).toBe(true);
    expect(loadConfig({ MESSAGE_SEARCH: 'false' }).messageSearch).toBe(false);
    expect(problemsOf({ MESSAGE_SEARCH: 'yes' })).toEqual(['MESSAGE_SEARCH: must be true or false']);
  });

  it('reads OPERATOR_IDS as comma-separated user ids, none by default', () => {
    expect(loadConfig({}).operatorIds).toEqual([]);
    expect(loadConfig({ OPERATOR_IDS: '123456789012345678, 223456789012345678' }).operatorIds).toEqual(['123456789012345678', '223456789012345678']);
    expect(problemsOf({ OPERATOR_IDS: '123456789012345678,alice' })).toEqual(['OPERATOR_IDS: must be comma-separated Discord user ids (17-20 digits each)']);
  });

  it('lists the secrets for log scrubbing', () => {
    const config = loadConfig({ DISCORD_TOKEN: 'token-value-123', WALLHAVEN_API_KEY: 'key-value-456', METRICS_PORT: '9464' });
    expect(secretsOf(config)).toEqual(['token-value-123', 'key-value-456']);
    expect(config.metricsPort).toBe(9464);
  });

  it('reads the HTTP mode settings: INTERACTIONS_PORT defaults to 8080, DISCORD_PUBLIC_KEY must be 64 hex characters', () => {
    expect(loadConfig({}).interactionsPort).toBe(8080);
    const key = 'ab'.repeat(32);
    expect(loadConfig({ DISCORD_PUBLIC_KEY: key, INTERACTIONS_PORT: '3000' })).toMatchObject({ discordPublicKey: key, interactionsPort: 3000 });
    const problems = problemsOf({ DISCORD_PUBLIC_KEY: 'not-hex-canary', INTERACTIONS_PORT: '70000' });
    expect(problems.map((line) => line.split(':')[0])).toEqual(['DISCORD_PUBLIC_KEY', 'INTERACTIONS_PORT']);
    expect(problems.join('\n')).not.toContain('not-hex-canary');
  });

  it('takes a redis:// or rediss:// REDIS_URL, refuses others without echoing them, and treats its password as a secret', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
    const config = loadConfig({ REDIS_URL: 'rediss://:s3cret-redis-pass@cache.internal:6380/2', DATABASE_URL: 'postgres://almanac@db/almanac' });
    expect(config.redisUrl).toBe('rediss://:s3cret-redis-pass@cache.internal:6380/2');
    expect(secretsOf(config)).toContain('s3cret-redis-pass');
    const problems = problemsOf({ REDIS_URL: 'http://user:hunter2-secret@cache:6379' });
    expect(problems).toEqual(['REDIS_URL: must be a redis:// or rediss:// URL']);
    expect(problems.join('')).not.toContain('hunter2');
  });

  it('takes a postgres:// DATABASE_URL (SQLite in DATA_DIR when unset), refuses others without echoing them, and treats its password as a secret', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: ' ' }).databaseUrl).toBeUndefined();
    for (const url of ['postgres://almanac:pg-s3cret-pass@db.internal:5432/almanac', 'postgresql://almanac:pg-s3cret-pass@db.internal/almanac?sslmode=require']) {
      const config = loadConfig({ DATABASE_URL: url });
      expect(config.databaseUrl).toBe(url);
      expect(secretsOf(config)).toContain('pg-s3cret-pass');
    }
    for (const url of ['mysql://root:hunter2-secret@db/almanac', 'sqlite:./data/almanac.db', 'not a url hunter2-secret']) {
      const problems = problemsOf({ DATABASE_URL: url });
      expect(problems).toEqual(['DATABASE_URL: must be a postgres:// or postgresql:// URL (unset: SQLite in DATA_DIR)']);
      expect(problems.join('')).not.toContain('hunter2');
    }
  });

  it('refuses SQLite for a fleet: REDIS_URL needs a PostgreSQL DATABASE_URL, in one line saying why', () => {
    expect(problemsOf({ REDIS_URL: 'redis://cache:6379' })).toEqual([
      'DATABASE_URL: must be a postgres:// URL when REDIS_URL is set: a fleet shares one database, and SQLite (used when it is unset) is a file only this process sees',
    ]);
    expect(problemsOf({ REDIS_URL: 'redis://cache:6379', DATABASE_URL: '' })).toHaveLength(1);
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', DATABASE_URL: 'postgres://db/almanac' }).databaseUrl).toBe('postgres://db/almanac');
  });

  describe('gateway shards', () => {
    it('runs every shard when only SHARD_COUNT is set, and the listed ones with SHARD_IDS', () => {
      expect(loadConfig({ SHARD_COUNT: '3' }).shards).toEqual({ ids: [0, 1, 2], count: 3 });
      expect(loadConfig({ SHARD_COUNT: '4', SHARD_IDS: ' 3, 1 ' }).shards).toEqual({ ids: [1, 3], count: 4 });
      expect(loadConfig({ SHARD_COUNT: '', SHARD_IDS: '' }).shards).toBeUndefined();
    });

    it.each([
      [{ SHARD_COUNT: '0' }, 'SHARD_COUNT: must be a whole number of shards, 1 or more'],
      [{ SHARD_COUNT: '1.5' }, 'SHARD_COUNT: must be a whole number of shards, 1 or more'],
      [{ SHARD_COUNT: 'two' }, 'SHARD_COUNT: must be a whole number of shards, 1 or more'],
      [{ SHARD_COUNT: '2', SHARD_IDS: '0;1' }, 'SHARD_IDS: must be shard ids separated by commas, e.g. 0,1'],
      [{ SHARD_COUNT: '2', SHARD_IDS: '-1' }, 'SHARD_IDS: must be shard ids separated by commas, e.g. 0,1'],
      [{ SHARD_COUNT: '2', SHARD_IDS: '1,2' }, 'SHARD_IDS: every id must be below SHARD_COUNT (ids start at 0)'],
      [{ SHARD_COUNT: '2', SHARD_IDS: '1,1' }, 'SHARD_IDS: lists the same shard twice'],
      [{ SHARD_IDS: '0' }, 'SHARD_IDS: needs SHARD_COUNT, the total number of shards of the bot'],
    ])('refuses %o, naming the variable', (env, problem) => {
      expect(problemsOf(env)).toEqual([problem]);
    });

    it('reports shard problems together with the other variables', () => {
      const problems = problemsOf({ SHARD_IDS: '0', LOG_LEVEL: 'loud' });
      expect(problems.map((line) => line.split(':')[0])).toEqual(['LOG_LEVEL', 'SHARD_IDS']);
    });
  });
});
