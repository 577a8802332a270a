// Drill: hostile input. Two layers.
// (a) In-process, property-based (fast-check): alert-line parsing and the alerts engine take
//     malformed JSON, invalid UTF-8, NUL bytes, deep nesting, prototype-named keys and template
//     placeholders without throwing, polluting Object.prototype or expanding anything; a flood of
//     distinct incidents stays within the engine's bound; broken configs and garbage transport
//     options give errors that name their place.
// (b) A real agent fed a file mixing all of that with 10 MB lines and valid error lines: it stays up,
//     every valid line's alert arrives, what it skipped is counted and said (file and offset), its
//     RSS stays bounded; a broken config reload is rejected with file:line:col and the old config
//     keeps alerting; `logx-agent validate` on broken configs exits 1 with no stack trace.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import logx from 'logx'
import { afterEach, describe, expect, test } from 'vitest'
import { MAX_DEPTH, type Delivery } from '../../alerts'
import { createTestEngine } from '../alerts/helpers'
import { parseAgentConfig } from '../../agent/config/load/load-config'
import { toAlertLine } from '../../agent/events/alert-line'
import { normalizeChatOptions } from '../../agent/transports/chat/options'
import { normalizeIncidentOptions } from '../../agent/transports/incident/options'
import { normalizeMailOptions } from '../../agent/transports/mail/options'
import { TransportError } from '../../agent/transports/shared/errors'
import { normalizeSmsOptions } from '../../agent/transports/sms/options'
import { normalizeTailFilterOptions } from '../../agent/transports/tail-filter/options'
import { normalizeVoiceOptions } from '../../agent/transports/voice/options'
import {
  createWorkspace,
  metric,
  records,
  recordsWhen,
  spawnAgent,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from '../agent/daemon/helpers'
import {
  brokenConfig,
  hostileLine,
  hostileText,
  nested,
  objectText,
  PLACEHOLDERS,
  polluted,
  PROBLEM_LINE,
  PROTO_KEYS,
  prototypeSnapshot,
  STACK_LINE,
} from './lib/hostile'
import { peakRssOf, recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const FORMATS = ['json', 'text', 'auto'] as const

function messagesText(deliveries: readonly Delivery[]): string {
  return JSON.stringify(deliveries.map((d) => d.message))
}

describe('hostile input, in-process (property-based)', () => {
  test('alert lines, the engine, configs and transport options take anything', async ({ task }) => {
    const started = Date.now()
    const before = prototypeSnapshot()
    let cases = 0
    let failures = 0
    const count = <T>(run: () => T): T => {
      cases++
      try {
        return run()
      } catch (err) {
        failures++
        throw err
      }
    }
    const engineOf = () =>
      createTestEngine({
        channels: [
          { type: 'sms', template: '{{msg}}|{{polluted}}|{{isAdmin}}', max_length: 100_000 },
          { type: 'chat', variables: ['{{msg}}', '{{rule}}', '{{polluted}}'] },
          { type: 'mail' },
          { type: 'incident' },
        ],
        rules: [
          { name: 'by-id', group_by: ['id'], match: { kind: 'flood' } },
          { name: 'all', level: 'trace' },
        ],
        redact: ['user.password'],
        secrets: ['sk-drill-secret-0001'],
      })

    // 1. Any bytes, any format: a line, never a throw; the record is a plain object.
    const engine = engineOf()
    let now = 1_700_000_000_000
    fc.assert(
      fc.property(hostileLine(), fc.constantFrom(...FORMATS), (bytes, format) =>
        count(() => {
          const { line } = toAlertLine(bytes.toString('utf8'), format, 'app')
          expect(typeof line.msg).toBe('string')
          expect(Object.getPrototypeOf(line.record)).toBe(Object.prototype)
          expect(line.level === undefined || typeof line.level === 'number').toBe(true)
          now += 1000
          const sent = [...engine.ingest(line, now), ...engine.tick(now)]
          // Prototype-named keys stay data: no rendered message gains a field from them.
          for (const d of sent) {
            if (d.message.type === 'sms') expect(d.message.text.endsWith('||')).toBe(true)
            if (d.message.type === 'chat') expect(d.message.variables[2]).toBe('')
          }
        }),
      ),
      { numRuns: 1500, seed: 7 },
    )
    count(() => engine.flush(now))

    // 2. 100,000 levels of nesting, objects and arrays, under every format: alerts, no overflow.
    for (const kind of ['object', 'array'] as const) {
      for (const format of FORMATS) {
        count(() => {
          const e = engineOf()
          const { line } = toAlertLine(`{"level":50,"msg":"deep ${kind}","x":${nested(100_000, kind)}}`, format, 'app')
          const sent = e.ingest(line, now)
          // As text, the whole line is the message; parsed, the deep part is a short marker.
          if (format !== 'text') {
            expect(sent.map((d) => d.channelType).sort()).toEqual(['chat', 'incident', 'mail', 'sms'])
            expect(messagesText(sent).length).toBeLessThan(10_000 + MAX_DEPTH * 20)
          }
        })
      }
    }

    // 3. Placeholders inside log values come out literally, never expanded.
    fc.assert(
      fc.property(hostileText(), fc.constantFrom(...PLACEHOLDERS), (text, placeholder) =>
        count(() => {
          const e = engineOf()
          const msg = `${text}${placeholder}`
          const sent = e.ingest(JSON.stringify({ level: 50, msg, rule: 'INJECTED', title: 'INJECTED' }), now)
          const chat = sent.find((d) => d.message.type === 'chat')?.message
          expect(chat).toMatchObject({ variables: [msg, 'all', ''] })
        }),
      ),
      { numRuns: 500, seed: 11 },
    )

    // 4. Prototype-named keys at any depth: Object.prototype untouched, no field gained.
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PROTO_KEYS), { minLength: 1, maxLength: 4 }), (keys) =>
        count(() => {
          const e = engineOf()
          let value = objectText([
            ['polluted', '"yes"'],
            ['isAdmin', 'true'],
          ])
          for (const key of keys) value = objectText([[key, value]])
          const sent = e.ingest(`{"level":50,"msg":"proto","id":1,${value.slice(1)}`, now)
          expect(sent.find((d) => d.message.type === 'sms')?.message).toEqual({ type: 'sms', text: 'proto||' })
          expect(polluted()).toEqual([])
        }),
      ),
      { numRuns: 300, seed: 13 },
    )

    // 5. A flood of distinct incidents: the engine holds at most maxIncidents and counts the rest.
    const flood = createTestEngine({
      channels: [{ type: 'sms', max_per_hour: 10 }],
      rules: [{ name: 'by-id', group_by: ['id'] }],
      maxIncidents: 10_000,
    })
    const heapBefore = process.memoryUsage().heapUsed
    const distinct = 200_000
    for (let i = 0; i < distinct; i++) flood.ingest(`{"level":50,"msg":"flood","id":${i}}`, now + i)
    const stats = flood.stats()
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6
    expect(stats.openIncidents).toBe(10_000)
    expect(stats.evicted).toBe(distinct - 10_000)

    // 6. Broken configs: problems with file:line:col and a path, never an exception.
    fc.assert(
      fc.property(brokenConfig(), (text) =>
        count(() => {
          const result = parseAgentConfig(text, 'agent.yaml', { env: {}, cwd: '/srv/app', readSecretFile: () => 'x' })
          if (result.ok) return
          expect(result.problems.length).toBeGreaterThan(0)
          for (const p of result.problems) {
            expect(p.line).toBeGreaterThanOrEqual(1)
            expect(p.col).toBeGreaterThanOrEqual(1)
            expect(p.message.length).toBeGreaterThan(0)
          }
        }),
      ),
      { numRuns: 800, seed: 17 },
    )

    // 7. Garbage transport options: a TransportError naming the option, never a TypeError.
    const normalizers: [string, (raw: unknown) => unknown][] = [
      ['logx-sms-alert', (raw) => normalizeSmsOptions(raw, {})],
      ['logx-chat-alert', (raw) => normalizeChatOptions(raw, {})],
      ['logx-mail-alert', (raw) => normalizeMailOptions(raw, {})],
      ['logx-voice-alert', (raw) => normalizeVoiceOptions(raw, {})],
      ['logx-incident', (raw) => normalizeIncidentOptions(raw, {})],
      ['logx-tail-filter', (raw) => normalizeTailFilterOptions(raw)],
    ]
    const garbage = fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.constantFrom(
          'numbers',
          'rules',
          'silences',
          'redact',
          'templateId',
          'receivers',
          'audio',
          'to',
          'from',
          'maxPerHour',
          'outbox',
          'tickMs',
          '__proto__',
        ),
        fc.anything(),
      ),
      fc.record({
        rules: fc.array(
          fc.dictionary(
            fc.constantFrom('name', 'level', 'fields', 'msg', 'group_by', 'group_wait', 'threshold', 'escalation'),
            fc.anything(),
          ),
        ),
      }),
    )
    fc.assert(
      fc.property(fc.constantFrom(...normalizers), garbage, ([target, normalize], raw) =>
        count(() => {
          try {
            normalize(raw)
          } catch (err) {
            expect(err).toBeInstanceOf(TransportError)
            expect((err as Error).message).toMatch(new RegExp(`^${target}: options\\.`))
          }
        }),
      ),
      { numRuns: 1000, seed: 19 },
    )

    const after = prototypeSnapshot()
    recordDrill(task, {
      drill: 'hostile input (in-process)',
      events: cases,
      unit: 'cases',
      lost: failures,
      duplicated: 0,
      timeMs: Date.now() - started,
      notes: `200k distinct incidents: ${stats.openIncidents} held, ${stats.evicted} evicted, heap +${heapGrowthMb.toFixed(0)} MB`,
    })
    expect(after).toBe(before)
    expect(polluted()).toEqual([])
    expect(heapGrowthMb).toBeLessThan(300)
  })

  test('garbage options of a logx transport: an error naming the option path', async () => {
    const errors: string[] = []
    const api = { messagingUrl: 'http://127.0.0.1:9', apiKey: 'sk-drill-opt-7' }
    const garbageOptions: unknown[] = [
      42,
      'numbers',
      [api],
      { ...api, numbers: 'nope' },
      { ...api, numbers: [919800000001], rules: [{ level: {} }] },
      { ...api, numbers: [919800000001], maxPerHour: -3 },
      { ...api, numbers: [919800000001], silences: 'x' },
    ]
    for (const options of garbageOptions) {
      // Garbage on purpose: the options type would not let it through.
      const logger = logx({ transport: { target: 'logx-sms-alert', options: options as Record<string, unknown> } })
      const stream = (logger as unknown as Record<symbol, NodeJS.EventEmitter>)[
        logx.symbols.streamSym
      ] as NodeJS.EventEmitter
      const message = await new Promise<string>((resolve) => stream.once('error', (err: Error) => resolve(err.message)))
      errors.push(message)
    }
    for (const message of errors) {
      expect(message).toMatch(/logx-sms-alert: options\.\S+: /)
      expect(message).not.toContain('sk-drill-opt-7')
    }
  })
})

