import { isIP } from 'node:net';
import { z } from 'zod';
import { isSnowflake } from '../discord/route-parts.js';
import { shardEnvironment, type ShardAssignment } from '../discord/shards.js';

/** Thrown when the environment is invalid; `problems` holds one line per bad or missing variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));

const optionalSecret = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const snowflake = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.string().refine(isSnowflake, 'must be a Discord id (17-20 digits)').optional())
  .optional();

/** `redis://` or `rediss://` (TLS), optionally with a password and a database number: `redis://:pass@host:6379/0`. */
const redisUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional())
  .optional();

/** `postgres://` or `postgresql://`, with user, password, host, port, database and parameters as libpq takes them. */
const databaseUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL (unset: SQLite in DATA_DIR)' }).optional())
  .optional();

/** `/ip dig`'s DNS-over-HTTPS resolvers when `DOH_RESOLVERS` is unset: the three upstreams.md § 7 lists. */
export const DEFAULT_DOH_RESOLVERS = 'cloudflare=https://cloudflare-dns.com/dns-query,google=https://dns.google/dns-query,quad9=https://dns.quad9.net/dns-query';

/** `name=http(s)://…` with a short lowercase name that is not `system` (the configured servers' choice). */
function isDohResolver(value: string): boolean {
  const match = /^([a-z0-9-]{1,32})=(.+)$/.exec(value);
  if (!match || match[1] === 'system') return false;
  try {
    const url = new URL(match[2]!);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.search === '';
  } catch {
    return false;
  }
}

const portMessage = 'must be a port number (0-65535)';

/** `ip`, `ipv4:port` or `[ipv6]:port`: what `Resolver#setServers` takes. */
function isDnsServer(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!match) return false;
  const port = Number(match[3]);
  return port >= 1 && port <= 65535 && (match[1] === undefined ? isIP(match[2]!) === 4 : isIP(match[1]) === 6);
}

/** A comma-separated list; empty or unset: undefined. */
/** A `true`/`false` switch that is off when unset or empty. */
const offByDefault = z
  .string()
  .trim()
  .toLowerCase()
  .optional()
  .transform((value) => (value === undefined || value === '' ? 'false' : value))
  .pipe(z.enum(['true', 'false'], { error: 'must be true or false' }))
  .transform((value) => value === 'true');

function commaList(check: (item: string) => boolean, message: string) {
  return z
    .string()
    .optional()
    .transform((value) => value?.split(',').map((item) => item.trim()).filter((item) => item !== ''))
    .transform((items) => (items === undefined || items.length === 0 ? undefined : items))
    .pipe(z.array(z.string().refine(check, message)).optional());
}

const schema = z.object({
  DISCORD_TOKEN: optionalSecret,
  DEV_GUILD_ID: snowflake,
  DISCORD_API_URL: httpUrl.default('https://discord.com/api'),
  DISCORD_CDN_URL: httpUrl.default('https://cdn.discordapp.com'),
  GEOJS_URL: httpUrl.default('https://get.geojs.io'),
  RDAP_BOOTSTRAP_URL: httpUrl.default('https://data.iana.org/rdap'),
  WALLHAVEN_URL: httpUrl.default('https://wallhaven.cc'),
  WALLHAVEN_API_KEY: optionalSecret,
  YGOPRODECK_URL: httpUrl.default('https://db.ygoprodeck.com'),
  YGOPRODECK_IMAGES_URL: httpUrl.default('https://images.ygoprodeck.com/images'),
  REDIS_URL: redisUrl,
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  METRICS_PORT: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : Number(value)))
    .pipe(z.number({ error: portMessage }).int(portMessage).min(0, portMessage).max(65535, portMessage).optional()),
  DISCORD_PUBLIC_KEY: z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (the Developer Portal\'s "Public Key")').optional())
    .optional(),
  INTERACTIONS_PORT: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? 8080 : Number(value)))
    .pipe(z.number({ error: portMessage }).int(portMessage).min(0, portMessage).max(65535, portMessage)),
  METRICS_HOST: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? '127.0.0.1' : value))
    .pipe(z.string().refine((value) => isIP(value) !== 0 || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(value), 'must be an IP address or a host name')),
  DNS_SERVERS: commaList(isDnsServer, 'must be comma-separated IP addresses, each optionally with a port (`ip:port`, IPv6 as `[ip]:port`)'),
  DOH_RESOLVERS: commaList(isDohResolver, 'must be comma-separated `name=https://…/dns-query` pairs (names: a-z, 0-9, -; not `system`)'),
  OPERATOR_IDS: commaList(isSnowflake, 'must be comma-separated Discord user ids (17-20 digits each)'),
  MESSAGE_SEARCH: offByDefault,
  WALLHAVEN_AI_FILTER: offByDefault,
  NODE_ENV: z.string().optional(),
});

