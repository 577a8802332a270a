// The console page in a real Chromium (test/helpers/browser.ts), against the fake backend: it lists
// incidents, acks one (the backend sees who and how), silences a rule and expires the silence,
// follows changes by polling, shows a hostile title as text, shows who is on call on each
// schedule's own clock. It gets in with the one-time login URL (the session in memory only), or asks
// for a token.

import type { Page } from 'playwright-core'
import type { ScheduleView } from '../../../../agent/daemon/console/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, type LaunchedChromium } from '../../../helpers/browser'
import { createConsoleLogins } from '../../../../agent/daemon/console/logins'
import { createFakeBackend, incident, OPS_SCHEDULE } from './fake-backend'
import { startConsole, TOKEN, type ConsoleServer } from './server'

const XSS_TITLE = '<img src=x onerror="window.__xss = 1">query failed'
const FIRING = 'errors:0a1b2c3d4e5f60'
const ACKED = 'db:77aa00112233'
const HOSTILE = 'errors:ffee00998877'

let c: ConsoleServer
let browser: LaunchedChromium | undefined
let page: Page
const cspViolations: string[] = []
const logins = createConsoleLogins()
/** A fresh one-time login URL, as `logx-agent console` prints it. */
const loginUrl = (): string => `${c.server.url}/#login=${logins.issueCode(Date.now()).code}`

const row = (id: string) => page.locator(`#incidents tbody tr[data-id="${id}"]`)

beforeAll(async () => {
  const backend = createFakeBackend()
  backend.put(
    incident(FIRING, {
      title: 'checkout query failed',
      lastSeen: 1_700_000_050_000,
      paged: ['asha', 'ravi'],
      hosts: [
        { agent: 'web-1', count: 120, last: 1_700_000_050_000 },
        { agent: 'web-2', count: 3, last: 1_700_000_020_000 },
      ],
    }),
  )
  backend.put(
    incident(ACKED, {
      rule: 'db',
      title: 'db pool exhausted',
      lastSeen: 1_700_000_040_000,
      state: 'acknowledged',
      ack: { by: 'ravi', via: 'missed_call', at: 1_700_000_040_000 },
    }),
  )
  backend.put(incident(HOSTILE, { title: XSS_TITLE, lastSeen: 1_700_000_010_000 }))
  backend.putSilence({
    id: 'cfg-1',
    matchers: { rule: 'noisy' },
    startsAt: 0,
    endsAt: Date.now() + 86_400_000,
    comment: 'from YAML',
    createdBy: undefined,
    origin: 'config',
  })
  backend.putSchedules([OPS_SCHEDULE])
  c = await startConsole({ generated: true, logins }, backend)
  browser = await launchChromium()
  page = browser.page
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
  })
  await page.goto(loginUrl())
  await page.locator('body[data-loaded="true"]').waitFor()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await c?.server.close()
})

