// `logx-agent ack|unack|resolve <incident> [--by NAME]`: one action on one open incident of the
// running agent (POST /api/incidents/:id/<action>, sent as `x-logx-client: cli`, so its timeline and
// lead note say "via cli"). <incident> is a key, a unique prefix of one, or a unique prefix of the
// key's hash part (`3fa9` for `errors:3fa9c0...`): the CLI resolves it against the open incidents
// first, so an ambiguous prefix lists the candidates instead of acting on a guess.
import type { IncidentDetail, IncidentSummary } from '../daemon/console/types'
import { connectToAgent, type ConsoleArgs } from './agent-locator'
import type { CliIo } from './io'
import { terminalLines, terminalText } from './terminal-text'

export type IncidentAction = 'ack' | 'unack' | 'resolve'

export interface AckArgs extends ConsoleArgs {
  action: IncidentAction
  incident: string
  by: string | undefined
}

const DONE: Readonly<Record<IncidentAction, string>> = {
  ack: 'acknowledged',
  unack: 'unacknowledged',
  resolve: 'resolved',
}

export type Found =
  { kind: 'one'; incident: IncidentSummary } | { kind: 'none' } | { kind: 'many'; candidates: IncidentSummary[] }

/** The part of a key after its rule name: `errors:3fa9c0` -> `3fa9c0`. */
const hashPart = (key: string): string => key.slice(key.lastIndexOf(':') + 1)

/** Which open incident `id` names: an exact key wins over prefixes. */
export function findIncident(incidents: readonly IncidentSummary[], id: string): Found {
  const exact = incidents.find((i) => i.id === id)
  if (exact !== undefined) return { kind: 'one', incident: exact }
  const matches = incidents.filter((i) => i.id.startsWith(id) || hashPart(i.id).startsWith(id))
  if (matches.length === 1) return { kind: 'one', incident: matches[0] as IncidentSummary }
  return matches.length === 0 ? { kind: 'none' } : { kind: 'many', candidates: matches }
}

/** Who acts: --by, else the login name, else `cli`. */
export const actorName = (by: string | undefined, env: NodeJS.ProcessEnv): string =>
  by ?? (env.USER !== undefined && env.USER !== '' ? env.USER : 'cli')

export async function ackCommand(args: AckArgs, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const fail = (message: string, candidates: readonly string[] = []): number => {
    io.stderr.write(terminalLines([`logx-agent: ${message}`, ...candidates]))
    return 1
  }
  const by = actorName(args.by, env)
  if (by.trim() === '') return fail('--by: give a name')
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 1
  const listed = await client.get<{ incidents?: IncidentSummary[] }>('/api/incidents')
  if (!listed.ok) return fail(listed.message)
  const found = findIncident(listed.body.incidents ?? [], args.incident)
  if (found.kind === 'none') return fail(`no open incident ${args.incident}`)
  if (found.kind === 'many') {
    const lines = found.candidates.map((i) => `  ${i.id}  ${i.state}  ${i.title}`)
    return fail(`${args.incident} names ${found.candidates.length} open incidents; give more of the key:`, lines)
  }
  const answer = await client.post<{ incident?: IncidentDetail }>(
    `/api/incidents/${encodeURIComponent(found.incident.id)}/${args.action}`,
    { by },
  )
  if (!answer.ok) {
    // Resolved (by its own resolve_after, or someone else) between the listing and the action.
    if (answer.status === 404) return fail(`no open incident ${args.incident}`)
    return fail(answer.message)
  }
  const incident = answer.body.incident ?? found.incident
  if (args.json) io.stdout.write(`${JSON.stringify(incident, null, 2)}\n`)
  else io.stdout.write(`${terminalText(`${DONE[args.action]} ${incident.shortId} ${incident.title} (by ${by})`)}\n`)
  return 0
}