export interface Config {
  discordToken: string | undefined;
  devGuildId: string | undefined;
  discordApiUrl: string;
  /** Where attachments (`.ydk` files) may be downloaded from, besides `media.discordapp.net`. */
  discordCdnUrl: string;
  geojsUrl: string;
  /** IANA's RDAP bootstrap files; its scheme is the one registries are asked (and redirected) on. */
  rdapBootstrapUrl: string;
  wallhavenUrl: string;
  wallhavenApiKey: string | undefined;
  ygoprodeckUrl: string;
  /** Card and set art: `<base>/cards/<id>.jpg`, `<base>/sets/<name>.jpg` (a mirror or caching proxy may stand in). */
  ygoprodeckImagesUrl: string;
  /** Shared state for a fleet of processes; undefined: all state in this process. May hold a password. */
  redisUrl: string | undefined;
  /** PostgreSQL for settings, subscriptions and history; undefined: SQLite in `DATA_DIR`. May hold a password. */
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  metricsPort: number | undefined;
  /** HTTP mode: the application's Ed25519 public key (hex). */
  discordPublicKey: string | undefined;
  /** HTTP mode: where `POST /interactions` is served. */
  interactionsPort: number;
  /** The address the ops server binds: loopback unless the deployment (e.g. the Dockerfile) opens it. */
  metricsHost: string;
  /** Pretty log lines are wanted (outside production); the logger uses them only on a terminal. */
  prettyLogs: boolean;
  /** The gateway shards this process runs; undefined: one process running the only shard. */
  shards: ShardAssignment | undefined;
  /** The DNS servers host names in `/ip` are resolved through; undefined: the system's resolvers. */
  dnsServers: string[] | undefined;
  /** `/ip dig`'s DNS-over-HTTPS resolvers, by name, in the order given. */
  dohResolvers: { name: string; url: string }[];
  /** Users who see operator-only details (the egress address) in `/status` anywhere. */
  operatorIds: string[];
  /** Gateway mode: answer cards named inline in messages (`<name>`, `[[name]]`); needs the privileged Message Content intent. */
  messageSearch: boolean;
  /** Whether `/wallpaper` offers the `ai-art` option (Wallhaven's `ai_art_filter`, values unconfirmed). */
  wallhavenAiFilter: boolean;
}

interface LoadConfigOptions {
  /** Names of variables that must be present for this entry point (e.g. DISCORD_TOKEN for `start`). */
  require?: (keyof z.infer<typeof schema>)[];
}

/**
 * Validates the environment and reports every problem at once. Messages name the variable and what is
 * wrong with it, never the value, so a mistyped secret is not echoed to a terminal or a log.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const parsed = schema.safeParse(env);
  // Parsed on its own so that its cross-variable checks run even when another variable is wrong.
  const shards = shardEnvironment.safeParse(env);
  const problems: string[] = [];
  for (const result of [parsed, shards]) {
    if (result.success) continue;
    for (const issue of result.error.issues) {
      const variable = String(issue.path[0] ?? 'environment');
      problems.push(`${variable}: ${issue.message}`);
    }
  }
  // A fleet shares one database: SQLite is a file on one host, each process would keep its own.
  if (parsed.success && parsed.data.REDIS_URL !== undefined && parsed.data.DATABASE_URL === undefined) {
    problems.push('DATABASE_URL: must be a postgres:// URL when REDIS_URL is set: a fleet shares one database, and SQLite (used when it is unset) is a file only this process sees');
  }
  for (const name of options.require ?? []) {
    if (!env[name]?.trim()) {
      problems.push(`${name}: is required (see .env.example)`);
    }
  }
  if (!parsed.success || !shards.success || problems.length > 0) throw new ConfigError(problems);
  const data = parsed.data;
  return {
    discordToken: data.DISCORD_TOKEN,
    devGuildId: data.DEV_GUILD_ID,
    discordApiUrl: data.DISCORD_API_URL,
    geojsUrl: data.GEOJS_URL,
    rdapBootstrapUrl: data.RDAP_BOOTSTRAP_URL,
    wallhavenUrl: data.WALLHAVEN_URL,
    wallhavenApiKey: data.WALLHAVEN_API_KEY,
    ygoprodeckUrl: data.YGOPRODECK_URL,
    ygoprodeckImagesUrl: data.YGOPRODECK_IMAGES_URL,
    discordCdnUrl: data.DISCORD_CDN_URL,
    redisUrl: data.REDIS_URL,
    databaseUrl: data.DATABASE_URL,
    dataDir: data.DATA_DIR,
    logLevel: data.LOG_LEVEL,
    metricsPort: data.METRICS_PORT,
    discordPublicKey: data.DISCORD_PUBLIC_KEY,
    interactionsPort: data.INTERACTIONS_PORT,
    metricsHost: data.METRICS_HOST,
    prettyLogs: data.NODE_ENV !== 'production',
    shards: shards.data,
    dnsServers: data.DNS_SERVERS,
    dohResolvers: (data.DOH_RESOLVERS ?? DEFAULT_DOH_RESOLVERS.split(',')).map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), url: pair.slice(pair.indexOf('=') + 1) })),
    operatorIds: data.OPERATOR_IDS ?? [],
    messageSearch: data.MESSAGE_SEARCH,
    wallhavenAiFilter: data.WALLHAVEN_AI_FILTER,
  };
}

function urlPassword(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const password = decodeURIComponent(new URL(url).password);
  return password === '' ? undefined : password;
}

/** The secret values of a config, for log scrubbing and leak tests. */
export function secretsOf(config: Config): string[] {
  return [config.discordToken, config.wallhavenApiKey, urlPassword(config.redisUrl), urlPassword(config.databaseUrl)].filter((s): s is string => s !== undefined);
}

/**
 * For entry points: the config, or null after printing every problem to stderr under `heading`
 * (e.g. "Almanac cannot start"), so each entry point only decides its exit code.
 */
export function loadConfigOrReport(heading: string, options: LoadConfigOptions = {}, env: NodeJS.ProcessEnv = process.env): Config | null {
  try {
    return loadConfig(env, options);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${heading}. Fix these settings (see .env.example):\n${error.problems.map((problem) => `  - ${problem}`).join('\n')}`);
    return null;
  }
}
