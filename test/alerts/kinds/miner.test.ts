// The miner's contract: kinds of text, JSON and stack events; ids from templates (the same in any
// order), aliases when a template generalises, seed and resolve, the bound per source.
import { describe, expect, it } from 'vitest'
import { createKindMiner, kindId } from '../../../alerts/kinds/miner'
import { parseLine } from '../../../alerts/line'
import { parseTrace } from '../../../alerts/trace'
import type { AlertLine } from '../../../alerts/line'

const text = (line: string, source = 'app'): AlertLine => parseLine(line, source)
/** A multi-line event as agent/events makes it: the continuation lines read by parseTrace. */
const stackEvent = (first: string, rest: string[]): AlertLine => {
  const line = parseLine(first, 'app')
  return { ...line, raw: `${first}\n${rest.join('\n')}`, record: { ...line.record, err: parseTrace(first, rest) } }
}

describe('kinds of text lines', () => {
  it('the head is left out and variables are masked: repeats of one message are one kind', () => {
    const miner = createKindMiner({ max: 100 })
    const a = miner.mine(text('2015-10-18 18:01:47,978 INFO [main] org.apache.Foo: Connection refused to 10.0.0.1:80'))
    const b = miner.mine(text('2015-10-18 18:05:02,001 INFO [IPC] org.apache.Foo: Connection refused to 10.0.0.9:81'))
    expect(a.template).toBe('Connection refused to <*>')
    expect(b.id).toBe(a.id)
    expect(a.created).toBe(true)
    expect(b.created).toBe(false)
    expect(a.id).toBe(kindId('app', 'Connection refused to <*>'))
    expect(a.id).toMatch(/^[0-9a-f]{16}$/)
  })

  it('a JSON line: its message after err.type', () => {
    const miner = createKindMiner({ max: 100 })
    const ref = miner.mine(parseLine(JSON.stringify({ level: 50, msg: 'query failed 42', err: { type: 'PgError' } })))
    expect(ref.template).toBe('PgError: query failed <*>')
  })

  it('sources keep their kinds apart', () => {
    const miner = createKindMiner({ max: 100 })
    expect(miner.mine(text('disk full', 'a')).id).not.toBe(miner.mine(text('disk full', 'b')).id)
  })
})

describe('generalisation and aliases', () => {
  const lines = ['login of user alice done', 'login of user bob done', 'login of user carol done']

  it('two values at a place stay two kinds; a third makes it a variable, the oldest id stays', () => {
    const miner = createKindMiner({ max: 100 })
    const [a, b, c] = lines.map((line) => miner.mine(text(line)))
    expect(b?.id).not.toBe(a?.id)
    expect(c?.id).toBe(a?.id)
    expect(c?.template).toBe('login of user <*> done')
    expect(c?.aliasOf).toBe(kindId('app', 'login of user <*> done'))
    // The absorbed kind's id and the new template's own id lead to the kind.
    expect(miner.resolve('app', b?.id as string)).toBe(a?.id)
    expect(miner.resolve('app', c?.aliasOf as string)).toBe(a?.id)
    expect(miner.resolve('app', 'ffffffffffffffff')).toBeUndefined()
    expect(miner.stats().kinds).toBe(1)
  })

  it('Begin and End are two messages, not one variable', () => {
    const miner = createKindMiner({ max: 100 })
    const begin = miner.mine(text('PopulateComponentFamiliesKey - Begin'))
    expect(miner.mine(text('PopulateComponentFamiliesKey - End')).id).not.toBe(begin.id)
  })

  it('a place the masking found variable widens at once', () => {
    const miner = createKindMiner({ max: 100 })
    const a = miner.mine(text('connection from 1.2.3.4 () at noon'))
    const b = miner.mine(text('connection from 1.2.3.4 (dsl-9.example.net) at noon'))
    expect(b.id).toBe(a.id)
    expect(b.template).toBe('connection from <*> (<*>) at noon')
  })

  it('seed puts back a known kind: its id and aliases stay', () => {
    const miner = createKindMiner({ max: 100 })
    miner.seed('app', [{ id: 'aaaaaaaaaaaaaaaa', template: 'user <*> logged in', aliases: ['bbbbbbbbbbbbbbbb'] }])
    expect(miner.mine(text('user dave logged in')).id).toBe('aaaaaaaaaaaaaaaa')
    expect(miner.resolve('app', 'bbbbbbbbbbbbbbbb')).toBe('aaaaaaaaaaaaaaaa')
  })
})

