// Fleet drills (issue #16, "Must hold"): agents on one real redis-server, each tailing its own copy
// of the same log, sending through one sandbox in its own process (so what it received outlives any
// agent). Checked from the sandbox's side: pages per incident (by the incident id in the SMS), and the
// Idempotency-Key each page carried.
//   1. Three agents, one storm of 1,000 incidents in three orders: each pages once, under one key;
//      an ack through one agent stops the escalation on all three (another incident escalates).
//   2. The agent sending a batch SIGKILLed mid-batch, 10 times, and started again on its state_dir:
//      nothing lost, and a page sent twice carries the key of its first sending.
//   3. Redis SIGKILLed and restarted (empty) mid-storm; Redis down for 30 s: nothing lost, duplicates
//      counted and bounded, and once Redis is back one page per incident again.
//   4. Redis with an ACL user: the agent with the password starts and pages; the one with a wrong
//      password exits at start naming cluster.redis.password_file, the password nowhere in its output.
import { expect, test } from 'vitest'
import { DEFAULT_LANE_CONCURRENCY } from '../../agent/outbox/lanes'
import { spawnAgent } from '../agent/daemon/helpers'
import { redisServerPath } from '../helpers/redis-server'
import {
  createMember,
  healthOf,
  idOf,
  idsOf,
  keysOf,
  lastArrival,
  LEAD,
  line,
  memberMetric,
  ONCALL,
  orderLine,
  pagedAll,
  recipientOf,
  running,
  settled,
  shuffled,
  smsRecords,
  startRig,
  storm,
  sumMetric,
  tallyPages,
  type Member,
} from './lib/fleet'
import { recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const WON = 'logx_agent_cluster_claims_total{outcome="won"}'
const HELD = 'logx_agent_cluster_claims_total{outcome="held"}'
const CLAIMS = 'logx_agent_cluster_claims_total'
const FAILOVERS = 'logx_agent_cluster_failovers_total'
const DEGRADED_SENDS = 'logx_agent_cluster_degraded_sends_total'
/** An agent sends at most this many SMS at once: what a kill can catch in flight. */
const LANE_CONCURRENCY = DEFAULT_LANE_CONCURRENCY

const STORM_RULES = `
  - name: storm
    group_by: [msg]
    group_wait: 0s
    message: "^order"
    notify: oncall-sms
  - name: db
    group_by: [msg]
    group_wait: 0s
    message: "^(db|cache) "
    notify: oncall-sms
    escalate:
      - after: 5s
        notify: lead-sms
`

const describeFleet = redisServerPath === undefined ? test.skip : test
if (redisServerPath === undefined)
  console.warn(
    '\n!!! SKIPPED the fleet drills: redis-server is not installed (apt-get install redis-server); CI runs them !!!\n',
  )

describeFleet(
  'fleet: three agents, one storm of 1,000 incidents: each pages once; an ack through one stops the escalation on all',
  async ({ task }) => {
    const INCIDENTS = 1000
    const rig = await startRig(['web-1', 'web-2', 'web-3'], { rules: STORM_RULES })
    try {
      const { members, baseUrl } = rig
      const ids = idsOf('s', INCIDENTS)
      // The same incidents, in three orders.
      const orders = [ids, [...ids].reverse(), shuffled(ids, 16)]
      const started = Date.now()
      members.forEach((m, i) => m.append(storm(orders[i] as string[])))
      try {
        await settled(members, 'every agent to have claimed every page', 120_000, async () => {
          // Each agent claims each page once it is past waiting on a holder: won, lost (done) or acked.
          // A claim that failed open (Redis did not answer in time) is decided too: sent without a claim.
          const decided =
            (await sumMetric(members, CLAIMS)) -
            (await sumMetric(members, HELD)) +
            (await sumMetric(members, DEGRADED_SENDS))
          return decided >= members.length * INCIDENTS
        })
      } catch {
        // Measured below.
      }
      const tally = tallyPages(await smsRecords(baseUrl), ids, idOf)
      const stormMs = lastArrival(tally) - started
      const keys = new Set([...tally.pages.values()].flat().map((r) => r.record.idempotency_key)).size
      const won = await Promise.all(members.map((m) => memberMetric(m, WON)))
      const degradedSends = await sumMetric(members, DEGRADED_SENDS)
      const episodes = await sumMetric(members, 'logx_agent_cluster_degraded_total')
      // Said in the run's output: why a claim failed open while Redis was running.
      if (episodes > 0 || degradedSends > 0)
        for (const m of members)
          process.stdout.write(
            `[${m.id}] ${running(m)
              .output()
              .split('\n')
              .filter((l) => /fleet|cluster|Redis|claim/.test(l))
              .join('\n')}\n`,
          )

      // The ack: db and cache fire on every host; db is acknowledged through web-3.
      members.forEach((m) => m.append(line('db down d1') + line('cache down d1')))
      await pollUntil('the db and cache pages', async () =>
        (await smsRecords(baseUrl, ' down d1')).length >= 2 ? true : undefined,
      )
      type Summary = { id: string; rule: string; title: string; state: string; step: number }
      const incidentsOf = async (m: Member): Promise<Summary[]> =>
        ((await (await running(m).console('/api/incidents')).json()) as { incidents: Summary[] }).incidents
      const third = members[2] as Member
      const db = await pollUntil('the db incident on web-3', async () =>
        (await incidentsOf(third)).find((i) => i.rule === 'db' && i.title.includes('db down')),
      )
      const ackedAt = Date.now()
      const acked = await third.post(`/api/incidents/${encodeURIComponent(db.id)}/ack`, { by: 'asha' })
      expect(acked.status).toBe(200)
      for (const m of members) {
        await pollUntil(`${m.id} to hold the db incident as acknowledged`, async () =>
          (await incidentsOf(m)).find((i) => i.id === db.id)?.state === 'acknowledged' ? true : undefined,
        )
      }
      const ackSpreadMs = Date.now() - ackedAt
      // Positive control: cache, fired just after db on every host, escalates (awaited). Once every
      // engine has taken cache to its escalation step, db's escalation was due everywhere too.
      await pollUntil(
        'the cache escalation',
        async () =>
          (await smsRecords(baseUrl, 'cache down d1')).some((r) => recipientOf(r).includes(LEAD)) ? true : undefined,
        { timeoutMs: 30_000 },
      )
      for (const m of members) {
        await pollUntil(`${m.id} to have taken cache to its escalation`, async () =>
          ((await incidentsOf(m)).find((i) => i.rule === 'db' && i.title.includes('cache down'))?.step ?? 0) >= 1
            ? true
            : undefined,
        )
      }
      await settled(members, 'the outboxes empty after the escalation', 20_000)
      const downPages = await smsRecords(baseUrl, ' down d1')
      const escalations = downPages.filter((r) => recipientOf(r).includes(LEAD))
      const steps = await Promise.all(members.map(async (m) => (await incidentsOf(m)).find((i) => i.id === db.id)))
      const ackDropped = await sumMetric(members, 'logx_agent_cluster_claims_total{outcome="acked"}')

      recordDrill(task, {
        drill: 'fleet: 3 agents, one storm',
        events: INCIDENTS,
        unit: 'incidents (SMS, one each)',
        lost: tally.lost,
        duplicated: tally.duplicated,
        timeMs: stormMs,
        notes:
          `${tally.expected - tally.lost} incidents paged under ${keys} keys; claims won per agent ${won.join('/')}; Redis out of reach ${episodes} times, sends failed open ${degradedSends}; ` +
          `ack via web-3 held on all 3 within ${ackSpreadMs}ms; escalations: cache ${escalations.filter((r) => String(r.record.sms).includes('cache')).length}, ` +
          `db (acked) ${escalations.filter((r) => String(r.record.sms).includes('db down')).length}; escalation claims answered 'acked' ${ackDropped}` +
          (tally.missing.length > 0 ? `; missing e.g. ${tally.missing.slice(0, 5).join(' ')}` : ''),
      })

      expect(tally.missing.slice(0, 10)).toEqual([])
      expect(tally.lost).toBe(0)
      expect(tally.duplicated).toBe(0)
      expect(keys).toBe(INCIDENTS)
      // Each page is one claim won, or one sent failing open (a claim Redis did not answer in time).
      expect(won.reduce((a, b) => a + b, 0) + degradedSends).toBe(INCIDENTS)
      // The control escalated once; the acknowledged incident escalated on no agent.
      expect(escalations.map((r) => String(r.record.sms)).filter((t) => t.includes('cache down'))).toHaveLength(1)
      expect(escalations.map((r) => String(r.record.sms)).filter((t) => t.includes('db down'))).toEqual([])
      for (const s of steps) expect(s).toMatchObject({ state: 'acknowledged', step: 0 })
      // One page each for db and cache to the on-call, besides the one escalation.
      expect(downPages.filter((r) => recipientOf(r).includes(ONCALL))).toHaveLength(2)
    } finally {
      await rig.close()
    }
  },
)

describeFleet(
  'fleet: SIGKILL of the agent sending, mid-batch, 10 times: nothing lost, resends under the same key',
  async ({ task }) => {
    const KILLS = 10
    const BATCH = 30
    const rig = await startRig(['web-1', 'web-2', 'web-3'], { rules: STORM_RULES, lease: '2s' })
    try {
      const { members, baseUrl } = rig
      // Slow sends, so a kill lands while the victim has pages in flight.
      const fault = await fetch(`${baseUrl}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'latency', ms: 150, route: 'send_sms' }),
      })
      expect(fault.status).toBeLessThan(300)
      const started = Date.now()
      const all: string[] = []
      const victims: string[] = []
      let failoversOfKilled = 0
      let awaited = 0
      let takeovers = 0
      for (let round = 0; round < KILLS; round++) {
        const ids = idsOf(`k${round}x`, BATCH)
        all.push(...ids)
        const before = await Promise.all(members.map((m) => memberMetric(m, WON)))
        members.forEach((m, i) => m.append(storm(shuffled(ids, round * 10 + i))))
        await pollUntil(
          `the first SMS of batch ${round}`,
          async () => ((await smsRecords(baseUrl, `order k${round}x`)).length > 0 ? true : undefined),
          { timeoutMs: 30_000 },
        )
        const after = await Promise.all(members.map((m) => memberMetric(m, WON)))
        let victim = 0
        for (let i = 1; i < members.length; i++)
          if ((after[i] ?? 0) - (before[i] ?? 0) > (after[victim] ?? 0) - (before[victim] ?? 0)) victim = i
        const member = members[victim] as Member
        victims.push(member.id)
        const others = members.filter((m) => m !== member)
        const othersBefore = await sumMetric(others, FAILOVERS)
        // Its counters die with it: read them first.
        failoversOfKilled += await memberMetric(member, FAILOVERS)
        await member.kill()
        // Even rounds: the others take over what it held once its lease runs out (awaited), then it
        // comes back; odd rounds: it comes back at once and finishes its own claims itself.
        if (round % 2 === 0) {
          awaited++
          const tookOver = await pollUntil(
            "a peer to take over the dead agent's claims",
            async () => ((await sumMetric(others, FAILOVERS)) > othersBefore ? true : undefined),
            { timeoutMs: 10_000 },
          ).catch(() => false)
          if (tookOver) takeovers++
        }
        await member.start()
      }
      const tally = await pagedAll(rig, all, 'every incident paged, every outbox empty', 90_000)
      const failovers = failoversOfKilled + (await sumMetric(members, FAILOVERS))
      const sameKeyResends = [...tally.pages.values()].filter((p) => p.length > 1 && keysOf(p) === 1).length

      recordDrill(task, {
        drill: 'fleet: SIGKILL of the claim holder',
        events: all.length,
        unit: 'incidents (SMS)',
        lost: tally.lost,
        duplicated: tally.duplicated,
        timeMs: lastArrival(tally) - started,
        notes:
          `${KILLS} SIGKILLs of the agent sending (${victims.join(', ')}), lease 2s, sends slowed 150ms; a peer took over after the lease in ${takeovers}/${awaited} rounds that waited for it (the others restarted at once); failovers ${failovers}; ` +
          `incidents paged twice or more ${tally.repaged}, of them under one key ${sameKeyResends}, under two keys ${tally.mixedKeys.length}` +
          (tally.missing.length > 0 ? `; missing e.g. ${tally.missing.slice(0, 5).join(' ')}` : ''),
      })

      expect(victims).toHaveLength(KILLS)
      // The lease passed a dead agent's claims to a live one.
      expect(takeovers).toBeGreaterThan(0)
      expect(failovers).toBeGreaterThanOrEqual(takeovers)
      expect(tally.missing.slice(0, 10)).toEqual([])
      expect(tally.lost).toBe(0)
      // A resend carries the key of its first sending.
      expect(tally.mixedKeys).toEqual([])
      // At most what the victim had in flight when it died is sent again.
      expect(tally.duplicated).toBeLessThanOrEqual(LANE_CONCURRENCY * KILLS)
    } finally {
      await rig.close()
    }
  },
)

describeFleet(
  'fleet: Redis SIGKILLed and restarted empty mid-storm: nothing lost, duplicates bounded, one page each after',
  async ({ task }) => {
    const INCIDENTS = 300
    const CONVERGE = 50
    const rig = await startRig(['web-1', 'web-2'], { rules: STORM_RULES })
    try {
      const { members, baseUrl, redis } = rig
      // A little latency keeps the storm going through the restart.
      await fetch(`${baseUrl}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'latency', ms: 30, route: 'send_sms' }),
      })
      const ids = idsOf('r', INCIDENTS)
      const started = Date.now()
      members.forEach((m, i) => m.append(storm(shuffled(ids, i + 1))))
      await pollUntil(
        "the storm's first SMS",
        async () => ((await smsRecords(baseUrl, 'order r')).length > 0 ? true : undefined),
        { timeoutMs: 30_000 },
      )
      await redis.kill('SIGKILL')
      // Won before the kill: each may go out again, its claim gone with Redis's memory.
      const wonAtKill = await sumMetric(members, WON)
      const pagedAtKill = (await smsRecords(baseUrl, 'order r')).length
      await redis.restart()
      await pollUntil(
        'both agents back on Redis',
        async () => ((await sumMetric(members, 'logx_agent_cluster_up')) === members.length ? true : undefined),
        { timeoutMs: 30_000 },
      )
      const tally = await pagedAll(rig, ids, 'every incident of the storm paged, every outbox empty', 60_000)
      const stormMs = lastArrival(tally) - started
      const degradedSends = await sumMetric(members, DEGRADED_SENDS)
      const merged = await sumMetric(members, 'logx_agent_cluster_merged_total')
      // Duplicates come only of what was decided while Redis could not say who sent it.
      const bound = (wonAtKill + degradedSends) * (members.length - 1)

      // Converged: a fresh batch pages once per incident.
      const fresh = idsOf('c', CONVERGE)
      members.forEach((m, i) => m.append(storm(shuffled(fresh, i + 7))))
      const after = await pagedAll(rig, fresh, 'the fresh batch paged', 60_000)

      recordDrill(task, {
        drill: 'fleet: Redis SIGKILL + restart mid-storm',
        events: INCIDENTS + CONVERGE,
        unit: 'incidents (SMS)',
        lost: tally.lost + after.lost,
        duplicated: tally.duplicated + after.duplicated,
        timeMs: stormMs,
        notes:
          `2 agents; killed at ${pagedAtKill} SMS, ${wonAtKill} claims won; degraded sends ${degradedSends}, merged ${merged}; ` +
          `storm duplicates ${tally.duplicated} (bound ${bound}); after: ${CONVERGE} fresh incidents, ${after.duplicated} duplicated`,
      })

      expect(tally.missing.slice(0, 10)).toEqual([])
      expect(tally.lost).toBe(0)
      expect(tally.duplicated).toBeLessThanOrEqual(bound)
      expect(after.lost).toBe(0)
      expect(after.duplicated).toBe(0)
    } finally {
      await rig.close()
    }
  },
)

