// `logx-agent test-rule <config> <logfile...> [--rule NAME] [--json]`: a dry run over existing files
// from their first line: which lines match which rule, which incidents form, and the exact requests
// each channel would get. Nothing is sent and no state is touched.
import { createReadStream, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { problemLine } from '../problem-line'
import { readAgentConfig } from '../../config/load/load-config'
import type { AgentConfig } from '../../config/types'
import {
  createDryRun,
  MAX_LISTED,
  type DryRun,
  type DryRunMessage,
  type DryRunReport,
  type DryRunSource,
} from './dry-run'
import { createStreamLines, STREAM_MAX_LINE_BYTES } from '../../prefilter/stream-lines'
import type { LineBatch } from '../../tail'
import { compileGlob } from '../../tail/glob'
import type { CliIo } from '../io'
import { createProgressBar } from '../progress-bar'
import { terminalLines } from '../terminal-text'

export interface TestRuleArgs {
  config: string
  files: string[]
  rule: string | undefined
  json: boolean
}

/** The source whose paths take the file: its format, multi-line rule and line cap apply. */
export function sourceOf(config: AgentConfig, file: string): DryRunSource {
  const absolute = resolve(file)
  for (const source of config.sources) {
    if (source.paths.some((pattern) => compileGlob(pattern).matches(absolute))) {
      return {
        name: source.name,
        format: source.format,
        multiline: source.multiline,
        maxLineBytes: source.maxLineBytes,
      }
    }
  }
  return { name: undefined, format: 'auto', multiline: undefined, maxLineBytes: STREAM_MAX_LINE_BYTES }
}

const multiLineNote = (source: DryRunSource): string => (source.multiline === undefined ? '' : ', multi-line events')

async function feed(dryRun: DryRun, file: string, source: DryRunSource, io: CliIo): Promise<void> {
  const bar = createProgressBar(io.stderr as { write(t: string): unknown }, file, statSync(file).size)
  // The file's lines in batches, as the tailer would hand them to the running agent.
  const lines = createStreamLines(source.maxLineBytes)
  const reading = dryRun.file(file, source)
  let read = 0
  const onBatch = (batch: LineBatch): void => reading.batch(batch)
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    read += chunk.length
    lines.push(chunk, onBatch)
    bar.update(read)
  }
  lines.end(onBatch)
  reading.end()
  bar.done()
}

/** `reaches asha (on call for ops/primary), +919800000002`; the CRM record reaches nobody, so says nothing. */
export function reachLine(message: Pick<DryRunMessage, 'type' | 'reaches' | 'oncall'>): string | undefined {
  if (message.type === 'incident') return undefined
  if (message.reaches.length === 0) return 'reaches nobody (no recipient has an address for this channel)'
  const names = message.reaches.map((name) => {
    const picked = message.oncall?.filter((o) => o.user === name) ?? []
    return picked.length === 0
      ? name
      : `${name} (on call for ${picked.map((o) => `${o.schedule}/${o.layer}`).join(', ')})`
  })
  return `reaches ${names.join(', ')}`
}

function describe(report: DryRunReport, notes: string[]): string {
  const out: string[] = [...notes]
  const notJson = report.parseErrors > 0 ? `, ${report.parseErrors} not valid JSON` : ''
  out.push(`${report.lines} line(s) read, ${report.matched} matched a rule${notJson}`)
  if (report.matches.length > 0) out.push('', 'Matches:')
  for (const m of report.matches) {
    out.push(`  ${m.file}:${m.line}  rule ${m.rule}  ${m.msg}`)
    // A multi-line event: the rest of it, as the mail body would carry it.
    for (const more of m.more ?? []) out.push(`      | ${more}`)
  }
  if (report.matched > MAX_LISTED) out.push(`  ... and ${report.matched - MAX_LISTED} more`)
  out.push('', `Incidents (${report.incidents.length}):`)
  for (const i of report.incidents) {
    const counts = `${i.lines} line(s), ${i.deliveries} message(s)`
    out.push(`  ${i.key}  rule ${i.rule}  ${counts}  "${i.title}"  ${i.firstSeen} .. ${i.lastSeen}`)
  }
  out.push('', `Messages that would be sent (${report.messages.length}):`)
  for (const m of report.messages) {
    out.push(`  ${m.at}  ${m.kind}  ${m.channel} (${m.type})  incident ${m.incident}`)
    const reach = reachLine(m)
    if (reach !== undefined) out.push(`    ${reach}`)
    if (m.mutedBy !== undefined)
      out.push(
        `    muted (inhibit) while "${m.mutedBy.title}" (rule ${m.mutedBy.rule}, incident ${m.mutedBy.key}) fires`,
      )
    for (const request of m.requests) out.push(`    ${JSON.stringify(request)}`)
  }
  out.push('', 'Dry run: nothing was sent.')
  return terminalLines(out)
}

export async function testRuleCommand(args: TestRuleArgs, io: CliIo): Promise<number> {
  const result = await readAgentConfig(args.config)
  if (!result.ok) {
    for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
    io.stderr.write(`${args.config}: ${result.problems.length} problem(s)\n`)
    return 1
  }
  const { config } = result
  if (args.rule !== undefined && !config.rules.some((r) => r.name === args.rule)) {
    const names = config.rules.map((r) => r.name).join(', ')
    io.stderr.write(`logx-agent: no rule named "${args.rule}" in ${args.config} (rules: ${names})\n`)
    return 2
  }
  for (const file of args.files) {
    try {
      if (!statSync(file).isFile()) throw new Error('not a regular file')
    } catch (err) {
      io.stderr.write(`logx-agent: cannot read ${file}: ${(err as Error).message}\n`)
      return 2
    }
  }
  const dryRun = createDryRun(config, args.rule, Date.now())
  const notes: string[] = []
  for (const file of args.files) {
    const source = sourceOf(config, file)
    if (source.name === undefined)
      notes.push(
        `note: ${file} is in no source's paths; read as format auto, and rules limited to a source do not apply`,
      )
    else notes.push(`${file}: source ${source.name} (${source.format}${multiLineNote(source)})`)
    await feed(dryRun, file, source, io)
  }
  const report = dryRun.finish()
  io.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : describe(report, notes))
  return 0
}
