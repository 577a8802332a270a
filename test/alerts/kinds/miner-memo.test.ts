// The miner's memo of forms (alerts/kinds/miner-memo.ts): one test per rule, then the proof that a hit
// never gives another form than masking would: every line of the loghub corpus, and each with its
// digits changed in value and in count, gets the same form through a memo as without one.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE } from '../../../alerts/kinds/miner-mask'
import { FormMemo, messageKey, stackKey } from '../../../alerts/kinds/miner-memo'
import { eventForm } from '../../../alerts/kinds/miner-message'
import { parseLine } from '../../../alerts/line'

const corpus = join(__dirname, '..', '..', 'fixtures', 'corpus', 'loghub')

/** The form a memo answers for `b` after it kept `a`'s as FORM; undefined on a miss. */
function afterKeeping(a: string, b: string, options: { stack?: [string, string]; dropLeading?: boolean } = {}) {
  const memo = new FormMemo()
  const [stackA, stackB] = options.stack ?? ['', '']
  const drop = options.dropLeading ?? false
  expect(memo.find('', a, drop, stackA)).toBeUndefined()
  memo.keep('FORM')
  return memo.find('', b, drop, stackB)
}

const JS_STACK = (line: number, column: number) =>
  `TypeError: x is undefined\n    at OrderService.total (/app/dist/order.js:${line}:${column})\n` +
  `    at async /app/dist/http/server.js:${line + 7}:${column}`

