// Rotation torture: a writer appends numbered lines at full speed to four logs and rotates them
// 1,000 times in all, each file alternating rename-and-create (`app-k.log.1`, outside the glob, as
// logrotate names it) and copy-and-truncate (`app-k__r.log`, inside it, as pm2-logrotate names it).
// The agent tails `logs/*.log` in pass-everything mode (--tap); from the tap, every number of every
// file must have arrived exactly once and in order per file. A file is rotated only once the agent
// has read its first lines (lib/rotation-writer.js says why); writes are not paced, so the agent's
// discovery spends most of the drill in its event-flood mode (agent/tail/README.md). Seeded:
// DRILL_SEED replays the writer's choices.
// The multi-line variant runs the same with `multiline: java`: each numbered line is followed by
// frame lines, the tap records events (a line with its frames), and each must arrive once, in
// order, and whole (all its frames, no frame of another).
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { createWorkspace, messagingYaml, spawnAgent } from '../agent/daemon/helpers'
import { peakRssOf, recordDrill } from './lib/report'
import { createSequenceCheck, followFile } from './lib/rotation'
import { pollUntil } from '../helpers/poll-until'

const FILES = 4
const ROTATIONS = 1000
const WRITER_DEADLINE_MS = 40_000
const CATCH_UP_MS = 60_000

interface WriterResult {
  done: true
  totals: number[]
  renames: number
  copies: number
  timedOut: boolean
}

const VARIANTS = [
  { name: 'lines', frames: 0 },
  { name: 'multi-line events', frames: 3 },
] as const

test.for(VARIANTS)(
  'rotation torture ($name): every one of every file exactly once, in order, through 1,000 rotations',
  async ({ name, frames }, { task }) => {
    const multiline = frames > 0
    const seed = Number(process.env.DRILL_SEED ?? Math.floor(Math.random() * 2 ** 31))
    process.stdout.write(`[rotation drill, ${name}] seed ${seed} (DRILL_SEED=${seed} replays it)\n`)
    const started = Date.now()
    const ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    const tap = join(ws.dir, 'tap.ndjson')
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    format: json
    start_at: beginning
${multiline ? '    multiline: java\n' : ''}channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    level: error
    notify: oncall-sms
`)
    const agent = spawnAgent(['run', '--config', ws.config, '--tap', tap])
    let writer: ReturnType<typeof fork> | undefined
    const check = createSequenceCheck()
    let malformed = 0
    // Multi-line: events without exactly their own frames (split, or joined with another's).
    let split = 0
    const follower = followFile(tap, (text) => {
      try {
        const record = JSON.parse(text) as { line?: string }
        const [first, ...rest] = (record.line ?? '').split('\n')
        const line = JSON.parse(first ?? '') as { file: number; n: number }
        check.see(line.file, line.n)
        const frame = `\tat drill.Writer.line(File${line.file}.java:${line.n})`
        if (rest.length !== frames || rest.some((r) => r !== frame)) split++
      } catch {
        malformed++
      }
    })
    try {
      await pollUntil('the agent started', () => {
        if (agent.child.exitCode !== null) throw new Error(`agent exited: ${agent.errors()}`)
        return /Stop with Ctrl-C|Open the inbox/.test(agent.output()) ? true : undefined
      })
      writer = fork(
        join(__dirname, 'lib/rotation-writer.js'),
        [ws.logs, String(FILES), String(ROTATIONS), String(seed), tap, String(WRITER_DEADLINE_MS), String(frames)],
        {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        },
      )
      const [result] = (await once(writer, 'message')) as [WriterResult]
      const totals = result.totals
      // Caught up: every number of every file has arrived (then a stop, so anything read twice shows too).
      await pollUntil(
        'the agent caught up with the writer',
        () => {
          follower.poll()
          return totals.every((total, k) => check.distinct(k) >= total) ? true : undefined
        },
        { timeoutMs: CATCH_UP_MS },
      ).catch(() => undefined)
      const peakRssMb = peakRssOf(agent.child.pid ?? 0)
      agent.child.kill('SIGINT')
      const code = await agent.exited
      follower.poll()
      const outcome = check.result(totals)
      const rotations = result.renames + result.copies
      recordDrill(task, {
        drill: multiline ? 'rotation torture, multi-line' : 'rotation torture',
        events: outcome.expected,
        unit: multiline ? 'events' : 'lines',
        lost: outcome.lost,
        duplicated: outcome.duplicated,
        peakRssMb,
        timeMs: Date.now() - started,
        notes:
          `${rotations} rotations (${result.renames} rename, ${result.copies} copy-truncate, ~${Math.round(outcome.expected / Math.max(rotations, 1))} ${multiline ? 'events' : 'lines'} apart), ${FILES} files, out of order ${outcome.outOfOrder}, seed ${seed}` +
          (multiline ? `, ${frames} frames per event, split ${split}` : '') +
          (outcome.firstProblems.length > 0 ? `; ${outcome.firstProblems.join(', ')}` : ''),
      })
      expect(code).toBe(0)
      expect(result.timedOut).toBe(false)
      expect(rotations).toBe(ROTATIONS)
      expect(malformed).toBe(0)
      expect(outcome.lost).toBe(0)
      expect(outcome.duplicated).toBe(0)
      expect(outcome.outOfOrder).toBe(0)
      expect(split).toBe(0)
    } finally {
      follower.close()
      if (writer !== undefined && writer.exitCode === null) writer.kill('SIGKILL')
      if (agent.child.exitCode === null) {
        agent.child.kill('SIGKILL')
        await agent.exited
      }
      // DRILL_KEEP=1 keeps the logs, the tap and what the agent printed, to look at a failure.
      if (process.env.DRILL_KEEP === '1') {
        writeFileSync(join(ws.dir, 'agent.log'), agent.output() + agent.errors())
        process.stdout.write(`[rotation drill] kept ${ws.dir}\n`)
      } else ws.remove()
    }
  },
)