describe('order', () => {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin']
  const lines = [
    ...users.map((user, i) => `2024-01-02 03:04:0${i} INFO session opened for user ${user} by uid=${i}`),
    ...users.map((user, i) => `2024-01-02 03:05:0${i} INFO session closed for user ${user}`),
    ...Array.from({ length: 5 }, (_, i) => `2024-01-02 03:06:0${i} WARN disk /dev/sd${i} at ${90 + i}%`),
    'PopulateComponentFamiliesKey - Begin',
    'PopulateComponentFamiliesKey - End',
  ]

  /** Each line's final template id, from a miner fed the lines in `order`. */
  const finalIds = (order: readonly number[]): string[] => {
    const miner = createKindMiner({ max: 100 })
    const ids: string[] = []
    const templates = new Map<string, string>()
    for (const index of order) ids[index] = miner.mine(text(lines[index] as string)).id
    for (const index of order) templates.set(ids[index] as string, miner.mine(text(lines[index] as string)).template)
    return ids.map((id) => kindId('app', miner.resolve('app', id) === undefined ? '' : (templates.get(id) ?? '')))
  }

  it('shuffled lines give the same groups and the same final template ids', () => {
    const straight = finalIds(lines.map((_, i) => i))
    let seed = 7
    for (let round = 0; round < 20; round++) {
      const order = lines.map((_, i) => i)
      for (let i = order.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31
        const j = seed % (i + 1)
        ;[order[i], order[j]] = [order[j] as number, order[i] as number]
      }
      expect(finalIds(order)).toEqual(straight)
    }
    expect(new Set(straight).size).toBe(5)
  })
})

describe('stacks', () => {
  it('java: the exception type and the top in-app frames, the JDK and frameworks skipped', () => {
    const miner = createKindMiner({ max: 100 })
    const trace = (line: number, order: number): string[] => [
      `java.lang.IllegalStateException: Order ${order} has no customer`,
      '\tat java.util.HashMap.get(HashMap.java:10)',
      `\tat com.acme.orders.OrderService.load(OrderService.java:${line})`,
      '\tat org.springframework.web.Dispatcher.run(Dispatcher.java:99)',
      '\tat com.acme.web.Api.handle(Api.java:7)',
    ]
    const a = miner.mine(stackEvent('2024-01-02 03:04:05 ERROR [main] com.acme.Api: request failed', trace(40, 12)))
    const b = miner.mine(stackEvent('2024-01-02 03:09:05 ERROR [main] com.acme.Api: request failed', trace(41, 99)))
    expect(b.id).toBe(a.id)
    expect(a.template).toMatch(/^java\.lang\.IllegalStateException: Order <\*> has no customer /)
    expect(a.template).toContain('com.acme.orders.OrderService.load(OrderService.java)')
    expect(a.template).toContain('com.acme.web.Api.handle(Api.java)')
    expect(a.template).not.toContain('HashMap')
    expect(a.template).not.toContain('springframework')
  })

  it('node: node_modules and node: internals skipped', () => {
    const miner = createKindMiner({ max: 100 })
    const ref = miner.mine(
      stackEvent('TypeError: x is undefined', [
        '    at Object.get (/app/node_modules/lodash/get.js:3:1)',
        '    at handler (/app/src/routes/users.js:42:13)',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ]),
    )
    expect(ref.template).toBe('TypeError: x is undefined handler(/app/src/routes/users.js)')
  })

  it('python: the innermost in-app frame first, site-packages skipped', () => {
    const miner = createKindMiner({ max: 100 })
    const ref = miner.mine(
      stackEvent('ERROR boom', [
        'Traceback (most recent call last):',
        '  File "/app/main.py", line 10, in run',
        '  File "/usr/lib/python3/site-packages/requests/api.py", line 5, in get',
        'ValueError: bad value 3',
      ]),
    )
    expect(ref.template).toBe('ValueError: bad value <*> run(/app/main.py)')
  })

  it('go: the panicking function and its file, the runtime skipped', () => {
    const miner = createKindMiner({ max: 100 })
    const ref = miner.mine(
      stackEvent('panic: runtime error: index out of range', [
        'goroutine 1 [running]:',
        'runtime.panicIndex(0x1, 0x2)',
        '\t/usr/local/go/src/runtime/panic.go:113 +0x1f',
        'main.(*Server).handle(0xc0000a2000)',
        '\t/app/server.go:42 +0x3a',
      ]),
    )
    expect(ref.template).toBe('panic: runtime error: index out of range main.(*Server).handle(/app/server.go)')
    expect(ref.template).not.toContain('runtime.panicIndex')
  })
})

describe('the bound', () => {
  it('past max kinds per source the least recently seen is evicted and counted', () => {
    const miner = createKindMiner({ max: 3 })
    const first = miner.mine(text('alpha happened'))
    miner.mine(text('beta happened now'))
    miner.mine(text('gamma happened here today'))
    miner.mine(text('alpha happened'))
    miner.mine(text('delta came and went again'))
    expect(miner.stats()).toEqual({ kinds: 3, evicted: 1, mined: 5 })
    // alpha was seen again before delta came: beta went, alpha stays.
    expect(miner.mine(text('alpha happened')).id).toBe(first.id)
    expect(miner.mine(text('beta happened now')).created).toBe(true)
  })

  it('50,000 distinct random lines: kinds stay bounded, every eviction counted', () => {
    const miner = createKindMiner({ max: 1000 })
    // xorshift32: integer-exact, so 150,000 words are 150,000 different ones.
    let seed = 1
    const word = (): string => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return (seed >>> 0).toString(36).replace(/\d/g, 'q')
    }
    for (let i = 0; i < 50_000; i++) miner.mine(text(`${word()} ${word()} ${word()}`))
    const stats = miner.stats()
    expect(stats.kinds).toBeLessThanOrEqual(1000)
    expect(stats.mined).toBe(50_000)
    expect(stats.evicted).toBeGreaterThan(45_000)
  })
})
