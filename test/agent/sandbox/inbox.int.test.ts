import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLeadWebhookClient, createMessagingClient, type MessagingClient } from '../../../agent/messaging'
import { SANDBOX_MISSED_CALL_NUMBER, startSandbox, type Sandbox } from '../../../agent/sandbox'
import { launchChromium, type LaunchedChromium } from '../../helpers/browser'

let sandbox: Sandbox
let client: MessagingClient
let browser: LaunchedChromium | undefined
let page: Page
const refusals: string[] = []

async function missedCalls(): Promise<string[]> {
  return page.locator('li.missed-call').evaluateAll((items) => items.map((li) => li.textContent ?? ''))
}

async function visibleItems(): Promise<{ kind: string | null; text: string }[]> {
  return page
    .locator('li.message')
    .evaluateAll((items) => items.map((li) => ({ kind: li.getAttribute('data-kind'), text: li.textContent ?? '' })))
}

beforeAll(async () => {
  sandbox = await startSandbox()
  client = createMessagingClient({ baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey })
  const hooks = createLeadWebhookClient({
    leadWebhookUrl: sandbox.info.leadWebhookUrl,
    activityWebhookUrl: sandbox.info.activityWebhookUrl,
    activityToken: sandbox.activityToken,
  })
  // Oldest first; the inbox must show them the other way round.
  await client.sendSms({ numbers: [15550100], text: 'first sms: disk 91% on db-1' })
  await client.sendMail({
    from: 'alerts@logx.dev',
    to: 'ops@example.com',
    subject: 'API latency high',
    message: 'p99 2.4s',
  })
  await client.sendChat({ templateId: 12, number: '+15550100', variables: ['checkout', 'down'] })
  await client.voiceBroadcast({ receivers: [{ label: 'oncall', number: '+15550100' }], audioFiles: ['sev1.mp3'] })
  const lead = await hooks.createLead({ name: 'Checkout outage', email: 'lead@example.com' })
  await hooks.addActivities({
    leadId: lead.leadId,
    activities: [{ title: 'Paged on-call', date: new Date(), type: 'MESSAGE' }],
  })
  await client.sendSms({ numbers: [15550101], text: 'second sms: <b>not markup</b>' })
  await hooks.close()

  browser = await launchChromium()
  page = browser.page
  // The page runs under a nonce CSP: anything of its own the policy refused would be said here.
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text())
  })
  await page.goto(sandbox.info.inboxUrl)
  // Both the initial load and the live stream are up: nothing is missed after this point.
  await page.locator('body[data-loaded="true"][data-live="true"]').waitFor()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await client?.close()
  await sandbox?.close()
})

