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
