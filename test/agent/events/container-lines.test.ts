// Container log lines as the runtimes write them: Docker's json-file (lines split at 16 KiB) and the
// CRI format (P parts before an F), each decoded back into the app's own lines.
import { describe, expect, it } from 'vitest'
import { parseLine } from '../../../alerts'
import {
  createContainerDecoder,
  parseCriHead,
  withContainerFields,
  type ContainerDecoder,
  type ContainerLine,
} from '../../../agent/events/container-lines'

const DOCKER_SPLIT = 16 * 1024
const TIME = '2024-05-01T10:00:00.123456789Z'
const POD_FILE = '/var/log/pods/payments_api-7d9f8b6c5d-x2x9k_4f1c1a2e-58b6-4c1b-9a57-0f8d6f0e3c11/api/0.log'

/** A pino error line with a stack long enough to fill `bytes`. */
function pinoError(bytes: number): string {
  const frames: string[] = []
  const base = { level: 50, time: 1714557600123, pid: 1, hostname: 'api-7d9f8b6c5d-x2x9k', msg: 'payment declined' }
  let n = 0
  while (
    JSON.stringify({ ...base, err: { type: 'Error', message: 'card declined', stack: frames.join('\n') } }).length <
    bytes
  ) {
    frames.push(`    at charge (/app/src/payments/charge-${n++}.js:${n}:17)`)
  }
  return JSON.stringify({ ...base, err: { type: 'Error', message: 'card declined', stack: frames.join('\n') } })
}

/** The json-file entries Docker writes for one line the app wrote (with its newline). */
function dockerEntries(line: string, stream = 'stderr'): string[] {
  const text = `${line}\n`
  const entries: string[] = []
  for (let at = 0; at < text.length; at += DOCKER_SPLIT)
    entries.push(JSON.stringify({ log: text.slice(at, at + DOCKER_SPLIT), stream, time: TIME }))
  return entries
}

function pushAll(decoder: ContainerDecoder, raws: readonly (string | Buffer)[]): ContainerLine[] {
  const out: ContainerLine[] = []
  for (const raw of raws) {
    const line = decoder.push(typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw)
    if (line !== undefined) out.push(line)
  }
  return out
}

