/**
 * The layering of README's "Where things are", checked by `npm run lint` (dependency-cruiser 17:
 * 18 needs Node 22). Type-only imports count as dependencies (`tsPreCompilationDeps`), so a render
 * that only names a service's type still fails: what render needs belongs to a domain.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'render-imports-no-service',
      comment: 'src/render builds payloads from domain objects (src/cards, src/decks, src/wallpaper, src/ip): it never sees a service, not even a type of one.',
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/services/' },
    },
    {
      name: 'command-takes-no-value-from-a-service',
      comment:
        'A command reaches services only through AppServices (types); vocabularies, parsers and constants come from the domains.',
      severity: 'error',
      from: { path: '^commands/' },
      to: { path: '^src/services/', dependencyTypesNot: ['type-only'] },
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
    {
      name: 'kernel-knows-nothing-of-the-app',
      comment:
        'src/interaction is the generic kernel (Command<S>, createRouter<S>): it reaches nothing of src/app, src/services or commands, not even through another folder; the app supplies its services type.',
      severity: 'error',
      from: { path: '^src/interaction/' },
      to: { path: '^(src/app|src/services|commands)/', reachable: true },
    },
    {
      name: 'domain-imports-no-service-or-render',
      comment: 'The domains (src/cards, src/decks, src/wallpaper, src/ip) are pure: services and render depend on them, never the other way.',
      severity: 'error',
      from: { path: '^src/(cards|decks|wallpaper|ip)/' },
      to: { path: '^src/(services|render)/' },
    },
    {
      name: 'state-imports-no-render',
      comment: 'src/state writes no sentences: it refuses with a typed error that src/render words.',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^src/render/' },
    },
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
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