describe('console page', () => {
  it('lists the open incidents, the one seen last first, with who was paged and who acked', async () => {
    await expect(
      page.locator('#incidents tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
    ).resolves.toEqual([FIRING, ACKED, HOSTILE])
    await expect(row(FIRING).textContent()).resolves.toContain('checkout query failed')
    await expect(row(FIRING).textContent()).resolves.toContain('asha, ravi')
    await expect(row(ACKED).locator('.acked-by').textContent()).resolves.toBe('ravi (missed_call)')
    await expect(page.locator('#incident-count').textContent()).resolves.toBe('3 of 3')
  })

  it('in a fleet, shows which agents saw each incident and how many lines each', async () => {
    await expect(row(FIRING).locator('td.hosts').textContent()).resolves.toBe('web-1 \u00d7120, web-2 \u00d73')
    // A lone agent's incident names no hosts.
    await expect(row(ACKED).locator('td.hosts').textContent()).resolves.toBe('')
  })

  it('shows a title made of markup as text, and runs none of it', async () => {
    await expect(row(HOSTILE).locator('td.title').textContent()).resolves.toBe(XSS_TITLE)
    await expect(page.locator('#incidents img').count()).resolves.toBe(0)
    await row(HOSTILE).click()
    await page.locator(`#detail[data-id="${HOSTILE}"]`).waitFor()
    await expect(page.locator('#detail-title').textContent()).resolves.toBe(XSS_TITLE)
    await expect(page.locator('img').count()).resolves.toBe(0)
    await expect(page.evaluate('typeof window.__xss')).resolves.toBe('undefined')
  })

  it('filters by state', async () => {
    await page.locator('#state-filter').selectOption('acknowledged')
    await expect(
      page.locator('#incidents tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
    ).resolves.toEqual([ACKED])
    await expect(page.locator('#incident-count').textContent()).resolves.toBe('1 of 1')
    await page.locator('#state-filter').selectOption('')
    // The list comes back from the server with the filter gone.
    await page.locator('#incidents tbody tr').nth(2).waitFor()
    await expect(page.locator('#incident-count').textContent()).resolves.toBe('3 of 3')
  })

  it('acks an incident as the person chosen, and shows the new state and timeline', async () => {
    await page.locator('#by-person').selectOption('asha')
    await row(FIRING).click()
    await page.locator(`#detail[data-id="${FIRING}"][data-state="firing"]`).waitFor()
    await expect(page.locator('#unack').isDisabled()).resolves.toBe(true)
    await page.locator('#ack').click()
    await page.locator(`#incidents tbody tr[data-id="${FIRING}"][data-state="acknowledged"]`).waitFor()
    expect(c.backend.actions).toEqual([{ id: FIRING, action: 'ack', by: 'asha', via: 'console' }])
    await expect(row(FIRING).locator('.acked-by').textContent()).resolves.toBe('asha (console)')
    await page.locator(`#detail[data-state="acknowledged"]`).waitFor()
    await expect(page.locator('#timeline li[data-kind="acknowledged"]').textContent()).resolves.toContain('by asha')
    await expect(page.locator('#ack').isDisabled()).resolves.toBe(true)
  })

  it("silences the incident's rule for a duration with a comment, then expires the silence", async () => {
    await page.locator('#silence-duration').fill('2h')
    await page.locator('#silence-comment').fill('deploy <b>in progress</b>')
    await page.locator('#silence').click()
    const silence = page.locator('#silences tbody tr[data-origin="runtime"]')
    await silence.waitFor()
    expect(c.backend.added).toEqual([
      { matchers: { rule: 'errors' }, endsAt: expect.any(Number), comment: 'deploy <b>in progress</b>', by: 'asha' },
    ])
    const endsAt = c.backend.added[0]?.endsAt ?? 0
    expect(endsAt - Date.now()).toBeGreaterThan(7_000_000)
    await expect(silence.locator('.matchers').textContent()).resolves.toBe('rule=errors')
    await expect(silence.textContent()).resolves.toContain('deploy <b>in progress</b>')
    // The config's silence is listed, and cannot be expired from here.
    await expect(page.locator('#silences tbody tr[data-id="cfg-1"] button').count()).resolves.toBe(0)
    await silence.locator('button.expire').click()
    await silence.waitFor({ state: 'detached' })
    await expect(page.locator('#silences tbody tr').count()).resolves.toBe(1)
  })

  it('refuses a duration the grammar does not know, saying why', async () => {
    await page.locator('#silence-duration').fill('2 hours')
    await page.locator('#silence').click()
    await page.locator('#message.error', { hasText: 'duration: must be a duration like' }).waitFor()
  })

  it('shows what changed in the backend at its next poll, without a reload', async () => {
    c.backend.put(incident('api:123456789abc', { title: 'new one from a poll', lastSeen: 1_700_000_090_000 }))
    await row('api:123456789abc').waitFor()
    await expect(page.locator('#incidents tbody tr').first().getAttribute('data-id')).resolves.toBe('api:123456789abc')
  })

  it('resolves an incident: it leaves the list', async () => {
    await row(FIRING).click()
    await page.locator(`#detail[data-id="${FIRING}"]`).waitFor()
    await page.locator('#resolve').click()
    await row(FIRING).waitFor({ state: 'detached' })
    await expect(page.locator('#detail').isHidden()).resolves.toBe(true)
    expect(c.backend.actions.at(-1)).toEqual({ id: FIRING, action: 'resolve', by: 'asha', via: 'console' })
  })

  it('took the code out of the address bar, and keeps the session in memory only', async () => {
    expect(page.url()).toBe(`${c.server.url}/`)
    await expect(page.evaluate('location.hash')).resolves.toBe('')
    await expect(page.evaluate('JSON.stringify(sessionStorage) + JSON.stringify(localStorage)')).resolves.not.toMatch(
      /login|session|token/,
    )
    expect(logins.size().sessions).toBe(1)
  })

  it('asks to log in again after a reload, and remembers the name across logins', async () => {
    await page.reload()
    await page.locator('#token-form').waitFor()
    await expect(page.locator('#incidents tbody tr').count()).resolves.toBe(0)
    await page.goto(loginUrl())
    await page.locator('body[data-loaded="true"]').waitFor()
    await page.locator('#by-person option[value="asha"]').waitFor({ state: 'attached' })
    await expect(page.locator('#by-person').inputValue()).resolves.toBe('asha')
    await page.locator('#by-person').selectOption('')
    await page.locator('#by-name').fill('night shift')
    await page.goto(loginUrl())
    await page.locator('body[data-loaded="true"]').waitFor()
    await expect(page.locator('#by-name').inputValue()).resolves.toBe('night shift')
  })

  it("shows who is on call in each layer, until when and the next handoffs, on the schedule's clock", async () => {
    const layer = (name: string) => page.locator(`#oncall tbody tr[data-schedule="ops"][data-layer="${name}"]`)
    await expect(page.locator('#oncall-section').isVisible()).resolves.toBe(true)
    await expect(layer('primary').locator('td.schedule').textContent()).resolves.toBe('opsAsia/Kolkata')
    await expect(layer('primary').locator('td.now .user').textContent()).resolves.toBe('ravi')
    await expect(layer('primary').locator('td.now .override').count()).resolves.toBe(1)
    await expect(layer('primary').locator('td.until').textContent()).resolves.toBe('Fri 2026-03-06 18:00')
    await expect(layer('primary').locator('ul.next li').allTextContents()).resolves.toEqual([
      'Fri 2026-03-06 18:00 meera',
      'Mon 2026-03-09 09:00 asha',
    ])
    await expect(layer('secondary').locator('td.now').textContent()).resolves.toBe('nobody')
    await expect(layer('secondary').locator('td.until').textContent()).resolves.toBe('Mon 2026-03-09 13:30')
    await expect(layer('secondary').locator('ul.next li').allTextContents()).resolves.toEqual([
      'Mon 2026-03-09 13:30 asha',
    ])
  })

  it('follows a handoff at its next poll', async () => {
    const [primary, secondary] = OPS_SCHEDULE.layers as [ScheduleView['layers'][number], ScheduleView['layers'][number]]
    const handedOver = {
      ...primary,
      now: { user: 'meera', until: Date.parse('2026-03-09T03:30:00Z'), override: false },
      next: primary.next.slice(1),
    }
    c.backend.putSchedules([{ ...OPS_SCHEDULE, layers: [handedOver, secondary] }])
    await page.locator('#oncall tbody tr[data-layer="primary"] td.now .user', { hasText: 'meera' }).waitFor()
    await expect(page.locator('#oncall tbody tr[data-layer="primary"] td.now .override').count()).resolves.toBe(0)
    await expect(page.locator('#oncall tbody tr[data-layer="primary"] td.until').textContent()).resolves.toBe(
      'Mon 2026-03-09 09:00',
    )
  })

  it('broke no rule of its Content-Security-Policy', () => {
    expect(cspViolations).toEqual([])
  })
})

describe('console page without a login code', () => {
  let tab: Page

  beforeAll(async () => {
    tab = await (browser as LaunchedChromium).context.newPage()
  })
  afterAll(async () => {
    await tab?.close()
  })

  it('shows the login/token form and no incident', async () => {
    await tab.goto(`${c.server.url}/`)
    await tab.locator('#token-form').waitFor()
    await expect(tab.locator('#status').textContent()).resolves.toBe('login needed')
    await expect(tab.locator('#incidents tbody tr').count()).resolves.toBe(0)
  })

  it('says a used code is refused, and asks to log in', async () => {
    const url = loginUrl()
    await tab.goto(url)
    await tab.locator('body[data-loaded="true"]').waitFor()
    const second = await (browser as LaunchedChromium).context.newPage()
    try {
      await second.goto(url)
      await second.locator('#message.error', { hasText: 'Login refused' }).waitFor()
      await second.locator('#token-form').waitFor()
      await expect(second.locator('#incidents tbody tr').count()).resolves.toBe(0)
    } finally {
      await second.close()
    }
  })
})

describe('console page with a configured token', () => {
  let guarded: ConsoleServer
  let tab: Page

  beforeAll(async () => {
    const backend = createFakeBackend()
    backend.put(incident(FIRING, { title: 'behind a token' }))
    guarded = await startConsole({ generated: false }, backend)
    tab = await (browser as LaunchedChromium).context.newPage()
    await tab.goto(`${guarded.server.url}/console`)
  }, 30_000)
  afterAll(async () => {
    await tab?.close()
    await guarded?.server.close()
  })

  it('asks for the token, keeps it for the session, and then shows the incidents', async () => {
    await tab.locator('#token-form').waitFor()
    await expect(tab.locator('#incidents tbody tr').count()).resolves.toBe(0)
    await tab.locator('#token').fill('not-the-token-at-all')
    await tab.locator('#token-form button').click()
    await tab.locator('#status', { hasText: 'wrong token' }).waitFor()
    await tab.locator('#token').fill(TOKEN)
    await tab.locator('#token-form button').click()
    await tab.locator(`#incidents tbody tr[data-id="${FIRING}"]`).waitFor()
    await expect(tab.locator('#token-form').isHidden()).resolves.toBe(true)
    await expect(tab.evaluate("sessionStorage.getItem('logx.console.token')")).resolves.toBe(TOKEN)
    await tab.reload()
    await tab.locator(`#incidents tbody tr[data-id="${FIRING}"]`).waitFor()
    await tab.locator('#by-person option[value="ravi"]').waitFor({ state: 'attached' })
    // No schedules in this config: no empty On call panel.
    await expect(tab.locator('#oncall-section').isHidden()).resolves.toBe(true)
  })
})
