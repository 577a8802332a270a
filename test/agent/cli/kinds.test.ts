// `logx-agent kinds FILE...` in this process, on real files: the report (most frequent first, line
// numbers, level, template, sample), --level, --json, --per-line (one id per input line, whatever
// the line), a source's multi-line rule through --config, the progress bar only on a terminal, and
// the refusals (exit 2, naming the file or option).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { kindsCommand, type KindsArgs } from '../../../agent/cli/kinds/kinds-command'
import { suiteTempDir } from '../../helpers/temp-dir'
import { cli } from './capture'

const dir = suiteTempDir('kinds')
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const APP = [
  '2026-12-02 10:00:01 ERROR Connection refused to 10.0.0.1:5432',
  '2026-12-02 10:00:02 INFO user 42 logged in',
  '2026-12-02 10:00:03 ERROR Connection refused to 10.0.0.2:5433',
  '2026-12-02 10:00:04 ERROR Connection refused to 10.0.0.3:5434',
  '2026-12-02 10:00:05 WARN <script>alert(1)</script> disk 91% full',
].join('\n')

interface JsonKind {
  id: string
  count: number
  level: number | undefined
  levelName: string | undefined
  first: { file: string; line: number }
  last: { file: string; line: number }
  template: string
  sample: string
}

describe('kinds FILE...', () => {
  it('reports the kinds, most frequent first, with level, count, first and last line, template and a sample', async () => {
    const app = file('app.log', `${APP}\n`)
    const out = await cli(['kinds', '--json', app])
    expect(out.code).toBe(0)
    const report = JSON.parse(out.stdout) as { lines: number; events: number; kinds: JsonKind[] }
    expect(report.lines).toBe(5)
    expect(report.events).toBe(5)
    const [top] = report.kinds
    expect(top).toMatchObject({ count: 3, level: 50, levelName: 'error', first: { line: 1 }, last: { line: 4 } })
    expect(top?.sample).toBe('2026-12-02 10:00:01 ERROR Connection refused to 10.0.0.1:5432')
    expect(top?.template).toContain('Connection refused')
    expect(report.kinds.reduce((sum, k) => sum + k.count, 0)).toBe(5)
    const text = await cli(['kinds', app])
    expect(text.stdout).toMatch(/^5 line\(s\), 5 event\(s\), \d+ kind\(s\)\n/)
    expect(text.stdout).toMatch(/^ID +LEVEL +COUNT +FIRST +LAST +TEMPLATE$/m)
    expect(text.stdout).toContain(`${top?.id}  error  3      1      4`)
    expect(text.stdout).toContain('    e.g. 2026-12-02 10:00:01 ERROR Connection refused to 10.0.0.1:5432')
  })

  it('--level keeps the kinds of that level and worse', async () => {
    const app = file('levels.log', `${APP}\n`)
    const out = await cli(['kinds', '--json', '--level', 'warn', app])
    const kinds = (JSON.parse(out.stdout) as { kinds: JsonKind[] }).kinds
    expect(kinds.map((k) => k.levelName).sort()).toEqual(['error', 'warn'])
    const errors = await cli(['kinds', '--json', '--level', 'error', app])
    expect((JSON.parse(errors.stdout) as { kinds: JsonKind[] }).kinds.map((k) => k.count)).toEqual([3])
  })

  it('--per-line answers one id per input line, in order, whatever the line', async () => {
    // CRLF, an empty line, binary, a last line without its newline: each is a line with an id.
    const lines = [...APP.split('\n'), '', 'GET /a\r', '\u0000\u00ff binary', 'last without newline']
    const out = await cli(['kinds', '--per-line', file('per-line.log', lines.join('\n'))])
    expect(out.code).toBe(0)
    expect(out.stderr).toBe('')
    const ids = out.stdout.split('\n')
    expect(ids.pop()).toBe('')
    expect(ids).toHaveLength(lines.length)
    expect(ids.every((id) => /^\S+$/.test(id))).toBe(true)
    expect(ids[0]).toBe(ids[2])
    expect(ids[2]).toBe(ids[3])
    expect(ids[0]).not.toBe(ids[1])
  })

  it('--per-line gives a line mined before a later merge the id its kind has at the end', async () => {
    // `alice` and `bob` are two kinds until `carol` shows a third value there: the three merge, and
    // bob's line, mined before, answers the surviving kind's id, as the later lines do.
    const lines = ['session of alice opened', 'session of bob opened', 'session of carol opened']
    const out = await cli(['kinds', '--per-line', file('merge.log', `${lines.join('\n')}\n`)])
    expect(out.code).toBe(0)
    const ids = out.stdout.trimEnd().split('\n')
    expect(ids).toHaveLength(3)
    expect(new Set(ids).size).toBe(1)
  })

  it('--per-line holds across 1 MiB reads and lines cut at the cap', async () => {
    const long = `ERROR ${'x'.repeat(2 * 1024 * 1024)}`
    const many = Array.from(
      { length: 60_000 },
      (_, i) => `2026-12-02 10:00:00 INFO request ${i} served in ${i % 97} ms`,
    )
    const text = [...many.slice(0, 30_000), long, ...many.slice(30_000)].join('\n') + '\n'
    const out = await cli(['kinds', '--per-line', file('big.log', text)])
    const ids = out.stdout.split('\n')
    ids.pop()
    expect(ids).toHaveLength(60_001)
    expect(new Set([...ids.slice(0, 30_000), ...ids.slice(30_001)]).size).toBe(1)
  })

  it("reads a file as its config source does: a stack trace is one event, its lines repeat the event's id", async () => {
    const trace = [
      '2026-12-02 10:00:01 ERROR [main] c.e.Checkout - payment failed',
      'java.lang.IllegalStateException: card 4111 declined',
      '\tat com.example.Checkout.pay(Checkout.java:42)',
      '\tat com.example.Main.main(Main.java:7)',
    ]
    const text = [...trace, '2026-12-02 10:00:02 INFO [main] c.e.Checkout - paid', ...trace].join('\n') + '\n'
    writeFileSync(join(dir, 'java.log'), text)
    const config = file(
      'agent.yaml',
      `messaging:\n  base_url: http://127.0.0.1:9/\n  api_key: never-used-key\nstate_dir: ${join(dir, 'state')}\n` +
        `sources:\n  - name: java\n    paths: [${dir}/java.log]\n    multiline: java\n` +
        `channels:\n  oncall-sms: { type: sms, numbers: [919800000001] }\nrules:\n  - name: errors\n    notify: oncall-sms\n`,
    )
    const perLine = await cli(['kinds', '--per-line', '--config', config, join(dir, 'java.log')])
    expect(perLine.stderr).toBe('')
    const ids = perLine.stdout.trimEnd().split('\n')
    expect(ids).toHaveLength(9)
    expect(new Set(ids.slice(0, 4)).size).toBe(1)
    expect(ids.slice(5)).toEqual(ids.slice(0, 4))
    expect(ids[4]).not.toBe(ids[0])
    const report = JSON.parse((await cli(['kinds', '--json', '--config', config, join(dir, 'java.log')])).stdout) as {
      lines: number
      events: number
      kinds: JsonKind[]
    }
    expect(report).toMatchObject({ lines: 9, events: 3 })
    expect(report.kinds[0]).toMatchObject({ count: 2, first: { line: 1 }, last: { line: 6 } })
    expect(report.kinds[0]?.sample.split('\n')).toHaveLength(4)
  })
})

