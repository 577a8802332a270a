// The CLI against the agent's real console handler (agent/daemon/console), served on 127.0.0.1 over
// an in-memory backend: the paths it builds (a key with ':' percent-encoded), its headers (Host,
// bearer token, x-logx-client) and its bodies are what the API takes.
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../../../agent/cli/main'
import {
  createConsoleHandler,
  type ConsoleBackend,
  type IncidentSummary,
  type SilenceSummary,
} from '../../../agent/daemon/console'
import { incident } from './fake-console'
import { suiteTempDir } from '../../helpers/temp-dir'

const TOKEN = 'tok-real-console-1'

interface Acted {
  id: string
  action: string
  by: string
  via: string
}

function memoryBackend(incidents: IncidentSummary[], silences: SilenceSummary[], acted: Acted[]): ConsoleBackend {
  return {
    incidents: (query) => {
      const matching = incidents.filter((i) => query.state === undefined || i.state === query.state)
      return { items: matching.slice(0, query.limit ?? matching.length), total: matching.length }
    },
    incident: (id) => {
      const found = incidents.filter((i) => i.id.startsWith(id))
      if (found.length > 1 && !found.some((i) => i.id === id)) return 'ambiguous'
      const one = found.find((i) => i.id === id) ?? found[0]
      return one === undefined ? undefined : { ...one, timeline: [] }
    },
    act: (id, action, by, via) => {
      const one = incidents.find((i) => i.id === id)
      if (one === undefined) return { ok: false, status: 404, error: `no open incident "${id}"` }
      if (action === 'ack' && one.ack !== undefined)
        return {
          ok: false,
          status: 409,
          error: `already acknowledged by ${one.ack.by} via ${one.ack.via.replace('_', ' ')}`,
        }
      acted.push({ id, action, by, via })
      one.state = action === 'ack' ? 'acknowledged' : action === 'unack' ? 'firing' : 'resolved'
      one.ack = action === 'ack' ? { by, via, at: Date.now() } : undefined
      return { ok: true, incident: { ...one, timeline: [] } }
    },
    silences: () => silences,
    addSilence: (input) => {
      const silence: SilenceSummary = {
        id: `rt-${silences.length + 1}`,
        matchers: input.matchers,
        startsAt: Date.now(),
        endsAt: input.endsAt,
        comment: input.comment,
        createdBy: input.by,
        origin: 'runtime',
      }
      silences.push(silence)
      return { ok: true, silence }
    },
    expireSilence: (id) => {
      const silence = silences.find((s) => s.id === id)
      if (silence === undefined) return { ok: false, status: 404, error: `no silence "${id}"` }
      if (silence.origin === 'config') return { ok: false, status: 409, error: `silence "${id}" is in the config` }
      silence.endsAt = Date.now()
      return { ok: true, silence }
    },
    people: () => ['asha', 'ravi'],
    schedules: () => [],
  }
}

let server: Server
let url: string
let incidents: IncidentSummary[]
let silences: SilenceSummary[]
let acted: Acted[]
const dir = suiteTempDir('console-api')
let tokenFile: string

beforeAll(() => {
  tokenFile = join(dir, 'token')
})

beforeEach(async () => {
  incidents = [incident('errors:3fa9c0d1e2f3a4', { title: 'query failed', paged: ['asha'] })]
  silences = []
  acted = []
  const handler = createConsoleHandler({
    backend: memoryBackend(incidents, silences, acted),
    token: TOKEN,
    generated: false,
    host: '127.0.0.1',
  })
  server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  writeFileSync(tokenFile, `${TOKEN}\n`)
})

afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    signal: new AbortController().signal,
  }
  const code = await runCli([...argv, '--url', url, '--token-file', tokenFile], io)
  return { code, stdout, stderr }
}

describe('the CLI against the console API', () => {
  it('lists and acknowledges as the cli', async () => {
    const listed = await cli(['incidents'])
    expect(listed.stderr).toBe('')
    expect(listed.stdout).toContain('3fa9c0d1  firing')
    const acked = await cli(['ack', '3fa9', '--by', 'ravi'])
    expect(acked).toEqual({ code: 0, stdout: 'acknowledged 3fa9c0d1 query failed (by ravi)\n', stderr: '' })
    expect(acted).toEqual([{ id: 'errors:3fa9c0d1e2f3a4', action: 'ack', by: 'ravi', via: 'cli' }])
    const again = await cli(['ack', 'errors:3fa9c0d1e2f3a4', '--by', 'asha'])
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'logx-agent: already acknowledged by ravi via cli\n' })
  })

  it('creates, lists and expires a silence', async () => {
    const made = await cli([
      'silence',
      '--match',
      'rule=db',
      '--match',
      'msg=/timeout/i',
      '--for',
      '2h',
      '--comment',
      'migration',
      '--by',
      'asha',
    ])
    expect(made.stderr).toBe('')
    expect(made.stdout).toMatch(/^silence rt-1 until .+ \(in (2h|1h59m)\): rule=db msg=\/timeout\/i\n$/)
    expect(silences[0]).toMatchObject({
      matchers: { rule: 'db', msg: '/timeout/i' },
      comment: 'migration',
      createdBy: 'asha',
    })
    expect((await cli(['silence', 'list'])).stdout).toMatch(
      /^ID\s+MATCHERS\s+UNTIL\s+COMMENT\s+BY\s+ORIGIN\nrt-1\s+rule=db msg=\/timeout\/i\s+.+\s+migration\s+asha\s+runtime\n$/,
    )
    expect(await cli(['silence', 'expire', 'rt-1'])).toEqual({
      code: 0,
      stdout: 'expired silence rt-1: rule=db msg=/timeout/i\n',
      stderr: '',
    })
    expect(await cli(['silence', 'expire', 'rt-9'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: no silence rt-9\n',
    })
  })

  it('a wrong token is refused with the hint', async () => {
    writeFileSync(tokenFile, 'tok-wrong-one\n')
    expect(await cli(['incidents'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: the console token was refused (set --token-file or LOGX_CONSOLE_TOKEN)\n',
    })
  })
})
