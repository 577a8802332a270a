'use strict'
// The agent's work counted in instructions instead of seconds, to compare builds or node flags on a
// shared machine: wall and CPU time of one agent process move by +-30% from run to run there (the
// same binary, the same file), instruction counts by a few percent: the agent's timers (code cache,
// checkpoints, kinds flush) and this script's /metrics polls fire 50 times as often per line under valgrind,
// at points the machine's load decides (the warm column of kinds off read 332M, 346M and 435M in three runs,
// the last beside other valgrind runs). Rank changes of more than that here; smaller ones with an in-process
// count (bench/kinds-agentbench.js --instructions). Each case runs the real agent
// (bin/logx-agent.js run, embedded sandbox) under `valgrind --tool=callgrind` three times:
//   start: one error line, then stopped (start-up, config, the first alert, shutdown);
//   fresh: an NDJSON file of --mb MB (1% errors) read from its start by a just-started agent;
//   warm:  the same file and a second one like it: the second file's share is what an agent that
//          has read lines before pays (its code already optimized).
// It prints fresh - start and warm - fresh per case, and each relative to the first case.
// Instructions are not time (no cache misses, no syscalls' kernel work, no contention): use it to
// rank changes, and bench/agent.js to measure speed.
// Usage: npm run build && node bench/agent-instructions.js [--mb 50] [--flags "<flags>|<flags>|..."] [--kinds]
//   default flags: the ecosystem.config.js node_args, then the same without --optimize-for-size.
//   --kinds: the first flags only, the config as it is (kinds off) against the same with a `kind: new` rule
//   after the errors rule (kinds on, issue #29): what mining every error line costs.
// Needs valgrind (Debian: apt-get install -y valgrind). About a minute per case for 50 MB.

const { spawn, spawnSync } = require('node:child_process')
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const { bytesReadBy, metric } = require('./agent-probes')
const { generateLog } = require('./generate-log')

const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? fallback : args[index + 1]
}
const megabytes = Number(option('mb', 50))
const nodeArgs = require('../ecosystem.config.js').apps[0].node_args ?? []
const cases = option('flags', undefined)?.split('|').map((flags) => flags.trim().split(/\s+/).filter(Boolean)) ?? [
  nodeArgs,
  nodeArgs.filter((flag) => flag !== '--optimize-for-size'),
]
const bin = join(__dirname, '..', 'bin', 'logx-agent.js')
const kinds = args.includes('--kinds')
const variants = kinds
  ? [
      { name: 'kinds off', flags: cases[0], kindRule: false },
      { name: 'kinds on', flags: cases[0], kindRule: true },
    ]
  : cases.map((flags) => ({ name: flags.join(' ') || '(none)', flags, kindRule: false }))

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('valgrind is not installed (Debian: apt-get install -y valgrind)')
  process.exit(1)
}

