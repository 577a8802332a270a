// The agent as a real child process on the embedded sandbox: JSON and plain-text error lines, both
// kinds of rotation mid-stream, metrics and health, the single-instance lock, reload (invalid
// rejected, valid applied, SIGHUP), graceful stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  truncateSync,
  writeSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import {
  createWorkspace,
  messagingYaml,
  metric,
  records,
  recordsWhen,
  smsTexts,
  spawnAgent,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

function config(
  ws: Workspace,
  level: string,
  { legacyPaths = `${ws.logs}/legacy/*.txt`, more = '', metricsListen = '127.0.0.1:0' } = {},
): string {
  return `${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    format: auto
    start_at: beginning
  - name: legacy
    paths: [${legacyPaths}]
    format: text
    sync_reads: false   # this source reads on the thread pool, the other on the agent's thread
${more}channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
  team-chat: { type: chat, numbers: ["+919800000002"], template_id: 101 }
rules:
  - name: errors
    level: ${level}
    notify: [oncall-sms, team-chat]
    incident: true
metrics: { listen: ${metricsListen} }
`
}

const json = (level: number, msg: string): string => `${JSON.stringify({ level, time: Date.now(), msg })}\n`
// Real logs are longer than the 256 bytes that identify a file (and recognise its copy); each file
// here starts with its own long startup line, as an app's log does.
const banner = (file: string): string => json(30, `${file} started ${'.'.repeat(300)}`)
const countOf = (texts: string[], word: string): number => texts.filter((t) => t.includes(word)).length

describe('logx-agent run (embedded sandbox)', () => {
  let ws: Workspace
  let agent: RunningAgent

  beforeAll(async () => {
    ws = createWorkspace()
    mkdirSync(join(ws.logs, 'legacy'), { recursive: true })
    ws.writeConfig(config(ws, 'error'))
    agent = await startAgentProcess(ws.config)
  })

  afterAll(async () => {
    await agent?.kill('SIGKILL')
    ws?.remove()
  })

  it('pages once per incident for JSON and plain-text lines, through both kinds of rotation', async () => {
    const app = join(ws.logs, 'app.log')
    appendFileSync(app, banner('first') + json(30, 'request served') + json(50, 'alpha failed'))
    await recordsWhen(agent.baseUrl, 'alpha', (all) => countOf(smsTexts(all), 'alpha') === 1)

    // rename-and-create: the app still holds the old file open and writes to it once more.
    const old = openSync(app, 'a')
    renameSync(app, join(ws.logs, 'app.log.1'))
    writeSync(old, json(50, 'bravo failed'))
    closeSync(old)
    appendFileSync(
      app,
      banner('second') +
        json(50, 'charlie failed') +
        '2026-11-22 10:00:00 ERROR foxtrot broke\n2026-11-22 10:00:01 INFO all good\n',
    )
    await recordsWhen(agent.baseUrl, 'bravo, charlie, foxtrot', (all) =>
      ['bravo', 'charlie', 'foxtrot'].every((w) => countOf(smsTexts(all), w) === 1),
    )

    // copy-and-truncate, pm2-logrotate's way: the copy matches the glob too.
    appendFileSync(app, json(50, 'delta failed'))
    copyFileSync(app, join(ws.logs, 'app__2026-11-22.log'))
    truncateSync(app, 0)
    appendFileSync(app, banner('third') + json(60, 'echo crashed') + '{"level":50,"msg":"torn li\n')
    appendFileSync(join(ws.logs, 'legacy', 'old.txt'), '[error] golf broke\n[info] hotel fine\n')
    await recordsWhen(agent.baseUrl, 'delta, echo, golf, torn', (r) =>
      ['delta', 'echo', 'golf', 'torn li'].every((w) => countOf(smsTexts(r), w) >= 1),
    )
    await pollUntil('an empty outbox', async () =>
      (await metric(agent.metricsUrl, 'logx_agent_outbox_depth')) === 0 ? true : undefined,
    )
    // The torn JSON line is counted, and still alerts: read as plain text, its head names the level.
    await pollUntil('the parse error', async () =>
      (await metric(agent.metricsUrl, 'logx_agent_parse_errors_total')) === 1 ? true : undefined,
    )

    const final = await records(agent.baseUrl)
    const texts = smsTexts(final)
    for (const word of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'torn li'])
      expect(countOf(texts, word), word).toBe(1)
    expect(texts).toHaveLength(8)
    expect(texts.some((t) => t.includes('all good') || t.includes('hotel') || t.includes('request served'))).toBe(false)
    expect(final.filter((r) => r.kind === 'chat')).toHaveLength(8)
    const leads = final.filter((r) => r.kind === 'lead')
    expect(leads).toHaveLength(8)
    // Per lead: the opening note, then one MESSAGE per channel sent.
    const activities = final.filter((r) => r.kind === 'activity')
    expect(activities).toHaveLength(24)
    expect(activities.filter((a) => a.record.activity_type === 'NOTE')).toHaveLength(8)
    // The CRM calls are keyed by outbox item (<id>:lead, <id>:activity), each call its own key; a
    // sent message's activity by its message's key, so a resent message would repeat it.
    const keyOf = (r: { record: Record<string, unknown> }): string => String(r.record.idempotency_key)
    expect(leads.every((l) => /^.+:lead$/.test(keyOf(l)))).toBe(true)
    expect(activities.every((a) => /^.+:activity$/.test(keyOf(a)))).toBe(true)
    expect(new Set([...leads, ...activities].map(keyOf)).size).toBe(32)
    const messageKeys = final.filter((r) => r.kind === 'sms' || r.kind === 'chat').map(keyOf)
    expect(
      activities
        .filter((a) => a.record.activity_type === 'MESSAGE')
        .map(keyOf)
        .sort(),
    ).toEqual(messageKeys.map((k) => `${k}:activity`).sort())

    expect(await metric(agent.metricsUrl, 'logx_agent_matches_total')).toBe(8)
    // Whether a rename is seen as a rotation or as a release plus a new file depends on event order.
    const rotations =
      (await metric(agent.metricsUrl, 'logx_agent_rotations_total')) +
      (await metric(agent.metricsUrl, 'logx_agent_truncations_total'))
    expect(rotations).toBeGreaterThanOrEqual(1)
    expect(await metric(agent.metricsUrl, 'logx_agent_notifications_sent_total')).toBeGreaterThanOrEqual(16)
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total')).toBeGreaterThanOrEqual(14)
    const health = await fetch(`${agent.metricsUrl}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ ok: true })
  })

  it('a second agent on the same state directory exits with a clear message', async () => {
    const second = spawnAgent(['run', '--config', ws.config])
    expect(await second.exited).toBe(1)
    expect(second.errors()).toMatch(/another logx-agent \(pid \d+\) is already running on state directory/)
  })

  it('rejects an invalid config on reload and keeps running; applies a valid one; reloads on SIGHUP', async () => {
    const app = join(ws.logs, 'app.log')
    ws.writeConfig(config(ws, 'eror'))
    await pollUntil('the rejection', () => (/config reload rejected/.test(agent.errors()) ? true : undefined))
    expect(agent.errors()).toMatch(/agent\.yaml:\d+:\d+ rules\[0\]\.level/)
    appendFileSync(app, json(50, 'india failed'))
    await recordsWhen(agent.baseUrl, 'india', (all) => countOf(smsTexts(all), 'india') === 1)

    ws.writeConfig(config(ws, 'fatal'))
    await pollUntil('the reload', async () =>
      (await metric(agent.metricsUrl, 'logx_agent_config_reloads_total')) >= 1 ? true : undefined,
    )
    appendFileSync(app, json(50, 'juliet failed') + json(60, 'kilo crashed'))
    const all = await recordsWhen(agent.baseUrl, 'kilo', (r) => countOf(smsTexts(r), 'kilo') === 1)
    expect(countOf(smsTexts(all), 'juliet')).toBe(0)
    // The incident that paged before the reload is not paged again by the new engine.
    appendFileSync(app, json(60, 'echo crashed') + json(60, 'lima crashed'))
    const after = await recordsWhen(agent.baseUrl, 'lima', (r) => countOf(smsTexts(r), 'lima') === 1)
    expect(countOf(smsTexts(after), 'echo')).toBe(1)

    const before = await metric(agent.metricsUrl, 'logx_agent_config_reloads_total')
    agent.child.kill('SIGHUP')
    await pollUntil('the SIGHUP reload', async () =>
      (await metric(agent.metricsUrl, 'logx_agent_config_reloads_total')) > before ? true : undefined,
    )
  })

  it('starts an added source, restarts a changed one from its checkpoint, and stops a removed one on reload', async () => {
    const app = join(ws.logs, 'app.log')
    const extra = join(ws.logs, 'extra', 'worker.log')
    mkdirSync(join(ws.logs, 'extra'))
    appendFileSync(extra, banner('worker') + json(60, 'mike crashed'))
    const reloads = async (): Promise<number> => metric(agent.metricsUrl, 'logx_agent_config_reloads_total')
    const reloaded = async (after: number): Promise<void> => {
      await pollUntil('the reload', async () => ((await reloads()) > after ? true : undefined))
    }

    let count = await reloads()
    ws.writeConfig(
      config(ws, 'fatal', {
        legacyPaths: `"${ws.logs}/legacy/*.{txt,log}"`,
        more: `  - name: extra\n    paths: [${ws.logs}/extra/*.log]\n    start_at: beginning\n`,
      }),
    )
    await reloaded(count)
    // Added: its file is read from the start. Changed: it goes on from its checkpoint (old.txt's
    // earlier lines are not read again) and reads the files its new paths take in.
    appendFileSync(join(ws.logs, 'legacy', 'old.txt'), '[fatal] oscar broke\n')
    appendFileSync(join(ws.logs, 'legacy', 'new.log'), '[fatal] november broke\n')
    await recordsWhen(agent.baseUrl, 'mike, november, oscar', (r) =>
      ['mike', 'november', 'oscar'].every((w) => countOf(smsTexts(r), w) === 1),
    )
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total{source="legacy"}')).toBe(2)
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total{source="extra"}')).toBe(2)

    count = await reloads()
    ws.writeConfig(config(ws, 'fatal'))
    await reloaded(count)
    appendFileSync(extra, json(60, 'papa crashed'))
    appendFileSync(app, json(60, 'quebec crashed'))
    const all = await recordsWhen(agent.baseUrl, 'quebec', (r) => countOf(smsTexts(r), 'quebec') === 1)
    expect(countOf(smsTexts(all), 'papa')).toBe(0)
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total{source="extra"}')).toBe(0)
    expect(agent.output()).toContain('"msg":"source removed: no longer read (its checkpoint is kept)"')
  })

  it('moves /metrics to a new address on reload, and keeps it where it is when the new one is taken', async () => {
    const freePort = async (): Promise<number> => {
      const probe = createServer()
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
      const { port } = probe.address() as AddressInfo
      await new Promise((resolve) => probe.close(resolve))
      return port
    }
    const oldUrl = agent.metricsUrl
    const port = await freePort()
    const count = await metric(oldUrl, 'logx_agent_config_reloads_total')
    ws.writeConfig(config(ws, 'fatal', { metricsListen: `127.0.0.1:${port}` }))
    await pollUntil('metrics at the new address', () =>
      agent.output().includes(`metrics now at http://127.0.0.1:${port}/metrics`) ? true : undefined,
    )
    agent.metricsUrl = `http://127.0.0.1:${port}`
    expect(await metric(agent.metricsUrl, 'logx_agent_config_reloads_total')).toBe(count + 1)
    await expect(fetch(`${oldUrl}/metrics`)).rejects.toThrow()

    // A taken address: the reload applies the rest, and /metrics stays where it is.
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const takenPort = (taken.address() as AddressInfo).port
      ws.writeConfig(config(ws, 'fatal', { metricsListen: `127.0.0.1:${takenPort}` }))
      await pollUntil('the reload', async () =>
        (await metric(agent.metricsUrl, 'logx_agent_config_reloads_total')) === count + 2 ? true : undefined,
      )
      expect(agent.output()).toContain(`metrics stay at http://127.0.0.1:${port}`)
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })

  it('stops on SIGTERM: drains, writes its checkpoint, releases the lock, exits 0', async () => {
    expect(await agent.kill('SIGTERM')).toBe(0)
    expect(agent.output()).toContain('logx-agent stopped')
    expect(agent.output()).toContain('"msg":"stopped; outbox empty"')
    expect(existsSync(join(ws.state, 'checkpoints', 'app.json'))).toBe(true)
    expect(existsSync(join(ws.state, 'agent.lock'))).toBe(false)
  })
})
