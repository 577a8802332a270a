// `logx-agent kinds --live`: the running agent's kinds, through its console (GET /api/kinds), found
// and opened as every console command finds it (agent-locator.ts: console.json, its identity proof,
// the token). The same table as for files, with when each kind was first and last seen, its hosts and
// the incident it opened instead of line numbers.
import { levelLabel } from '../../../alerts'
import type { KindView } from '../../daemon/console/kinds-types'
import { connectToAgent } from '../agent-locator'
import { DEFAULT_CONFIG } from '../default-config'
import type { CliIo } from '../io'
import { terminalLines } from '../terminal-text'
import { formatTable, outputWidth, relativeTime } from '../text-table'

export interface LiveKindsArgs {
  config: string | undefined
  url: string | undefined
  tokenFile: string | undefined
  json: boolean
}

/** The most the console answers at once. */
const LIVE_LIMIT = 10_000
const HEADER = ['ID', 'LEVEL', 'COUNT', 'NEW', 'FIRST SEEN', 'LAST SEEN', 'HOSTS', 'INCIDENT', 'TEMPLATE'] as const
const TEMPLATE_COLUMN = HEADER.indexOf('TEMPLATE')

export function describeLiveKinds(kinds: readonly KindView[], total: number, now: number, width: number): string {
  if (kinds.length === 0) return total === 0 ? 'the agent has seen no kinds yet\n' : 'no kind of that level\n'
  const rows = kinds.map((k) => [
    k.id,
    k.level === undefined ? '-' : levelLabel(k.level),
    String(k.count),
    k.new ? 'new' : '',
    relativeTime(k.firstSeen, now),
    relativeTime(k.lastSeen, now),
    k.hosts.length === 0 ? '-' : k.hosts.join(','),
    k.incident ?? '-',
    k.template,
  ])
  const more = total > kinds.length && kinds.length === LIVE_LIMIT ? `(the first ${LIVE_LIMIT} of ${total})\n` : ''
  return formatTable(HEADER, rows, width, TEMPLATE_COLUMN) + more
}

export async function liveKinds(
  args: LiveKindsArgs,
  minLevel: number | undefined,
  io: CliIo,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const located = { config: args.config ?? DEFAULT_CONFIG, url: args.url, tokenFile: args.tokenFile }
  const client = await connectToAgent(located, io.stderr, env)
  if (client === undefined) return 1
  const answer = await client.get<{ kinds?: KindView[]; total?: number }>(`/api/kinds?sort=count&limit=${LIVE_LIMIT}`)
  if (!answer.ok) {
    io.stderr.write(terminalLines([`logx-agent: ${answer.message}`]))
    return 1
  }
  const listed = answer.body.kinds ?? []
  const kinds =
    minLevel === undefined
      ? listed
      : listed.filter((k) => k.level !== undefined && k.level !== null && k.level >= minLevel)
  if (args.json) io.stdout.write(`${JSON.stringify(kinds, null, 2)}\n`)
  else io.stdout.write(describeLiveKinds(kinds, answer.body.total ?? listed.length, Date.now(), outputWidth(io.stdout)))
  return 0
}