describe('format: docker', () => {
  it('unwraps a line: its text without the newline, and its stream', () => {
    const decoder = createContainerDecoder('docker', undefined, 256 * 1024)
    const lines = pushAll(decoder, [
      '{"log":"listening on :8080\\n","stream":"stdout","time":"2024-05-01T10:00:00.000000001Z"}',
      '{"log":"ERROR db: connection refused\\n","stream":"stderr","time":"2024-05-01T10:00:01.000000001Z"}',
    ])
    expect(lines).toEqual([
      { text: 'listening on :8080', fields: { stream: 'stdout' }, malformed: false },
      { text: 'ERROR db: connection refused', fields: { stream: 'stderr' }, malformed: false },
    ])
    expect(decoder.pending).toBe(false)
  })

  it('reads every shape of entry the same: escapes, other key orders and streams, backslashes before quotes', () => {
    const texts = [
      'plain text, no escape',
      'tab\there',
      'quote " and backslash \\ and \\"',
      'ends in a backslash \\',
      '<html> & ünïcödé 🚀',
      '',
      'x\\n is no newline',
    ]
    const entries = texts.flatMap((text) => [
      JSON.stringify({ log: `${text}\n`, stream: 'stderr', time: TIME }),
      JSON.stringify({ log: `${text}\n`, stream: 'stderr', attrs: { tag: 'api' }, time: TIME }),
      JSON.stringify({ time: TIME, stream: 'stderr', log: `${text}\n` }),
      // Go escapes <, > and & in JSON strings.
      JSON.stringify({ log: `${text}\n`, stream: 'stderr', time: TIME })
        .replace(/</g, '\\u003c')
        .replace(/>/g, '\\u003e')
        .replace(/&/g, '\\u0026'),
    ])
    const lines = pushAll(createContainerDecoder('docker', undefined, 256 * 1024), entries)
    expect(lines).toEqual(
      texts.flatMap((text) => Array(4).fill({ text, fields: { stream: 'stderr' }, malformed: false })),
    )
    const other = pushAll(createContainerDecoder('docker', undefined, 256 * 1024), [
      '{"log":"hi\\n","stream":"console","time":"x"}',
      '{"log":"hi\\n"}',
    ])
    expect(other).toEqual([
      { text: 'hi', fields: { stream: 'console' }, malformed: false },
      { text: 'hi', fields: {}, malformed: false },
    ])
  })

  it('joins a 40 KiB line Docker split in three parts, holding it (pending) until the last', () => {
    const line = pinoError(40 * 1024)
    const entries = dockerEntries(line)
    expect(entries).toHaveLength(3)
    const decoder = createContainerDecoder('docker', POD_FILE, 256 * 1024)
    expect(decoder.push(Buffer.from(entries[0] as string))).toBeUndefined()
    expect(decoder.pending).toBe(true)
    expect(decoder.push(Buffer.from(entries[1] as string))).toBeUndefined()
    const whole = decoder.push(Buffer.from(entries[2] as string))
    expect(decoder.pending).toBe(false)
    expect(whole?.text).toBe(line)
    expect(whole?.malformed).toBe(false)
    // The inner text is the app's pino line: JSON, level 50, its message.
    const parsed = parseLine(whole?.text ?? '')
    expect(parsed).toMatchObject({ json: true, level: 50, msg: 'payment declined' })
  })

  it('joins parts per stream: a stdout line between two parts of a stderr one comes out whole', () => {
    const long = 'E'.repeat(DOCKER_SPLIT + 100)
    const [first, second] = dockerEntries(long, 'stderr') as [string, string]
    const decoder = createContainerDecoder('docker', undefined, 256 * 1024)
    const lines = pushAll(decoder, [first, '{"log":"tick\\n","stream":"stdout","time":"2024-05-01T10:00:00Z"}', second])
    expect(lines.map((line) => [line.fields.stream, line.text.length])).toEqual([
      ['stdout', 4],
      ['stderr', long.length],
    ])
  })

  it('caps the joined text at maxLineBytes, on a character boundary, and still ends the line at its last part', () => {
    const line = 'é'.repeat(20 * 1024) // 40 KiB of two-byte characters
    const decoder = createContainerDecoder('docker', undefined, 10_001)
    const [whole, next] = pushAll(decoder, [
      ...dockerEntries(line),
      '{"log":"after\\n","stream":"stderr","time":"2024-05-01T10:00:00Z"}',
    ])
    expect(Buffer.byteLength(whole?.text ?? '')).toBe(10_000)
    expect(whole?.text).toBe('é'.repeat(5000))
    expect(next?.text).toBe('after')
  })

  it('passes a line that is not a json-file entry on as its raw text, flagged malformed, keeping the parts held', () => {
    const decoder = createContainerDecoder('docker', undefined, 256 * 1024)
    const [first, second] = dockerEntries('x'.repeat(DOCKER_SPLIT + 10)) as [string, string]
    const garbage = [
      'plain text line',
      '{"log":',
      '{"msg":"no log key"}',
      '[1,2]',
      '',
      '{"log":42,"stream":"stdout"}',
      // Cut short (a line longer than max_line_bytes), and cut inside its text.
      '{"log":"boom\\n","stream":"stderr","time":"2024-05-01T10:',
      '{"log":"boo',
      '{"log":"x","stream":"std}',
      '{"log"}',
      '{"log":"bad \\q escape\\n","stream":"stderr","time":"2024-05-01T10:00:00Z"}',
    ]
    const lines = pushAll(decoder, [first, ...garbage, second])
    expect(lines.slice(0, garbage.length)).toEqual(garbage.map((text) => ({ text, fields: {}, malformed: true })))
    expect(lines[garbage.length]).toMatchObject({ text: 'x'.repeat(DOCKER_SPLIT + 10), malformed: false })
    expect(decoder.pending).toBe(false)
  })

  it('gives a last line written without a newline on flush()', () => {
    const decoder = createContainerDecoder('docker', undefined, 256 * 1024)
    expect(
      decoder.push(Buffer.from('{"log":"panic: exit","stream":"stderr","time":"2024-05-01T10:00:00Z"}')),
    ).toBeUndefined()
    expect(decoder.flush()).toEqual([{ text: 'panic: exit', fields: { stream: 'stderr' }, malformed: false }])
    expect(decoder.pending).toBe(false)
    expect(decoder.flush()).toEqual([])
  })

  it('copies a held part: the read buffer may be reused before the line ends', () => {
    const [first, second] = dockerEntries('y'.repeat(DOCKER_SPLIT + 1)) as [string, string]
    const buffer = Buffer.from(first)
    const decoder = createContainerDecoder('docker', undefined, 256 * 1024)
    decoder.push(buffer)
    buffer.fill(0x7a)
    expect(decoder.push(Buffer.from(second))?.text).toBe('y'.repeat(DOCKER_SPLIT + 1))
  })
})

