// What `logx-agent test-page` says and how it ends, from the page's progress as the agent reports it
// (agent/daemon/console/test-page-types.ts). Pure: the clock is an argument. The rules:
// 1. Acknowledged (a missed call from their number) -> outcome `acknowledged`, exit 0.
// 2. Timed out, or still waiting once the wait's deadline (plus a grace for the last poll) is past
//    -> outcome `timed_out`, exit 1.
// 3. Failed in the agent (the page could not be sent) -> outcome `failed`, exit 1.
// 4. Otherwise the page waits: no outcome yet.
// 5. A step is reported once, when first seen: each channel queued (in the outbox), sent (the API
//    lists it), delivered or failed (as the API's record says); then the acknowledgement. Each says
//    how long it took since the page started.
// 6. At the end, a channel the API never showed a record (or a final status) for says so: the API
//    may not show it, which is not a failure of the page.
// 7. The countdown shows minutes and seconds left, never below 0:00.
import type { TestPageChannelView, TestPageView } from '../../daemon/console/test-page-types'

export type Outcome = { kind: 'acknowledged' | 'timed_out' | 'failed'; exitCode: 0 | 1 } | { kind: 'waiting' }

/** The time the CLI gives a page past its deadline for the agent's last poll to report. */
export const DEADLINE_GRACE_MS = 5_000

/** Rules 1 to 4. */
export function outcomeOf(page: TestPageView, now: number): Outcome {
  if (page.state === 'acknowledged') return { kind: 'acknowledged', exitCode: 0 }
  if (page.state === 'failed') return { kind: 'failed', exitCode: 1 }
  if (page.state === 'timed_out' || now > page.deadline + DEADLINE_GRACE_MS) return { kind: 'timed_out', exitCode: 1 }
  return { kind: 'waiting' }
}

export const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)}s`

function channelSteps(channel: TestPageChannelView, page: TestPageView): { id: string; text: string }[] {
  const name = `${channel.type} via ${channel.channel}`
  const steps: { id: string; text: string }[] = []
  if (page.queuedAt !== undefined)
    steps.push({
      id: `queued:${channel.channel}`,
      text: `queued: ${name} (${seconds(page.queuedAt - page.startedAt)})`,
    })
  if (channel.sentAt !== undefined)
    steps.push({
      id: `sent:${channel.channel}`,
      text: `sent: ${name}, the API lists it (${seconds(channel.sentAt - page.startedAt)})`,
    })
  if (channel.deliveredAt !== undefined) {
    const what = channel.status === 'failed' ? 'NOT delivered' : 'delivered'
    const took = seconds(channel.deliveredAt - page.startedAt)
    steps.push({
      id: `delivered:${channel.channel}`,
      text: `${what}: ${name}, the API says "${channel.apiStatus ?? ''}" (${took})`,
    })
  }
  return steps
}

/** Rule 5: every step the page has reached, in order, each with a stable id. */
export function stepsOf(page: TestPageView): { id: string; text: string }[] {
  const steps = page.channels.flatMap((c) => channelSteps(c, page))
  const ack = page.acknowledged
  if (ack !== undefined) {
    const took = seconds(ack.at - page.startedAt)
    steps.push({ id: 'acknowledged', text: `acknowledged: missed call from ${ack.caller} (${ack.by}) (${took})` })
  }
  return steps
}

/** Rule 5: the steps not reported yet; `reported` is updated. */
export function newSteps(page: TestPageView, reported: Set<string>): string[] {
  const fresh = stepsOf(page).filter((s) => !reported.has(s.id))
  for (const step of fresh) reported.add(step.id)
  return fresh.map((s) => s.text)
}

/** Rule 6: what the API never showed, said once at the end. */
export function unshownNotes(page: TestPageView): string[] {
  return page.channels
    .filter((c) => c.deliveredAt === undefined)
    .map((c) =>
      c.sentAt === undefined
        ? `${c.type} via ${c.channel}: the API lists no record of it (it may not show one)`
        : `${c.type} via ${c.channel}: the API shows no delivery status for it (it may not show one)`,
    )
}

/** Rule 7. */
export function countdown(page: TestPageView, now: number): string {
  const left = Math.max(0, Math.ceil((page.deadline - now) / 1000))
  const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
  const from = page.person === undefined ? 'a person of the config' : page.person
  return `waiting for a missed call from ${from}: ${clock} left`
}

/** The closing line of an outcome. */
export function closingLine(page: TestPageView, outcome: Outcome): string {
  switch (outcome.kind) {
    case 'acknowledged':
      return `test page ${page.id}: the loop works (paged, acknowledged by missed call)`
    case 'failed':
      return `test page ${page.id} failed: ${page.error ?? 'see the agent log'}`
    case 'timed_out':
      return `test page ${page.id}: no missed call before the wait ended (check the number, the phone, the API key)`
    case 'waiting':
      return `test page ${page.id}: still waiting`
  }
}
