// Corrupt state: incidents paged (their pages in the sandbox, which runs in its own process and
// outlives the agent), run-time silences on disk; then, with the agent stopped by SIGKILL, each
// state file in turn is damaged (garbage in the middle, cut mid-record, zero-filled) and the agent
// started again. events = records whole on disk after the damage; lost = whole records the started
// agent no longer holds (must be 0). Then the outbox alone is spoilt while incidents.json records
// every page: each recorded page must be sent again (page-reconcile.ts).
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  createWorkspace,
  records,
  recordsWhen,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  type SandboxProcess,
  type Workspace,
} from '../agent/daemon/helpers'
import { recordDrill } from './lib/report'

const INCIDENTS = ['inc-1', 'inc-2', 'inc-3', 'inc-4']
type Damage = 'garbage in the middle' | 'cut mid-record' | 'zero-filled'

/** Whole records of a state file as the drill counts them: journal lines that parse, or silences. */
function wholeRecords(file: string): number {
  if (!existsSync(file)) return 0
  const text = readFileSync(file, 'utf8')
  if (file.endsWith('silences.json')) {
    try {
      return (JSON.parse(text) as { silences: unknown[] }).silences.length
    } catch {
      // Damaged: the silences whose text is intact from their matchers to their end.
      return (text.match(/"matchers":\{"rule":"not-a-rule"\}[^{}]*"createdBy":null\}/g) ?? []).length
    }
  }
  return text.split('\n').filter((line) => {
    try {
      JSON.parse(line)
      return true
    } catch {
      return false
    }
  }).length
}

function damage(file: string, how: Damage): void {
  const text = readFileSync(file, 'utf8')
  if (how === 'zero-filled') writeFileSync(file, Buffer.alloc(Buffer.byteLength(text)))
  else if (how === 'cut mid-record') writeFileSync(file, text.slice(0, text.length - 12))
  else if (file.endsWith('silences.json')) writeFileSync(file, text.replace('"matchers"', '"mat\u0007\u00ffchers"'))
  else {
    const lines = text.split('\n')
    lines.splice(Math.floor(lines.length / 2), 0, '\u0000\u00ff{{ not a record')
    writeFileSync(file, lines.join('\n'))
  }
}

function silencesFile(ws: Workspace): void {
  const silence = (n: number) => ({
    id: `rt-drill-${n}`,
    matchers: { rule: 'not-a-rule' },
    startsAt: Date.now(),
    endsAt: Date.now() + 86_400_000,
    comment: 'drill',
    createdBy: null,
  })
  writeFileSync(join(ws.state, 'silences.json'), JSON.stringify({ silences: [1, 2, 3].map(silence) }), { mode: 0o600 })
}

const pagesOf = async (baseUrl: string, id: string): Promise<number> =>
  (await records(baseUrl, 'sms')).filter((r) => String(r.record['sms']).includes(id)).length

test('corrupt state: each state file damaged in turn, nothing whole lost; a page missing from the outbox sent again', async ({
  task,
}) => {
  const started = Date.now()
  const ws = createWorkspace()
  let sandbox: SandboxProcess | undefined
  let kill: (() => Promise<unknown>) | undefined
  let events = 0
  let lost = 0
  const notes: string[] = []
  try {
    sandbox = await startSandboxProcess()
    const api = sandbox.api
    ws.writeConfig(
      smsRulesConfig(
        ws,
        `\n  - name: payments\n    level: error\n    group_by: [incident]\n    group_wait: 0s\n    notify: oncall-sms\n`,
        api,
      ),
    )
    mkdirSync(ws.logs, { recursive: true })
    const app = join(ws.logs, 'app.log')
    appendFileSync(app, `${JSON.stringify({ level: 30, msg: `payments started ${'.'.repeat(300)}` })}\n`)
    let agent = await startAgentProcess(ws.config)
    for (const id of INCIDENTS)
      appendFileSync(app, `${JSON.stringify({ level: 50, incident: id, msg: `payment failed ${id}` })}\n`)
    await recordsWhen(api.baseUrl, 'every incident paged', (all) =>
      INCIDENTS.every((id) => all.some((r) => String(r.record['sms']).includes(id))),
    )
    await agent.kill('SIGKILL')
    silencesFile(ws)

    for (const name of ['incidents.json', 'timeline.jsonl', 'silences.json']) {
      for (const how of ['garbage in the middle', 'cut mid-record', 'zero-filled'] as const) {
        const file = join(ws.state, name)
        const before = readFileSync(file)
        damage(file, how)
        const whole = wholeRecords(file)
        agent = await startAgentProcess(ws.config)
        kill = () => agent.kill('SIGKILL')
        await agent.kill('SIGKILL')
        kill = undefined
        const after = wholeRecords(file)
        events += whole
        lost += Math.max(0, whole - after)
        const aside = readdirSync(ws.state).filter((n) => n.startsWith(`${name}.corrupt-`)).length
        notes.push(`${name} ${how}: ${whole} whole, ${after} kept, ${aside} aside`)
        expect(agent.output() + agent.errors()).toMatch(new RegExp(`state file \\S*${name.replace('.', '\\.')}`))
        // Back to the whole file for the next damage.
        writeFileSync(file, before)
      }
    }

    // The outbox spoilt while incidents.json records every page: all of them go out again.
    const paged = await Promise.all(INCIDENTS.map((id) => pagesOf(api.baseUrl, id)))
    writeFileSync(join(ws.state, 'outbox.jsonl'), '\u0000garbage\n{{{\n')
    agent = await startAgentProcess(ws.config)
    kill = () => agent.kill('SIGKILL')
    await recordsWhen(api.baseUrl, 'every recorded page sent again', (all) =>
      INCIDENTS.every((id, i) => all.filter((r) => String(r.record['sms']).includes(id)).length > (paged[i] ?? 0)),
    )
    events += INCIDENTS.length
    notes.push(`outbox spoilt: ${INCIDENTS.length} recorded pages sent again`)
    recordDrill(task, {
      drill: 'corrupt state',
      events,
      unit: 'records',
      lost,
      duplicated: 0,
      timeMs: Date.now() - started,
      notes: notes.join('; '),
    })
    expect(lost).toBe(0)
  } finally {
    await kill?.()
    await sandbox?.close()
    ws.remove()
  }
})
