// `logx-agent kinds FILE... [--config F] [--format auto|json|text] [--level L] [--json] [--per-line]`:
// the error kinds of log files, most frequent first (kind-report.ts), or with --per-line one kind id
// per input line, in input order (the grouping benchmark's interface). `kinds --live` asks the
// running agent instead (live-kinds.ts). A progress bar goes to stderr only when it is a terminal;
// piped, the report is all that is written. Exit 2: a bad option, or a file that cannot be read.
import { statSync } from 'node:fs'
import { levelFromName } from '../../../alerts'
import { createKindMiner } from '../../../alerts/kinds'
import { readAgentConfig } from '../../config/load/load-config'
import type { AgentConfig, LineFormat } from '../../config/types'
import { STREAM_MAX_LINE_BYTES } from '../../prefilter/stream-lines'
import { missingConfigMessage } from '../init/missing-config'
import type { CliIo } from '../io'
import { problemLine } from '../problem-line'
import { createProgressBar } from '../progress-bar'
import { sourceOf } from '../test-rule/test-rule-command'
import { outputWidth } from '../text-table'
import { createChunkedOutput } from './chunked-output'
import { createKindTally, describeKinds, kindsJson, reportRows } from './kind-report'
import { liveKinds } from './live-kinds'
import { mineFile, type MineSource } from './mine-files'
import { createPerLineIds, type PerLineLimits } from './per-line-ids'

export interface KindsArgs {
  files: string[]
  /**
   * With files: the config whose sources' formats and multi-line rules apply (undefined: none read).
   * With --live: where the running agent is (default DEFAULT_CONFIG).
   */
  config: string | undefined
  url: string | undefined
  tokenFile: string | undefined
  json: boolean
  format: string | undefined
  level: string | undefined
  perLine: boolean
  live: boolean
}

/**
 * Kinds the CLI's miner keeps per source (the config's `kinds.max` when --config is given): the
 * agent's default, so a file is mined as the
 * agent would mine it, in bounded memory (a file of random lines evicts, as in the agent).
 */
export const CLI_MAX_KINDS = 10_000
const FORMATS: readonly string[] = ['auto', 'json', 'text']

/**
 * What `--per-line` holds before it resolves and writes (per-line-ids.ts): ids, at most 4 per kind
 * kept (a kind, its aliases, the kinds it absorbed), about 100 bytes each; lines, 4 bytes each (a
 * 100 MB file of 100-byte lines holds 1 M lines: 4 MB).
 */
export function perLineLimits(maxKinds: number): PerLineLimits {
  return { maxIds: Math.max(1 << 16, 4 * maxKinds), maxLines: 1 << 23 }
}

type Checked = { ok: true; minLevel: number | undefined } | { ok: false; message: string }

function checkArgs(args: KindsArgs): Checked {
  if (args.live && args.files.length > 0) return { ok: false, message: '--live reads no files: give one or the other' }
  if (args.live && args.perLine) return { ok: false, message: '--per-line needs files; --live lists kinds' }
  if (!args.live && args.files.length === 0)
    return { ok: false, message: "give at least one FILE, or --live for the running agent's kinds" }
  if (args.format !== undefined && !FORMATS.includes(args.format))
    return { ok: false, message: `--format "${args.format}": expected ${FORMATS.join(', ')}` }
  const minLevel = args.level === undefined ? undefined : levelFromName(args.level)
  if (args.level !== undefined && minLevel === undefined)
    return { ok: false, message: `--level "${args.level}": expected trace, debug, info, warn, error or fatal` }
  return { ok: true, minLevel }
}

function unreadable(files: readonly string[]): string | undefined {
  for (const file of files) {
    try {
      if (!statSync(file).isFile()) return `cannot read ${file}: not a regular file`
    } catch (err) {
      return `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`
    }
  }
  return undefined
}

/** The config when --config was given; a number is the exit code after its problems were printed. */
async function loadConfig(args: KindsArgs, io: CliIo): Promise<AgentConfig | undefined | number> {
  if (args.config === undefined) return undefined
  const missing = await missingConfigMessage(args.config, 'name another with --config FILE')
  if (missing !== undefined) {
    io.stderr.write(missing)
    return 2
  }
  const result = await readAgentConfig(args.config)
  if (result.ok) return result.config
  for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
  io.stderr.write(`${args.config}: ${result.problems.length} problem(s)\n`)
  return 1
}

function sourceFor(config: AgentConfig | undefined, file: string, format: string | undefined): MineSource {
  const source: MineSource =
    config === undefined
      ? { name: undefined, format: 'auto', multiline: undefined, maxLineBytes: STREAM_MAX_LINE_BYTES }
      : sourceOf(config, file)
  return format === undefined ? source : { ...source, format: format as LineFormat }
}

export async function kindsCommand(args: KindsArgs, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const checked = checkArgs(args)
  const fail = (message: string): number => {
    io.stderr.write(`logx-agent kinds: ${message}\n`)
    return 2
  }
  if (!checked.ok) return fail(checked.message)
  if (args.live) return liveKinds(args, checked.minLevel, io, env)
  const cannot = unreadable(args.files)
  if (cannot !== undefined) return fail(cannot)
  const config = await loadConfig(args, io)
  if (typeof config === 'number') return config
  const maxKinds = config?.kinds?.max ?? CLI_MAX_KINDS
  const miner = createKindMiner({ max: maxKinds })
  const output = createChunkedOutput(io.stdout)
  const perLine = createPerLineIds(miner, output, perLineLimits(maxKinds))
  const tally = createKindTally()
  let lines = 0
  let events = 0
  for (const file of args.files) {
    const source = sourceFor(config, file, args.format)
    const bar = createProgressBar(io.stderr, file, statSync(file).size)
    let read = 0
    await mineFile(
      file,
      source,
      miner,
      (event) => {
        lines += event.lines
        events++
        if (args.perLine) perLine.add(event.line.source, event.ref.id, event.lines)
        else tally.add(event.ref, event.line.level, event.line.raw, { file, line: event.lineNo }, event.line.source)
      },
      async (bytes) => {
        read += bytes
        bar.update(read)
        if (perLine.full()) await perLine.write()
        await output.flushIfFull()
      },
    )
    bar.done()
  }
  if (args.perLine) await perLine.write()
  else {
    const kinds = reportRows(
      tally.rows((source, id) => miner.resolve(source, id)),
      checked.minLevel,
    )
    const report = { files: args.files, lines, events, kinds, unlisted: tally.unlisted() }
    output.push(args.json ? kindsJson(report) : describeKinds(report, outputWidth(io.stdout)))
  }
  await output.flush()
  return 0
}
