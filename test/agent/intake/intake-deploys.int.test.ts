// A `kind: regressed` rule with `deploys` on an intake source, in a running agent: the deploy line is
// info, below every rule's level, yet it must reach the engine's deploy watch, as a tailed file's does
// (agent/prefilter/deploy-threshold.ts). Each intake asks the pipeline for the lowest level of its own
// source (IntakeSink.lowestLevel(source)); the OTLP and syslog intakes drop records below it unparsed.
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { freePort } from '../../helpers/free-port'
import { startInProcessAgent, stopInProcessAgents, type InProcessAgent } from '../../helpers/in-process-agent'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'
import { recordsWhen, smsTexts } from '../daemon/helpers'

interface Started extends InProcessAgent {
  port: number
}

afterEach(stopInProcessAgents)

/** An agent whose one source `app` is the intake `source` (its YAML keys past name and listen). */
async function start(source: string): Promise<Started> {
  const dir = tempDir('intake-deploys')
  const state = join(dir, 'state')
  const port = await freePort()
  const started = await startInProcessAgent(
    join(dir, 'agent.yaml'),
    state,
    `messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${state}
sources: [{ name: app, listen: "127.0.0.1:${port}", ${source} }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
kinds: { learn: 0s }
metrics: { listen: 127.0.0.1:0 }
rules:
  - { name: new-errors, kind: new, notify: oncall-sms }
  - name: back-again
    kind: regressed
    deploys: { source: app, match: { msg: "/starting version/" } }
    notify: oncall-sms
`,
  )
  return { ...started, port }
}

/** One line in each intake's words: what `send` posts. */
interface Line {
  level: 'info' | 'error'
  msg: string
}

/**
 * The scenario: an error kind pages as new, its incident is resolved by hand, an info deploy line and
 * the same error come in one delivery: the error pages again as regressed.
 */
async function deployThenRegression(started: Started, send: (lines: Line[]) => Promise<void>): Promise<void> {
  const refused = (n: number): Line => ({ level: 'error', msg: `Connection refused to 10.0.0.${n}:5432` })
  await send([refused(1)])
  await recordsWhen(started.baseUrl, 'the new kind page', (r) => smsTexts(r).length === 1)
  await started.resolveKindIncident()
  await send([{ level: 'info', msg: 'starting version 2.4.1' }, refused(6)])
  const all = await recordsWhen(started.baseUrl, 'the regressed page', (r) => smsTexts(r).length >= 2)
  expect(smsTexts(all).at(-1)).toContain('Connection refused')
}

async function post(url: string, contentType: string, body: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body })
  expect(response.status).toBe(200)
}

it('type: http: an info deploy line reaches the deploy watch', async () => {
  const started = await start('type: http')
  await deployThenRegression(started, (lines) =>
    post(
      `http://127.0.0.1:${started.port}/ingest/app`,
      'application/x-ndjson',
      lines.map((line) => JSON.stringify(line)).join('\n'),
    ),
  )
})

it('type: otlp: an info deploy record is not left out below the rules', async () => {
  const started = await start('type: otlp')
  const severity = { info: 9, error: 17 }
  await deployThenRegression(started, (lines) =>
    post(
      `http://127.0.0.1:${started.port}/v1/logs`,
      'application/json',
      JSON.stringify({
        resourceLogs: [
          {
            scopeLogs: [
              {
                logRecords: lines.map((line) => ({
                  severityNumber: severity[line.level],
                  body: { stringValue: line.msg },
                })),
              },
            ],
          },
        ],
      }),
    ),
  )
})

it('type: syslog: an info deploy frame is not dropped by the frame filter', async () => {
  const started = await start('type: syslog, protocol: tcp')
  // <14> is user.info, <11> user.err (facility 1 * 8 + severity).
  const pri = { info: 14, error: 11 }
  await deployThenRegression(
    started,
    (lines) =>
      new Promise<void>((resolve, reject) => {
        const socket = connect(started.port, '127.0.0.1', () => {
          const text = lines.map((line) => `<${pri[line.level]}>1 - web-3 api 12 - - ${line.msg}\n`).join('')
          socket.end(text, () => resolve())
        })
        socket.once('error', reject)
      }),
  )
})