describe('form memo rules', () => {
  it('rule 1: a message or a stack longer than MAX_MESSAGE is not kept', () => {
    const memo = new FormMemo()
    const long = `open ${'x'.repeat(MAX_MESSAGE)} 12`
    expect(memo.find('', long, false, '')).toBeUndefined()
    memo.keep('FORM')
    expect(memo.find('', 'open', false, long)).toBeUndefined()
    memo.keep('FORM')
    expect(memo.size).toBe(0)
  })

  it('rule 2: runs of digits fold to one digit or more, before the token of the first quote', () => {
    expect(
      afterKeeping('took 12 ms at 10.0.0.1 port=80 order=20152:', 'took 345 ms at 10.9.8.7 port=88 order=77:'),
    ).toBe('FORM')
    expect(afterKeeping('took 12 ms', 'took 1 ms')).toBeUndefined()
    expect(afterKeeping('took 12 ms', 'took 12  ms')).toBeUndefined()
    expect(afterKeeping('took 12 ms', 'took ms ms')).toBeUndefined()
    // `5:\x` is a path, `55:\x` is not: the length of a run starting a token decides.
    expect(afterKeeping('open 15:\\x', 'open 55:\\x')).toBe('FORM')
    expect(afterKeeping('open 5:\\x', 'open 55:\\x')).toBeUndefined()
    // From the quote's token on, exact: a token's length decides how far a quoted string reaches, and
    // what is before a quoted string in its token stays as it is.
    expect(afterKeeping("user 'bob' id 12", "user 'bob' id 13")).toBeUndefined()
    expect(afterKeeping('set x5="a"', 'set x6="a"')).toBeUndefined()
    expect(afterKeeping("id 12 user 'bob'", "id 34 user 'bob'")).toBe('FORM')
    expect(messageKey('a 1 b 22 c=333 "d 4"')).toBe('a 0 b 00 c=00 "d 4"')
    expect(messageKey('no digit here')).toBe('no digit here')
    expect(messageKey('v0 x00 y007 z9 w1234567890 5:x 0')).toBe('v0 x00 y00 z0 w00 0:x 0')
  })

  it('rule 3: the error type, the dropped leading variable and the stack are part of the key', () => {
    const memo = new FormMemo()
    memo.find('TypeError', 'failed 1', false, '')
    memo.keep('FORM')
    expect(memo.find('TypeError', 'failed 2', false, '')).toBe('FORM')
    expect(memo.find('RangeError', 'failed 2', false, '')).toBeUndefined()
    expect(memo.find('TypeError', 'failed 2', true, '')).toBeUndefined()
    expect(memo.find('TypeError', 'failed 2', false, JS_STACK(1, 2))).toBeUndefined()
    // Lengths first: a type and a message cannot trade characters.
    memo.find('a1', 'b', false, '')
    memo.keep('OTHER')
    expect(memo.find('a', '1b', false, '')).toBeUndefined()
  })

  it('rule 3: an event with neither type nor stack is looked up apart, by dropLeading too', () => {
    const memo = new FormMemo()
    memo.find('', 'failed 1', true, '')
    memo.keep('PLAIN')
    expect(memo.find('', 'failed 2', true, '')).toBe('PLAIN')
    expect(memo.find('', 'failed 2', false, '')).toBeUndefined()
    memo.keep('KEPT')
    expect(memo.find('T', 'failed 2', true, '')).toBeUndefined()
    memo.keep('TYPED')
    expect(memo.find('', 'failed 3', true, JS_STACK(1, 2))).toBeUndefined()
    memo.keep('STACKED')
    expect([memo.find('', 'failed 4', true, ''), memo.find('', 'failed 4', false, '')]).toEqual(['PLAIN', 'KEPT'])
    expect([memo.find('T', 'failed 4', true, ''), memo.find('', 'failed 4', true, JS_STACK(3, 4))]).toEqual([
      'TYPED',
      'STACKED',
    ])
    expect(memo.size).toBe(4)
  })

  it("rule 4: a frame line's closing numbers fold in a JavaScript or Java stack, nothing else does", () => {
    expect(afterKeeping('failed', 'failed', { stack: [JS_STACK(88, 31), JS_STACK(7, 1234)] })).toBe('FORM')
    const java = (n: string) => `java.io.IOException: boom\n\tat com.example.Foo.bar(Foo.java:${n})`
    expect(afterKeeping('failed', 'failed', { stack: [java('42'), java('4242')] })).toBe('FORM')
    expect(stackKey(java('1').replace('Foo.bar', 'Foo.bar1'))).not.toBe(
      stackKey(java('1').replace('Foo.bar', 'Foo.bar2')),
    )
    // Lines before the first frame line do not count, but for their number.
    expect(stackKey('Error: code 1\n    at x (a.js:1:2)')).toBe(stackKey('Error: code 2\n    at x (a.js:1:2)'))
    expect(stackKey('Error: code\n    at x (a.js:1:2)')).not.toBe(stackKey('Error:\ncode\n    at x (a.js:1:2)'))
    expect(stackKey('E\n    at x (a.js:1:2)')).not.toBe(stackKey('E\n    at x (a.js:1)'))
    expect(stackKey('E\n    at x (a.js:1:2:3)')).not.toBe(stackKey('E\n    at x (a.js:4:2:3)'))
    const python = (n: number) =>
      `Traceback (most recent call last):\n  File "app.py", line ${n}, in main\nat x (a.js:${n}:1)\nValueError: x`
    expect(afterKeeping('failed', 'failed', { stack: [python(1), python(2)] })).toBeUndefined()
  })

  it('rule 4: a stack whose message names an id still hits; a frame on its first line still counts', () => {
    const frames = '\n    at x (/app/a.js:1:2)\n    at y (/app/b.js:3:4)'
    expect(afterKeeping('failed', 'failed', { stack: [`Error: user 1${frames}`, `Error: user 22${frames}`] })).toBe(
      'FORM',
    )
    expect(
      afterKeeping('failed', 'failed', { stack: [`Error${frames}`, `    at z (/app/c.js:5:6)${frames}`] }),
    ).toBeUndefined()
    expect(
      afterKeeping('failed', 'failed', { stack: [`Error${frames}`, `Traceback (most recent call last):${frames}`] }),
    ).toBeUndefined()
  })

  it('rule 6: events of one key from two places alternate and each keeps its own form', () => {
    const memo = new FormMemo()
    const at = (place: string) => `Error: boom\n    at ${place} (/app/${place}.js:1:2)`
    const got: (string | undefined)[] = []
    for (const place of ['a', 'b', 'a', 'b', 'a']) {
      const found = memo.find('Error', 'failed', false, at(place))
      got.push(found)
      if (found === undefined) memo.keep(`F${place}`)
    }
    expect(got).toEqual([undefined, undefined, 'Fa', 'Fb', 'Fa'])
    // Another line number in the same place: not the same text as it came, the same once folded.
    expect(memo.find('Error', 'failed', false, at('a').replace(':1:2', ':90:7'))).toBe('Fa')
    expect(memo.find('Error', 'failed', false, at('b').replace(':1:2', ':3:4'))).toBe('Fb')
    expect(memo.size).toBe(2)
  })

  it('rule 7: the text is cut from the stack folded whole, as if cut first and folded after', () => {
    // A number ending a line before the first frame line is folded with the rest, then cut off with that line.
    expect(stackKey('Error: code 12:34\n    at x (a.js:1:2)')).toBe('o1:    at x (a.js:0:0)')
    expect(stackKey('Error: retry at 10:30\n  at y (/b.js:7)\nat z (c.js:8:9)')).toBe(
      'o1:  at y (/b.js:0)\nat z (c.js:0:0)',
    )
    // Go's and Python's stacks are not folded at all.
    const go = 'goroutine 7 [running]:\nmain.f()\n\t/a.go:12'
    expect(stackKey(go)).toBe(`g:${go}`)
    // Rule 6 with stacks folded whole: another number before the first frame line, then another text there.
    const memo = new FormMemo()
    const stack = (head: string, line: number) => `Error: ${head}\n    at x (/app/a.js:${line.toString()}:2)`
    expect(memo.find('Error', 'failed', false, stack('took 1:2', 1))).toBeUndefined()
    memo.keep('FORM')
    expect(memo.find('Error', 'failed', false, stack('took 3:4', 5))).toBe('FORM')
    expect(memo.find('Error', 'failed', false, stack('user bob', 6))).toBe('FORM')
    expect(memo.find('Error', 'failed', false, stack('took 3:4', 7).replace('at x', 'at y'))).toBeUndefined()
    // A Go stack after a JavaScript one of the same key is not taken for it.
    expect(memo.find('Error', 'failed', false, go)).toBeUndefined()
  })

  it('rule 5: bounded', () => {
    const memo = new FormMemo(3)
    for (let i = 0; i < 10; i++) {
      memo.find('', `word${String.fromCharCode(97 + i)} 1`, false, '')
      memo.keep('FORM')
      expect(memo.size).toBeLessThanOrEqual(3)
    }
    // Events with types and stacks count too.
    const stacked = new FormMemo(2)
    for (const type of ['A', 'B', 'C']) {
      stacked.find(type, 'failed', false, JS_STACK(1, 2))
      stacked.keep(`F${type}`)
      expect(stacked.size).toBeLessThanOrEqual(2)
    }
    expect(stacked.find('A', 'failed', false, JS_STACK(1, 2))).toBeUndefined()
    expect(stacked.find('C', 'failed', false, JS_STACK(5, 6))).toBe('FC')
    // And by what it holds: long messages and stacks fill it sooner than the entries would.
    const long = new FormMemo(100, 4000)
    for (let i = 0; i < 20; i++) {
      const word = String.fromCharCode(97 + i)
      long.find('T', `${word.repeat(500)} failed`, false, `Error\n    at ${word.repeat(500)} (/app/a.js:1:2)`)
      long.keep('FORM')
      expect(long.size).toBeLessThanOrEqual(2)
    }
  })
})

