// End to end through the built agent (dist/): the OpenTelemetry JS SDK exports an error record over
// OTLP/HTTP protobuf to an `otlp` source, and `logger` sends an error over TCP to a `syslog` source;
// each becomes an SMS in the embedded sandbox, through the same rules as a tailed file's lines.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { SeverityNumber } from '@opentelemetry/api-logs'
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createWorkspace,
  recordsWhen,
  smsTexts,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from '../daemon/helpers'
import { freePort } from '../../helpers/free-port'

const run = promisify(execFile)
const hasLogger = spawnSync('logger', ['--version']).status === 0
if (!hasLogger) console.warn('SKIPPED: the syslog half of otlp-agent.int.test.ts: `logger` not found (apt bsdutils)')

describe('OTLP and syslog sources of a running agent', () => {
  let ws: Workspace
  let agent: RunningAgent
  let otlpPort: number
  let syslogPort: number

  beforeAll(async () => {
    ws = createWorkspace()
    otlpPort = await freePort()
    syslogPort = await freePort()
    // The embedded sandbox on a free port: its default (4010) may be another agent's on this machine.
    ws.writeConfig(`messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${ws.state}
sources:
  - { name: otel, type: otlp, listen: "127.0.0.1:${otlpPort}" }
  - { name: net, type: syslog, listen: "127.0.0.1:${syslogPort}", protocol: tcp }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: otel-errors, source: otel, level: error, title: "{{service}}: {{msg}}", notify: oncall-sms }
  - { name: syslog-errors, source: net, level: error, title: "{{app_name}}: {{msg}}", notify: oncall-sms }
metrics: { listen: 127.0.0.1:0 }
`)
    agent = await startAgentProcess(ws.config)
  })

  afterAll(async () => {
    await agent?.kill('SIGTERM')
    ws?.remove()
  })

  it('pages for an error record the SDK exports over OTLP/HTTP protobuf', async () => {
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ 'service.name': 'checkout' }),
      processors: [
        new SimpleLogRecordProcessor({
          exporter: new OTLPLogExporter({ url: `http://127.0.0.1:${otlpPort}/v1/logs` }),
        }),
      ],
    })
    provider.getLogger('orders').emit({ severityNumber: SeverityNumber.ERROR, body: 'payment gateway down' })
    await provider.forceFlush()
    await provider.shutdown()
    const all = await recordsWhen(agent.baseUrl, 'the OTLP page', (r) =>
      smsTexts(r).some((text) => text.includes('checkout: payment gateway down')),
    )
    expect(smsTexts(all).filter((text) => text.includes('payment gateway down'))).toHaveLength(1)
  })

  it.skipIf(!hasLogger)('pages for an error logger sends over TCP', async () => {
    await run('logger', [
      '-n',
      '127.0.0.1',
      '-P',
      String(syslogPort),
      '--tcp',
      '--rfc5424',
      '-t',
      'billing',
      '-p',
      'local0.err',
      'card processor unreachable',
    ])
    const all = await recordsWhen(agent.baseUrl, 'the syslog page', (r) =>
      smsTexts(r).some((text) => text.includes('billing: card processor unreachable')),
    )
    expect(smsTexts(all).some((text) => text.includes('card processor unreachable'))).toBe(true)
  })
})
