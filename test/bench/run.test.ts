// `npm run bench` (bench/run.js): each bench reports its rows in one line (bench/summary.js), and the
// runner prints them as one table, skips a bench whose tool is missing, and fails when a bench crashes.
// The runs here use tiny settings of the fastest bench; they need the build (dist/), as the benches do.

// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../helpers/needs-build'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { suiteTempDir } from '../helpers/temp-dir'

interface Row {
  case: string
  logx: number | null
  peer: string | null
  peerValue: number | null
  unit: string
  better: 'higher' | 'lower'
  ratio: number | null
}
interface Summary {
  MARK: string
  summaryRow: (row: Record<string, unknown>) => Row
  formatSummary: (bench: string, rows: Record<string, unknown>[]) => string
  parseSummaries: (text: string) => { bench: string; rows: Row[] }[]
  summaryWanted: (argv: string[], env: Record<string, string | undefined>) => boolean
}
interface Runner {
  argsFor: (bench: { name: string; quick: string[] }, options: { full: boolean; extra: string[] }) => string[]
}

const repoRoot = join(__dirname, '..', '..')
const load = createRequire(__filename)
const summary = load(join(repoRoot, 'bench', 'summary.js')) as Summary
const runner = load(join(repoRoot, 'bench', 'run.js')) as Runner
const runJs = join(repoRoot, 'bench', 'run.js')
const files = load(join(repoRoot, 'bench', 'benchmarks-file.js')) as { KEPT_BEGIN: string; KEPT_END: string }

/** The environment of a plain shell: not the one a bench gets from run.js. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra }
  delete env[summary.MARK]
  return env
}

function run(args: string[], env = cleanEnv()): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [runJs, ...args], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The table's body rows, split into cells. */
function tableCells(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| bench '))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
}

describe('bench/summary.js', () => {
  it('computes the ratio from the values so that above 1 means logx is ahead, either way round', () => {
    const time = summary.summaryRow({
      case: 'basic',
      logx: 500,
      peer: 'pino',
      peerValue: 1500,
      unit: 'ns/op',
      better: 'lower',
    })
    const speed = summary.summaryRow({
      case: 'filter',
      logx: 800,
      peer: 'JSON.parse',
      peerValue: 80,
      unit: 'MB/s',
      better: 'higher',
    })
    expect(time.ratio).toBe(3)
    expect(speed.ratio).toBe(10)
  })

  it('keeps the ratio a bench passes (a median of per-round ratios) and allows a row without a peer', () => {
    expect(
      summary.summaryRow({
        case: 'basic',
        logx: 500,
        peer: 'pino',
        peerValue: 1500,
        unit: 'ns/op',
        better: 'lower',
        ratio: 2.5,
      }).ratio,
    ).toBe(2.5)
    expect(summary.summaryRow({ case: 'p99', logx: 7.5, unit: 'ms', better: 'lower' })).toEqual({
      case: 'p99',
      logx: 7.5,
      peer: null,
      peerValue: null,
      unit: 'ms',
      better: 'lower',
      ratio: null,
    })
  })

  it('refuses a row that could not be read', () => {
    expect(() => summary.summaryRow({ case: 'x', logx: Number.NaN, unit: 'ms', better: 'lower' })).toThrow(/finite/)
    expect(() => summary.summaryRow({ case: 'x', logx: 1, unit: 'ms', better: 'faster' })).toThrow(/higher or lower/)
    expect(() => summary.summaryRow({ case: 'x', logx: null, peer: 'pino', unit: 'ms', better: 'lower' })).toThrow(
      /both values or a ratio/,
    )
  })

  it("finds the summary lines among a bench's own output", () => {
    const line = summary.formatSummary('logger', [
      { case: 'basic', logx: 500, peer: 'pino', peerValue: 1500, unit: 'ns/op', better: 'lower', ratio: 3 },
    ])
    const found = summary.parseSummaries(`shape  logx ns/op\nbasic  500\n${line}\ngeomean 3.0\n`)
    expect(found).toEqual([{ bench: 'logger', rows: [expect.objectContaining({ case: 'basic', ratio: 3 })] }])
  })

  it('is printed only when asked for', () => {
    expect(summary.summaryWanted(['node', 'bench/logger.js'], {})).toBe(false)
    expect(summary.summaryWanted(['node', 'bench/logger.js', '--summary'], {})).toBe(true)
    expect(summary.summaryWanted(['node', 'bench/logger.js'], { [summary.MARK]: '1' })).toBe(true)
  })
})

