// The agent under a real pm2 (devDependency), with PM2_HOME and the agent's config in a temp
// directory so nothing collides with a pm2 or an agent already running here: `pm2 start
// ecosystem.config.js` waits for the agent's ready (wait_ready), the agent alerts, `pm2 stop` stops
// it through SIGINT with a drained outbox, `pm2 kill` leaves no daemon behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createWorkspace, messagingYaml, recordsWhen, root, smsTexts, type Workspace } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const run = promisify(execFile)
const pm2Bin = join(root, 'node_modules', 'pm2', 'bin', 'pm2')

describe('pm2 start ecosystem.config.js', () => {
  let ws: Workspace
  let env: NodeJS.ProcessEnv

  const pm2 = (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
    run(process.execPath, [pm2Bin, ...args], { cwd: root, env, timeout: 60_000 })
  const outLog = (): string => {
    const file = join(ws.dir, 'pm2', 'logs', 'logx-agent-out.log')
    return existsSync(file) ? readFileSync(file, 'utf8') : ''
  }

  beforeAll(() => {
    ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
metrics: { listen: 127.0.0.1:0 }
`)
    env = { ...process.env, PM2_HOME: join(ws.dir, 'pm2'), LOGX_CONFIG: ws.config }
  })

  afterAll(async () => {
    await pm2('kill').catch(() => {})
    ws?.remove()
  })

  it('starts once the agent is ready, alerts, stops cleanly on pm2 stop, and pm2 kill ends the daemon', async () => {
    await pm2('start', 'ecosystem.config.js')
    const list = JSON.parse((await pm2('jlist')).stdout) as {
      name: string
      pm2_env: { status: string; restart_time: number }
    }[]
    expect(list.map((p) => [p.name, p.pm2_env.status])).toEqual([['logx-agent', 'online']])

    const inbox = await pollUntil('the banner in the pm2 out log', () => /inbox URL: (\S+?)\/?$/m.exec(outLog())?.[1])
    appendFileSync(join(ws.logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'oscar failed under pm2' })}\n`)
    await recordsWhen(inbox, 'oscar', (all) => smsTexts(all).some((t) => t.includes('oscar')))

    await pm2('stop', 'logx-agent')
    const stopped = JSON.parse((await pm2('jlist')).stdout) as { pm2_env: { status: string; restart_time: number } }[]
    expect(stopped[0]?.pm2_env.status).toBe('stopped')
    expect(stopped[0]?.pm2_env.restart_time).toBe(0)
    await pollUntil('the stop message in the out log', () =>
      outLog().includes('logx-agent stopped') ? true : undefined,
    )
    expect(outLog()).toContain('"msg":"stopped; outbox empty"')
    expect(existsSync(join(ws.state, 'agent.lock'))).toBe(false)

    const daemonPid = Number(readFileSync(join(ws.dir, 'pm2', 'pm2.pid'), 'utf8'))
    await pm2('kill')
    await pollUntil('the pm2 daemon to exit', () => {
      try {
        process.kill(daemonPid, 0)
        return undefined
      } catch {
        return true
      }
    })
  }, 90_000)
})
