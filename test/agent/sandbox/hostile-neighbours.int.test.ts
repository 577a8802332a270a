// The sandbox against the browser's and the network's neighbours (issue #32, items 2, 3, 4, 13): a
// page whose name was re-pointed at 127.0.0.1, a page of another site posting `no-cors`, a flood of
// large records, a listen address off loopback, and the inbox framed or injected into.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../agent/cli/main'
import { SandboxError, startSandbox, type Sandbox } from '../../../agent/sandbox'
import {
  crossOriginLeadFlood,
  rawRequest,
  rebindingPostsMissedCall,
  rebindingReadsRecords,
} from '../../drills/lib/hostile-neighbours'

const JSON_TYPE = { 'content-type': 'application/json' }
let sb: Sandbox
let port: string

beforeAll(async () => {
  sb = await startSandbox({ maxRecordBytes: 4096, maxStoreBytes: 16 * 1024 })
  port = new URL(sb.info.baseUrl).port
})
afterAll(async () => {
  await sb?.close()
})

describe('a page whose name was re-pointed at 127.0.0.1 (DNS rebinding)', () => {
  it('reads no records, simulates no missed call', async () => {
    const missedBefore = sb.store.count('missed')
    expect((await rebindingReadsRecords(sb.info.baseUrl)).succeeded).toBe(false)
    const posted = await rebindingPostsMissedCall(sb.info.baseUrl, '15550100999')
    expect(posted).toMatchObject({ succeeded: false })
    expect(posted.detail).toMatch(/^403 .*"field":"host"/)
    expect(sb.store.count('missed')).toBe(missedBefore)
  })

  it('gets 403 from every route: the API, the webhooks, the inbox, the event stream', async () => {
    const host = `evil.example:${port}`
    const key = { apikey: sb.apiKey }
    for (const path of ['/api/v1/?apirequest=sms_record', '/', '/_sandbox/info', '/_sandbox/events']) {
      expect((await rawRequest(`${sb.info.baseUrl}${path}`, { headers: { host, ...key } })).status, path).toBe(403)
    }
    const lead = await rawRequest(sb.info.leadWebhookUrl, {
      method: 'POST',
      headers: { host, ...JSON_TYPE },
      body: '{"name":"x"}',
    })
    expect(lead.status).toBe(403)
  })

  it('still answers 127.0.0.1, localhost and [::1] with its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await rawRequest(`${sb.info.baseUrl}/_sandbox/info`, { headers: { host } })).status, host).toBe(200)
    }
  })
})

