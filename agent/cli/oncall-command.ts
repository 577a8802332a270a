// `logx-agent oncall [schedule] [--at TIME] [--config FILE] [--json] [--handoffs N]`: who is on call
// in each layer of the config's schedules at TIME (default now), until when, and the next handoffs,
// in each schedule's own zone. It reads the config only: no running agent is needed, and what it
// prints is what the agent would resolve `oncall:` to at that moment.
import { problemLine } from './problem-line'
import { readAgentConfig } from '../config/load/load-config'
import type { ScheduleView } from '../daemon/console/types'
import { scheduleViews } from '../daemon/schedule-views'
import type { CliIo } from './io'
import { formatZoned, instantIn, parseAt, type AtTime } from './oncall-times'
import { terminalLines, terminalText } from './terminal-text'
import { relativeTime } from './text-table'

export interface OncallArgs {
  config: string
  /** One schedule; undefined: every one. */
  schedule: string | undefined
  /** As written; undefined: now. */
  at: string | undefined
  json: boolean
  handoffs: number
}

/** A schedule as printed: the instant asked about (a wall time is read in the schedule's zone) and its layers then. */
export interface OncallReport extends ScheduleView {
  at: number
}

export const MAX_HANDOFFS = 100

function who(user: string, override: boolean): string {
  return override ? `${user} (override)` : user
}

/** The text report of one schedule; times in its zone, spans relative to the moment asked about. */
export function describeSchedule(report: OncallReport, asked: 'now' | 'at'): string {
  const zone = report.timeZone
  const out = [`${report.name} ${asked === 'now' ? 'now,' : 'at'} ${formatZoned(report.at, zone)} (${zone})`]
  for (const layer of report.layers) {
    const name = layer.timeZone === zone ? layer.name : `${layer.name} (handoffs in ${layer.timeZone})`
    const first = layer.next[0]
    let holder: string
    if (layer.now === null)
      holder =
        first === undefined
          ? 'nobody'
          : `nobody until ${formatZoned(first.at, zone)} (${relativeTime(first.at, report.at)})`
    else if (layer.now.until === null) holder = `${who(layer.now.user, layer.now.override)}, no handoff ahead`
    else {
      const { user, override, until } = layer.now
      holder = `${who(user, override)} until ${formatZoned(until, zone)} (${relativeTime(until, report.at)})`
    }
    out.push(`  ${name}: ${holder}`)
    for (const next of layer.next) out.push(`    ${formatZoned(next.at, zone)}  ${who(next.user, next.override)}`)
  }
  return terminalLines(out)
}

/** The moment asked about, for each schedule: a wall time is that wall time in the schedule's zone. */
export function oncallReports(
  schedules: Parameters<typeof scheduleViews>[0],
  at: AtTime,
  handoffs: number,
): OncallReport[] {
  return schedules.map((schedule) => {
    const instant = instantIn(at, schedule.timeZone)
    const [view] = scheduleViews([schedule], instant, handoffs)
    return { ...(view as ScheduleView), at: instant }
  })
}

export async function oncallCommand(args: OncallArgs, io: CliIo, now: number = Date.now()): Promise<number> {
  if (!Number.isInteger(args.handoffs) || args.handoffs < 0 || args.handoffs > MAX_HANDOFFS) {
    io.stderr.write(`logx-agent: --handoffs ${args.handoffs}: expected a whole number from 0 to ${MAX_HANDOFFS}\n`)
    return 2
  }
  const at = args.at === undefined ? ({ kind: 'instant', at: now } as const) : parseAt(args.at)
  if (typeof at === 'string') {
    io.stderr.write(`logx-agent: ${at}\n`)
    return 2
  }
  const result = await readAgentConfig(args.config)
  if (!result.ok) {
    for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
    io.stderr.write(`${args.config}: ${result.problems.length} problem(s)\n`)
    return 1
  }
  const { schedules } = result.config
  const known = schedules.map((s) => s.name)
  const chosen = args.schedule === undefined ? schedules : schedules.filter((s) => s.name === args.schedule)
  if (chosen.length === 0) {
    const message =
      known.length === 0
        ? `${args.config} defines no schedules (a schedules: section; see docs/configuration.md)`
        : `no schedule named "${args.schedule ?? ''}" in ${args.config} (schedules: ${known.join(', ')})`
    io.stderr.write(`logx-agent: ${terminalText(message)}\n`)
    return 1
  }
  const reports = oncallReports(chosen, at, args.handoffs)
  if (args.json) io.stdout.write(`${JSON.stringify({ schedules: reports }, null, 2)}\n`)
  else io.stdout.write(reports.map((r) => describeSchedule(r, args.at === undefined ? 'now' : 'at')).join('\n'))
  return 0
}
