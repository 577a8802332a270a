// test-rule names each match by its file line: the lines come in batches from 1 MiB reads, and a
// match's number is the batch's first line plus its index there. CRLF files, lines that straddle a
// read, a line cut at max_line_bytes and a last line without its newline must not shift it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { testRuleCommand } from '../../../../agent/cli/test-rule/test-rule-command'
import { suiteTempDir } from '../../../helpers/temp-dir'

interface Report {
  lines: number
  matched: number
  matches: { line: number; msg: string }[]
}

async function testRule(config: string, file: string): Promise<Report> {
  let stdout = ''
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: () => true },
    signal: new AbortController().signal,
  }
  const code = await testRuleCommand({ config, files: [file], rule: undefined, json: true }, io)
  expect(code).toBe(0)
  return JSON.parse(stdout) as Report
}

describe('test-rule line numbers', () => {
  const dir = suiteTempDir('test-rule')
  let config: string

  beforeAll(() => {
    config = join(dir, 'agent.yaml')
    writeFileSync(
      config,
      `messaging:
  base_url: http://127.0.0.1:9/
  api_key: never-used-key
state_dir: ${join(dir, 'state')}
sources:
  - name: app
    paths: [${dir}/*.log]
    max_line_bytes: 4096
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    notify: oncall-sms
`,
    )
  })

  it('counts CRLF lines, lines across 1 MiB reads, a cut line and an unterminated last line', async () => {
    const file = join(dir, 'crlf.log')
    const lines: string[] = []
    const errorAt: number[] = []
    const filler = `{"level":30,"msg":"${'f'.repeat(200)}"}`
    // Enough lines that several reads of 1 MiB end inside a line; errors sprinkled among them.
    for (let n = 1; n <= 12_000; n++) {
      if (n % 997 === 0 || n === 1 || n === 2) {
        lines.push(`{"level":50,"msg":"failure at ${n}"}`)
        errorAt.push(n)
      } else if (n === 5000) {
        lines.push('') // an empty line is a line too
      } else if (n === 6000) {
        lines.push(`{"level":50,"msg":"cut at ${n} ${'x'.repeat(8000)}"}`) // over max_line_bytes
        errorAt.push(n)
      } else {
        lines.push(filler)
      }
    }
    const last = 12_001
    writeFileSync(file, `${lines.join('\r\n')}\r\n{"level":60,"msg":"failure at ${last}"}`)
    errorAt.push(last)

    const report = await testRule(config, file)
    expect(report.lines).toBe(last)
    expect(report.matches.map((m) => m.line)).toEqual(errorAt)
    // A cut line is no longer JSON: it is read as text, its message the line's head.
    for (const m of report.matches) expect(m.msg).toMatch(new RegExp(`(failure|cut) at ${m.line}\\b`))
  })
})
