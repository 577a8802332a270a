// The digest end to end: the agent sends the digest its slot owes at start through its real outbox
// to its embedded sandbox; and a digest of many kinds, made by the agent's own functions and sent as
// the mail channel sends it, is looked at in a real Chromium: in the sandbox's web inbox, then its
// HTML body rendered as a mail client would (no request leaves the page), tables and bars measured.
// Screenshots go to test-results/digest/ (inbox.png, mail.png) for a person to look at.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { digestOf, type KindEntry } from '../../../alerts/kinds'
import { readAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { startAgent } from '../../../agent/daemon/agent'
import { DIGEST_STATE_FILE } from '../../../agent/daemon/digest-state'
import { digestDeliveries } from '../../../agent/daemon/digest-messages'
import { DAY_MS } from '../../../agent/daemon/digest-plan'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { buildChannelRequests } from '../../../agent/delivery/channels'
import { createMessagingClient, type SendMailInput } from '../../../agent/messaging'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { launchChromium, type LaunchedChromium } from '../../helpers/browser'
import { pollUntil } from '../../helpers/poll-until'
import { suiteTempDir } from '../../helpers/temp-dir'
import { records, root, type SandboxRecord } from './helpers'

const H = 3_600_000
/** 09:00 in Asia/Kolkata on 2026-12-02. */
const NINE = Date.UTC(2026, 11, 2, 3, 30)
const ARTEFACTS = join(root, 'test-results', 'digest')
const dir = suiteTempDir('digest-inbox')

const DIGEST = 'digest: { every: 1d, at: "09:00", time_zone: Asia/Kolkata, notify: team-mail }'

async function loadConfig(state = 'state', digest = DIGEST): Promise<AgentConfig> {
  const file = join(dir, `${state}.yaml`)
  writeFileSync(
    file,
    `messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${join(dir, state)}
sources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]
channels:
  team-mail: { type: mail, from: logx@example.com, to: ops@example.com, format: html }
${digest}
`,
  )
  const loaded = await readAgentConfig(file, { env: {} })
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
  return loaded.config
}

/** Kinds of a busy day: counts rising through it, two new, one back after its resolve. */
function busyDay(): KindEntry[] {
  const templates = [
    'Connection refused to <*>:<*> (pool "orders" & <*> retries)',
    'TypeError: Cannot read properties of undefined (reading <*>) at <*>',
    'upstream timed out (110: Connection timed out) while reading response header from upstream, client: <*>',
    'disk usage <*>% on <*> > 90% threshold',
    'payment <*> declined: card <*> "insufficient funds"',
  ]
  return templates.map((template, i) => ({
    id: `kind-${i}`,
    source: i % 2 === 0 ? 'app' : 'nginx',
    template,
    aliases: [],
    level: i === 3 ? 40 : 50,
    firstSeen: i < 2 ? NINE - (20 - i) * H : NINE - 9 * DAY_MS,
    lastSeen: NINE - H,
    lastResolved: i === 4 ? NINE - 30 * H : undefined,
    count: 1000,
    hourly: Array.from({ length: 24 }, (_, h): [number, number] => [
      Math.floor((NINE - DAY_MS) / H) * H + h * H,
      (h * (i + 1)) % 17,
    ]),
    hosts: ['web-1', 'web-2'],
    sample: '',
    incident: undefined,
    learned: false,
  }))
}

describe('the digest in the sandbox inbox', () => {
  let sandbox: Sandbox
  let browser: LaunchedChromium | undefined
  let config: AgentConfig

  beforeAll(async () => {
    config = await loadConfig()
    sandbox = await startSandbox()
    browser = await launchChromium()
    mkdirSync(ARTEFACTS, { recursive: true })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await sandbox?.close()
  })

  /** A state_dir whose last digest covered up to yesterday's 09:00. */
  function stateOwingOne(name: string): void {
    const state = join(dir, name)
    mkdirSync(state, { recursive: true, mode: 0o700 })
    const covered = { version: 1, covered: NINE - DAY_MS, sentAt: NINE - DAY_MS }
    writeFileSync(join(state, DIGEST_STATE_FILE), JSON.stringify(covered), { mode: 0o600 })
  }

  async function digestMails(baseUrl: string): Promise<SandboxRecord[]> {
    return pollUntil('the digest mail in the sandbox', async () => {
      const found = await records(baseUrl, 'mail')
      return found.length > 0 ? found : undefined
    })
  }

  it('the agent sends the digest its slot owes at start through its outbox, once', async () => {
    stateOwingOne('state')
    const skew = NINE + 1000 - Date.now()
    const log = createAgentLogger({ level: 'silent' })
    const agent = await startAgent(config, { log, now: () => Date.now() + skew })
    try {
      const mails = await digestMails(agent.endpoint.baseUrl)
      expect(mails).toHaveLength(1)
      expect(String(mails[0]?.record.subject)).toMatch(/^logx digest on .+: 0 new kinds, 0 regressed, 0 events/)
      expect(String(mails[0]?.record.message)).toContain('2026-12-01 09:00 to 2026-12-02 09:00 (Asia/Kolkata)')
    } finally {
      await agent.stop(5000)
    }
  }, 60_000)

  it('a reload that adds digest: plans it at once', async () => {
    stateOwingOne('reloaded')
    const skew = NINE + 1000 - Date.now()
    const log = createAgentLogger({ level: 'silent' })
    const agent = await startAgent(await loadConfig('reloaded', ''), { log, now: () => Date.now() + skew })
    try {
      expect(await records(agent.endpoint.baseUrl, 'mail')).toEqual([])
      expect(await agent.apply(await loadConfig('reloaded'))).toEqual([])
      const mails = await digestMails(agent.endpoint.baseUrl)
      expect(String(mails[0]?.record.subject)).toMatch(/^logx digest on /)
    } finally {
      await agent.stop(5000)
    }
  }, 60_000)

  it('shows in the inbox, and its HTML renders its tables and bars with nothing fetched', async () => {
    const told = digestOf(busyDay(), [], { from: NINE - DAY_MS, to: NINE })
    const [delivery] = digestDeliveries(
      told,
      { timeZone: 'Asia/Kolkata', host: 'web-1' },
      { notify: ['team-mail'], channels: config.channels, secrets: [] },
    )
    const channel = config.channels.find((c) => c.name === 'team-mail')
    if (delivery === undefined || channel === undefined) throw new Error('no mail delivery')
    const [request] = buildChannelRequests(channel, delivery)
    const client = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey })
    await client.sendMail(request?.request as SendMailInput)
    await client.close()

    const page = browser!.page
    await page.goto(sandbox.info.inboxUrl)
    await page.locator('body[data-loaded="true"]').waitFor()
    const item = page.locator('li.message[data-kind="mail"]')
    await item.waitFor()
    expect(await item.textContent()).toContain('logx digest on web-1: 2 new kinds, 1 regressed')
    await page.screenshot({ path: join(ARTEFACTS, 'inbox.png') })

    const [mail] = await records(sandbox.info.baseUrl, 'mail')
    const html = String(mail?.record.message)
    const view = await browser!.context.newPage()
    const fetched: string[] = []
    await view.route('**/*', (route) => {
      fetched.push(route.request().url())
      return route.abort()
    })
    await view.setViewportSize({ width: 760, height: 900 })
    await view.setContent(html)
    const sections = await view.evaluate(
      '[...document.querySelectorAll("table[data-section]")].map((t) => [t.dataset.section, t.rows.length])',
    )
    expect(sections).toEqual([
      ['summary', 1],
      ['new', 3],
      ['top', 6],
      ['regressed', 2],
    ])
    // The first top kind's bar: 24 hourly cells, each div as tall as its count's share of the busiest.
    const bar = (await view.evaluate(
      '[...document.querySelectorAll("table[data-section=top] tr:nth-child(2) div[data-count]")]' +
        '.map((d) => [Number(d.dataset.count), d.getBoundingClientRect().height])',
    )) as [number, number][]
    expect(bar).toHaveLength(24)
    const tallest = Math.max(...bar.map(([, height]) => height))
    expect(tallest).toBe(24)
    for (const [count, height] of bar) if (count > 0) expect(height).toBeGreaterThan(1)
    const width = (await view.evaluate('document.querySelector("table[data-section=top]").offsetWidth')) as number
    expect(width).toBeGreaterThan(500)
    expect(fetched).toEqual([])
    await view.screenshot({ path: join(ARTEFACTS, 'mail.png'), fullPage: true })
    await view.close()
  }, 60_000)
})
