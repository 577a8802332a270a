// What a real Alertmanager (Debian's prometheus-alertmanager) posts, read by the intake's decoder: a
// receiver in this test takes its webhooks, so the payload is the real one, not a fixture. A firing
// alert and then its resolve (endsAt in the past) come as two webhooks of one group, with one key.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { decodeWebhookBody, mappingOf, DEFAULT_ALERTMANAGER_KEYS } from '../../../agent/intake/alertmanager/handler'
import type { IntakeEvent } from '../../../agent/intake/types'
import { pollUntil } from '../../helpers/poll-until'
import { suiteTempDir } from '../../helpers/temp-dir'
import { describeWithAlertmanager, startAlertmanager, type RunningAlertmanager } from './alertmanager-process'

describeWithAlertmanager("a real Alertmanager's webhooks", () => {
  let receiver: Server
  let alertmanager: RunningAlertmanager
  const bodies: { contentType: string | undefined; body: Buffer }[] = []
  const dir = suiteTempDir('alertmanager-wire')

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        bodies.push({ contentType: req.headers['content-type'], body: Buffer.concat(chunks) })
        res.writeHead(200).end()
      })
    })
    receiver.listen(0, '127.0.0.1')
    await once(receiver, 'listening')
    const address = receiver.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    alertmanager = await startAlertmanager({ dir, webhooks: [`http://127.0.0.1:${port}/`] })
  })

  afterAll(async () => {
    await alertmanager?.stop()
    receiver?.close()
  })

  const decoded = (at: number): IntakeEvent[] =>
    decodeWebhookBody(
      (bodies[at] as { body: Buffer }).body,
      'alertmanager',
      'prometheus',
      mappingOf(DEFAULT_ALERTMANAGER_KEYS),
    )

  it('decodes the firing webhook and the resolved one, with one key', async () => {
    const labels = { alertname: 'DiskFull', severity: 'critical', instance: 'db1:9100' }
    const annotations = { summary: 'disk 95% full on db1' }
    const generatorURL = 'http://prometheus.example:9090/graph?g0.expr=disk'
    await alertmanager.postAlerts([{ labels, annotations, generatorURL }])
    await pollUntil('the firing webhook', () => bodies.length >= 1)
    expect(bodies[0]?.contentType).toMatch(/^application\/json/)
    const [firing] = decoded(0)
    expect(firing?.resolves).toBe(false)
    expect(firing?.line).toMatchObject({
      level: 60,
      msg: 'DiskFull: disk 95% full on db1',
      record: { labels, annotations, generatorURL, status: 'firing', receiver: 'logx' },
    })
    expect(firing?.incidentKey).toMatch(/^[0-9a-f]{16}$/)

    const endsAt = new Date(Date.now() - 1000).toISOString()
    await alertmanager.postAlerts([{ labels, annotations, generatorURL, endsAt }])
    await pollUntil('the resolved webhook', () => bodies.length >= 2)
    const [resolved] = decoded(bodies.length - 1)
    expect(resolved?.resolves).toBe(true)
    expect(resolved?.incidentKey).toBe(firing?.incidentKey)
    expect(resolved?.line.record).toMatchObject({ status: 'resolved' })
    // Alertmanager writes times as Go does, trailing zeros of the fraction cut (.150 -> .15): compare instants.
    expect(Date.parse(String(resolved?.line.record.endsAt))).toBe(Date.parse(endsAt))
  })
})
