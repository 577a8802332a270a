// Two promises of the http intake on a real agent that only a running one can show: HTTPS with client
// certificates (a sender without one never gets to send), and the bound of "nothing accepted is lost":
// past the outbox's bound the intake answers 503 with Retry-After and takes nothing, and what it did
// take still pages once the messaging API is back.
import { request } from 'node:https'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorkspace, messagingYaml, recordsWhen, smsTexts, startAgentProcess } from '../daemon/helpers'
import type { RunningAgent, Workspace } from '../daemon/helpers'
import { hasOpenssl, makePki } from '../../helpers/test-pki'
import { pollUntil } from '../../helpers/poll-until'

if (!hasOpenssl) console.warn('SKIPPED: the http intake over HTTPS: `openssl` not found (apt openssl)')

const RULES = `channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    level: error
    group_by: [msg]
    notify: oncall-sms
`

const line = (msg: string): string => `${JSON.stringify({ level: 50, msg })}\n`

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterEach(async () => {
  await agent?.kill('SIGTERM')
  ws?.remove()
  agent = undefined
  ws = undefined
})

interface TlsClient {
  ca: string
  cert?: string
  key?: string
}

/** POST over HTTPS with node:https (fetch takes no client certificate); the status, or the error. */
function postTls(url: string, body: string, client: TlsClient): Promise<number | Error> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, ...client },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', resolve)
    req.end(body)
  })
}

describe.skipIf(!hasOpenssl)('the http intake over HTTPS with client certificates', () => {
  it('pages for a sender with a certificate of the CA, and refuses one without at the handshake', async () => {
    ws = createWorkspace()
    const pki = makePki(ws.dir)
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: api
    type: http
    listen: 127.0.0.1:0
    tls: { cert_file: ${pki.files.serverCert}, key_file: ${pki.files.serverKey}, client_ca_file: ${pki.files.ca} }
${RULES}`)
    agent = await startAgentProcess(ws.config)
    const url = (await agent.waitForOutput(/listening api \(http\): (\S+)/))[1] ?? ''
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/ingest\/api$/)

    const without = await postTls(url, line('anonymous error'), { ca: pki.caCert })
    expect(without).toBeInstanceOf(Error)
    const withCert = await postTls(url, line('certified error'), {
      ca: pki.caCert,
      cert: pki.clientCert,
      key: pki.clientKey,
    })
    expect(withCert).toBe(200)
    const all = await recordsWhen(agent.baseUrl, 'the certified page', (records) =>
      smsTexts(records).some((sms) => sms.includes('certified error')),
    )
    expect(smsTexts(all).some((sms) => sms.includes('anonymous error'))).toBe(false)
  }, 60_000)
})

describe('the http intake past the outbox bound', () => {
  it('answers 503 with Retry-After and takes nothing; what it took pages once the API is back', async () => {
    ws = createWorkspace()
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: api
    type: http
    listen: 127.0.0.1:0
${RULES}`)
    agent = await startAgentProcess(ws.config, { LOGX_AGENT_OUTBOX_MEMORY_ITEMS: '3' })
    const running = agent
    const url = (await running.waitForOutput(/listening api \(http\): (\S+)/))[1] ?? ''
    const faults = `${running.baseUrl}/_sandbox/faults`
    const fault = await fetch(faults, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 503, route: 'send_sms' }),
    })
    expect(fault.status).toBeLessThan(300)

    const post = (msg: string) =>
      fetch(url, { method: 'POST', body: line(msg), headers: { 'content-type': 'application/x-ndjson' } })
    const accepted: string[] = []
    const busy = await pollUntil('a 503 from the intake', async () => {
      const msg = `outage error ${accepted.length}x`
      const response = await post(msg)
      if (response.status === 200) accepted.push(msg)
      else if (response.status === 503) return response
      else throw new Error(`unexpected ${response.status}`)
      return undefined
    })
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(accepted.length).toBeGreaterThanOrEqual(3)
    const refused = `outage error ${accepted.length}x`

    await fetch(faults, { method: 'DELETE' })
    const all = await recordsWhen(running.baseUrl, 'every accepted page', (records) =>
      accepted.every((msg) => smsTexts(records).some((sms) => sms.includes(msg))),
    )
    expect(smsTexts(all).some((sms) => sms.includes(refused))).toBe(false)
  }, 60_000)
})