describeFleet(
  'fleet: Redis down for 30 s: health degraded, every incident pages (each at most once per agent), one page each after',
  async ({ task }) => {
    const BATCH = 50
    const DOWN_MS = 30_000
    const rig = await startRig(['web-1', 'web-2'], { rules: STORM_RULES })
    try {
      const { members, baseUrl, redis } = rig
      await pollUntil('both agents up with both peers', async () => {
        for (const m of members) if ((await healthOf(m)).cluster?.peers !== members.length) return undefined
        return true
      })
      const started = Date.now()
      await redis.kill('SIGTERM')
      const downAt = Date.now()
      const reasons: string[] = []
      for (const m of members) {
        const h = await pollUntil(`${m.id}'s /health to say degraded`, async () => {
          const health = await healthOf(m)
          return health.status === 'degraded' && health.cluster?.status === 'degraded' ? health : undefined
        })
        reasons.push(h.cluster?.reason ?? '')
        expect(await memberMetric(m, 'logx_agent_cluster_up')).toBe(0)
      }
      const detectedMs = Date.now() - downAt

      const ids = idsOf('d', BATCH)
      members.forEach((m, i) => m.append(storm(shuffled(ids, i + 3))))
      const during = await pagedAll(rig, ids, 'the batch paged while Redis is down', 30_000)
      const perIncident = Math.max(...[...during.pages.values()].map((p) => p.length))
      const degradedSends = await sumMetric(members, DEGRADED_SENDS)

      // The deliberate wait: Redis stays down 30 s in all.
      const rest = downAt + DOWN_MS - Date.now()
      if (rest > 0) await new Promise((r) => setTimeout(r, rest))
      await redis.restart()
      const upAt = Date.now()
      for (const m of members) {
        await pollUntil(
          `${m.id}'s /health to say up`,
          async () => ((await healthOf(m)).status === 'up' ? true : undefined),
          { timeoutMs: 30_000 },
        )
      }
      const reconnectMs = Date.now() - upAt
      const merged = await sumMetric(members, 'logx_agent_cluster_merged_total')

      const fresh = idsOf('u', BATCH)
      members.forEach((m, i) => m.append(storm(shuffled(fresh, i + 5))))
      const after = await pagedAll(rig, fresh, 'the fresh batch paged', 30_000)

      recordDrill(task, {
        drill: 'fleet: Redis down 30 s',
        events: 2 * BATCH,
        unit: 'incidents (SMS)',
        lost: during.lost + after.lost,
        duplicated: during.duplicated + after.duplicated,
        timeMs: Date.now() - started,
        notes:
          `2 agents; degraded seen on both within ${detectedMs}ms ("${reasons[0] ?? ''}"); down: ${BATCH} incidents, ${during.duplicated} duplicated ` +
          `(at most ${perIncident} pages each), degraded sends ${degradedSends}; up again on both within ${reconnectMs}ms, merged ${merged}; ` +
          `after: ${BATCH} fresh incidents, ${after.duplicated} duplicated`,
      })

      for (const reason of reasons) expect(reason).not.toBe('')
      expect(during.missing.slice(0, 10)).toEqual([])
      expect(during.lost).toBe(0)
      expect(perIncident).toBeLessThanOrEqual(members.length)
      expect(after.lost).toBe(0)
      expect(after.duplicated).toBe(0)
    } finally {
      await rig.close()
    }
  },
)

