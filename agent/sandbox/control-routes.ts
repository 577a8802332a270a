// The control API under /_sandbox/: info, faults, reset, seeding, simulated missed calls and the
// inbox's record feed.
// It needs no key: the sandbox listens on loopback by default and is a test double.

import { SandboxError } from './errors'
import { parseFault, type FaultSet } from './faults'
import { toFeedItem } from './live-events'
import { addMissedCall, parseMissedCall } from './missed-calls'
import { invalid, json, type Reply } from './reply'
import { seedRecords } from './seed'
import { INBOX_KINDS, isStoredKind, type StoredKind } from './stored-kinds'
import type { Store } from './types'
import type { SandboxInfo } from './types'

export const CONTROL_PREFIX = '/_sandbox/'

export interface ControlContext {
  store: Store
  faults: FaultSet
  info(): SandboxInfo
  /** Clears records and faults, then seeds the default lookups again. */
  reset(): void
}

function problem(status: number, error: string, field?: string): Reply {
  return json(status, field === undefined ? { status: 'error', error } : { status: 'error', error, field })
}

function faultProblem(err: unknown): Reply {
  if (err instanceof SandboxError) return problem(400, err.message, err.path)
  throw err
}

export function handleControl(
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
  ctx: ControlContext,
): Reply | undefined {
  const rest = path.slice(CONTROL_PREFIX.length)
  if (rest === 'info' && method === 'GET') return json(200, { ...ctx.info(), store: ctx.store.stats() })

  if (rest === 'faults') {
    if (method === 'GET') return json(200, { faults: ctx.faults.list() })
    if (method === 'DELETE') {
      ctx.faults.clear()
      return json(200, { faults: [] })
    }
    if (method === 'POST') {
      try {
        return json(201, { fault: ctx.faults.add(parseFault(body)) })
      } catch (err) {
        return faultProblem(err)
      }
    }
    if (method === 'PUT') {
      const list = Array.isArray(body) ? body : (body as { faults?: unknown } | undefined)?.faults
      if (!Array.isArray(list)) return problem(400, 'faults: must be an array of fault rules', 'faults')
      try {
        ctx.faults.replace(list.map((f, i) => parseFault(f, `faults[${i}]`)))
      } catch (err) {
        return faultProblem(err)
      }
      return json(200, { faults: ctx.faults.list() })
    }
  }
  if (rest.startsWith('faults/') && method === 'DELETE') {
    const removed = ctx.faults.remove(decodeURIComponent(rest.slice('faults/'.length)))
    return removed ? json(200, { removed: true }) : problem(404, 'no such fault')
  }

  if (rest === 'reset' && method === 'POST') {
    ctx.reset()
    return json(200, { reset: true })
  }

  if (rest === 'seed' && method === 'POST') {
    const b = body as { kind?: unknown; records?: unknown } | undefined
    if (typeof b?.kind !== 'string' || !isStoredKind(b.kind)) return problem(400, 'kind: must be a record kind', 'kind')
    if (!Array.isArray(b.records) || b.records.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) {
      return problem(400, 'records: must be an array of objects', 'records')
    }
    const added = seedRecords(ctx.store, b.kind, b.records as Record<string, unknown>[])
    return json(201, { added })
  }

  if (rest === 'missed-calls' && method === 'POST') {
    const input = parseMissedCall(body)
    if (!input.ok) return invalid(input.problems)
    return json(201, { status: 'success', record: addMissedCall(ctx.store, input.caller, input.called) })
  }

  if (rest === 'records' && method === 'GET') {
    const kindParam = query.get('kind')
    const kinds: StoredKind[] =
      kindParam === null || kindParam === ''
        ? [...INBOX_KINDS]
        : kindParam.split(',').filter((k): k is StoredKind => isStoredKind(k))
    const limitParam = Number(query.get('limit') ?? '500')
    const entries = ctx.store.search({
      kinds,
      text: query.get('q') ?? '',
      limit: Number.isInteger(limitParam) && limitParam > 0 ? Math.min(limitParam, 5000) : 500,
    })
    return json(200, { records: entries.map(toFeedItem), store: ctx.store.stats() })
  }

  return undefined
}
