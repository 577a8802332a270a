'use strict'
// Start-up of the agent, from spawn, beside its floors in the same run:
//  1. `logx-agent run` (npm start's node flags, the embedded sandbox): spawn -> the first read of the
//     tailed file, and spawn -> the `agent started` line. The first read is taken from the file's
//     access time: the file's atime is set before its mtime, so the kernel (relatime) stamps the
//     first read and no later one. No hook in the agent; the kernel's coarse clock may stamp up to a
//     tick (1-4 ms) early. Peers: `node -e 'readFileSync(file)'` (Node's own start-up, the floor of
//     any Node agent) and `head -c1 file` (a process's).
//  2. `validate` and `test-rule` on a small file: spawn -> exit, beside `node -e 0`.
// Each is measured with the code cache the bundle keeps (agent/cli/code-cache.ts), and `run` also
// without it (a first start after `npm run build`, or on a read-only install) and from the modules
// tsc wrote, as before the bundle.
// Usage: npm run build && node bench/startup.js [--rounds 15]
const { spawn, spawnSync } = require('node:child_process')
const { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const args = process.argv.slice(2)
// --help answers with the usage line before anything starts (a full run, or installing rsyslog).
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write('Usage: npm run build && node bench/startup.js [--rounds 15]\n')
  process.exit(0)
}
const rounds = Number(args[args.indexOf('--rounds') + 1] || 15) || 15
const root = join(__dirname, '..')
const bin = join(root, 'bin', 'logx-agent.js')
const cacheDir = join(root, 'dist', 'agent', 'code-cache')
const NODE_FLAGS = ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size']
const now = () => performance.timeOrigin + performance.now()
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]

const dir = mkdtempSync(join(tmpdir(), 'logx-startup-'))
const logFile = join(dir, 'app.log')
const configFile = join(dir, 'agent.yaml')
writeFileSync(logFile, `${JSON.stringify({ level: 30, time: Date.now(), msg: 'hello' })}\n`)
writeFileSync(
  configFile,
  [
    'messaging:',
    '  sandbox: { listen: "127.0.0.1:0" }',
    `state_dir: ${join(dir, 'state')}`,
    'sources:',
    `  - { name: app, paths: ["${logFile}"], format: json, start_at: beginning }`,
    'channels:',
    '  sms: { type: sms, numbers: [919800000001] }',
    'rules:',
    '  - { name: errors, source: app, level: error, group_wait: 0s, notify: [sms] }',
    '',
  ].join('\n'),
)

/** Makes the next read of the file stamp its atime: an atime older than the mtime. */
function armAtime() {
  utimesSync(logFile, new Date(0), new Date())
}

function firstReadAt() {
  return Number(statSync(logFile, { bigint: true }).atimeNs) / 1e6
}

/** Spawns, resolves once `until` matches a stderr/stdout line (or the process exits), then kills it. */
function timed(command, argv, until) {
  return new Promise((resolve, reject) => {
    armAtime()
    const start = now()
    const child = spawn(command, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let seenAt
    let text = ''
    const onData = (chunk) => {
      text += chunk
      if (seenAt === undefined && until !== undefined && until.test(text)) {
        seenAt = now()
        child.kill('SIGTERM')
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('error', reject)
    child.on('exit', (code) => {
      const exitAt = now()
      if (until !== undefined && seenAt === undefined) return reject(new Error(`${command} ${argv.join(' ')} exited (${code}) before ${until}: ${text.slice(-500)}`))
      const read = firstReadAt()
      resolve({ firstRead: read >= start - 5 ? read - start : undefined, ready: seenAt === undefined ? undefined : seenAt - start, exit: exitAt - start })
    })
  })
}

function dropRunCaches() {
  try {
    for (const name of readdirSync(cacheDir)) if (name.startsWith('run-')) rmSync(join(cacheDir, name))
  } catch {
    // no cache yet
  }
}

async function series(label, make, pick, n = rounds) {
  const values = []
  for (let i = 0; i < n; i++) {
    const value = pick(await make())
    if (value !== undefined) values.push(value)
  }
  return { label, p50: median(values), p90: percentile(values, 90), n: values.length }
}

async function main() {
  if (spawnSync(process.execPath, [bin, '--help']).status === null) throw new Error('build first: npm run build')
  const agentRun = () => timed(process.execPath, [...NODE_FLAGS, bin, 'run', '--config', configFile], /agent started/)
  // One run to make the cache for these flags (written at exit), then the measured ones.
  await agentRun()
  const rows = []
  rows.push(await series('logx-agent run: spawn -> first read (code cache)', agentRun, (r) => r.firstRead))
  rows.push(await series('logx-agent run: spawn -> "agent started"', agentRun, (r) => r.ready))
  rows.push(await series('logx-agent run: spawn -> first read, no code cache', async () => (dropRunCaches(), agentRun()), (r) => r.firstRead, Math.min(rounds, 5)))
  await agentRun() // the cache back for whoever runs next
  // What bin/logx-agent.js ran before the bundle: the modules tsc wrote, one file at a time.
  const fromModules = () =>
    timed(process.execPath, [...NODE_FLAGS, '-e', `require(${JSON.stringify(join(root, 'dist', 'agent', 'cli', 'main.js'))}).main(['run', '--config', ${JSON.stringify(configFile)}])`], /agent started/)
  rows.push(await series('logx-agent run from the modules (no bundle): spawn -> first read', fromModules, (r) => r.firstRead, Math.min(rounds, 5)))
  rows.push(await series('logx-agent run from the modules (no bundle): spawn -> "agent started"', fromModules, (r) => r.ready, Math.min(rounds, 5)))
  rows.push(await series("peer: node -e 'readFileSync(file)': spawn -> first read", () => timed(process.execPath, ['-e', `require('fs').readFileSync(${JSON.stringify(logFile)})`]), (r) => r.firstRead))
  rows.push(await series('peer: head -c1 file: spawn -> first read', () => timed('head', ['-c1', logFile]), (r) => r.firstRead))
  const validate = () => timed(process.execPath, [bin, 'validate', configFile])
  await validate()
  rows.push(await series('logx-agent validate: spawn -> exit', validate, (r) => r.exit))
  const testRule = () => timed(process.execPath, [bin, 'test-rule', configFile, logFile])
  await testRule()
  rows.push(await series('logx-agent test-rule (1 line): spawn -> exit', testRule, (r) => r.exit))
  rows.push(await series('peer: node -e 0: spawn -> exit', () => timed(process.execPath, ['-e', '0']), (r) => r.exit))

  console.log(`start-up, ${rounds} rounds (ms; medians and p90)`)
  console.log('| measure | p50 | p90 | n |\n|---|---:|---:|---:|')
  for (const row of rows) console.log(`| ${row.label} | ${row.p50?.toFixed(1)} | ${row.p90?.toFixed(1)} | ${row.n} |`)
  const floor = rows.find((r) => r.label.startsWith("peer: node -e 'readFileSync"))
  const agent = rows[0]
  if (floor !== undefined && agent !== undefined) console.log(`agent first read - node floor: ${(agent.p50 - floor.p50).toFixed(1)} ms`)
  rmSync(dir, { recursive: true, force: true })
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
