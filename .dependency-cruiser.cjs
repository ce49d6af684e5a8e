/**
 * README's "Where things are", checked by `npm run lint:layout` (dependency-cruiser 17: 18 needs
 * Node 22) over src, commands, bench and test/helpers.
 *
 * An allow-list: each folder's `<folder>-imports-only` rule names what it may import (its own
 * folder, the folders listed, npm packages and Node's built-ins); anything else fails. Where a
 * layer must stay clean however an import gets there, a `reachable` rule follows every path (render
 * never reaches a service, not even through state). Type-only imports count as dependencies
 * (`tsPreCompilationDeps`): what a layer may not import, it may not name either.
 */

/** A path under one of these `src/` folders. */
const under = (...folders) => `^src/(${folders.join('|')})/`;
/** Passes a dependency on npm packages and Node's built-ins, which every folder may use. */
const outside = (...allowed) => ({ pathNot: [...allowed, '^node_modules/'], dependencyTypesNot: ['core'] });

/** A folder's allow-list: a dependency of `from` on anything but `allowed`, npm packages and Node's built-ins fails. */
const importsOnly = (name, comment, from, ...allowed) => ({ name, comment, severity: 'error', from: { path: from }, to: outside(...allowed) });
/** A rule that follows every path from `from`: nothing it imports may lead, however indirectly, into `folders`. */
const reachesNone = (name, comment, from, folders) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: `^(${folders.map((folder) => (folder === 'commands' ? folder : `src/${folder}`)).join('|')})/`, reachable: true },
});
/** "The app" to the reachable rules: its assembly, the transports, the CLI, inline cards and the commands. */
const APP = ['app', 'discord', 'http', 'cli', 'inline', 'commands'];