describe('hostile input, a real agent', () => {
  let ws: Workspace | undefined
  let agent: RunningAgent | undefined
  afterEach(async () => {
    await agent?.kill('SIGKILL')
    agent = undefined
    ws?.remove()
    ws = undefined
  })

  const config = (extra = ''): string =>
    [
      'messaging:',
      '  sandbox:',
      '    listen: 127.0.0.1:0',
      `state_dir: ${ws!.state}`,
      'sources:',
      '  - name: app',
      `    paths: [${ws!.logs}/*.log]`,
      '    format: auto',
      '    start_at: beginning',
      // Room for 100,000 levels of nesting (600 KB) in one line; the 10 MB lines are still cut.
      '    max_line_bytes: 1048576',
      'channels:',
      '  drill-sms:',
      '    type: sms',
      '    numbers: [919800000001]',
      '    template: "{{alert_id}} {{msg}}"',
      '    max_length: 400',
      // Mail bodies list the line's fields: the deep lines' fields go through JSON.stringify.
      '  drill-mail:',
      '    type: mail',
      '    from: agent@example.com',
      '    to: ops@example.com',
      '  flood-chat:',
      '    type: chat',
      '    numbers: ["+919800000002"]',
      '    template_id: 7',
      '    max_per_hour: 5',
      'rules:',
      '  - name: valid',
      '    match: { drill: valid }',
      '    group_by: [alert_id]',
      '    notify: [drill-sms, drill-mail]',
      '  - name: flood',
      '    match: { drill: flood }',
      '    group_by: [id]',
      '    notify: flood-chat',
      'redact: [user.password]',
      'metrics:',
      '  listen: 127.0.0.1:0',
      extra,
    ].join('\n')

  test('stays up, alerts every valid line, counts and says what it skipped', async ({ task }) => {
    const started = Date.now()
    ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    const file = join(ws.logs, 'app.log')
    writeFileSync(file, '')
    ws.writeConfig(config())
    agent = await startAgentProcess(ws.config)

    // Valid error lines carry an alert_id; each must arrive as one SMS. Hostile ones between them.
    const expected = new Map<string, string>()
    const valid = (id: string, msg: string, extra = ''): string => {
      expected.set(id, msg)
      return `{"level":50,"drill":"valid","alert_id":"${id}","msg":${JSON.stringify(msg)}${extra}}`
    }
    const hostile = fc.sample(hostileLine(), { numRuns: 1500, seed: 23 })
    const chunks: Buffer[] = []
    let validLines = 0
    const TEN_MB = 10 * 1024 * 1024
    let bigLines = 0
    for (let i = 0; i < hostile.length; i++) {
      // A hostile line may hold '\n' bytes: they only make more hostile lines.
      chunks.push(hostile[i] as Buffer, Buffer.from('\n'))
      if (i % 10 === 0) {
        const id = `v${i}`
        const kind = (i / 10) % 6
        const line =
          kind === 0
            ? valid(id, `plain error ${i}`)
            : kind === 1
              ? valid(id, `inject ${PLACEHOLDERS[i % PLACEHOLDERS.length]} {{rule}} \${HOME}`)
              : kind === 2
                ? valid(id, `deep ${i}`, `,"x":${nested(100_000, i % 20 === 0 ? 'array' : 'object')}`)
                : kind === 3
                  ? valid(
                      id,
                      `proto ${i}`,
                      ',"__proto__":{"alert_id":"hijacked","drill":"flood"},"constructor":{"prototype":{"alert_id":"x"}}',
                    )
                  : kind === 4
                    ? valid(id, `nul \u0000 byte ${i}`)
                    : `{"level":50,"drill":"valid","alert_id":"${id}","msg":"bad utf8 \xff\xfe ${i}"}`
        if (kind === 5) expected.set(id, `bad utf8 \ufffd\ufffd ${i}`)
        chunks.push(kind === 5 ? Buffer.from(line, 'latin1') : Buffer.from(line), Buffer.from('\n'))
        validLines++
      }
      if (i % 500 === 250) {
        // A 10 MB line: cut at max_line_bytes, counted, not fatal.
        chunks.push(
          Buffer.from(`{"level":50,"drill":"valid","alert_id":"big${i}","msg":"`),
          Buffer.alloc(TEN_MB, 'x'),
          Buffer.from('"}\n'),
        )
        bigLines++
      }
    }
    // Distinct incidents, more than the flood channel's budget: folded into digests, nothing thrown.
    const floodLines = 2000
    for (let i = 0; i < floodLines; i++)
      chunks.push(Buffer.from(`{"level":50,"drill":"flood","id":${i},"msg":"flood"}\n`))
    // The last valid line comes after everything else.
    chunks.push(Buffer.from(`${valid('last', 'the last line')}\n`))
    validLines++
    appendFileSync(file, Buffer.concat(chunks))

    let peak = 0
    const sample = (): void => {
      peak = Math.max(peak, peakRssOf(agent!.child.pid!) ?? 0)
    }
    const smsIds = (all: Awaited<ReturnType<typeof records>>): Map<string, string> => {
      const out = new Map<string, string>()
      for (const r of all) {
        if (r.kind !== 'sms') continue
        const text = String(r.record.sms)
        const id = text.slice(0, text.indexOf(' '))
        if (expected.has(id)) out.set(id, (out.get(id) ?? '') + '\n' + text)
      }
      return out
    }
    // Until every valid line's SMS is in, or the agent says a source stopped (then the figures tell).
    let arrived: Awaited<ReturnType<typeof records>> = []
    let stoppedSource = ''
    await pollUntil(
      'every valid line as an SMS, or a failed source',
      async () => {
        sample()
        arrived = await records(agent!.baseUrl)
        if (smsIds(arrived).size === expected.size) return true
        const h = (await (await fetch(`${agent!.metricsUrl}/health`)).json()) as { ok: boolean; failed: unknown[] }
        if (!h.ok) stoppedSource = JSON.stringify(h.failed)
        return h.ok ? undefined : true
      },
      { timeoutMs: 90_000 },
    ).catch(() => {})
    sample()
    const ids = smsIds(arrived)
    const smsRecords = arrived.filter((r) => r.kind === 'sms' && expected.has(String(r.record.sms).split(' ')[0] ?? ''))
    const lost = [...expected.keys()].filter((id) => !ids.has(id))
    const duplicated = smsRecords.length - ids.size
    // Injection: the text is the line's own, placeholders literal.
    const literal = [...expected].filter(
      ([id, msg]) => !(ids.get(id) ?? '').includes(`${id} ${msg.replace(/\s+/g, ' ').trim()}`),
    )

    const health = (await (await fetch(`${agent.metricsUrl}/health`)).json()) as { ok: boolean }
    const truncated = await metric(agent.metricsUrl, 'logx_agent_truncated_lines_total')
    const parseErrors = await metric(agent.metricsUrl, 'logx_agent_parse_errors_total')
    // Every valid and flood line was selected, and nothing else: no hostile line turned into a match.
    const matches = await metric(agent.metricsUrl, 'logx_agent_matches_total')
    const engineFailures = await metric(agent.metricsUrl, 'logx_agent_lines_failed_total')
    if (stoppedSource === '')
      await pollUntil('the skipped lines in the log', () =>
        /longer than max_line_bytes/.test(agent!.output()) ? true : undefined,
      ).catch(() => {})
    const logLines = agent
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const cutLogged = logLines.filter((l) => String(l.msg).includes('longer than max_line_bytes'))
    const parseLogged = logLines.filter((l) => String(l.msg).includes('not valid JSON'))

    recordDrill(task, {
      drill: 'hostile input (agent)',
      events: hostile.length + validLines + bigLines + floodLines,
      unit: 'lines',
      lost: lost.length,
      duplicated,
      peakRssMb: peak,
      timeMs: Date.now() - started,
      notes: `${validLines} valid alerts, ${bigLines} 10 MB lines cut, ${parseErrors} parse errors, ${floodLines} distinct incidents`,
    })
    expect(stoppedSource).toBe('')
    expect(lost).toEqual([])
    expect(duplicated).toBe(0)
    expect(literal).toEqual([])
    expect(health.ok).toBe(true)
    expect(matches).toBe(expected.size + floodLines)
    expect(engineFailures).toBe(0)
    expect(truncated).toBe(bigLines)
    expect(parseErrors).toBeGreaterThan(0)
    expect(cutLogged).toHaveLength(bigLines)
    for (const l of cutLogged) expect(l).toMatchObject({ path: file, endOffset: expect.any(Number) })
    expect(parseLogged.length).toBeGreaterThan(0)
    expect(parseLogged[0]).toMatchObject({ path: file, firstEndOffset: expect.any(Number) })
    expect(peak).toBeLessThan(300)
  })

  test('a broken config reload is rejected with file:line:col, the old config keeps alerting', async ({ task }) => {
    const started = Date.now()
    ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    const file = join(ws.logs, 'app.log')
    writeFileSync(file, '')
    ws.writeConfig(config())
    agent = await startAgentProcess(ws.config)
    const broken = fc
      .sample(brokenConfig(), { numRuns: 200, seed: 29 })
      .filter((text) => {
        const result = parseAgentConfig(text, ws!.config, { env: {}, cwd: ws!.dir })
        return !result.ok
      })
      .slice(0, 4)
    // One of each kind: a YAML syntax error, an alias without its anchor, bad values, then generated breakages.
    const cases = [
      `${config()}\n  - [unclosed\n`,
      config().replace('    format: auto', '    format: *no_such_anchor'),
      config().replace('group_by: [alert_id]', 'group_by: alert_id\n    group_wait: soon'),
      ...broken,
    ]
    let rejected = 0
    let lost = 0
    for (const [i, text] of cases.entries()) {
      const before = agent.errors().length
      writeFileSync(ws.config, text)
      agent.child.kill('SIGHUP')
      await pollUntil('the reload rejected', () =>
        agent!.errors().slice(before).includes('config reload rejected') ? true : undefined,
      )
      rejected++
      const said = agent
        .errors()
        .slice(before)
        .split('\n')
        .filter((l) => l.startsWith('  '))
      expect(said.length).toBeGreaterThan(0)
      for (const l of said) expect(l.trim()).toMatch(PROBLEM_LINE)
      expect(agent.errors()).not.toMatch(STACK_LINE)
      // The old config still alerts.
      appendFileSync(file, `{"level":50,"drill":"valid","alert_id":"after${i}","msg":"after reload ${i}"}\n`)
      try {
        await recordsWhen(
          agent.baseUrl,
          `the alert after bad reload ${i}`,
          (all) => all.some((r) => r.kind === 'sms' && String(r.record.sms).startsWith(`after${i} `)),
          20_000,
        )
      } catch {
        lost++
      }
    }
    const failures = await metric(agent.metricsUrl, 'logx_agent_config_reload_failures_total')

    // `logx-agent validate` on generated broken configs: exit 1, problems as file:line:col, no stack.
    const validateCases = [
      ...fc.sample(brokenConfig(), { numRuns: 7, seed: 31 }),
      'sources: *nope\nchannels: { s: { type: sms, numbers: [1] } }\n',
    ]
    let crashes = 0
    for (const [i, text] of validateCases.entries()) {
      const path = join(ws.dir, `broken-${i}.yaml`)
      writeFileSync(path, text)
      const run = spawnAgent(['validate', path], { cwd: ws.dir })
      const code = await run.exited
      const said = run.errors().trim().split('\n')
      const summary = said.pop() ?? ''
      const ok =
        code === 0 ||
        (code === 1 &&
          said.length > 0 &&
          said.every((l) => PROBLEM_LINE.test(l)) &&
          /: \d+ problems?$/.test(summary) &&
          !STACK_LINE.test(run.errors()))
      if (!ok) process.stdout.write(`validate crashed (exit ${code}) on:\n${text}\n${run.errors()}\n`)
      if (!ok) crashes++
    }
    recordDrill(task, {
      drill: 'hostile input (bad config)',
      events: cases.length + validateCases.length,
      unit: 'configs',
      lost: lost + crashes,
      duplicated: 0,
      timeMs: Date.now() - started,
      notes: `${rejected} reloads rejected, ${validateCases.length} validate runs, ${crashes} crashed`,
    })
    expect(lost).toBe(0)
    expect(crashes).toBe(0)
    // SIGHUP and the file watcher may both reload one write: at least one rejection each.
    expect(failures).toBeGreaterThanOrEqual(cases.length)
    const health = (await (await fetch(`${agent.metricsUrl}/health`)).json()) as { ok: boolean }
    expect(health.ok).toBe(true)
  })
})