describe('format: cri', () => {
  it('reads a full line: text, stream, and the kubernetes fields of its path', () => {
    const decoder = createContainerDecoder('cri', POD_FILE, 256 * 1024)
    const [line] = pushAll(decoder, [`${TIME} stderr F {"level":50,"msg":"charge failed","err":{"type":"CardError"}}`])
    expect(line).toEqual({
      text: '{"level":50,"msg":"charge failed","err":{"type":"CardError"}}',
      fields: {
        stream: 'stderr',
        kubernetes: {
          namespace: 'payments',
          pod: 'api-7d9f8b6c5d-x2x9k',
          pod_uid: '4f1c1a2e-58b6-4c1b-9a57-0f8d6f0e3c11',
          container: 'api',
        },
      },
      malformed: false,
    })
    const alert = withContainerFields(parseLine(line?.text ?? ''), line?.fields ?? {})
    expect(alert).toMatchObject({
      json: true,
      level: 50,
      msg: 'charge failed',
      record: { stream: 'stderr', kubernetes: { namespace: 'payments' } },
    })
  })

  it('joins P, P, F into one line, pending until the F', () => {
    const decoder = createContainerDecoder('cri', undefined, 256 * 1024)
    expect(decoder.push(Buffer.from(`${TIME} stdout P {"level":50,"msg":"`))).toBeUndefined()
    expect(decoder.pending).toBe(true)
    expect(decoder.push(Buffer.from(`${TIME} stdout P boom`))).toBeUndefined()
    const line = decoder.push(Buffer.from(`${TIME} stdout F "}`))
    expect(decoder.pending).toBe(false)
    expect(line).toEqual({ text: '{"level":50,"msg":"boom"}', fields: { stream: 'stdout' }, malformed: false })
  })

  it('joins a character the runtime split between two parts', () => {
    const bytes = Buffer.from('naïve café', 'utf8')
    const cut = bytes.indexOf(0xa9) // inside "é"
    const decoder = createContainerDecoder('cri', undefined, 256 * 1024)
    const lines = pushAll(decoder, [
      Buffer.concat([Buffer.from(`${TIME} stdout P `), bytes.subarray(0, cut)]),
      Buffer.concat([Buffer.from(`${TIME} stdout F `), bytes.subarray(cut)]),
    ])
    expect(lines.map((line) => line.text)).toEqual(['naïve café'])
  })

  it('reads an empty F (with or without the space after the tag) as an empty line, also ending held parts', () => {
    const decoder = createContainerDecoder('cri', undefined, 256 * 1024)
    const lines = pushAll(decoder, [
      `${TIME} stdout F `,
      `${TIME} stdout F`,
      `${TIME} stderr P half`,
      `${TIME} stderr F`,
    ])
    expect(lines.map((line) => [line.text, line.fields.stream, line.malformed])).toEqual([
      ['', 'stdout', false],
      ['', 'stdout', false],
      ['half', 'stderr', false],
    ])
  })

  it('takes times with an offset and extra tags after the first', () => {
    const decoder = createContainerDecoder('cri', undefined, 256 * 1024)
    const lines = pushAll(decoder, [
      '2024-05-01T12:00:00.5+02:00 stdout F:x:y hello',
      '2024-05-01T10:00:00Z stderr F bye',
    ])
    expect(lines.map((line) => line.text)).toEqual(['hello', 'bye'])
  })

  it('passes a line not in the format on as its raw text, flagged malformed, with the path fields', () => {
    const decoder = createContainerDecoder('cri', POD_FILE, 256 * 1024)
    const garbage = [
      'panic: runtime error: index out of range',
      `${TIME} stdin F text`,
      `${TIME} stdout X text`,
      `${TIME} stdout Fx text`,
      `${TIME} stdout`,
      '2024-05-01 10:00:00 stdout F text',
      `${TIME}`,
      '',
      '\u0000\u0001\u0002',
    ]
    const lines = pushAll(decoder, garbage)
    expect(lines.map((line) => [line.text, line.malformed])).toEqual(garbage.map((text) => [text, true]))
    expect(lines[0]?.fields).toEqual({
      kubernetes: {
        namespace: 'payments',
        pod: 'api-7d9f8b6c5d-x2x9k',
        pod_uid: '4f1c1a2e-58b6-4c1b-9a57-0f8d6f0e3c11',
        container: 'api',
      },
    })
    expect(lines[0]?.fields).not.toHaveProperty('stream')
  })

  it('caps P parts at maxLineBytes', () => {
    const decoder = createContainerDecoder('cri', undefined, 100)
    const lines = pushAll(decoder, [
      `${TIME} stdout P ${'a'.repeat(80)}`,
      `${TIME} stdout P ${'b'.repeat(80)}`,
      `${TIME} stdout F ${'c'.repeat(80)}`,
    ])
    expect(lines.map((line) => line.text)).toEqual(['a'.repeat(80) + 'b'.repeat(20)])
  })

  it('parseCriHead finds where the text begins', () => {
    expect(parseCriHead(Buffer.from(`${TIME} stderr P abc`))).toEqual({
      stream: 'stderr',
      partial: true,
      textStart: TIME.length + 10,
    })
    expect(parseCriHead(Buffer.from(`${TIME} stderr F`))).toEqual({
      stream: 'stderr',
      partial: false,
      textStart: TIME.length + 9,
    })
  })
})