describe('web inbox', () => {
  it('runs its own style and script under its CSP, nothing of it refused', async () => {
    // Evaluated as text: this suite's TypeScript has no DOM types.
    const nonce = await page.evaluate('document.querySelector("script").nonce')
    expect(nonce).not.toBe('')
    expect(await page.evaluate('document.querySelector("style").nonce')).toBe(nonce)
    // The style applied (not the browser's default font), the script ran (data-loaded, above).
    expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toBe('system-ui, sans-serif')
    expect(refusals).toEqual([])
  })

  it('shows everything that was sent, newest first', async () => {
    const items = await visibleItems()
    expect(items.map((i) => i.kind)).toEqual(['sms', 'activity', 'lead', 'voice', 'chat', 'mail', 'sms'])
    expect(items[0]?.text).toContain('second sms: <b>not markup</b>')
    expect(items[0]?.text).toContain('15550101')
    expect(items[2]?.text).toContain('Checkout outage')
    expect(items[5]?.text).toContain('API latency high')
    expect(items[6]?.text).toContain('first sms')
    await expect(page.locator('#live-status').textContent()).resolves.toBe('live')
  })

  it('filters by kind', async () => {
    await page.locator('[data-kind-filter="sms"]').uncheck()
    await page.locator('[data-kind-filter="lead"]').uncheck()
    let kinds = (await visibleItems()).map((i) => i.kind)
    expect(kinds).toEqual(['activity', 'voice', 'chat', 'mail'])
    for (const k of ['activity', 'voice', 'chat']) await page.locator(`[data-kind-filter="${k}"]`).uncheck()
    kinds = (await visibleItems()).map((i) => i.kind)
    expect(kinds).toEqual(['mail'])
    for (const k of ['sms', 'lead', 'activity', 'voice', 'chat'])
      await page.locator(`[data-kind-filter="${k}"]`).check()
    expect(await visibleItems()).toHaveLength(7)
  })

  it('searches across kinds, and search combines with filters', async () => {
    await page.locator('#search').fill('15550100')
    expect((await visibleItems()).map((i) => i.kind)).toEqual(['voice', 'chat', 'sms'])
    await page.locator('[data-kind-filter="chat"]').uncheck()
    expect((await visibleItems()).map((i) => i.kind)).toEqual(['voice', 'sms'])
    await page.locator('[data-kind-filter="chat"]').check()
    await page.locator('#search').fill('LATENCY')
    expect((await visibleItems()).map((i) => i.kind)).toEqual(['mail'])
    await page.locator('#search').fill('no such text anywhere')
    expect(await visibleItems()).toEqual([])
    await expect(page.locator('#empty').isVisible()).resolves.toBe(true)
    await page.locator('#search').fill('')
  })

  it('shows a new SMS live, on top, without a reload', async () => {
    const navigations: string[] = []
    page.on('framenavigated', (f) => navigations.push(f.url()))
    await client.sendSms({ numbers: [15550199], text: 'live sms: pager test' })
    await page.locator('li.message[data-kind="sms"]', { hasText: 'live sms: pager test' }).waitFor()
    const items = await visibleItems()
    expect(items).toHaveLength(8)
    expect(items[0]?.text).toContain('live sms: pager test')
    expect(navigations).toEqual([])
  })

  it('shows the full record when an item is clicked', async () => {
    const first = page.locator('li.message').first()
    await first.click()
    await expect(first.locator('pre.details').isVisible()).resolves.toBe(true)
    await expect(first.locator('pre.details').textContent()).resolves.toContain('"numbers"')
  })

  it('lists the missed calls the sandbox holds, apart from the messages', async () => {
    const calls = await missedCalls()
    expect(calls).toHaveLength(2)
    expect(calls[0]).toContain('15550100002')
    expect(calls[0]).toContain(`to ${SANDBOX_MISSED_CALL_NUMBER}`)
    expect(calls[1]).toContain('15550100001')
    expect(await visibleItems()).toHaveLength(8)
  })

  it('offers the numbers pages went to lately, newest first', async () => {
    const offered = await page
      .locator('#recent-numbers option')
      .evaluateAll((options) => options.map((o) => o.getAttribute('value')))
    expect(offered).toEqual(['15550199', '15550101', '+15550100', '15550100'])
  })

  it('simulates a missed call from the form: it shows up live and in the API listing', async () => {
    const navigations: string[] = []
    page.on('framenavigated', (f) => navigations.push(f.url()))
    await page.locator('#missed-caller').fill('+1 555 0101')
    await page.getByRole('button', { name: 'Call' }).click()
    await page.locator('li.missed-call', { hasText: '+15550101' }).waitFor()
    const calls = await missedCalls()
    expect(calls).toHaveLength(3)
    expect(calls[0]).toContain('+15550101')
    expect(calls[0]).toContain(`to ${SANDBOX_MISSED_CALL_NUMBER}`)
    await expect(page.locator('#missed-call-status').textContent()).resolves.toContain('Missed call from +15550101')
    const listed = await client.listMissedCallRecords()
    expect(listed.records[0]).toMatchObject({ caller: '+15550101', called: SANDBOX_MISSED_CALL_NUMBER })
    expect(navigations).toEqual([])
  })

  it('says why a number is refused, and records nothing', async () => {
    await page.locator('#missed-caller').fill('the boss')
    await page.getByRole('button', { name: 'Call' }).click()
    await page.locator('#missed-call-status.error').waitFor()
    await expect(page.locator('#missed-call-status').textContent()).resolves.toContain('caller: must be a phone number')
    await expect(page.locator('#missed-caller').getAttribute('aria-invalid')).resolves.toBe('true')
    expect(await missedCalls()).toHaveLength(3)
    expect((await client.listMissedCallRecords()).total).toBe(3)
  })

  it('renders a missed call as text, never as markup', async () => {
    const hostile = '<img src=x onerror="document.body.dataset.pwned=1">'
    await fetch(`${sandbox.info.controlUrl}seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'missed', records: [{ caller: hostile, called: '<b>x</b>' }] }),
    })
    await page.locator('li.missed-call', { hasText: hostile }).waitFor()
    await expect(page.locator('#missed-list img, #missed-list b').count()).resolves.toBe(0)
    await expect(page.locator('li.missed-call').first().textContent()).resolves.toContain('to <b>x</b>')
    await expect(page.locator('body').getAttribute('data-pwned')).resolves.toBeNull()
  })
})
