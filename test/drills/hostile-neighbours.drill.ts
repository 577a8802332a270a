// Drill: hostile neighbours (issue #32, items 1-4, 9 and 10). A real agent with its embedded sandbox
// (what `npm start` runs), attacked as another local account, a web page in a browser on the same
// machine (a name re-pointed at 127.0.0.1, cross-site `no-cors` POSTs) and another machine would:
//  1. `curl 127.0.0.1:<console>/` gets no token; the API answers no read and takes no silence unless
//     authenticated.
//  2. a rebinding page reads neither the sandbox's records nor /metrics and /health, and simulates no
//     missed call (which would acknowledge a real incident).
//  3. another site's page posts 150 leads of 1 MB: none is stored and the agent's memory stays bounded.
//  4. the sandbox refuses to listen off loopback unless allowed by its own key (config and CLI).
//  9. after a SIGKILL, whatever holds the console's port gets no token from the CLI; neither does a
//     listener that cannot prove it is the agent while console.json names a live pid.
// 10. a silence whose pattern backtracks exponentially is refused by the API and the CLI.
// events = attacks made, lost = attacks that succeeded.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { agentBin, records, smsTexts, startAgentProcess, type RunningAgent } from '../agent/daemon/helpers'
import { pollUntil } from '../helpers/poll-until'
import { suiteTempDir } from '../helpers/temp-dir'
import {
  crossOriginLeadFlood,
  rawRequest,
  rebindingPostsMissedCall,
  rebindingReadsAgent,
  rebindingReadsRecords,
  type AttackResult,
} from './lib/hostile-neighbours'
import { peakRssOf, recordDrill } from './lib/report'

const ASHA = '919800000001'
const dir = suiteTempDir('drill-neighbours')
const state = join(dir, 'state')
const logs = join(dir, 'logs')
const configFile = join(dir, 'agent.yaml')
let agent: RunningAgent

function writeConfig(listen = '127.0.0.1:0', extra = ''): void {
  writeFileSync(
    configFile,
    `messaging: { sandbox: { listen: "${listen}"${extra} } }
state_dir: ${state}
sources: [{ name: app, paths: [${logs}/*.log], start_at: beginning }]
people: { asha: { phone: "${ASHA}" } }
channels: { oncall-sms: { type: sms, people: [asha] } }
acknowledge: { missed_call_number: "15550199999", poll_interval: 1s }
rules: [{ name: errors, notify: [oncall-sms], incident: true }]
metrics: { listen: 127.0.0.1:0 }
`,
  )
}

/** The CLI, run to its end: its exit code and what it printed. */
async function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [agentBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, out }
}

const attack = (name: string, succeeded: boolean, detail: string): AttackResult => ({
  attack: name,
  succeeded,
  detail,
})

beforeAll(async () => {
  mkdirSync(logs, { recursive: true })
  writeConfig()
  agent = await startAgentProcess(configFile)
  // One firing incident, so an acknowledgement by a forged missed call would have something to take.
  appendFileSync(join(logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'db down' })}\n`)
  await pollUntil('the first page', async () => smsTexts(await records(agent.baseUrl, 'sms')).length > 0)
}, 60_000)

afterAll(async () => {
  if (agent.child.exitCode === null) await agent.kill('SIGKILL')
})

async function consoleAttacks(): Promise<AttackResult[]> {
  const token = readFileSync(join(state, 'console.token'), 'utf8').trim()
  const page = await rawRequest(`${agent.metricsUrl}/`)
  const reads = await rawRequest(`${agent.metricsUrl}/api/incidents`)
  const silence = await rawRequest(`${agent.metricsUrl}/api/silences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ matchers: { rule: 'errors' }, duration: '1000d' }),
  })
  return [
    attack('GET / hands out the token', page.body.includes(token), `${page.status}, ${page.body.length} bytes`),
    attack('GET /api/incidents without auth', reads.status === 200, `${reads.status}`),
    attack('POST /api/silences without auth', silence.status >= 200 && silence.status < 300, `${silence.status}`),
  ]
}

async function rebindingAttacks(): Promise<AttackResult[]> {
  const sandbox = agent.baseUrl
  return [
    await rebindingReadsRecords(sandbox),
    await rebindingPostsMissedCall(sandbox, ASHA),
    await rebindingReadsAgent(agent.metricsUrl, '/metrics'),
    await rebindingReadsAgent(agent.metricsUrl, '/health'),
  ]
}

