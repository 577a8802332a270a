import { describe, expect, it } from 'vitest'
import { IntakeError } from '../../../agent/intake/errors'
import { decodeJsonRequest } from '../../../agent/intake/otlp/json-codec'
import { levelOfSeverity, otlpEvents } from '../../../agent/intake/otlp/otlp-event'
import { decodeProtobufRequest, encodeProtobufRequest } from '../../../agent/intake/otlp/protobuf-codec'

const TRACE = '5b8efff798038103d269b633813fc60c'
const SPAN = 'eee19b7ec3c1b174'

/** One JSON export of `records` under a resource with service.name and host.name. */
function jsonExport(records: unknown[], resource: unknown[] = []): Buffer {
  return Buffer.from(
    JSON.stringify({
      resourceLogs: [
        {
          resource: {
            attributes: [
              { key: 'service.name', value: { stringValue: 'checkout' } },
              { key: 'host.name', value: { stringValue: 'web-3' } },
              ...resource,
            ],
          },
          scopeLogs: [{ scope: { name: 'orders', version: '1.2' }, logRecords: records }],
        },
      ],
    }),
  )
}

const eventsOf = (body: Buffer) => otlpEvents(decodeJsonRequest(body), 'otel')
const recordOf = (record: unknown) => eventsOf(jsonExport([record])).events[0]?.line

function payloadErrorOf(body: string): string {
  try {
    decodeJsonRequest(Buffer.from(body))
  } catch (error) {
    if (error instanceof IntakeError) return error.message
    throw error
  }
  throw new Error('no error')
}

describe('otlpEvents', () => {
  it('rule 7: records below the lowest level are counted as passed, not made events; no level is kept', () => {
    const records = [
      { severityNumber: 9, body: { stringValue: 'served' } },
      { severityNumber: 17, body: { stringValue: 'failed' } },
      { severityNumber: 0, severityText: 'INFO', body: { stringValue: 'by its text' } },
      { body: { stringValue: 'no level' } },
      { severityNumber: 9, traceId: 'nothex', body: { stringValue: 'bad id' } },
    ]
    const result = otlpEvents(decodeJsonRequest(jsonExport(records)), 'otel', 50)
    expect(result.events.map((event) => event.line.msg)).toEqual(['failed', 'no level'])
    expect(result).toMatchObject({ passed: 2, rejected: 1 })
    expect(otlpEvents(decodeJsonRequest(jsonExport(records)), 'otel')).toMatchObject({ passed: 0 })
  })

  it('rule 1: severityNumber ranges to levels, 0 from severityText', () => {
    const levels = [1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24].map((n) => levelOfSeverity(n, ''))
    expect(levels).toEqual([10, 10, 20, 20, 30, 30, 40, 40, 50, 50, 60, 60])
    expect(levelOfSeverity(0, 'ERROR')).toBe(50)
    expect(levelOfSeverity(0, 'warning')).toBe(40)
    expect(levelOfSeverity(0, '')).toBeUndefined()
    expect(recordOf({ severityNumber: 17, body: { stringValue: 'x' } })).toMatchObject({ level: 50 })
  })

  it('rule 2: a string body is msg; a map body is fields with its message; others as JSON', () => {
    expect(recordOf({ body: { stringValue: 'card declined' } })?.msg).toBe('card declined')
    const map = recordOf({
      body: {
        kvlistValue: {
          values: [
            { key: 'message', value: { stringValue: 'payment failed' } },
            { key: 'order', value: { intValue: '1017' } },
          ],
        },
      },
    })
    expect(map).toMatchObject({ msg: 'payment failed', record: { order: 1017 } })
    expect(recordOf({ body: { intValue: 42 } })?.msg).toBe('42')
    expect(recordOf({ body: { kvlistValue: { values: [{ key: 'a', value: { boolValue: true } }] } } })?.msg).toBe(
      '{"a":true}',
    )
    expect(recordOf({})?.msg).toBe('')
  })

  it('rule 3: attributes as fields, resource under resource, service.name and host.name as fields', () => {
    const line = recordOf({
      body: { stringValue: 'm' },
      attributes: [
        { key: 'http.route', value: { stringValue: '/pay' } },
        { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { doubleValue: 1.5 }] } } },
      ],
    })
    expect(line?.record).toMatchObject({
      'http.route': '/pay',
      tags: ['a', 1.5],
      service: 'checkout',
      hostname: 'web-3',
      resource: { 'service.name': 'checkout', 'host.name': 'web-3' },
    })
    expect(line?.source).toBe('otel')
  })

  it('rule 4: ids kept as hex; a record with an id of the wrong length is refused alone', () => {
    const result = eventsOf(
      jsonExport([
        { body: { stringValue: 'ok' }, traceId: TRACE.toUpperCase(), spanId: SPAN },
        { body: { stringValue: 'bad' }, traceId: 'abc' },
        { body: { stringValue: 'bad too' }, spanId: 'zzzzzzzzzzzzzzzz' },
      ]),
    )
    expect(result.events.map((event) => event.line.record)).toMatchObject([{ trace_id: TRACE, span_id: SPAN }])
    expect(result.rejected).toBe(2)
    expect(result.rejection).toBe('resourceLogs[0].scopeLogs[0].logRecords[1]: traceId is not 16 bytes of hex')
  })

  it('rule 5: time in ms from timeUnixNano or observedTimeUnixNano; scope, event name, severity text', () => {
    const line = recordOf({
      timeUnixNano: '1764644970123456789',
      severityText: 'Error',
      eventName: 'order.failed',
      body: { stringValue: 'm' },
    })
    expect(line?.record).toMatchObject({
      time: 1764644970123,
      scope: 'orders',
      event_name: 'order.failed',
      severity_text: 'Error',
    })
    expect(recordOf({ timeUnixNano: '0', observedTimeUnixNano: 1764644970000000000 })?.record.time).toBe(1764644970000)
  })

  it("rule 6: attributes named as the record's own fields are kept under attributes", () => {
    const line = recordOf({
      severityNumber: 9,
      body: { stringValue: 'real' },
      attributes: [
        { key: 'level', value: { intValue: 60 } },
        { key: 'msg', value: { stringValue: 'forged' } },
        { key: '__proto__', value: { stringValue: 'x' } },
      ],
    })
    expect(line).toMatchObject({ level: 30, msg: 'real' })
    expect(line?.record.attributes).toEqual({ level: 60, msg: 'forged', ['__proto__']: 'x' })
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})