/** Instructions of one agent run that reads `files` (copied in before it starts) until `matches` alerts matched. */
async function instructions({ flags, kindRule }, files, matches) {
  const dir = mkdtempSync(join(tmpdir(), 'logx-bench-instr-'))
  try {
    const logs = join(dir, 'logs')
    mkdirSync(logs)
    for (const [name, text] of files) writeFileSync(join(logs, name), text)
    const config = join(dir, 'agent.yaml')
    writeFileSync(config, `messaging:\n  sandbox:\n    listen: 127.0.0.1:0\nstate_dir: ${join(dir, 'state')}
sources:\n  - name: app\n    paths: [${logs}/*.log]\n    format: json\n    start_at: beginning
channels:\n  oncall-sms: { type: sms, numbers: [919800000001] }
rules:\n  - name: errors\n    level: error\n    group_wait: 0s\n    group_by: [err.type]
${kindRule ? '  - { name: kinds, level: error, kind: new }\n' : ''}metrics: { listen: 127.0.0.1:0 }\n`)
    const out = join(dir, 'callgrind.out')
    const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...flags, bin, 'run', '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.resume()
    const exited = new Promise((resolve) => child.once('exit', resolve))
    let url
    while (url === undefined) {
      url = /metrics: (http:\/\/\S+)\/metrics/.exec(output)?.[1]
      if (child.exitCode !== null) throw new Error(`the agent exited: ${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // Each /metrics request is work the agent counts too: asked only once its read() calls have
    // returned as many bytes as the files hold (seen in /proc, which costs it nothing; the count
    // also holds the modules read at start-up, so the last polls cover the files' last MB).
    const bytes = files.reduce((sum, [, content]) => sum + Buffer.byteLength(content), 0)
    while ((bytesReadBy(child.pid) ?? Infinity) < bytes) await new Promise((resolve) => setTimeout(resolve, 200))
    while ((await metric(url, 'logx_agent_matches_total')) < matches) await new Promise((resolve) => setTimeout(resolve, 200))
    child.kill('SIGINT')
    await exited
    const summary = /^summary: (\d+)$/m.exec(readFileSync(out, 'utf8'))
    if (summary === null) throw new Error('no callgrind summary')
    return Number(summary[1])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * For bench/run.js (bench/summary.js): the first case's counts (the agent's own flags by default)
 * against each other case's, that one named by how its flags differ; the ratios are the table's
 * "vs first" columns. With one case alone, its counts without a peer.
 */
function summarize(flagSets, rows) {
  const [first] = rows
  const unit = 'M instructions'
  const summaryRows = []
  if (kinds) {
    // logx is the agent with kinds on, its peer the same agent with them off.
    const [off, on] = rows
    for (const key of ['start', 'fresh', 'warm']) {
      const name = key === 'start' ? 'start' : `${key} ${megabytes} MB`
      summaryRows.push({ case: name, logx: on[key] / 1e6, peer: 'kinds off', peerValue: off[key] / 1e6, unit, better: 'lower', ratio: off[key] / on[key] })
    }
  } else if (rows.length === 1) {
    summaryRows.push(
      { case: 'start', logx: first.start / 1e6, unit, better: 'lower' },
      { case: `fresh ${megabytes} MB`, logx: first.fresh / 1e6, unit, better: 'lower' },
      { case: `warm ${megabytes} MB`, logx: first.warm / 1e6, unit, better: 'lower' },
    )
  }
  rows.slice(1).forEach((row, i) => {
    const without = flagSets[0].filter((flag) => !flagSets[i + 1].includes(flag)).map((flag) => `without ${flag}`)
    const added = flagSets[i + 1].filter((flag) => !flagSets[0].includes(flag)).map((flag) => `with ${flag}`)
    const peer = `flags ${[...without, ...added].join(', ') || row.flags}`
    summaryRows.push(
      { case: `fresh ${megabytes} MB`, logx: first.fresh / 1e6, peer, peerValue: row.fresh / 1e6, unit, better: 'lower', ratio: row.fresh / first.fresh },
      { case: `warm ${megabytes} MB`, logx: first.warm / 1e6, peer, peerValue: row.warm / 1e6, unit, better: 'lower', ratio: row.warm / first.warm },
    )
  })
  require('./summary').reportSummary('agent-instructions', summaryRows)
}

async function main() {
  const source = mkdtempSync(join(tmpdir(), 'logx-bench-instr-src-'))
  try {
    const file = join(source, 'app.log')
    const { errors } = generateLog(file, megabytes * 1024 * 1024, 'json')
    const text = readFileSync(file, 'utf8')
    // Its own first line: a file that starts like another is held back as its copy for a tick.
    const second = `{"level":30,"msg":"second file"}\n${text}`
    const one = [['start.log', '{"level":50,"msg":"started","err":{"type":"StartError"}}\n']]
    console.log(`node ${process.version}; NDJSON ${megabytes} MB, ${errors} error lines; instructions (callgrind Ir), millions`)
    const rows = []
    for (const variant of variants) {
      const start = await instructions(variant, one, 1)
      const fresh = await instructions(variant, [['app.log', text]], errors)
      const warm = await instructions(variant, [['app.log', text], ['second.log', second]], 2 * errors)
      rows.push({ flags: variant.name, start, fresh: fresh - start, warm: warm - fresh })
    }
    const [first] = rows
    console.table(rows.map((r) => ({
      [kinds ? 'case' : 'node flags']: r.flags,
      'start M': (r.start / 1e6).toFixed(0),
      'fresh M': (r.fresh / 1e6).toFixed(0),
      'fresh vs first': (r.fresh / first.fresh).toFixed(3),
      'warm M': (r.warm / 1e6).toFixed(0),
      'warm vs first': (r.warm / first.warm).toFixed(3),
      ...(kinds ? { 'fresh per error line': Math.round((r.fresh - first.fresh) / errors), 'warm per error line': Math.round((r.warm - first.warm) / errors) } : {}),
    })))
    summarize(cases, rows)
  } finally {
    rmSync(source, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