async function floodAttack(): Promise<{ result: AttackResult; peakRssMb: number | undefined }> {
  const leads = async (): Promise<number> => {
    const text = await (await fetch(`${agent.metricsUrl}/metrics`)).text()
    const line = text.split('\n').find((l) => l.startsWith('logx_agent_sandbox_records '))
    return Number(line?.split(' ')[1] ?? Number.NaN)
  }
  const result = await crossOriginLeadFlood(`${agent.baseUrl}/webhooks/lead/sandbox`, {
    count: 150,
    bytes: 1_000_000,
    storedCount: leads,
  })
  return { result, peakRssMb: peakRssOf(agent.child.pid ?? 0) }
}

async function offLoopbackAttacks(): Promise<AttackResult[]> {
  const cliSandbox = await cli(['sandbox', '--host', '0.0.0.0', '--port', '0'])
  const other = join(dir, 'remote.yaml')
  writeFileSync(other, readFileSync(configFile, 'utf8').replace('127.0.0.1:0"', '0.0.0.0:0"'))
  const validated = await cli(['validate', other])
  return [
    attack('logx-agent sandbox --host 0.0.0.0 listens', cliSandbox.code === 0, cliSandbox.out.slice(0, 160)),
    attack('a config with the sandbox on 0.0.0.0 passes validate', validated.code === 0, validated.out.slice(0, 160)),
  ]
}

async function patternAttacks(): Promise<AttackResult[]> {
  const api = await agent.console('/api/silences', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ matchers: { msg: '/^(a+)+$/' }, duration: '1h' }),
  })
  const byCli = await cli(['silence', '--config', configFile, '--match', 'msg=/^(a+)+$/', '--for', '1h'])
  return [
    attack('POST /api/silences with /^(a+)+$/', api.status < 300, `${api.status}`),
    attack('logx-agent silence --match msg=/^(a+)+$/', byCli.code === 0, byCli.out.slice(0, 160)),
  ]
}

/** A listener on `port` that records the headers of every request it gets. */
async function impostor(port: number): Promise<{ seen: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const seen: IncomingHttpHeaders[] = []
  const server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"incidents":[]}')
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  return { seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

async function staleConsoleAttacks(): Promise<AttackResult[]> {
  const token = readFileSync(join(state, 'console.token'), 'utf8').trim()
  const addressFile = join(state, 'console.json')
  const written = JSON.parse(readFileSync(addressFile, 'utf8')) as { url: string; pid: number; key: string }
  await agent.kill('SIGKILL')
  const port = Number(new URL(written.url).port)
  const holder = await impostor(port)
  try {
    const dead = await cli(['incidents', '--config', configFile])
    const afterDead = holder.seen.length
    // console.json names a live pid (this test's), but the listener cannot prove it holds the key.
    writeFileSync(addressFile, JSON.stringify({ ...written, pid: process.pid }), { mode: 0o600 })
    const live = await cli(['incidents', '--config', configFile])
    const carried = (headers: IncomingHttpHeaders) => JSON.stringify(headers).includes(token)
    return [
      attack('the CLI talks to a dead agent’s port', afterDead > 0, `${dead.code} ${dead.out.slice(0, 120)}`),
      attack(
        'the CLI sends the token to a listener that is not the agent',
        holder.seen.some(carried) || live.code === 0,
        `${live.code} ${live.out.slice(0, 120)}`,
      ),
    ]
  } finally {
    await holder.close()
  }
}

test('hostile neighbours get nothing from the agent, its sandbox or its command line', async ({ task }) => {
  const started = Date.now()
  const attacks: AttackResult[] = []
  attacks.push(...(await consoleAttacks()))
  attacks.push(...(await rebindingAttacks()))
  const flood = await floodAttack()
  attacks.push(flood.result)
  attacks.push(...(await offLoopbackAttacks()))
  attacks.push(...(await patternAttacks()))
  // The agent still answers its own line after all of that.
  appendFileSync(join(logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'cache gone' })}\n`)
  await pollUntil('the agent alerting after the attacks', async () =>
    smsTexts(await records(agent.baseUrl, 'sms')).some((text) => text.includes('cache gone')),
  )
  attacks.push(...(await staleConsoleAttacks()))
  const succeeded = attacks.filter((a) => a.succeeded)
  recordDrill(task, {
    drill: 'hostile neighbours',
    events: attacks.length,
    unit: 'attacks',
    lost: succeeded.length,
    duplicated: 0,
    peakRssMb: flood.peakRssMb,
    timeMs: Date.now() - started,
    notes: succeeded.map((a) => a.attack).join('; ') || undefined,
  })
  expect(succeeded).toEqual([])
  // 150 MB posted: the agent holds none of it (the goal is pm2's 200 MB restart line, with room).
  expect(flood.peakRssMb ?? 0).toBeLessThan(150)
}, 180_000)