describe('bench/run.js', () => {
  const empty = suiteTempDir('bench-path')
  const scratch = suiteTempDir('bench-write')

  it('prints one table with the rows of the bench it ran, and a closing line', () => {
    const { status, stdout, stderr } = run(['--only', 'redaction', '--', '--rounds', '1', '--ops', '200'])
    expect(stderr).toContain('node bench/redaction.js --rounds 1 --ops 200')
    expect(status).toBe(0)
    const cells = tableCells(stdout)
    expect(cells.map((row) => [row[0], row[1], row[3]])).toEqual([
      ['redaction', 'logger, redact', 'pino'],
      ['redaction', 'logger, no redact', 'pino'],
      ['redaction', 'library: @pinojs/redact', 'fast-redact'],
    ])
    for (const row of cells) expect(Number(row[6])).toBeGreaterThan(0)
    expect(stdout).toMatch(/1 benchmarks in \d+ s: 1 ok, 0 failed, 0 skipped; 3 rows/)
  })

  it('writes BENCHMARKS.md anew with --write: each bench with its command and peers, the kept block carried over', () => {
    const file = join(scratch, 'BENCHMARKS.md')
    const kept = `${files.KEPT_BEGIN}\n| outside harness | 0.43x grep |\n${files.KEPT_END}`
    writeFileSync(file, `# old\n\nold history that goes\n\n${kept}\n`)
    const { status } = run(['--only', 'redaction', '--write', file, '--', '--rounds', '1', '--ops', '200'])
    expect(status).toBe(0)
    const written = readFileSync(file, 'utf8')
    expect(written).toContain('## redaction')
    expect(written).toContain('- command: `node bench/redaction.js --rounds 1 --ops 200`')
    expect(written).toMatch(/- peers: .*pino/)
    expect(written).toMatch(/^\| redaction +\| /m)
    expect(written).toContain(kept)
    expect(written).not.toContain('old history that goes')
    expect(written).toMatch(/- machine: \d{4}-\d\d-\d\d \d\d:\d\d UTC; \d+ x /)
  })

  it("leaves a bench's own output as it was when run by hand", () => {
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'bench', 'redaction.js'), '--rounds', '1', '--ops', '100'],
      { cwd: repoRoot, env: cleanEnv(), encoding: 'utf8' },
    )
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('logger: logx redact')
    expect(result.stdout).not.toContain(summary.MARK)
  })

  it('skips a bench whose tool is not installed, and does not fail for it', () => {
    const { status, stdout } = run(['--only', 'agent-instructions'], cleanEnv({ PATH: empty }))
    expect(status).toBe(0)
    expect(tableCells(stdout)).toEqual([
      ['agent-instructions', 'skipped: valgrind not installed', '-', '-', '-', '-', '-'],
    ])
    expect(stdout).toContain('0 failed, 1 skipped (agent-instructions)')
  })

  it('exits non-zero and says which bench failed when one crashes', () => {
    const { status, stdout, stderr } = run(['--only', 'tail', '--', '--format', 'nope'])
    expect(status).toBe(1)
    expect(tableCells(stdout)).toEqual([['tail', 'FAILED: exit code 1', '-', '-', '-', '-', '-']])
    expect(stderr).toContain('--format must be json or text')
    expect(stdout).toContain('1 failed (tail)')
  })

  it('refuses a bench name it does not know', () => {
    const { status, stderr } = run(['--only', 'logger,nope'])
    expect(status).toBe(2)
    expect(stderr).toContain('not: nope')
  })

  it('gives each bench its quick settings, minus those the extra arguments set, and none with --full', () => {
    const bench = { name: 'tail', quick: ['--mb', '20', '--rounds', '1'] }
    expect(runner.argsFor(bench, { full: false, extra: [] })).toEqual(['--mb', '20', '--rounds', '1'])
    expect(runner.argsFor(bench, { full: false, extra: ['--mb', '5'] })).toEqual(['--rounds', '1', '--mb', '5'])
    expect(runner.argsFor(bench, { full: true, extra: [] })).toEqual([])
  })
})
