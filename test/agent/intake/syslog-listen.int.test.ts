// The syslog intake with real senders: util-linux `logger` over UDP and TCP (both RFCs, both framings),
// rsyslogd forwarding a file with omfwd, a TLS client with a certificate, and a sink that makes TCP wait.
// Skips loudly without `logger` or `rsyslogd` (.ci/run installs bsdutils and rsyslog).
import { execFile, spawn, spawnSync } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { connect as connectTls } from 'node:tls'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import type { IntakeSourceConfig, IntakeTlsConfig } from '../../../agent/config/types'
import { createSecret } from '../../../agent/config/values/secret'
import { IntakeBusyError } from '../../../agent/intake/errors'
import { createSyslogIntake, SYSLOG_MAX_QUEUED } from '../../../agent/intake/syslog'
import type { IntakeCounters, IntakeEvent, IntakeSink, RunningStreamIntake } from '../../../agent/intake/types'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'
import { hasOpenssl, makePki } from '../../helpers/test-pki'

const run = promisify(execFile)
const hasLogger = spawnSync('logger', ['--version']).status === 0
const hasRsyslog = spawnSync('rsyslogd', ['-v']).status === 0
if (!hasLogger) console.warn('SKIPPED: syslog intake tests with logger: util-linux `logger` not found (apt bsdutils)')
if (!hasRsyslog) console.warn('SKIPPED: syslog intake test with rsyslog: `rsyslogd` not found (apt rsyslog)')

interface RecordingSink extends IntakeSink {
  events: IntakeEvent[]
  /** While true, busy() says so and accept() refuses as the real sink does past the outbox's bound. */
  busyNow: boolean
  /** What lowestLevel() says: 0 keeps every frame. */
  lowest: number
  refusedBusy: number
  largestBatch: number
}

function recordingSink(): RecordingSink {
  const sink: RecordingSink = {
    events: [],
    busyNow: false,
    lowest: 0,
    refusedBusy: 0,
    largestBatch: 0,
    busy: () => sink.busyNow,
    lowestLevel: () => sink.lowest,
    countPassed() {},
    accept(events) {
      sink.largestBatch = Math.max(sink.largestBatch, events.length)
      if (sink.busyNow) {
        sink.refusedBusy++
        return Promise.reject(new IntakeBusyError(0))
      }
      sink.events.push(...events)
      return Promise.resolve()
    },
  }
  return sink
}

const silentLog = { info() {}, warn() {}, error() {} }
const counters = (): IntakeCounters => ({ request() {}, accepted() {}, refused() {} })
const running: RunningStreamIntake[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((intake) => intake.close()))
})

interface StartOptions {
  protocol?: 'tcp' | 'udp' | 'both'
  maxLineBytes?: number
  tls?: IntakeTlsConfig
  accepted?: { count: number }
}

async function start(sink: IntakeSink, options: StartOptions = {}): Promise<{ port: number; urls: string[] }> {
  const protocol = options.protocol ?? 'both'
  const source = {
    name: 'net',
    type: 'syslog',
    paths: [],
    intake: {
      listen: { host: '127.0.0.1', port: 0 },
      token: undefined,
      tls: options.tls,
      maxBodyBytes: 1024,
      rateLimit: { requests: 100, perMs: 1000 },
      paths: [],
      syslog: { tcp: protocol !== 'udp', udp: protocol !== 'tcp', maxLineBytes: options.maxLineBytes ?? 65536 },
    },
  } as unknown as IntakeSourceConfig
  const metrics = counters()
  const tally = options.accepted
  if (tally !== undefined)
    metrics.accepted = (events: number) => {
      tally.count += events
    }
  const intake = await createSyslogIntake({ source, sink, log: silentLog, metrics })
  running.push(intake)
  const port = Number(new URL(intake.urls[0] as string).port)
  return { port, urls: [...intake.urls] }
}

const logger = (port: number, ...args: string[]) => run('logger', ['-n', '127.0.0.1', '-P', String(port), ...args])
const messages = (sink: RecordingSink) => sink.events.map((event) => event.line.msg)