describe('a page of another site posting no-cors', () => {
  const leads = async () => sb.store.count('lead')

  it('stores no lead: text/plain from another Origin is refused', async () => {
    const flood = await crossOriginLeadFlood(sb.info.leadWebhookUrl, { count: 3, bytes: 2000, storedCount: leads })
    expect(flood.succeeded).toBe(false)
    expect(flood.detail).toMatch(/last 403 /)
  })

  it('is refused by Origin whatever the body, and by content type without an Origin', async () => {
    const before = await leads()
    const post = (headers: Record<string, string>) =>
      rawRequest(sb.info.leadWebhookUrl, { method: 'POST', headers, body: '{"name":"x"}' })
    expect((await post({ origin: 'http://evil.example', ...JSON_TYPE })).status).toBe(403)
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(415)
    expect((await post({ 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415)
    expect(await leads()).toBe(before)
    const own = await post({ origin: sb.info.baseUrl, ...JSON_TYPE })
    expect(own.status).toBe(200)
    expect(await leads()).toBe(before + 1)
  })
})

describe('the byte caps', () => {
  const lead = (bytes: number, name = 'big') => JSON.stringify({ name, note: 'x'.repeat(bytes) })

  it('refuses a record over the record cap with 413, declared or streamed, and stores nothing', async () => {
    const before = sb.store.count('lead')
    const declared = await rawRequest(sb.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: lead(5000) })
    expect(declared.status).toBe(413)
    const streamed = await fetch(sb.info.leadWebhookUrl, {
      method: 'POST',
      headers: JSON_TYPE,
      body: new Blob([lead(5000)]).stream(),
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(sb.store.count('lead')).toBe(before)
  })

  it('drops the oldest records past the store cap and counts them in /_sandbox/info and the feed', async () => {
    await fetch(`${sb.info.controlUrl}reset`, { method: 'POST' })
    for (let i = 0; i < 12; i++) {
      const res = await fetch(sb.info.leadWebhookUrl, { method: 'POST', headers: JSON_TYPE, body: lead(3000, `n${i}`) })
      expect(res.status).toBe(200)
    }
    const info = (await (await fetch(`${sb.info.controlUrl}info`)).json()) as {
      store: { records: number; bytes: number; evicted: number }
    }
    expect(info.store.bytes).toBeLessThanOrEqual(16 * 1024)
    expect(info.store.evicted).toBeGreaterThanOrEqual(7)
    const feed = (await (await fetch(`${sb.info.controlUrl}records?kind=lead`)).json()) as {
      records: { record: { name: string } }[]
      store: { evicted: number }
    }
    expect(feed.store.evicted).toBe(info.store.evicted)
    const names = feed.records.map((r) => r.record.name)
    expect(names[0]).toBe('n11')
    expect(names).not.toContain('n0')
  })
})

describe('a listen address that is not loopback', () => {
  it('is refused without allowRemote, naming the key and the flag', async () => {
    const refused = startSandbox({ host: '0.0.0.0' })
    await expect(refused).rejects.toThrow(SandboxError)
    await expect(refused).rejects.toMatchObject({ code: 'LOGX_SANDBOX_ERR_REMOTE_HOST', path: 'host' })
    await expect(refused).rejects.toThrow(/--allow-remote.*messaging\.sandbox\.allow_remote: true/)
  })

  it('starts with allowRemote, warns, and says where it really listens', async () => {
    const warnings: string[] = []
    const remote = await startSandbox({ host: '0.0.0.0', allowRemote: true, onWarning: (w) => warnings.push(w) })
    try {
      expect(remote.info.listening).toMatch(/^0\.0\.0\.0:\d+$/)
      expect(warnings).toEqual([expect.stringMatching(/^WARNING: .*0\.0\.0\.0:\d+, reachable from other machines/)])
      expect((await fetch(`${remote.info.controlUrl}info`)).status).toBe(200)
    } finally {
      await remote.close()
    }
  })

  it('logx-agent sandbox --host 0.0.0.0: exit 2 naming --allow-remote; with it, a warning and the real address', async () => {
    const io = { out: '', err: '' }
    const streams = { stdout: { write: (t: string) => (io.out += t) }, stderr: { write: (t: string) => (io.err += t) } }
    const refused = await runCli(['sandbox', '--host', '0.0.0.0', '--port', '0'], {
      ...streams,
      signal: new AbortController().signal,
    })
    expect(refused).toBe(2)
    expect(io.err).toContain('--allow-remote')
    const controller = new AbortController()
    const done = runCli(['sandbox', '--host', '0.0.0.0', '--port', '0', '--allow-remote'], {
      ...streams,
      signal: controller.signal,
    })
    await expect.poll(() => io.out, { timeout: 10_000 }).toContain('inbox URL')
    expect(io.out).toMatch(/listening on 0\.0\.0\.0:\d+ \(reachable from other machines\)/)
    expect(io.err).toMatch(/logx-agent: WARNING: the logx sandbox listens on 0\.0\.0\.0:\d+/)
    controller.abort()
    expect(await done).toBe(0)
  })
})

describe('the inbox page', () => {
  it('sends a nonce CSP that its own style and script carry, and may not be framed or sniffed', async () => {
    const first = await fetch(sb.info.inboxUrl)
    const csp = first.headers.get('content-security-policy') ?? ''
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(csp).toContain(`style-src 'nonce-${nonce}'`)
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(first.headers.get('x-frame-options')).toBe('DENY')
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await first.text()
    expect(html.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`])
    expect(html.match(/<style[^>]*>/g)).toEqual([`<style nonce="${nonce}">`])
    expect(html).not.toMatch(/\son[a-z]+=|\sstyle=/i)
    const second = await fetch(sb.info.inboxUrl)
    expect(second.headers.get('content-security-policy')).not.toBe(csp)
  })
})
