// How a test page's progress reaches the person running the drill: each step once as it happens, and
// on a terminal a countdown line rewritten in place every second (plain lines when piped: a line
// every 30 s instead). `--json` prints the final progress only.
import type { TestPageView } from '../../daemon/console/test-page-types'
import { closingLine, countdown, newSteps, outcomeOf, unshownNotes, type Outcome } from './steps'

export interface ReportSink {
  write(text: string): unknown
  isTTY?: boolean | undefined
}

/** How often a piped report says it still waits. */
const PIPED_EVERY_MS = 30_000

export interface Reporter {
  /** The page's first view: what was sent where, and how to acknowledge it. */
  started(page: TestPageView): void
  /** A newer view. */
  progress(page: TestPageView, now: number): void
  /** The last view and how it ended; returns the exit code. */
  finished(page: TestPageView, outcome: Exclude<Outcome, { kind: 'waiting' }>): number
}

function howToAck(page: TestPageView): string[] {
  const lines = [`test page ${page.id} (incident ${page.incident}, marked as a test): "${page.text}"`]
  lines.push(`  to ${page.channels.map((c) => `${c.type} via ${c.channel}`).join(', ')}`)
  const to = page.ackNumber === undefined ? 'the acknowledge number' : page.ackNumber
  lines.push(`  acknowledge it: a missed call to ${to} from ${page.person ?? 'a person of the config'}'s phone`)
  if (page.inboxUrl !== undefined)
    lines.push(`  sandbox: the inbox's "simulate missed call" button acknowledges it: ${page.inboxUrl}`)
  return lines
}

export function createReporter(out: ReportSink, json: boolean): Reporter {
  const reported = new Set<string>()
  const tty = out.isTTY === true && !json
  let counting = false
  let lastPlain = 0

  const line = (text: string): void => {
    if (json) return
    if (counting) out.write('\r\u001b[2K')
    counting = false
    out.write(`${text}\n`)
  }

  return {
    started(page) {
      for (const text of howToAck(page)) line(text)
      lastPlain = page.startedAt
    },
    progress(page, now) {
      for (const text of newSteps(page, reported)) line(text)
      if (json || outcomeOf(page, now).kind !== 'waiting' || page.state !== 'waiting') return
      if (tty) {
        out.write(`\r\u001b[2K${countdown(page, now)}`)
        counting = true
      } else if (now - lastPlain >= PIPED_EVERY_MS) {
        lastPlain = now
        line(countdown(page, now))
      }
    },
    finished(page, outcome) {
      if (json) {
        out.write(`${JSON.stringify({ outcome: outcome.kind, testPage: page }, null, 2)}\n`)
        return outcome.exitCode
      }
      for (const text of newSteps(page, reported)) line(text)
      for (const text of unshownNotes(page)) line(text)
      line(closingLine(page, outcome))
      return outcome.exitCode
    },
  }
}
