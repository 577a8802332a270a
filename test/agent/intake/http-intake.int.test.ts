// The http intake on a real agent (the built CLI, its embedded sandbox), over real HTTP on 127.0.0.1:
// NDJSON and arrays page like tailed lines; a bad payload is refused whole, naming the field; the
// token, the body limit, the rate limit, the content type; the counts on /metrics; the banner's URLs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gzipSync } from 'node:zlib'
import { createWorkspace, messagingYaml, metric, recordsWhen, smsTexts, startAgentProcess } from '../daemon/helpers'
import type { RunningAgent, Workspace } from '../daemon/helpers'
import { records } from '../daemon/helpers'

const TOKEN = 'intake-test-token-0123456789'

function config(ws: Workspace): string {
  return `${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: api
    type: http
    listen: 127.0.0.1:0
  - name: secured
    type: http
    listen: 127.0.0.1:0
    path: /push
    token: ${TOKEN}
    max_body: 2000
    rate_limit: { requests: 4, per: 1h }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    level: error
    group_by: [msg]
    notify: oncall-sms
metrics: { listen: 127.0.0.1:0 }
`
}

const ndjson = (...lines: unknown[]): string => lines.map((line) => JSON.stringify(line)).join('\n')

describe('type: http on a running agent', () => {
  let ws: Workspace
  let agent: RunningAgent
  let apiUrl: string
  let securedUrl: string

  const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-ndjson', ...headers } })
  const smsWith = async (text: string) =>
    recordsWhen(agent.baseUrl, `an SMS with ${text}`, (all) => smsTexts(all).some((sms) => sms.includes(text)))

  beforeAll(async () => {
    ws = createWorkspace()
    ws.writeConfig(config(ws))
    agent = await startAgentProcess(ws.config)
    apiUrl = (await agent.waitForOutput(/listening api \(http\): (\S+)/))[1] ?? ''
    securedUrl = (await agent.waitForOutput(/listening secured \(http\): (\S+)/))[1] ?? ''
  }, 60_000)

  afterAll(async () => {
    await agent?.kill('SIGTERM')
    ws?.remove()
  })

  it('prints each source URL in the start banner', () => {
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ingest\/api$/)
    expect(securedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/push$/)
  })

  it('pages for an NDJSON error line, after answering 200 with the count', async () => {
    const response = await post(apiUrl, ndjson({ level: 50, msg: 'payments down' }, { level: 30, msg: 'fine' }))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ accepted: 2 })
    await smsWith('payments down')
  })

  it('takes a JSON array (Vector, Fluent Bit) with strings as text lines, gzip too', async () => {
    const body = gzipSync(JSON.stringify([{ level: 'error', message: 'array error' }, 'ERROR text line down']))
    const response = await post(apiUrl, body, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    expect(response.status).toBe(200)
    await smsWith('array error')
    await smsWith('text line down')
  })

  it('refuses a payload with one bad item whole, naming the field, and takes nothing of it', async () => {
    const bad = JSON.stringify([
      { level: 50, msg: 'must not page' },
      { level: 50, msg: 3 },
    ])
    const response = await post(apiUrl, bad, { 'content-type': 'application/json' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toBe('[1].msg: expected a string')
    const notJson = await post(apiUrl, `${ndjson({ level: 50, msg: 'must not page' })}\n{oops`)
    expect(((await notJson.json()) as { error: string }).error).toBe('line 2: not a JSON object')
    // What is sent after it arrives; what was refused never does.
    await post(apiUrl, ndjson({ level: 50, msg: 'after the refusal' }))
    const all = await smsWith('after the refusal')
    expect(smsTexts(all).filter((sms) => sms.includes('must not page'))).toEqual([])
  })

  it('refuses another content type (415) and another method (405)', async () => {
    expect((await post(apiUrl, 'x', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await fetch(apiUrl)).status).toBe(405)
  })

  it('wants the token of a source that has one, and keeps its body and rate limits', async () => {
    const line = ndjson({ level: 50, msg: 'secured error' })
    const none = await post(securedUrl, line)
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    expect((await post(securedUrl, line, { authorization: 'Bearer wrong' })).status).toBe(401)
    const auth = { authorization: `Bearer ${TOKEN}` }
    expect((await post(securedUrl, line, auth)).status).toBe(200)
    await smsWith('secured error')
    expect((await post(securedUrl, 'x'.repeat(3000), auth)).status).toBe(413)
    // Four requests an hour, refused ones too (a token guesser is limited): the fifth waits.
    const limited = await post(securedUrl, line, auth)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('counts requests, events and refusals per source on /metrics, never the token', async () => {
    const text = await (await fetch(`${agent.metricsUrl}/metrics`)).text()
    expect(text).not.toContain(TOKEN)
    expect(await metric(agent.metricsUrl, 'logx_agent_intake_events_total')).toBeGreaterThanOrEqual(5)
    expect(text).toMatch(/logx_agent_intake_refused_total\{source="secured",status="401"\} 2/)
    expect(text).toMatch(/logx_agent_intake_refused_total\{source="api",status="400"\} 2/)
    expect(agent.output() + agent.errors()).not.toContain(TOKEN)
    expect((await records(agent.baseUrl)).length).toBeGreaterThan(0)
  })
})
