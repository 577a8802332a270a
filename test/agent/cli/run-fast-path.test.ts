import { describe, expect, it } from 'vitest'
import { parseRunFastPath } from '../../../agent/cli/run-fast-path'

describe('parseRunFastPath', () => {
  it('takes the run command lines pm2, npm start and the benchmarks use', () => {
    expect(parseRunFastPath([])).toEqual({ config: 'config/agent.yaml', port: undefined, host: undefined })
    expect(parseRunFastPath(['run', '--config', 'a.yaml'])).toEqual({
      config: 'a.yaml',
      port: undefined,
      host: undefined,
    })
    expect(parseRunFastPath(['--config=a.yaml', '--port', '0', '--host', '::1'])).toEqual({
      config: 'a.yaml',
      port: 0,
      host: '::1',
    })
    expect(parseRunFastPath(['run', '--port=4011'])).toEqual({
      config: 'config/agent.yaml',
      port: 4011,
      host: undefined,
    })
    expect(parseRunFastPath(['run', '--tap', '/tmp/tap.ndjson'])).toEqual({
      config: 'config/agent.yaml',
      port: undefined,
      host: undefined,
      tap: '/tmp/tap.ndjson',
    })
    expect(parseRunFastPath(['run', '--tap', '-'])?.tap).toBe('-')
    expect(parseRunFastPath(['--config', 'run', 'run'])?.config).toBe('run')
  })

  it('leaves everything else to yargs', () => {
    for (const argv of [
      ['--help'],
      ['run', '--help'],
      ['validate', 'a.yaml'],
      ['test-rule', 'a.yaml', 'x.log'],
      ['sandbox'],
      ['run', 'extra'],
      ['run', '--confg', 'a.yaml'],
      ['run', '--config', 'a.yaml', '--config', 'b.yaml'],
      ['run', '--port', 'abc'],
      ['run', '--port', '0x10'],
      ['run', '--config'],
      ['run', '--config='],
      ['run', '--', '--config', 'a.yaml'],
      ['-c', 'a.yaml'],
      ['run', 'run'],
      ['run', '--config', '--port', '0'],
      ['run', '--port'],
      ['run', '--host='],
    ]) {
      expect(parseRunFastPath(argv), argv.join(' ')).toBeUndefined()
    }
  })
})
