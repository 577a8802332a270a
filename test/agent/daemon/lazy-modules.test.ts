// What `logx-agent run` loads before it knows its config must not include the embedded sandbox or
// the one-shot commands: an agent talking to a real API never pays for them (bench/agent.js: RSS).
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, it } from 'vitest'

const root = resolve(__dirname, '../../..')

it('the run command and the daemon load neither the sandbox nor the validate, test-rule or sandbox commands', () => {
  const probe = [
    "require('./dist/agent/cli/main')",
    "require('./dist/agent/daemon/agent')",
    "const ours = Object.keys(require.cache).filter((k) => k.startsWith(process.cwd() + '/dist/'))",
    'process.stdout.write(JSON.stringify(ours.filter((k) => /\\/sandbox\\/|(validate|test-rule|sandbox)-command/.test(k))))',
  ].join(';')
  expect(JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' }))).toEqual([])
})
