// thread-stream is loaded by the first transport, not with the logger (about 2.5 MB of RSS that a
// logger writing to a destination never needs). Checked in a fresh process: the suite's own has it.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

const root = resolve(__dirname, '../..')

function loadedAfter(script: string): boolean {
  const probe = `${script}; process.stdout.write(String(Object.keys(require.cache).some((k) => k.includes('/thread-stream/'))))`
  return execFileSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' }) === 'true'
}

it('a logger without a transport does not load thread-stream; logx.transport() does', () => {
  expect(loadedAfter(`const logx = require('logx'); logx({}, logx.destination('/dev/null')).info('x')`)).toBe(false)
  expect(
    loadedAfter(
      `const logx = require('logx'); logx.transport({ target: 'logx/file', options: { destination: '/dev/null' } }).end()`,
    ),
  ).toBe(true)
})
