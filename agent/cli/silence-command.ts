// `logx-agent silence --match rule=db [--match host=web1 ...] --for 2h [--comment ...] [--by NAME]`,
// `logx-agent silence list` and `logx-agent silence expire <id>`: run-time silences of the running
// agent (POST/GET /api/silences, DELETE /api/silences/:id). The agent keeps them in its state
// directory, not in the YAML; the config's own silences are listed too (origin `config`) and are
// expired by editing the config, not from here.
import { parseDuration } from '../config/values/duration'
import { isRegexLiteral, parseRegex } from '../config/values/regex-literal'
import { controlCharacterProblem } from '../config/values/silence-matcher'
import type { SilenceSummary } from '../daemon/console/types'
import { connectToAgent, type ConsoleArgs } from './agent-locator'
import { actorName } from './ack-command'
import type { CliIo } from './io'
import { formatClock, formatTable, outputWidth, relativeTime } from './text-table'
import { terminalLines } from './terminal-text'

export interface SilenceArgs extends ConsoleArgs {
  match: string[]
  for: string | undefined
  comment: string | undefined
  by: string | undefined
}

export interface SilenceIdArgs extends ConsoleArgs {
  id: string
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string }

/** `--match key=value` options as the API's matchers; a `/regex/flags` value passes through as written. */
export function parseMatchers(values: readonly string[]): Parsed<Record<string, string>> {
  if (values.length === 0)
    return { ok: false, message: 'silence needs at least one --match key=value (e.g. --match rule=db)' }
  const matchers: Record<string, string> = {}
  for (const text of values) {
    const eq = text.indexOf('=')
    const key = eq === -1 ? '' : text.slice(0, eq).trim()
    const value = eq === -1 ? '' : text.slice(eq + 1)
    if (key === '' || value === '')
      return {
        ok: false,
        message: `--match "${text}": expected key=value, e.g. --match rule=db or --match 'msg=/timeout/i'`,
      }
    if (Object.hasOwn(matchers, key)) return { ok: false, message: `--match: ${key} is given twice` }
    const control = controlCharacterProblem(value)
    if (control !== undefined) return { ok: false, message: `--match ${key}: ${control}` }
    if (isRegexLiteral(value)) {
      const regex = parseRegex(value, false)
      if (!regex.ok) return { ok: false, message: `--match "${text}": ${regex.message}` }
    }
    matchers[key] = value
  }
  return { ok: true, value: matchers }
}

/** `--for 2h`: checked here with the config's duration grammar, sent as written. */
export function parseFor(text: string | undefined): Parsed<string> {
  if (text === undefined) return { ok: false, message: 'silence needs --for, how long it lasts (e.g. --for 2h)' }
  const ms = parseDuration(text)
  if (ms === undefined) {
    return { ok: false, message: `--for "${text}": expected a duration like "30m", "2h" or "1h30m"` }
  }
  if (ms <= 0) return { ok: false, message: `--for "${text}": must be longer than 0` }
  return { ok: true, value: text.trim() }
}

export const matchersText = (matchers: Readonly<Record<string, string>>): string =>
  Object.entries(matchers)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ')

const until = (s: SilenceSummary, now: number): string =>
  `${formatClock(s.endsAt)} (${s.endsAt <= now ? 'expired' : relativeTime(s.endsAt, now)})`

export function describeSilences(silences: readonly SilenceSummary[], now: number, width: number): string {
  if (silences.length === 0) return 'no silences\n'
  const header = ['ID', 'MATCHERS', 'UNTIL', 'COMMENT', 'BY', 'ORIGIN']
  const rows = silences.map((s) => [
    s.id,
    matchersText(s.matchers),
    until(s, now),
    s.comment ?? '-',
    s.createdBy ?? '-',
    s.origin,
  ])
  return formatTable(header, rows, width, header.indexOf('COMMENT'))
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(terminalLines([`logx-agent: ${message}`, 'Run logx-agent silence --help for usage.']))
  return 2
}

function refused(io: CliIo, message: string): number {
  io.stderr.write(terminalLines([`logx-agent: ${message}`]))
  return 1
}

export async function silenceCommand(
  args: SilenceArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const matchers = parseMatchers(args.match)
  if (!matchers.ok) return usage(io, matchers.message)
  const duration = parseFor(args.for)
  if (!duration.ok) return usage(io, duration.message)
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 1
  const body = {
    matchers: matchers.value,
    duration: duration.value,
    comment: args.comment,
    by: actorName(args.by, env),
  }
  const answer = await client.post<{ silence?: SilenceSummary }>('/api/silences', body)
  if (!answer.ok) return refused(io, answer.message)
  const { silence } = answer.body
  if (silence === undefined) return refused(io, 'the agent answered without the silence it made')
  if (args.json) io.stdout.write(`${JSON.stringify(silence, null, 2)}\n`)
  else
    io.stdout.write(
      terminalLines([`silence ${silence.id} until ${until(silence, Date.now())}: ${matchersText(silence.matchers)}`]),
    )
  return 0
}

export async function silenceListCommand(
  args: ConsoleArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 1
  const answer = await client.get<{ silences?: SilenceSummary[] }>('/api/silences')
  if (!answer.ok) return refused(io, answer.message)
  const silences = answer.body.silences ?? []
  if (args.json) io.stdout.write(`${JSON.stringify(silences, null, 2)}\n`)
  else io.stdout.write(describeSilences(silences, Date.now(), outputWidth(io.stdout)))
  return 0
}

export async function silenceExpireCommand(
  args: SilenceIdArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 1
  const answer = await client.delete<{ silence?: SilenceSummary }>(`/api/silences/${encodeURIComponent(args.id)}`)
  if (!answer.ok) return refused(io, answer.status === 404 ? `no silence ${args.id}` : answer.message)
  const { silence } = answer.body
  if (args.json) io.stdout.write(`${JSON.stringify(silence ?? null, null, 2)}\n`)
  else
    io.stdout.write(
      terminalLines([
        `expired silence ${args.id}${silence === undefined ? '' : `: ${matchersText(silence.matchers)}`}`,
      ]),
    )
  return 0
}
