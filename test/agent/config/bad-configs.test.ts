// Each bad config in test/fixtures/config/bad is a fixture with its expected problems beside it
// (`name.expected`, one formatted problem per line, in order). All problems of a file are reported
// at once, so each expected file is the complete list.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigErrorCodes, formatProblem, parseAgentConfig, type ConfigProblem } from '../../../agent/config'
import { fixtures, SECRET_VALUES, testEnv } from './helpers'

const dir = join(fixtures, 'bad')
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()

function problemsOf(file: string): ConfigProblem[] {
  const result = parseAgentConfig(readFileSync(join(dir, file), 'utf8'), file, { env: testEnv, cwd: dir })
  expect(result.ok, `${file} should be invalid`).toBe(false)
  return result.ok ? [] : result.problems
}

describe('bad configs', () => {
  it('every fixture has an expected file and every expected file a fixture', () => {
    const expected = readdirSync(dir)
      .filter((f) => f.endsWith('.expected'))
      .sort()
    expect(expected).toEqual(files.map((f) => f.replace(/\.yaml$/, '.expected')))
    expect(files.length).toBeGreaterThanOrEqual(20)
  })

  it.each(files)('%s reports exactly its expected problems', (file) => {
    const expected = readFileSync(join(dir, file.replace(/\.yaml$/, '.expected')), 'utf8')
      .trimEnd()
      .split('\n')
    expect(problemsOf(file).map(formatProblem)).toEqual(expected)
  })

  it('together the fixtures cover every problem code', () => {
    const seen = new Set(files.flatMap((file) => problemsOf(file).map((p) => p.code)))
    // READ is a file that cannot be opened (the CLI test) and INVALID the aggregate thrown error.
    const codes = Object.values(ConfigErrorCodes).filter(
      (c) => c !== ConfigErrorCodes.READ && c !== ConfigErrorCodes.INVALID,
    )
    expect(codes.filter((code) => !seen.has(code))).toEqual([])
  })

  it('never prints a secret or a value that came from the environment or a file', () => {
    const text = files.flatMap((file) => problemsOf(file).map(formatProblem)).join('\n')
    for (const secret of SECRET_VALUES) expect(text).not.toContain(secret)
    expect(text).toContain('messaging.api_key: ${LOGX_TEST_UNSET} is not set')
    expect(text).toContain('got the value of "${LOGX_TEST_FORMAT}"')
  })

  it('locates problems at line:col of the key or value they name', () => {
    const [problem] = problemsOf('unknown-channel.yaml')
    expect(problem).toMatchObject({
      line: 10,
      col: 25,
      path: 'rules[0].notify[1]',
      code: ConfigErrorCodes.UNKNOWN_REFERENCE,
    })
    const lines = readFileSync(join(dir, 'unknown-channel.yaml'), 'utf8').split('\n')
    expect(lines[9]?.slice(24)).toMatch(/^oncal-sms/)
  })
})