describe('kinds: the terminal and the refusals', () => {
  const args = (files: string[], more: Partial<KindsArgs> = {}): KindsArgs => ({
    files,
    config: undefined,
    url: undefined,
    tokenFile: undefined,
    json: false,
    format: undefined,
    level: undefined,
    perLine: false,
    live: false,
    ...more,
  })
  const run = async (a: KindsArgs, isTTY: boolean) => {
    let stdout = ''
    let stderr = ''
    const io = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t), isTTY, columns: 100 },
      signal: new AbortController().signal,
    }
    const code = await kindsCommand(a, io)
    return { code, stdout, stderr }
  }
  const big = (): string => {
    const line = '2026-12-02 10:00:00 ERROR upstream timed out after 30000 ms (request 1234)\n'
    return file('five-mb.log', line.repeat(Math.ceil((5 * 1024 * 1024) / line.length)))
  }

  it('draws a progress bar on stderr when it is a terminal', async () => {
    const out = await run(args([big()]), true)
    expect(out.code).toBe(0)
    expect(out.stderr).toContain('\r')
    expect(out.stderr).toMatch(/\[#+\] 100% 5\.0\/5\.0 MB\n$/)
    expect(out.stdout).toMatch(/^\d+ line\(s\)/)
  })

  it('prints nothing but the report when stderr is piped', async () => {
    const out = await run(args([big()], { perLine: true }), false)
    expect(out.stderr).toBe('')
    expect(out.stdout.split('\n').length).toBeGreaterThan(60_000)
  })

  it('a missing file is exit 2 naming it', async () => {
    const out = await cli(['kinds', join(dir, 'absent.log')])
    expect(out.code).toBe(2)
    expect(out.stderr).toContain(`cannot read ${join(dir, 'absent.log')}: ENOENT`)
    expect(out.stdout).toBe('')
  })

  it('refuses a bad --format, a bad --level, no file, and files with --live (exit 2, naming the option)', async () => {
    const app = file('refused.log', `${APP}\n`)
    const cases: [string[], string][] = [
      [['kinds', '--format', 'xml', app], '--format "xml"'],
      [['kinds', '--level', 'loud', app], '--level "loud"'],
      [['kinds'], 'give at least one FILE'],
      [['kinds', '--live', app], '--live reads no files'],
      [['kinds', '--live', '--per-line'], '--per-line needs files'],
    ]
    for (const [argv, says] of cases) {
      const out = await cli(argv)
      expect(out.code, argv.join(' ')).toBe(2)
      expect(out.stderr).toContain(says)
    }
  })

  it('the help shows the files as optional (--live takes none)', async () => {
    const out = await cli(['kinds', '--help'])
    expect(out.stdout).toContain('Usage: logx-agent kinds [file...] [options]')
    expect(out.stdout).toContain('--per-line')
  })
})