describe.skipIf(!hasLogger)('syslog intake with logger', () => {
  it('takes RFC 5424 over UDP: level from severity, header fields and structured data', async () => {
    const sink = recordingSink()
    const { port, urls } = await start(sink)
    expect(urls).toEqual([`tcp://127.0.0.1:${port}`, `udp://127.0.0.1:${port}`])
    await logger(
      port,
      '--udp',
      '--rfc5424',
      '-t',
      'billing',
      '-p',
      'local0.err',
      '--msgid',
      'PAY1',
      '--sd-id',
      'order@32473',
      '--sd-param',
      'id="A-17"',
      'card declined',
    )
    const event = await pollUntil('the UDP message', () => sink.events.find((e) => e.line.msg === 'card declined'))
    expect(event.line).toMatchObject({ level: 50, source: 'net', json: false })
    expect(event.line.record).toMatchObject({
      facility: 'local0',
      severity: 3,
      app_name: 'billing',
      msgid: 'PAY1',
      structured_data: { 'order@32473': { id: 'A-17' } },
    })
    expect(typeof event.line.record.hostname).toBe('string')
  })

  it('takes RFC 3164 over TCP, newline framing and octet counting', async () => {
    const sink = recordingSink()
    const { port } = await start(sink, { protocol: 'tcp' })
    await logger(port, '--tcp', '--rfc3164', '-t', 'cron', '-i', '-p', 'daemon.crit', 'disk full')
    await logger(port, '--tcp', '--octet-count', '--rfc5424', '-t', 'api', '-p', 'user.warning', 'slow')
    await pollUntil('both TCP messages', () => sink.events.length >= 2)
    const [first, second] = sink.events
    expect(first?.line).toMatchObject({ msg: 'disk full', level: 60 })
    expect(first?.line.record).toMatchObject({ app_name: 'cron', facility: 'daemon' })
    expect(first?.line.record.procid).toMatch(/^\d+$/)
    expect(second?.line).toMatchObject({ msg: 'slow', level: 40 })
  })

  it('cuts a message over max_line_bytes and keeps reading the connection', async () => {
    const sink = recordingSink()
    const { port } = await start(sink, { protocol: 'tcp', maxLineBytes: 200 })
    const socket = await openTcp(port)
    socket.end(`<11>1 - h app - - - ${'x'.repeat(5000)}\n<11>1 - h app - - - after\n`)
    await pollUntil('both frames', () => sink.events.length >= 2)
    expect(sink.events[0]?.line.raw).toHaveLength(200)
    expect(messages(sink)[1]).toBe('after')
  })
})

describe('syslog intake below every rule', () => {
  it('drops frames below the lowest level unparsed over both framings and UDP, and counts them taken', async () => {
    const sink = recordingSink()
    sink.lowest = 50
    const accepted = { count: 0 }
    const { port } = await start(sink, { accepted })
    const lines = Array.from({ length: 300 }, (_, i) => `<${i % 3 === 0 ? 11 : 14}>1 - h app - - - line ${i}\n`)
    const newline = await openTcp(port)
    newline.end(lines.join('') + 'no priority at all\n')
    const counted = await openTcp(port)
    const frames = ['<12>1 - h app - - - a warning', '<10>1 - h app - - - critical', '<9999>1 - h - - - - odd']
    counted.end(frames.map((frame) => `${Buffer.byteLength(frame)} ${frame}`).join(''))
    await logger(port, '--udp', '--rfc5424', '-p', 'user.info', 'quiet')
    await logger(port, '--udp', '--rfc5424', '-p', 'user.err', 'loud')
    await pollUntil('every line counted', () => accepted.count === 301 + 3 + 2)
    // Errors (severity <= 3) and what has no readable PRI reach the alert path; the rest never do.
    expect(sink.events.filter((event) => event.line.msg.startsWith('line '))).toHaveLength(100)
    expect(new Set(messages(sink))).toEqual(
      new Set(
        [...Array.from({ length: 100 }, (_, i) => `line ${i * 3}`), 'no priority at all', 'critical'].concat([
          '<9999>1 - h - - - - odd',
          'loud',
        ]),
      ),
    )
  })
})

