// Crash and restart: a burst of error lines naming many incidents (each several times) is written
// while the agent is SIGKILLed at random moments, 24 times, and restarted on the same state
// directory; the sandbox runs in its own process, so what it received outlives every kill. After
// the last start: every incident has paged at least once (lost = none did), and none paged twice
// for its one notification step. Messages carry their outbox item's Idempotency-Key: a key seen
// twice is an allowed resend (the agent died between the API's answer and its journal's 'done');
// two keys for one incident is a re-page (the engine forgot it had paged): a defect. The CRM calls
// are keyed the same way (<item>:lead, <item>:activity; a sent message's activity by its message's
// item): every incident has one lead and its two activities (opened, SMS sent), a key seen twice is
// a resend, a second key for a lead or an activity is a re-creation: a defect.
// Seeded: DRILL_SEED replays the kill delays and the order of the lines.
// The multi-line variant runs the same with `multiline: java`: each error line is followed by
// frames and a last line naming its incident (`com.acme.PaymentException: inc-0001 whole`), which
// the page shows (the error's type and message). A page without it came of a split event.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  createWorkspace,
  metric,
  records,
  spawnAgent,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
} from '../agent/daemon/helpers'
import {
  countActivities,
  countLeads,
  countPages,
  crashNotes,
  expectCrashPromises,
  killRepeatedly,
  seededRandom,
} from './lib/crash'
import { peakRssOf, recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const KILLS = 24
const INCIDENTS = 300
const REPEATS = 3
/** A kill lands this long after the spawn: some during startup (lock, outbox replay), most while reading and sending. */
const KILL_AFTER_MS = { min: 150, max: 1500 }
/** What the CRM must hold for every incident: its incident channel's note, and the page's record. */
const ACTIVITY_STEPS = ['NOTE: Incident opened', 'MESSAGE: SMS sent (firing) via oncall-sms']

const VARIANTS = [
  { name: 'lines', multiline: false },
  { name: 'multi-line events', multiline: true },
] as const

const FRAMES = [
  '\tat com.acme.pay.Gateway.charge(Gateway.java:214)',
  '\tat com.acme.pay.Checkout.pay(Checkout.java:88)',
  '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
]

test.for(VARIANTS)(
  'crash and restart ($name): every incident pages, none pages twice, through 24 SIGKILLs',
  async ({ name, multiline }, { task }) => {
    const seed = Number(process.env.DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31))
    process.stdout.write(`[crash drill, ${name}] seed ${seed} (DRILL_SEED=${seed} replays it)\n`)
    const random = seededRandom(seed)
    const started = Date.now()
    const ws = createWorkspace()
    const app = join(ws.logs, 'app.log')
    let sandbox: SandboxProcess | undefined
    let spawned: ReturnType<typeof spawnAgent> | undefined
    let last: RunningAgent | undefined
    let writer: NodeJS.Timeout | undefined
    try {
      sandbox = await startSandboxProcess()
      const config = (yaml: string): string =>
        multiline ? yaml.replace('    start_at: beginning\n', '    start_at: beginning\n    multiline: java\n') : yaml
      ws.writeConfig(
        config(
          smsRulesConfig(
            ws,
            `
  - name: payments
    level: error
    group_by: [incident]
    group_wait: 0s
    notify: oncall-sms
    incident: true
`,
            sandbox.api,
          ),
        ),
      )
      mkdirSync(ws.logs, { recursive: true })
      // A long first line, as an app's log starts: files are told apart by their first 256 bytes.
      appendFileSync(
        app,
        `${JSON.stringify({ level: 30, time: Date.now(), msg: `payments started ${'.'.repeat(300)}` })}\n`,
      )

      // The burst: each incident's lines spread over the run, in a seeded order, with info lines between.
      const incidents = Array.from({ length: INCIDENTS }, (_, i) => `inc-${String(i + 1).padStart(4, '0')}`)
      const lines = incidents.flatMap((id) => Array.from({ length: REPEATS }, () => id))
      for (let i = lines.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[lines[i], lines[j]] = [lines[j] as string, lines[i] as string]
      }
      let written = 0
      const writeSome = (count: number): void => {
        let text = ''
        for (let i = 0; i < count && written < lines.length; i++, written++) {
          const id = lines[written] as string
          text += `${JSON.stringify({ level: 30, time: Date.now(), msg: 'request served' })}\n`
          text += `${JSON.stringify({ level: 50, time: Date.now(), incident: id, msg: `payment failed for ${id}` })}\n`
          if (multiline) text += `${[...FRAMES, `com.acme.pay.PaymentException: ${id} whole`].join('\n')}\n`
        }
        if (text !== '') appendFileSync(app, text)
      }
      // About the length of the kill loop (24 kills of ~0.8 s), a few error lines every 50 ms.
      writer = setInterval(() => writeSome(2 + Math.floor(random() * 3)), 50)

      let peakRssMb = await killRepeatedly(
        KILLS,
        KILL_AFTER_MS,
        random,
        () => spawnAgent(['run', '--config', ws.config]),
        (running) => {
          spawned = running as ReturnType<typeof spawnAgent> | undefined
        },
      )
      clearInterval(writer)
      writer = undefined
      writeSome(lines.length)

      // The last start: it must finish what the killed ones left.
      last = await startAgentProcess(ws.config)
      const running = last
      const api = sandbox.api
      const pagedOf = (record: Record<string, unknown>): string | undefined =>
        /inc-\d{4}/.exec(String(record['sms']))?.[0]
      await pollUntil(
        'every incident paged, the file read, the outbox empty',
        async () => {
          const all = await records(api.baseUrl, 'sms')
          const paged = new Set(all.map((r) => pagedOf(r.record)))
          if (!incidents.every((id) => paged.has(id))) return undefined
          const behind = await metric(running.metricsUrl, 'logx_agent_bytes_behind')
          const depth = await metric(running.metricsUrl, 'logx_agent_outbox_depth')
          return behind === 0 && depth === 0 ? true : undefined
        },
        { timeoutMs: 60_000 },
      ).catch(() => undefined)
      peakRssMb = Math.max(peakRssMb, peakRssOf(running.child.pid ?? 0) ?? 0)

      const all = await records(api.baseUrl, 'sms,lead,activity')
      const pages = countPages(all, 'sms', incidents, pagedOf)
      // Multi-line: a page must carry its event's last line (its incident's `... whole`).
      const split = multiline
        ? all.filter(
            (r) =>
              r.kind === 'sms' &&
              pagedOf(r.record) !== undefined &&
              !String(r.record['sms']).includes(`${pagedOf(r.record)} whole`),
          ).length
        : 0
      // A lead names its incident in its title and fingerprint.
      const leadOf = (record: Record<string, unknown>): string | undefined =>
        /inc-\d{4}/.exec(`${String(record['name'])} ${JSON.stringify(record['other_fields'])}`)?.[0]
      const leads = countLeads(all, incidents, leadOf)
      const activities = countActivities(all, incidents, ACTIVITY_STEPS, leadOf)
      const suppressed = await metric(running.metricsUrl, 'logx_agent_repages_suppressed_total')
      recordDrill(task, {
        drill: multiline ? 'crash and restart, multi-line' : 'crash and restart',
        events: pages.expected,
        unit: 'alerts',
        lost: pages.lost,
        duplicated: pages.duplicated,
        peakRssMb,
        timeMs: Date.now() - started,
        notes: `${KILLS} SIGKILLs; ${crashNotes(pages, leads, activities)}; re-pages suppressed after restarts ${suppressed}${multiline ? `; pages of split events ${split}` : ''}; seed ${seed}`,
      })
      expect(split).toBe(0)
      // At-least-once: a kill can catch each of the outbox's two deliveries in flight.
      expectCrashPromises(pages, leads, activities, 2 * KILLS, 2 * KILLS)
    } finally {
      if (writer !== undefined) clearInterval(writer)
      if (spawned !== undefined && spawned.child.exitCode === null) {
        spawned.child.kill('SIGKILL')
        await spawned.exited
      }
      await last?.kill('SIGKILL')
      await sandbox?.close()
      ws.remove()
    }
  },
)