const KERNEL = 'interaction';
const DOMAINS = ['cards', 'decks', 'wallpaper', 'ip', 'schedule', 'settings'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ── What each folder may import (everything else is forbidden) ──────────────────────────────
    {
      name: 'entry-points-check-node-first',
      comment:
        'src/*.ts are the entry points: the Node.js check, then their program in src/main by a dynamic import, so that nothing else is read before the check (src/runtime/check-node.ts).',
      severity: 'error',
      from: { path: '^src/[^/]+[.]ts$' },
      to: { pathNot: ['^src/runtime/check-node[.]ts$', '^src/main/'] },
    },
    {
      name: 'entry-points-load-programs-late',
      comment: 'An entry point imports its program (src/main) dynamically: a static import would be read before the Node.js check runs.',
      severity: 'error',
      from: { path: '^src/[^/]+[.]ts$' },
      to: { path: '^src/main/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'sharp-loaded-on-first-use',
      comment:
        'The bot loads sharp (libvips, about 20 MB of RSS) when it first draws, through src/runtime/sharp.ts. Only the deck pictures\' child (render/deck-image.ts) and the CLI import it directly.',
      severity: 'error',
      from: { path: '^(src|commands)/', pathNot: ['^src/runtime/sharp[.]ts$', '^src/render/deck-image[.]ts$', '^src/main/cli[.]ts$'] },
      to: { path: '^node_modules/sharp/' },
    },
    importsOnly(
      'main-imports-only',
      'src/main holds the programs behind the entry points: anything of the bot (src, commands), nothing of bench, test or scripts.',
      '^src/main/',
      '^src/', '^commands/',
    ),
    importsOnly(
      'app-imports-only',
      'src/app assembles the app: anything of the bot (src, commands), nothing of bench, test or scripts.',
      '^src/app/',
      '^src/', '^commands/',
    ),
    importsOnly(
      'kernel-imports-only',
      'src/interaction, the generic kernel, imports render (failure sentences), i18n and runtime.',
      under(KERNEL),
      under(KERNEL, 'render', 'i18n', 'runtime'),
    ),
    importsOnly(
      'discord-imports-only',
      "src/discord, the gateway transport, imports the kernel, runtime and src/inline/chat.ts (the chat types it implements).",
      '^src/discord/',
      under('discord', KERNEL, 'runtime'), '^src/inline/chat[.]ts$',
    ),
    importsOnly(
      'http-imports-only',
      'src/http, the HTTP transport and its app (http-app.ts), imports src/app, src/discord (the responder), the kernel, runtime and state.',
      '^src/http/',
      under('http', 'app', 'discord', KERNEL, 'runtime', 'state'),
    ),
    importsOnly(
      'cli-imports-only',
      "src/cli reads npm run cli's arguments against the command definitions: commands and the kernel (src/app's types only, below).",
      '^src/cli/',
      under('cli', KERNEL, 'app'), '^commands/',
    ),
    importsOnly(
      'inline-imports-only',
      'src/inline (cards named in messages) imports the kernel, the domains, render, state and i18n (src/app\'s types only, below).',
      '^src/inline/',
      under('inline', KERNEL, ...DOMAINS, 'render', 'state', 'i18n', 'app'),
    ),
    importsOnly(
      'commands-import-only',
      'A command imports its own folder, the kernel, the domains, render and i18n, and src/app, src/services and src/scheduler for their types only (below).',
      '^commands/',
      '^commands/', under(KERNEL, ...DOMAINS, 'render', 'i18n', 'app', 'services', 'scheduler'),
    ),
    importsOnly(
      'domains-import-only',
      'The domains (src/cards, src/decks, src/wallpaper, src/ip, src/schedule, src/settings) are types and pure logic: each other, the kernel and i18n.',
      under(...DOMAINS),
      under(...DOMAINS, KERNEL, 'i18n'),
    ),
    importsOnly(
      'render-imports-only',
      'src/render builds payloads from domain objects: the domains, the kernel, i18n and runtime (what a process reports about itself).',
      '^src/render/',
      under('render', ...DOMAINS, KERNEL, 'i18n', 'runtime'),
    ),
    importsOnly(
      'services-import-only',
      "A service (src/services/<upstream>/) imports the services, the upstream machinery, state, storage (settings/ reads the database), runtime, the kernel and the domains (another upstream's folder only as services-import-no-other-upstream allows), and render's deck-image.ts and deck-picture.ts (deck-pictures/ only).",
      '^src/services/',
      '^src/services/', under('upstream', 'state', 'storage', 'runtime', KERNEL, ...DOMAINS), '^src/render/deck-(image|picture)[.]ts$',
    ),
    {
      name: 'services-import-no-other-upstream',
      comment: "A service's folder imports no other service's, except geojs/ and ygoprodeck/ (next rules).",
      severity: 'error',
      from: { path: '^src/services/([^/]+)/', pathNot: '^src/services/(geojs|ygoprodeck|off-thread)/' },
      to: { path: '^src/services/', pathNot: '^src/services/$1/' },
    },
    {
      name: 'geojs-imports-dns',
      comment: 'geojs/ (the IP lookup) resolves host names through dns/; no other service folder.',
      severity: 'error',
      from: { path: '^src/services/geojs/' },
      to: { path: '^src/services/', pathNot: '^src/services/(geojs|dns)/' },
    },
    {
      name: 'ygoprodeck-and-its-worker',
      comment: "ygoprodeck/ and off-thread/ (its card database's worker thread) import each other; no other service folder.",
      severity: 'error',
      from: { path: '^src/services/(ygoprodeck|off-thread)/' },
      to: { path: '^src/services/', pathNot: '^src/services/(ygoprodeck|off-thread)/' },
    },
    {
      name: 'only-deck-pictures-draws',
      comment: "deck-pictures/ draws a deck with render's deck-image.ts and deck-picture.ts in its child process; no other service imports render.",
      severity: 'error',
      from: { path: '^src/services/', pathNot: '^src/services/deck-pictures/' },
      to: { path: '^src/render/' },
    },
    importsOnly(
      'upstream-imports-only',
      'src/upstream, the machinery every service runs on (http, limiter, cache, health …), imports the kernel and runtime.',
      '^src/upstream/',
      under('upstream', KERNEL, 'runtime'),
    ),
    importsOnly(
      'state-imports-only',
      'src/state (fleet-wide state) imports the upstream machinery, the kernel, runtime and the domains.',
      '^src/state/',
      under('state', 'upstream', KERNEL, 'runtime', ...DOMAINS),
    ),
    importsOnly(
      'storage-imports-only',
      'src/storage (the database) imports runtime, and the domains and i18n for its column values\' types.',
      '^src/storage/',
      under('storage', 'runtime', ...DOMAINS, 'i18n'),
    ),
    importsOnly(
      'scheduler-imports-only',
      'src/scheduler (subscriptions and their posts) imports storage, the services whose content it posts, render, the kernel\'s reply types, runtime, i18n, the domains (src/schedule: time of day, zones, nonces) and src/discord/multipart.ts (a post with files).',
      '^src/scheduler/',
      under('scheduler', 'storage', 'services', 'render', KERNEL, 'runtime', 'i18n', ...DOMAINS), '^src/discord/multipart[.]ts$',
    ),
    importsOnly(
      'runtime-imports-only',
      "src/runtime (process plumbing) imports the kernel's upstream names and two of src/discord's pure helpers (route-parts.ts, shards.ts) that its config validates with.",
      '^src/runtime/',
      under('runtime', KERNEL), '^src/discord/(route-parts|shards)[.]ts$',
    ),
    importsOnly(
      'i18n-imports-only',
      'src/i18n (message catalogues) imports nothing of the bot.',
      '^src/i18n/',
      '^src/i18n/',
    ),
    importsOnly(
      'bench-imports-only',
      'bench/ imports the bot (src, commands), scripts/ (the compile), the tests\' helpers and fakes and their run\'s global setup (made once for the vitest sections); never a test file.',
      '^bench/',
      '^bench/', '^src/', '^commands/', '^scripts/', '^test/(helpers|fakes)/', '^test/global-setup[.]ts$',
    ),
    importsOnly(
      'test-helpers-import-only',
      "test/helpers imports the bot (src, commands), the fakes and the fence, and bench's query lists (card-queries.ts, stats.ts); never a test file.",
      '^test/helpers/',
      '^src/', '^commands/', '^test/(helpers|fakes|fence)/', '^bench/(card-queries|stats)[.]ts$',
    ),

    // ── Narrower rules inside what the folders allow ───────────────────────────────────────────────
    {
      name: 'types-only-from-app-and-services',
      comment:
        'commands, src/cli and src/inline reach the app only through AppServices: they name its types (and the services\' types it holds), never take a value from src/app or src/services.',
      severity: 'error',
      from: { path: '^(commands|src/cli|src/inline)/' },
      to: { path: '^src/(app|services|scheduler)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-command-imports-another',
      comment:
        'One folder per command (commands/<name>/): its files import their own folder and the src/ layers, never another command, nor the registry (commands/index.ts). What commands share lives in src/interaction, a domain or a service.',
      severity: 'error',
      from: { path: '^commands/([^/]+)/' },
      to: { path: '^commands/', pathNot: '^commands/$1/' },
    },
    {
      name: 'commands-live-in-folders',
      comment: 'Only the registry (commands/index.ts) sits at the top of commands/; every command is a folder.',
      severity: 'error',
      from: { path: '^commands/[^/]+[.]ts$', pathNot: '^commands/index[.]ts$' },
      to: {},
    },

    // ── Whatever the path: layers that must stay clean transitively ─────────────────────────────────
    reachesNone(
      'kernel-knows-nothing-of-the-app',
      'src/interaction is the generic kernel (Command<S>, createRouter<S>): it reaches nothing of the app, the services, their machinery or state.',
      under(KERNEL),
      [...APP, 'services', 'upstream', 'state'],
    ),
    reachesNone(
      'render-reaches-no-service',
      'src/render is pure: it reaches no service, no upstream machinery, no state and nothing of the app.',
      '^src/render/',
      [...APP, 'services', 'upstream', 'state'],
    ),
    reachesNone('domains-reach-no-io', 'The domains reach no service, upstream machinery, state, render or app.', under(...DOMAINS), [...APP, 'services', 'upstream', 'state', 'render']),
    reachesNone(
      'state-reaches-no-service',
      'src/state sits below the services (they use it): it reaches no service, no render (it writes no sentences) and nothing of the app.',
      '^src/state/',
      [...APP, 'services', 'render'],
    ),
    reachesNone(
      'upstream-reaches-no-service',
      'src/upstream sits below the services and state (both use it): it reaches neither, nor render or the app.',
      '^src/upstream/',
      [...APP, 'services', 'state', 'render'],
    ),
    reachesNone('services-reach-no-command', 'A service reaches no command and nothing of src/app (which assembles the services).', '^src/services/', ['app', 'commands']),
    {
      name: 'no-circular',
      comment: 'No import circle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // sharp stays in the graph for sharp-loaded-on-first-use; other packages are left out.
    exclude: { path: '^(node_modules/(?!sharp/)|dist/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
