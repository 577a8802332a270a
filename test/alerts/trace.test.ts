// Stack traces written as text: type, message and top frame for each language, and the incident
// key they give: one failure repeated (other numbers, other goroutine arguments) is one incident,
// two throw sites are two.
import { describe, expect, it } from 'vitest'
import { fingerprint, topFrame } from '../../alerts/fingerprint'
import { parseTrace } from '../../alerts/trace'
import { ruleOf } from './helpers'
import type { AlertLine } from '../../alerts/line'

const javaTrace = (line: number, order: number): string[] => [
  `java.lang.IllegalStateException: Order ${order} has no customer`,
  `\tat com.acme.orders.OrderService.load(OrderService.java:${line})`,
  '\tat com.acme.orders.OrderController.get(OrderController.java:58)',
  'Caused by: java.sql.SQLException: gone',
  '\tat com.acme.orders.CustomerRepository.find(CustomerRepository.java:77)',
]

const pythonTrace = (line: number): string[] => [
  'Traceback (most recent call last):',
  '  File "/srv/app/worker.py", line 88, in run_job',
  '    result = handler(job.payload)',
  `  File "/srv/app/handlers/invoice.py", line ${line}, in handle`,
  '    amount = int(payload["amount"])',
  "ValueError: invalid literal for int() with base 10: '12,50'",
]

const goTrace = (arg: string, line: number): string[] => [
  '',
  'goroutine 1 [running]:',
  `main.pickShard(${arg}, 0x3)`,
  `\t/srv/shop/shard.go:${line} +0x1d`,
  'main.main()',
  '\t/srv/shop/main.go:61 +0x1d6',
]

const nodeTrace = (line: number): string[] => [
  "TypeError: Cannot read properties of undefined (reading 'items')",
  `    at CartService.total (/srv/web/src/cart/service.js:${line}:27)`,
  '    at async CartController.show (/srv/web/src/cart/controller.js:22:19)',
]

describe('parseTrace', () => {
  it('reads the Java header and keeps the stack as written', () => {
    const trace = parseTrace('2026-03-14 ERROR [main] c.a.OrderService - Failed', javaTrace(142, 81724))
    expect(trace).toMatchObject({ type: 'java.lang.IllegalStateException', message: 'Order 81724 has no customer' })
    expect(trace.stack).toBe(javaTrace(142, 81724).join('\n'))
    expect(topFrame(trace.stack)).toBe('at com.acme.orders.OrderService.load(OrderService.java:142)')
  })

  it("reads Python's exception line after the frames, and the innermost frame", () => {
    const trace = parseTrace('ERROR app.worker: job failed', pythonTrace(41))
    expect(trace).toMatchObject({ type: 'ValueError', message: "invalid literal for int() with base 10: '12,50'" })
    expect(topFrame(trace.stack)).toBe('File "/srv/app/handlers/invoice.py", line 41, in handle')
  })

  it('reads a Go panic and its first frame without arguments or offsets', () => {
    const trace = parseTrace('panic: runtime error: index out of range [5] with length 3', goTrace('0xc000010000', 27))
    expect(trace).toMatchObject({ type: 'panic', message: 'runtime error: index out of range [5] with length 3' })
    expect(topFrame(trace.stack)).toBe('main.pickShard /srv/shop/shard.go:27')
  })

  it('skips the recovering function and runtime frames of a recovered panic', () => {
    const stack = [
      'goroutine 34 [running]:',
      'net/http.(*conn).serve.func1()',
      '\t/usr/local/go/src/net/http/server.go:1898 +0xbe',
      'panic({0x6a4e20?, 0x9b1c30?})',
      '\t/usr/local/go/src/runtime/panic.go:770 +0x132',
      'main.(*Server).handleOrder(0xc0000a6000, {0x7c2e18, 0xc0001c40e0})',
      '\t/srv/shop/server.go:142 +0x5a',
    ].join('\n')
    expect(topFrame(stack)).toBe('main.(*Server).handleOrder /srv/shop/server.go:142')
  })

  it('reads a Node header with a code', () => {
    expect(
      parseTrace('error: response already sent', [
        'Error [ERR_HTTP_HEADERS_SENT]: Cannot set headers',
        '    at f (/a.js:1:1)',
      ]),
    ).toMatchObject({
      type: 'Error',
      message: 'Cannot set headers',
    })
    expect(topFrame(parseTrace('x', nodeTrace(48)).stack)).toBe(
      'at CartService.total (/srv/web/src/cart/service.js:48:27)',
    )
  })

  it('gives an empty type and message when there is no header', () => {
    expect(parseTrace('ERROR something', ['  detail one', '  detail two'])).toEqual({
      type: '',
      message: '',
      stack: '  detail one\n  detail two',
    })
  })
})

describe('the incident key of a trace', () => {
  const rule = ruleOf({ name: 'r' })
  const line = (msg: string, first: string, rest: string[]): AlertLine => ({
    raw: [first, ...rest].join('\n'),
    record: { msg, level: 50, err: parseTrace(first, rest) },
    level: 50,
    msg,
    source: 'app',
    json: false,
  })

  it.each([
    ['java', (site: number, n: number) => javaTrace(site, n)],
    ['python', (site: number) => pythonTrace(site)],
    ['go', (site: number, n: number) => goTrace(`0xc0000${n}`, site)],
    ['node', (site: number) => nodeTrace(site)],
  ] as const)('%s: repeats share it, another throw site does not', (_, trace) => {
    const a = fingerprint(rule, line('job 1 failed', 'ERROR job 1 failed', trace(40, 1)))
    const b = fingerprint(rule, line('job 2 failed', 'ERROR job 2 failed', trace(40, 2)))
    const other = fingerprint(rule, line('job 1 failed', 'ERROR job 1 failed', trace(41, 1)))
    expect(b).toBe(a)
    expect(other).not.toBe(a)
  })
})
