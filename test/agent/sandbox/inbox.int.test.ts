import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLeadWebhookClient, createMessagingClient, type MessagingClient } from '../../../agent/messaging'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { launchChromium, type LaunchedChromium } from '../../helpers/browser'

let sandbox: Sandbox
let client: MessagingClient
let browser: LaunchedChromium | undefined
let page: Page

async function visibleItems(): Promise<{ kind: string | null; text: string }[]> {
  return page.locator('li.message').evaluateAll((items) =>
    items.map((li) => ({ kind: li.getAttribute('data-kind'), text: li.textContent ?? '' })),
  )
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
  await client.sendMail({ from: 'alerts@logx.dev', to: 'ops@example.com', subject: 'API latency high', message: 'p99 2.4s' })
  await client.sendChat({ templateId: 12, number: '+15550100', variables: ['checkout', 'down'] })
  await client.voiceBroadcast({ receivers: [{ label: 'oncall', number: '+15550100' }], audioFiles: ['sev1.mp3'] })
  const lead = await hooks.createLead({ name: 'Checkout outage', email: 'lead@example.com' })
  await hooks.addActivities({ leadId: lead.leadId, activities: [{ title: 'Paged on-call', date: new Date(), type: 'MESSAGE' }] })
  await client.sendSms({ numbers: [15550101], text: 'second sms: <b>not markup</b>' })
  await hooks.close()

  browser = await launchChromium()
  page = browser.page
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
    for (const k of ['sms', 'lead', 'activity', 'voice', 'chat']) await page.locator(`[data-kind-filter="${k}"]`).check()
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
})