/** The line with each run of digits changed: its value always, its length by turns (`7` -> `80`, `123` -> `9`). */
function renumbered(line: string, turn: number): string {
  let n = turn
  return line.replace(/\d+/g, (digits) => {
    n++
    if (n % 3 === 0) return digits
    return n % 2 === 0 ? `${digits}${(n % 10).toString()}` : ((Number(digits[0]) + 1) % 10).toString()
  })
}

const TRICKY = [
  'open 5:\\x now',
  'open 55:\\x now',
  'copy .5/ to ./5',
  "can't open 12 'file name 3' at 4",
  'said "a 1 b" and 22 "c 333 d"',
  // A quoted string of MAX_QUOTED characters: one more digit and it is no quoted string.
  `quoted "${'w '.repeat(125)}12 wx" now`,
  'Fri Jun 24 18:55:11 2005 host 12 up',
  '12 <*> 13,14 (15) [16] x=17 y:18',
  'ERROR 2026-01-01 10:00:00,123 [main] a.B: failed order=1: x 2',
  'set x5="a b" 7 and y=8',
  '5:\\x 1:\\y 12:\\z',
]

describe('form memo: a hit is the form masking gives', () => {
  const sets = readdirSync(corpus, { withFileTypes: true }).filter((entry) => entry.isDirectory())

  it('on every loghub line and its renumbered variants', () => {
    let hits = 0
    let lines = 0
    const wrong: string[] = []
    for (const set of sets) {
      const raws = readFileSync(join(corpus, set.name, `${set.name}_2k.log`), 'utf8').split('\n')
      raws.push(...TRICKY)
      const memo = new FormMemo()
      for (const raw of raws) {
        if (raw === '') continue
        for (let turn = 0; turn < 2; turn++) {
          const line = parseLine(turn === 0 ? raw : renumbered(raw, turn), set.name)
          const sizeBefore = memo.size
          const memoised = eventForm(line, memo)
          if (memo.size === sizeBefore) hits++
          lines++
          if (memoised !== eventForm(line)) wrong.push(line.raw)
        }
      }
    }
    expect(wrong).toEqual([])
    // The proof is only worth what was hit: most variants are.
    expect(hits / lines).toBeGreaterThan(0.5)
  })

  it('on JSON errors with stacks and their renumbered variants', () => {
    const memo = new FormMemo()
    for (let i = 0; i < 200; i++) {
      const record = {
        level: 50,
        msg: `request ${(i % 3).toString()} failed after ${(i * 7).toString()} ms`,
        err: { type: i % 2 === 0 ? 'TypeError' : 'Range Error', message: 'x', stack: JS_STACK(i % 9, i) },
      }
      const line = parseLine(JSON.stringify(record), 'app')
      expect(eventForm(line, memo)).toBe(eventForm(line))
    }
    expect(memo.size).toBeLessThan(10)
  })
})
