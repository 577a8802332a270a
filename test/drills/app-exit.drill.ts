// Drill: no alert is lost at app exit. Real apps (test/fixtures/drills/alert-exit-app.js) with alert
// targets log one error and then leave: process.exit(1) right after the call, an uncaught exception,
// `kill -TERM` / `kill -INT` from outside, and a private pm2's `stop` (kill_signal SIGTERM) and
// `delete` (its default SIGINT). Half the runs use the multi-target variant (sms + chat + incident),
// half hold the alert in group_wait so it is still in the worker when the app dies. Every alert must
// be at the sandbox (its own process) afterwards; duplicates are counted.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startSandboxProcess, type SandboxProcess } from '../agent/daemon/helpers'
import {
  apiEnv,
  awaitAlerts,
  createPrivatePm2,
  fixtures,
  inBatches,
  markOf,
  spawnApp,
  type AppExit,
  type Expectation,
  type PrivatePm2,
} from './lib/apps'
import { peakRssOf, recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'
import { suiteTempDir } from '../helpers/temp-dir'

const app = join(fixtures, 'alert-exit-app.js')
const RUNS = 10
const PM2_APPS = 8

let sandbox: SandboxProcess
const dir = suiteTempDir('drill-exit')
let pm2: PrivatePm2 | undefined

beforeAll(async () => {
  sandbox = await startSandboxProcess()
})

afterAll(async () => {
  await pm2?.kill()
  await sandbox?.close()
})

/** The run's environment and what it must leave at the sandbox. */
function runOf(
  kind: string,
  i: number,
  mode: 'exit' | 'throw' | 'wait',
): { env: NodeJS.ProcessEnv; expectation: Expectation } {
  const run = `${kind}-${i}`
  const multi = i % 2 === 1
  return {
    env: {
      ...apiEnv(sandbox.api),
      DRILL_MODE: mode,
      DRILL_RUN: run,
      DRILL_VARIANT: multi ? 'multi' : 'single',
      DRILL_PENDING: i % 4 < 2 ? '1' : '0',
      DRILL_MARKS: dir,
    },
    expectation: { needle: `drill ${run} failed`, kinds: multi ? ['sms', 'chat', 'lead'] : ['sms'] },
  }
}

function exitText(exits: readonly AppExit[]): string {
  const counts = new Map<string, number>()
  for (const exit of exits) {
    const key = exit.signal ?? `code ${exit.code}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, n]) => `${n}x ${key}`).join(', ')
}

/** The stderr of each app whose alerts are missing, so a failure says why. */
function diagnostics(missing: readonly string[], stderrOf: (needle: string) => string): string {
  const needles = [...new Set(missing.map((m) => m.slice(m.indexOf(':') + 1)))]
  return needles.map((needle) => `--- ${needle} stderr:\n${stderrOf(needle).slice(-2000)}`).join('\n')
}

describe('app exit: every alert arrives', () => {
  const direct: {
    name: string
    kind: string
    mode: 'exit' | 'throw' | 'wait'
    signal?: NodeJS.Signals
    expected: Partial<AppExit>
  }[] = [
    {
      name: 'process.exit(1) right after the log call',
      kind: 'exit',
      mode: 'exit',
      expected: { code: 1, signal: null },
    },
    {
      name: 'uncaught exception right after the log call',
      kind: 'throw',
      mode: 'throw',
      expected: { code: 1, signal: null },
    },
    {
      name: 'kill -TERM (no listener in the app)',
      kind: 'term',
      mode: 'wait',
      signal: 'SIGTERM',
      expected: { code: null, signal: 'SIGTERM' },
    },
    {
      name: 'kill -INT (no listener in the app)',
      kind: 'int',
      mode: 'wait',
      signal: 'SIGINT',
      expected: { code: null, signal: 'SIGINT' },
    },
  ]

  for (const { name, kind, mode, signal, expected } of direct) {
    test(name, async ({ task }) => {
      const started = Date.now()
      const expectations: Expectation[] = []
      const exits: AppExit[] = []
      const stderrOf = new Map<string, string>()
      let peak = 0
      await inBatches(RUNS, 3, async (i) => {
        const { env, expectation } = runOf(kind, i, mode)
        expectations.push(expectation)
        const child = spawnApp(app, [], env, { stdout: 'ignore' })
        try {
          if (signal !== undefined) {
            await markOf(dir, `${kind}-${i}.logged`, child)
            peak = Math.max(peak, peakRssOf(child.child.pid!) ?? 0)
            child.child.kill(signal)
          }
          const exit = await child.exited
          exits.push(exit)
          stderrOf.set(expectation.needle, exit.stderr)
        } finally {
          child.child.kill('SIGKILL')
        }
      })
      const count = await awaitAlerts(sandbox.api.baseUrl, expectations)
      recordDrill(task, {
        drill: `app exit: ${kind}`,
        events: count.expected,
        unit: 'alerts',
        lost: count.lost,
        duplicated: count.duplicated,
        peakRssMb: peak > 0 ? peak : undefined,
        timeMs: Date.now() - started,
        notes: `${RUNS} runs (half multi-target, half held in group_wait); exits: ${exitText(exits)}`,
      })
      expect(
        count.missing,
        diagnostics(count.missing, (needle) => stderrOf.get(needle) ?? ''),
      ).toEqual([])
      expect(count.duplicated).toBe(0)
      // The exit itself is unchanged by logx: same code, or death by the same signal.
      for (const exit of exits) expect({ code: exit.code, signal: exit.signal }).toEqual(expected)
    })
  }

  const underPm2: {
    name: string
    kind: string
    command: 'stop' | 'delete'
    signal: NodeJS.Signals
    final: string | undefined
  }[] = [
    { name: 'pm2 stop, kill_signal SIGTERM', kind: 'pm2-term', command: 'stop', signal: 'SIGTERM', final: 'stopped' },
    {
      name: 'pm2 delete, default kill_signal SIGINT',
      kind: 'pm2-int',
      command: 'delete',
      signal: 'SIGINT',
      final: undefined,
    },
  ]

  for (const { name, kind, command, signal, final } of underPm2) {
    test(name, async ({ task }) => {
      const started = Date.now()
      pm2 ??= createPrivatePm2(dir)
      const runs = Array.from({ length: PM2_APPS }, (_, i) => ({ name: `${kind}-${i}`, ...runOf(kind, i, 'wait') }))
      await pm2.start(
        app,
        runs.map((r) => ({ name: r.name, env: r.env })),
        { killSignal: signal, killTimeoutMs: 8000 },
      )
      for (const r of runs) await markOf(dir, `${r.name}.logged`)
      const before = await pm2.statuses()
      await pm2.cli(command, ...runs.map((r) => r.name))
      const after = await pollUntil(`pm2 to ${command} every app`, async () => {
        const statuses = await pm2!.statuses()
        return runs.every((r) => statuses.get(r.name) === final) ? statuses : undefined
      })
      const count = await awaitAlerts(
        sandbox.api.baseUrl,
        runs.map((r) => r.expectation),
      )
      recordDrill(task, {
        drill: `app exit: ${kind}`,
        events: count.expected,
        unit: 'alerts',
        lost: count.lost,
        duplicated: count.duplicated,
        timeMs: Date.now() - started,
        notes: `${PM2_APPS} apps under pm2 ${command} (${signal}); online before: ${runs.filter((r) => before.get(r.name) === 'online').length}`,
      })
      expect(
        count.missing,
        diagnostics(count.missing, (needle) => pm2!.errorLog(needle.split(' ')[1] ?? '')),
      ).toEqual([])
      expect(count.duplicated).toBe(0)
      expect(runs.every((r) => after.get(r.name) === final)).toBe(true)
    })
  }
})
