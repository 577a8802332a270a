// `logx-agent incidents [--all] [--json]`: the running agent's open incidents, most recently seen
// first, as the console API lists them (GET /api/incidents). Pending incidents (not paged yet:
// group_wait, threshold) are left out unless --all.
import type { IncidentSummary } from '../daemon/console/types'
import { connectToAgent, type ConsoleArgs } from './agent-locator'
import type { CliIo } from './io'
import { terminalLines } from './terminal-text'
import { formatTable, outputWidth, relativeTime } from './text-table'

export interface IncidentsArgs extends ConsoleArgs {
  all: boolean
}

const HEADER = ['ID', 'STATE', 'COUNT', 'RULE', 'TITLE', 'PAGED', 'ACKED BY', 'LAST SEEN'] as const
const TITLE_COLUMN = HEADER.indexOf('TITLE')
/** In a fleet, the hosts that saw each incident instead of whom it paged (the console's detail has both). */
const FLEET_HEADER = ['ID', 'STATE', 'COUNT', 'RULE', 'TITLE', 'HOSTS', 'ACKED BY', 'LAST SEEN'] as const

/** `missed_call` -> `missed call`: how an ack came, as a person says it. */
export const viaText = (via: string): string => via.replace(/_/g, ' ')

export function ackedBy(incident: IncidentSummary): string {
  return incident.ack === undefined || incident.ack === null ? '-' : `${incident.ack.by} (${viaText(incident.ack.via)})`
}

/** In a fleet: which agents saw the incident's lines, and how many each (`web-1:120,web-2:3`). */
export const hostsText = (incident: IncidentSummary): string =>
  incident.hosts === undefined || incident.hosts.length === 0
    ? '-'
    : incident.hosts.map((h) => `${h.agent}:${h.count}`).join(',')

export function describeIncidents(
  incidents: readonly IncidentSummary[],
  hiddenPending: number,
  now: number,
  width: number,
): string {
  const hint = hiddenPending > 0 ? `(${hiddenPending} pending, not paged yet: --all shows them)\n` : ''
  if (incidents.length === 0) return `no open incidents\n${hint}`
  if (incidents.some((i) => i.hosts !== undefined)) {
    const rows = incidents.map((i) => [
      i.shortId,
      i.state,
      String(i.count),
      i.rule,
      i.title,
      hostsText(i),
      ackedBy(i),
      relativeTime(i.lastSeen, now),
    ])
    return formatTable(FLEET_HEADER, rows, width, TITLE_COLUMN) + hint
  }
  const rows = incidents.map((i) => [
    i.shortId,
    i.state,
    String(i.count),
    i.rule,
    i.title,
    i.paged.length === 0 ? '-' : i.paged.join(','),
    ackedBy(i),
    relativeTime(i.lastSeen, now),
  ])
  return formatTable(HEADER, rows, width, TITLE_COLUMN) + hint
}

export async function incidentsCommand(
  args: IncidentsArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 1
  const answer = await client.get<{ incidents?: IncidentSummary[] }>('/api/incidents')
  if (!answer.ok) {
    io.stderr.write(terminalLines([`logx-agent: ${answer.message}`]))
    return 1
  }
  const listed = answer.body.incidents ?? []
  const shown = args.all ? listed : listed.filter((i) => i.state !== 'pending')
  if (args.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`)
  else io.stdout.write(describeIncidents(shown, listed.length - shown.length, Date.now(), outputWidth(io.stdout)))
  return 0
}