describe('decodeJsonRequest', () => {
  it('rule 1: unknown keys are ignored', () => {
    const body = jsonExport([{ body: { stringValue: 'm' }, futureField: 1 }], [])
    expect(eventsOf(body).events).toHaveLength(1)
  })

  it('rule 2: ids as hex text, upper case taken', () => {
    expect(recordOf({ traceId: TRACE.toUpperCase() })?.record.trace_id).toBe(TRACE)
  })

  it('rule 3: int64 as text or number; a big one kept as text', () => {
    expect(recordOf({ attributes: [{ key: 'n', value: { intValue: '9007199254740993' } }] })?.record.n).toBe(
      '9007199254740993',
    )
  })

  it('rule 4: a value of the wrong type refuses the request, naming its path', () => {
    expect(payloadErrorOf('{"resourceLogs":{}}')).toBe('resourceLogs: expected a list')
    expect(payloadErrorOf('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{"severityNumber":"17"}]}]}]}')).toBe(
      'resourceLogs[0].scopeLogs[0].logRecords[1].severityNumber: expected an integer from 0 to 24',
    )
    expect(payloadErrorOf('not json')).toMatch(/^body: not JSON/)
  })

  it('rule 5: each AnyValue kind; an empty one is null', () => {
    const line = recordOf({
      attributes: [
        { key: 'b', value: { bytesValue: 'AQI=' } },
        { key: 'e', value: {} },
        { key: 'd', value: { doubleValue: 'NaN' } },
      ],
    })
    expect(line?.record).toMatchObject({ b: 'AQI=', e: null, d: 'NaN' })
  })
})

describe('decodeProtobufRequest', () => {
  it('reads what the JSON decoder reads, ids from bytes, int64 from Long', () => {
    const body = encodeProtobufRequest({
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
          scopeLogs: [
            {
              scope: { name: 'orders' },
              logRecords: [
                {
                  timeUnixNano: '1764644970123456789',
                  severityNumber: 21,
                  body: { kvlistValue: { values: [{ key: 'msg', value: { stringValue: 'down' } }] } },
                  attributes: [{ key: 'n', value: { intValue: 7 } }],
                  traceId: Buffer.from(TRACE, 'hex'),
                  spanId: Buffer.from(SPAN, 'hex'),
                },
              ],
            },
          ],
        },
      ],
    })
    const { events } = otlpEvents(decodeProtobufRequest(body).logs, 'otel')
    expect(events[0]?.line).toMatchObject({
      level: 60,
      msg: 'down',
      record: { n: 7, time: 1764644970123, trace_id: TRACE, span_id: SPAN, service: 'checkout', scope: 'orders' },
    })
  })

  it('leaves records below the lowest level out unbuilt, counted; a bad id is built to be refused', () => {
    const record = (severityNumber: number, msg: string, traceId = Buffer.from(TRACE, 'hex')) => ({
      timeUnixNano: '18446744073709551615',
      severityNumber,
      body: { stringValue: msg },
      traceId,
    })
    const body = encodeProtobufRequest({
      resourceLogs: [
        {
          scopeLogs: [
            { logRecords: [record(9, 'served'), record(17, 'failed'), record(9, 'bad id', Buffer.from('ab', 'hex'))] },
          ],
        },
      ],
    })
    const decoded = decodeProtobufRequest(body, 50)
    expect(decoded.passed).toBe(1)
    const result = otlpEvents(decoded.logs, 'otel', 50)
    // The largest fixed64, cut to milliseconds exactly (a double would round it up to ...552).
    expect(result.events.map((event) => [event.line.msg, event.line.record.time])).toEqual([['failed', 18446744073709]])
    expect(result.rejection).toBe('resourceLogs[0].scopeLogs[0].logRecords[2]: traceId is not 16 bytes of hex')
  })

  it('refuses bytes that are not a request', () => {
    expect(() => decodeProtobufRequest(Buffer.from([0x0a, 0xff, 0xff, 0xff]))).toThrow(/^body: not an OTLP/)
  })
})
