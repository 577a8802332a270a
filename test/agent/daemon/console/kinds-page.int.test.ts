// The console page's Kinds panel in a real Chromium (test/helpers/browser.ts) against the fake
// backend with a kind table: kinds by count and, with the toggle, newest first; a 24-hour SVG
// sparkline in each row; the new mark; the incident a kind opened, opened in the incidents panel
// from its link; "Mute" making a run-time silence `kind=<id>` through the silence API; a template
// made of markup shown as text and run never. An agent without kinds shows no panel.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleLogins } from '../../../../agent/daemon/console/logins'
import { launchChromium, type LaunchedChromium } from '../../../helpers/browser'
import { createFakeBackend, incident } from './fake-backend'
import { HOUR, kindEntry, kindsReader } from './kinds-fixtures'
import { startConsole, type ConsoleServer } from './server'

const XSS_TEMPLATE = '<script>window.__xss = 1</script> render failed for <*>'
const INCIDENT = 'errors:5e1f00aa9b8c7d'
const now = Date.now()
const thisHour = Math.floor(now / HOUR) * HOUR

let c: ConsoleServer
let bare: ConsoleServer
let browser: LaunchedChromium | undefined
let page: Page
const logins = createConsoleLogins()
const bareLogins = createConsoleLogins()
const cspViolations: string[] = []

const kindIds = (): Promise<(string | null)[]> =>
  page.locator('#kinds tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))
const kindRow = (id: string) => page.locator(`#kinds tbody tr[data-id="${id}"]`)

beforeAll(async () => {
  const backend = createFakeBackend()
  backend.put(incident(INCIDENT, { title: 'checkout render failed' }))
  const reader = kindsReader([
    kindEntry('busy0000aaaa1111', {
      count: 1200,
      firstSeen: now - 6 * 86_400_000,
      hourly: [
        [thisHour - 23 * HOUR, 200],
        [thisHour - 5 * HOUR, 600],
        [thisHour, 400],
      ],
      hosts: ['web-1', 'web-2'],
    }),
    kindEntry('fresh000bbbb2222', {
      template: 'payment provider timed out after <*>',
      count: 4,
      firstSeen: now - 10 * 60_000,
      hourly: [[thisHour, 4]],
      incident: INCIDENT,
    }),
    kindEntry('hostile0cccc3333', { template: XSS_TEMPLATE, count: 30, firstSeen: now - 2 * 86_400_000 }),
  ])
  c = await startConsole({ generated: true, logins }, Object.assign(backend, { kinds: reader }))
  bare = await startConsole({ generated: true, logins: bareLogins })
  browser = await launchChromium()
  page = browser.page
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
  })
  await page.goto(`${c.server.url}/#login=${logins.issueCode(Date.now()).code}`)
  await page.locator('#kinds[data-sort="count"] tbody tr').first().waitFor()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await c?.server.close()
  await bare?.server.close()
})

