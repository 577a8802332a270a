// /metrics and /health against a page whose name was re-pointed at 127.0.0.1 (DNS rebinding, issue
// #32 item 2): on loopback they answer only to a Host header naming loopback with their port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMetricsServer, type MetricsServer } from '../../../agent/daemon/metrics-server'
import { rawRequest, rebindingReadsAgent } from '../../drills/lib/hostile-neighbours'

let server: MetricsServer
const metric = { name: 'logx_agent_up', help: 'up', type: 'gauge' as const, samples: [{ value: 1 }] }

beforeAll(async () => {
  server = await startMetricsServer(
    { host: '127.0.0.1', port: 0 },
    () => [metric],
    () => ({ ok: true }),
  )
})
afterAll(async () => {
  await server?.close()
})

describe('the metrics server on loopback', () => {
  it('refuses a rebound name on /metrics and /health with 403 and a reason', async () => {
    for (const path of ['/metrics', '/health'] as const) {
      const attack = await rebindingReadsAgent(server.url, path)
      expect(attack.succeeded, path).toBe(false)
      expect(attack.detail, path).toMatch(/^403 host: /)
    }
  })

  it('answers 127.0.0.1 and localhost with its port', async () => {
    const port = new URL(server.url).port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await rawRequest(`${server.url}/metrics`, { headers: { host } })
      expect(answer.status, host).toBe(200)
      expect(answer.body).toContain('logx_agent_up 1')
    }
    expect((await rawRequest(`${server.url}/health`, { headers: { host: `127.0.0.1:${port}` } })).status).toBe(200)
  })
})
