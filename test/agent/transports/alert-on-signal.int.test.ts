// An app with an alert target, stopped by SIGTERM or SIGINT (kill, Ctrl-C, pm2 stop) while its alert
// is still held by the target (group_wait): the alert is sent before the signal ends the process,
// and the process still dies of that signal. Node's default for these signals skips 'exit', so
// before logx ended the transport on them, this alert was lost every time.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useRemoteSandbox } from './helpers'

const app = join(__dirname, '..', '..', 'fixtures', 'drills', 'alert-exit-app.js')
const ctx = useRemoteSandbox('logx-signal-alert-', { resetEach: false })
const { tmp: marks } = ctx

describe('alert target in an app stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: the held alert is delivered, then the app dies of the signal',
    async (signal) => {
      const run = `signal-${signal}`
      const child = spawn(process.execPath, [app], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          LOGX_MESSAGING_URL: ctx.sandbox.info.baseUrl,
          LOGX_API_KEY: ctx.sandbox.apiKey,
          DRILL_MODE: 'wait',
          DRILL_RUN: run,
          DRILL_PENDING: '1',
          DRILL_MARKS: marks,
        },
      })
      const exited = once(child, 'exit')
      try {
        const deadline = Date.now() + 15_000
        while (!existsSync(join(marks, `${run}.logged`))) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error('the app did not log')
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        child.kill(signal)
        const [code, by] = await exited
        expect({ code, by }).toEqual({ code: null, by: signal })
        const sms = await ctx.sandbox.waitFor('sms', 1)
        expect(sms.map((r) => r.sms)).toContain(`FIRING drill ${run} failed (1x, held)`)
      } finally {
        child.kill('SIGKILL')
      }
    },
  )
})
