// The floors of ARCHITECTURE.md as import rules: an import only points down a floor (sideways within a
// floor is fine), never in a cycle, type-only imports included. `npm run deps` runs it over the sources.
// To move a folder to another floor, change FLOORS here and in ARCHITECTURE.md together.

/** Top to bottom; each entry is one floor, the folders of agent/ on it (or a top-level folder). */
const FLOORS = [
  { name: 'cli', paths: ['agent/cli/'] },
  { name: 'daemon', paths: ['agent/daemon/'] },
  {
    name: 'sources-and-actions',
    paths: ['agent/acknowledge/', 'agent/cluster/', 'agent/intake/', 'agent/transports/', 'agent/journald/'],
  },
  { name: 'delivery', paths: ['agent/delivery/'] },
  {
    name: 'incidents-prefilter-events',
    paths: ['agent/incidents/', 'agent/kinds/', 'agent/prefilter/', 'agent/events/'],
  },
  {
    name: 'tail-outbox-messaging-sandbox-config',
    paths: ['agent/tail/', 'agent/outbox/', 'agent/messaging/', 'agent/sandbox/', 'agent/config/'],
  },
  { name: 'storage', paths: ['agent/storage/'] },
  // Files directly in agent/ (agent/monotonic-clock.ts, agent/coded-error.ts): the lowest agent floor.
  { name: 'agent-root', pattern: '^agent/[^/]+$' },
  { name: 'alerts-logx', paths: ['alerts/', 'logx/'] },
]

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const patternOf = (floor) => floor.pattern ?? `^(${floor.paths.map(escape).join('|')})`

// One rule per pair of floors: nothing on the lower one imports from the higher one.
const floorRules = FLOORS.flatMap((higher, top) =>
  FLOORS.slice(top + 1).map((lower) => ({
    name: `floor-${lower.name}-imports-${higher.name}`,
    comment: `${lower.name} is below ${higher.name} (ARCHITECTURE.md, floors): an import only points down.`,
    severity: 'error',
    from: { path: patternOf(lower) },
    to: { path: patternOf(higher) },
  })),
)

module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'alerts-imports-nothing-of-ours',
      comment: 'alerts/ is the pure domain: it imports nothing from logx/ or agent/.',
      severity: 'error',
      from: { path: '^alerts/' },
      to: { path: '^(logx|agent)/' },
    },
    {
      name: 'logx-imports-nothing-of-ours',
      comment: 'logx/ could be published alone: it imports nothing from alerts/ or agent/.',
      severity: 'error',
      from: { path: '^logx/' },
      to: { path: '^(alerts|agent)/' },
    },
    {
      name: 'tail-knows-nothing-of-alerts',
      comment: 'The tailer knows nothing of alerts: no import from alerts/ or agent/delivery/.',
      severity: 'error',
      from: { path: '^agent/tail/' },
      to: { path: '^(alerts|agent/delivery)/' },
    },
    {
      name: 'messaging-never-imports-sandbox',
      comment: 'The messaging client never imports its emulator.',
      severity: 'error',
      from: { path: '^agent/messaging/' },
      to: { path: '^agent/sandbox/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included (a types.ts leaf breaks them).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(logx|alerts|agent)/',
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still a cycle of concepts.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
