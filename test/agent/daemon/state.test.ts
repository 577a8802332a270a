// The daemon's state files on their own: the single-instance lock and the incident state.
import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DaemonError } from '../../../agent/daemon/errors'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import { acquireInstanceLock } from '../../../agent/daemon/instance-lock'
import { renderMetrics } from '../../../agent/daemon/metrics-server'
import { tempDir } from '../../helpers/temp-dir'

describe('instance lock', () => {
  it('refuses a second holder while the first lives, and is released', () => {
    const dir = tempDir('daemon-state')
    const lock = acquireInstanceLock(dir)
    expect(readFileSync(lock.path, 'utf8').trim()).toBe(String(process.pid))
    // Our own pid counts as alive, but a lock we hold is ours: a foreign live pid is needed.
    writeFileSync(lock.path, `${process.ppid}\n`)
    let error: unknown
    try {
      acquireInstanceLock(dir)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(DaemonError)
    expect((error as DaemonError).code).toBe('LOGX_DAEMON_ERR_LOCKED')
    expect((error as Error).message).toContain(`pid ${process.ppid}`)
    writeFileSync(lock.path, `${process.pid}\n`)
    lock.release()
    expect(existsSync(lock.path)).toBe(false)
  })

  it('takes over the lock of a process that is gone (SIGKILL leaves it behind)', () => {
    const dir = tempDir('daemon-state')
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(join(dir, 'agent.lock'), `${gone}\n`)
    const lock = acquireInstanceLock(dir)
    expect(readFileSync(lock.path, 'utf8').trim()).toBe(String(process.pid))
    lock.release()
  })
})

describe('incident state', () => {
  const pending = (raw: string) => ({ rule: 'r', raw, source: 'app', format: 'json' as const, since: 1000 })

  it('remembers pending and paged incidents across instances', () => {
    const dir = tempDir('daemon-state')
    const first = createIncidentState(join(dir, 'incidents.json'))
    first.observe('a', pending('{"msg":"a"}'), 1000)
    first.observe('b', pending('{"msg":"b"}'), 1000)
    first.notified('b', 'r', 2000)
    const second = createIncidentState(join(dir, 'incidents.json'))
    expect(second.pending().map((p) => p.raw)).toEqual(['{"msg":"a"}'])
    expect(second.paged('b')).toMatchObject({ rule: 'r', notifiedAt: 2000 })
    second.resolved('b')
    expect(createIncidentState(join(dir, 'incidents.json')).paged('b')).toBeUndefined()
  })

  it('forgets paged incidents quiet for resolve_after and pending ones past their window', () => {
    const dir = tempDir('daemon-state')
    const state = createIncidentState(join(dir, 'incidents.json'))
    state.observe('a', pending('x'), 1000)
    state.notified('b', 'r', 1000)
    state.observe('b', pending('y'), 5000)
    expect(state.expire(5500, () => ({ pagedMs: 1000, pendingMs: 10_000 }))).toEqual([])
    expect(state.expire(6000, () => ({ pagedMs: 1000, pendingMs: 10_000 }))).toEqual(['b'])
    state.expire(11_000, () => ({ pagedMs: 1000, pendingMs: 10_000 }))
    state.save()
    expect(createIncidentState(join(dir, 'incidents.json')).size).toEqual({ paged: 0, pending: 0 })
  })
})

describe('metrics text', () => {
  it('is Prometheus text format with escaped labels', () => {
    const text = renderMetrics([
      { name: 'x_total', help: 'X', type: 'counter', samples: [{ labels: { source: 'a"b' }, value: 3 }] },
      { name: 'y', help: 'Y', type: 'gauge', samples: [{ value: Number.NaN }] },
    ])
    expect(text).toBe(
      '# HELP x_total X\n# TYPE x_total counter\nx_total{source="a\\"b"} 3\n# HELP y Y\n# TYPE y gauge\ny 0\n',
    )
  })
})
