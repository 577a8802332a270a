// Crash and restart, in an app: the alert path is the same in an app's transport worker as in the
// daemon, so a SIGKILL of the app must keep the daemon's promises. An app with logx-sms-alert
// (incident: true) and logx-incident, journaling to files, logs error lines naming many incidents
// and is SIGKILLed at random moments, 12 times; a last run logs every incident once more. After
// it: every incident paged (lost = none did), none paged under two keys (a re-page: the restarted
// worker forgot it had paged), one lead per incident with its two activities. A key seen twice is
// an allowed resend (the app died between the API's answer and the journal's 'done'). Lines the app
// logged but its worker never read before the kill are lost with the app, as in any logger: the
// last run logs every incident again so that no incident depends on them.
// Seeded: DRILL_SEED replays the kill delays and the lines.
import { test } from 'vitest'
import { createWorkspace, records, startSandboxProcess, type SandboxProcess } from '../agent/daemon/helpers'
import { apiEnv, fixtures, spawnApp, type SpawnedApp } from './lib/apps'
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
import { join } from 'node:path'
import { pollUntil } from '../helpers/poll-until'

const KILLS = 12
const INCIDENTS = 150
const KILL_AFTER_MS = { min: 200, max: 1500 }
const ACTIVITY_STEPS = ['NOTE: Incident opened', 'MESSAGE: SMS sent (firing) via sms']

test('crash and restart in an app: every incident pages once, through 12 SIGKILLs of the app', async ({ task }) => {
  const seed = Number(process.env.DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31))
  process.stdout.write(`[crash drill, app] seed ${seed} (DRILL_SEED=${seed} replays it)\n`)
  const random = seededRandom(seed)
  const started = Date.now()
  const ws = createWorkspace()
  let sandbox: SandboxProcess | undefined
  let app: SpawnedApp | undefined
  const incidents = Array.from({ length: INCIDENTS }, (_, i) => `inc-${String(i + 1).padStart(4, '0')}`)
  try {
    sandbox = await startSandboxProcess()
    const env = (mode: string): NodeJS.ProcessEnv => ({
      ...apiEnv((sandbox as SandboxProcess).api),
      DRILL_STATE: ws.state,
      DRILL_INCIDENTS: incidents.join(','),
      DRILL_SEED: String(Math.floor(random() * 2 ** 31)),
      DRILL_MODE: mode,
    })
    const script = join(fixtures, 'crash-app.js')
    let peakRssMb = await killRepeatedly(
      KILLS,
      KILL_AFTER_MS,
      random,
      () => spawnApp(script, [], env('burst')),
      (running) => {
        app = running as SpawnedApp | undefined
      },
    )

    // The last run: every incident logged once more; it stays up until the sandbox holds every step.
    const last = spawnApp(script, [], env('all'))
    app = last
    const api = sandbox.api
    const pagedOf = (record: Record<string, unknown>): string | undefined =>
      /inc-\d{4}/.exec(String(record['sms']))?.[0]
    const leadOf = (record: Record<string, unknown>): string | undefined =>
      /inc-\d{4}/.exec(`${String(record['name'])} ${JSON.stringify(record['other_fields'])}`)?.[0]
    await pollUntil(
      'every incident paged, with its lead and both activities',
      async () => {
        const all = await records(api.baseUrl, 'sms,lead,activity')
        const done =
          countPages(all, 'sms', incidents, pagedOf).lost === 0 &&
          countActivities(all, incidents, ACTIVITY_STEPS, leadOf).lost === 0
        return done ? true : undefined
      },
      { timeoutMs: 60_000 },
    ).catch(() => undefined)
    peakRssMb = Math.max(peakRssMb, peakRssOf(last.child.pid ?? 0) ?? 0)

    const all = await records(api.baseUrl, 'sms,lead,activity')
    const pages = countPages(all, 'sms', incidents, pagedOf)
    const leads = countLeads(all, incidents, leadOf)
    const activities = countActivities(all, incidents, ACTIVITY_STEPS, leadOf)
    recordDrill(task, {
      drill: 'crash and restart (app worker)',
      events: pages.expected,
      unit: 'alerts',
      lost: pages.lost,
      duplicated: pages.duplicated,
      peakRssMb,
      timeMs: Date.now() - started,
      notes: `${KILLS} SIGKILLs of the app; ${crashNotes(pages, leads, activities)}; seed ${seed}`,
    })
    // At-least-once: a kill can catch each target's two deliveries in flight.
    expectCrashPromises(pages, leads, activities, 2 * KILLS, 4 * KILLS)
  } finally {
    if (app !== undefined && app.child.exitCode === null) {
      app.child.kill('SIGKILL')
      await app.exited
    }
    await sandbox?.close()
    ws.remove()
  }
})