describeFleet(
  'fleet: Redis with an ACL user: the right password pages, a wrong one stops the start naming the key',
  async ({ task }) => {
    const PASSWORD = 'tr0ub4dor-and-3-horses'
    const WRONG = 'not-the-password-7731'
    const started = Date.now()
    const rig = await startRig(
      ['web-1'],
      { rules: STORM_RULES, username: 'logx', password: PASSWORD },
      { users: [{ name: 'logx', password: PASSWORD }] },
    )
    try {
      const { members, baseUrl, redis, sandbox } = rig
      const good = members[0] as Member
      good.append(orderLine('acl0001'))
      const paged = await pollUntil('the page through the ACL user', async () => {
        const sms = await smsRecords(baseUrl, 'order acl0001')
        return sms.length > 0 ? sms : undefined
      })
      const health = await healthOf(good)

      const bad = createMember('web-2', sandbox, redis, { rules: STORM_RULES, username: 'logx', password: WRONG })
      rig.members.push(bad)
      const spawned = spawnAgent(['run', '--config', bad.ws.config])
      const code = await spawned.exited
      const output = spawned.output() + spawned.errors()

      recordDrill(task, {
        drill: 'fleet: Redis ACL user, wrong password',
        events: 2,
        unit: 'starts',
        lost: paged.length === 0 ? 1 : 0,
        duplicated: paged.length - 1,
        timeMs: Date.now() - started,
        notes: `right password: started, cluster ${health.cluster?.status}, paged ${paged.length}; wrong password: exit ${code}, "${/[^\n]*cluster\.redis\.password_file[^\n]*/.exec(output)?.[0]?.slice(0, 200) ?? output.slice(0, 200)}"`,
      })

      expect(paged).toHaveLength(1)
      expect(health.cluster?.status).toBe('up')
      expect(code).not.toBe(0)
      expect(code).not.toBeNull()
      expect(output).toContain('cluster.redis.password_file')
      // The refusal is the only error: no source blamed for a start that failed elsewhere.
      expect(output).not.toContain('reading failed')
      expect(output).not.toContain(WRONG)
      expect(output).not.toContain(PASSWORD)
      expect(good.agent?.output() + (good.agent?.errors() ?? '')).not.toContain(PASSWORD)
    } finally {
      await rig.close()
    }
  },
)