describe('console Kinds panel', () => {
  it('lists the kinds, most lines first, with level, count, first seen and hosts', async () => {
    await expect(kindIds()).resolves.toEqual(['busy0000aaaa1111', 'hostile0cccc3333', 'fresh000bbbb2222'])
    await expect(page.locator('#kind-count').textContent()).resolves.toBe('3 of 3')
    const busy = kindRow('busy0000aaaa1111')
    await expect(busy.locator('td.num').textContent()).resolves.toBe('1200')
    await expect(busy.locator('td.level').textContent()).resolves.toBe('error')
    await expect(busy.locator('td.hosts').textContent()).resolves.toBe('web-1, web-2')
    await expect(busy.locator('td.first-seen').textContent()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  })

  it('draws a 24-hour sparkline in each row: inline SVG, one bar per hour that had lines', async () => {
    await expect(page.locator('#kinds tbody tr svg.spark').count()).resolves.toBe(3)
    const spark = kindRow('busy0000aaaa1111').locator('svg.spark')
    const hourly = (await spark.getAttribute('data-hourly'))?.split(',').map(Number)
    expect(hourly).toHaveLength(24)
    expect(hourly?.[0]).toBe(200)
    expect(hourly?.[18]).toBe(600)
    expect(hourly?.[23]).toBe(400)
    await expect(spark.locator('rect').count()).resolves.toBe(3)
    // The busiest hour fills the height; the others are scaled to it.
    const heights = await spark.locator('rect').evaluateAll((rects) => rects.map((r) => r.getAttribute('height')))
    expect(heights).toEqual(['7', '20', '13'])
  })

  it('marks the kinds first seen in the last 24 hours as new', async () => {
    await expect(kindRow('fresh000bbbb2222').locator('.new-kind').textContent()).resolves.toBe('new')
    await expect(page.locator('#kinds .new-kind').count()).resolves.toBe(1)
  })

  it('shows a template made of markup as text, and runs none of it', async () => {
    const cell = kindRow('hostile0cccc3333').locator('td.template code')
    await expect(cell.textContent()).resolves.toBe(XSS_TEMPLATE)
    await expect(page.locator('#kinds script').count()).resolves.toBe(0)
    await expect(page.evaluate('typeof window.__xss')).resolves.toBe('undefined')
    expect(cspViolations).toEqual([])
  })

  it('orders newest first with the toggle, and back', async () => {
    await page.locator('#kinds-sort').selectOption('new')
    await page.locator('#kinds[data-sort="new"]').waitFor()
    await expect(kindIds()).resolves.toEqual(['fresh000bbbb2222', 'hostile0cccc3333', 'busy0000aaaa1111'])
    await page.locator('#kinds-sort').selectOption('count')
    await page.locator('#kinds[data-sort="count"]').waitFor()
    await expect(kindIds()).resolves.toEqual(['busy0000aaaa1111', 'hostile0cccc3333', 'fresh000bbbb2222'])
  })

  it('links a kind to the incident it opened, opening it in the incidents panel', async () => {
    await expect(kindRow('busy0000aaaa1111').locator('a.incident-link').count()).resolves.toBe(0)
    await kindRow('fresh000bbbb2222').locator('a.incident-link').click()
    await page.locator(`#detail[data-id="${INCIDENT}"]`).waitFor()
    await expect(page.locator('#detail-title').textContent()).resolves.toBe('checkout render failed')
  })

  it('mutes a kind: a run-time silence kind=<id> through the silence API, listed at once', async () => {
    await page.locator('#kind-mute-duration').fill('2h')
    await kindRow('hostile0cccc3333').locator('button.mute').click()
    await page.locator('#silences tbody tr td.matchers', { hasText: 'kind=hostile0cccc3333' }).waitFor()
    expect(c.backend.added).toHaveLength(1)
    const [added] = c.backend.added
    expect(added?.matchers).toEqual({ kind: 'hostile0cccc3333' })
    expect(added?.comment).toBe(`kind: ${XSS_TEMPLATE}`)
    expect((added?.endsAt ?? 0) - Date.now()).toBeGreaterThan(HOUR)
    await expect(page.locator('#message').textContent()).resolves.toContain('Muted kind hostile0cccc3333')
  })

  it('shows no Kinds panel for an agent that keeps no kinds', async () => {
    const other = await browser!.context.newPage()
    try {
      await other.goto(`${bare.server.url}/#login=${bareLogins.issueCode(Date.now()).code}`)
      await other.locator('body[data-loaded="true"]').waitFor()
      // The kinds answer (404) comes with the first poll's others: the panel stays hidden after it.
      await other.locator('body[data-polls="1"]').waitFor()
      await expect(other.locator('#kinds-section').isHidden()).resolves.toBe(true)
      await expect(other.locator('#message').textContent()).resolves.toBe('')
      // Not taken for an agent that cannot be reached: the other panels were read.
      await expect(other.locator('#status').textContent()).resolves.toMatch(/^updated /)
    } finally {
      await other.close()
    }
  })
})