describe('any bytes', () => {
  it('never throw: every cut of a real entry, and bytes of every value, are lines or parts', () => {
    const docker = JSON.stringify({ log: 'quote " backslash \\ é\n', stream: 'stderr', time: TIME })
    const cri = `${TIME} stderr F:x quote " é`
    for (const [format, entry] of [
      ['docker', docker],
      ['cri', cri],
    ] as const) {
      const bytes = Buffer.from(entry)
      const decoder = createContainerDecoder(format, POD_FILE, 64)
      for (let end = 0; end <= bytes.length; end++) expect(() => decoder.push(bytes.subarray(0, end))).not.toThrow()
      for (let start = 0; start <= bytes.length; start++)
        expect(() => decoder.push(bytes.subarray(start))).not.toThrow()
      let seed = 7
      for (let i = 0; i < 2000; i++) {
        const random = Buffer.alloc(i % 80, 0).map(() => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256)
        expect(() => decoder.push(Buffer.concat([bytes.subarray(0, i % bytes.length), random]))).not.toThrow()
      }
      expect(() => decoder.flush()).not.toThrow()
    }
  })
})

describe('withContainerFields', () => {
  it("adds the fields the record lacks and keeps the record's own", () => {
    const line = parseLine('{"level":50,"msg":"x","stream":"mine"}')
    const out = withContainerFields(line, { stream: 'stderr', kubernetes: { namespace: 'payments' } })
    expect(out.record).toEqual({ level: 50, msg: 'x', stream: 'mine', kubernetes: { namespace: 'payments' } })
    expect(line.record).not.toHaveProperty('kubernetes')
  })

  it('adds them to a plain-text line too, and returns the line itself when there is nothing to add', () => {
    const text = parseLine('ERROR boom')
    expect(withContainerFields(text, { stream: 'stdout' }).record).toEqual({ ...text.record, stream: 'stdout' })
    expect(withContainerFields(text, {})).toBe(text)
  })

  it('keeps an own "__proto__" key of a parsed record as data', () => {
    const line = parseLine('{"level":50,"msg":"x","__proto__":{"polluted":true}}')
    const out = withContainerFields(line, { stream: 'stderr' })
    expect(Object.hasOwn(out.record, '__proto__')).toBe(true)
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    expect((out.record as { polluted?: boolean }).polluted).toBeUndefined()
  })
})
