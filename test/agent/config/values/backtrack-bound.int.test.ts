// The agent's process bounds a user's pattern at run time, beyond what the load-time check
// (user-pattern.ts) refuses: bin/logx-agent.js turns on V8's linear-time fallback before anything
// is compiled. A child process runs the bin's own lines before its entry point, then the agent's
// matcher (a silence's `msg` matcher as the config makes it) on 41 bytes that take a backtracking
// engine about 2^40 steps. `(a|a)+` passes the structural check: only the flag saves the loop.
// The test's own timeout is the only bound.
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { describe, expect, it, onTestFinished } from 'vitest'
import { repoRoot } from '../../../helpers/build'
import { tempDir } from '../../../helpers/temp-dir'

const ENTRY_LINE = "require('../dist/agent/cli/code-cache.js').main(process.argv.slice(2))"

const MATCHER = `
import { toFieldMatches } from './agent/config/values/field-match'
import { compileFieldMatch, matchField } from './alerts/matcher'
const [match] = toFieldMatches({ msg: '/^(a|a)+$/' })
if (match === undefined || match.kind !== 'regex') throw new Error('the pattern was refused')
process.stdout.write(String(matchField(compileFieldMatch(match), { msg: 'a'.repeat(40) + '!' })))
`

describe('bin/logx-agent.js', () => {
  it('runs a pattern that backtracks exponentially to its end (V8 falls back to its linear engine)', async () => {
    const bin = readFileSync(join(repoRoot, 'bin', 'logx-agent.js'), 'utf8')
    expect(bin).toContain(ENTRY_LINE)
    const prelude = bin.replace(/^#!.*\n/, '').replace(ENTRY_LINE, '')
    const matcher = buildSync({
      stdin: { contents: MATCHER, resolveDir: repoRoot, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
    }).outputFiles[0]?.text
    const script = join(tempDir('backtrack'), 'agent-matcher.js')
    writeFileSync(script, `${prelude}\n${matcher ?? ''}`)
    // Not spawnSync: without the flag the child would spin for hours and only an async wait lets the
    // test's timeout end it.
    const output = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = execFile(process.execPath, [script], { encoding: 'utf8' }, (error, stdout, stderr) =>
        error === null ? resolve({ stdout, stderr }) : reject(error),
      )
      onTestFinished(() => void child.kill('SIGKILL'))
    })
    expect(output).toEqual({ stdout: 'false', stderr: '' })
  }, 60_000)
})