describe('syslog intake over TCP under backpressure', () => {
  it('pauses while the sink is busy, offers a refused batch again, and loses nothing', async () => {
    const sink = recordingSink()
    sink.busyNow = true
    const { port } = await start(sink, { protocol: 'tcp' })
    const socket = await openTcp(port)
    const total = 200_000
    socket.end(Array.from({ length: total }, (_, i) => `<11>1 - h app - - - line ${i}\n`).join(''))
    await pollUntil('busy refusals for a while', () => sink.refusedBusy >= 25)
    expect(sink.events).toHaveLength(0)
    sink.busyNow = false
    await pollUntil('every line', () => sink.events.length === total, { timeoutMs: 30_000 })
    expect(messages(sink).slice(0, 2)).toEqual(['line 0', 'line 1'])
    expect(messages(sink).at(-1)).toBe(`line ${total - 1}`)
    // Paused, not buffered: no batch held much more than the queue's bound (one read's worth more).
    expect(sink.largestBatch).toBeLessThan(SYSLOG_MAX_QUEUED + 5000)
  })

  it('closes a connection whose octet-counting length is unreadable, keeping what came before', async () => {
    const sink = recordingSink()
    const { port } = await start(sink, { protocol: 'tcp' })
    const socket = await openTcp(port)
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write('11 <11>1 - h a12x <11>oops')
    await closed
    await pollUntil('the frame before the bad length', () => sink.events.length === 1)
    expect(sink.events[0]?.line.raw).toBe('<11>1 - h a')
  })
})

describe.skipIf(!hasOpenssl)('syslog intake over TLS (RFC 5425)', () => {
  it('takes octet-counted frames from a client with a certificate, and refuses one without', async () => {
    const pki = makePki(tempDir('syslog-tls'))
    const sink = recordingSink()
    const tls: IntakeTlsConfig = { cert: pki.serverCert, key: createSecret(pki.serverKey), clientCa: pki.caCert }
    const { port, urls } = await start(sink, { protocol: 'tcp', tls })
    expect(urls).toEqual([`tls://127.0.0.1:${port}`])
    const client = connectTls({
      port,
      host: '127.0.0.1',
      ca: pki.caCert,
      cert: pki.clientCert,
      key: pki.clientKey,
      servername: 'localhost',
    })
    await new Promise((resolve) => client.once('secureConnect', resolve))
    const frame = '<10>1 - h vault - - - sealed'
    client.end(`${Buffer.byteLength(frame)} ${frame}`)
    await pollUntil('the TLS frame', () => sink.events.length === 1)
    expect(sink.events[0]?.line).toMatchObject({ msg: 'sealed', level: 60 })

    const stranger = connectTls({ port, host: '127.0.0.1', ca: pki.caCert, servername: 'localhost' })
    stranger.on('error', () => undefined)
    stranger.write('13 <10>1 - h x - - - no')
    await new Promise((resolve) => stranger.once('close', resolve))
    expect(sink.events).toHaveLength(1)
  })
})

describe.skipIf(!hasRsyslog)('syslog intake with rsyslog forwarding a file (imfile -> omfwd)', () => {
  it("takes each line of the file, in order, with rsyslog's header", async () => {
    const sink = recordingSink()
    const { port } = await start(sink, { protocol: 'tcp' })
    const dir = tempDir('syslog-rsyslog')
    const log = join(dir, 'app.log')
    writeFileSync(log, '')
    const config = rsyslogConfig(dir, log, port)
    writeFileSync(join(dir, 'rsyslog.conf'), config)
    const rsyslog = spawn('rsyslogd', ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslog.pid')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    rsyslog.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    try {
      for (let i = 0; i < 100; i++) appendFileSync(log, `payment ${i} failed\n`)
      await pollUntil(`100 lines through rsyslog (stderr: ${stderr})`, () => sink.events.length >= 100, {
        timeoutMs: 20_000,
      })
    } finally {
      rsyslog.kill('SIGTERM')
    }
    expect(messages(sink).slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => `payment ${i} failed`))
    expect(sink.events[0]?.line).toMatchObject({ level: 50 })
    expect(sink.events[0]?.line.record).toMatchObject({ app_name: 'payments', facility: 'local3' })
  })
})

function rsyslogConfig(dir: string, log: string, port: number): string {
  return [
    `global(workDirectory="${dir}")`,
    'module(load="imfile")',
    `input(type="imfile" file="${log}" tag="payments" severity="error" facility="local3")`,
    `action(type="omfwd" target="127.0.0.1" port="${port}" protocol="tcp" tcp_framing="octet-counted"`,
    '  template="RSYSLOG_SyslogProtocol23Format")',
    '',
  ].join('\n')
}

function openTcp(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}
