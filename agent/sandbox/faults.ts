// Fault injection: rules that delay, fail, throttle, drop or garble requests, globally or per route.
// Choosing what happens to one request is pure (randomness is an argument); the server applies it.

import { SandboxError, SandboxErrorCodes } from './errors'

/** Route names are the operation names of wire.ts (`send_sms`, `create_lead`...); `*` or absent matches all. */
interface FaultCommon {
  id?: string
  route?: string
  /** Probability that the rule fires on a matching request; default 1. */
  rate?: number
  /** Fire at most this many times, then expire; default unlimited. */
  times?: number
}

export type Fault =
  | (FaultCommon & { kind: 'latency'; ms?: number; minMs?: number; maxMs?: number })
  | (FaultCommon & { kind: 'error'; status: number; message?: string })
  | (FaultCommon & { kind: 'rate-limit'; retryAfterSeconds: number })
  /** `phase: after` stores the request, then drops: the client cannot tell whether it took effect. */
  | (FaultCommon & { kind: 'drop'; phase?: 'before' | 'after' })
  /** Processes the request, then answers 200 with a broken body. */
  | (FaultCommon & { kind: 'malformed'; body: MalformedBody })

export type MalformedBody = 'truncated-json' | 'html' | 'error-field' | 'empty-json'

export type FaultKind = Fault['kind']

export type FaultAction =
  | { kind: 'error'; status: number; message: string }
  | { kind: 'rate-limit'; retryAfterSeconds: number }
  | { kind: 'drop'; phase: 'before' | 'after' }
  | { kind: 'malformed'; body: MalformedBody }

export interface FaultPlan {
  latencyMs: number
  action: FaultAction | undefined
}

const MALFORMED: readonly MalformedBody[] = ['truncated-json', 'html', 'error-field', 'empty-json']

function fail(path: string, message: string): never {
  throw new SandboxError(SandboxErrorCodes.INVALID_FAULT, `${path}: ${message}`, { path })
}

function nonNegative(v: unknown, path: string, required: boolean): void {
  if (v === undefined && !required) return
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(path, 'must be a non-negative number')
}

/** Checks a rule that arrived as JSON (control API, CLI, options) and returns it typed. */
export function parseFault(value: unknown, path = 'fault'): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object')
  const v = value as Record<string, unknown>
  if (v['route'] !== undefined && typeof v['route'] !== 'string') fail(`${path}.route`, 'must be a string')
  if (v['id'] !== undefined && typeof v['id'] !== 'string') fail(`${path}.id`, 'must be a string')
  if (v['rate'] !== undefined) {
    const r = v['rate']
    if (typeof r !== 'number' || !(r >= 0 && r <= 1)) fail(`${path}.rate`, 'must be a number from 0 to 1')
  }
  if (v['times'] !== undefined) {
    const t = v['times']
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 1) fail(`${path}.times`, 'must be a positive integer')
  }
  switch (v['kind']) {
    case 'latency':
      nonNegative(v['ms'], `${path}.ms`, false)
      nonNegative(v['minMs'], `${path}.minMs`, false)
      nonNegative(v['maxMs'], `${path}.maxMs`, false)
      if (v['ms'] === undefined && v['maxMs'] === undefined) fail(`${path}.ms`, 'give ms, or minMs and maxMs')
      break
    case 'error': {
      const s = v['status']
      if (typeof s !== 'number' || !Number.isInteger(s) || s < 400 || s > 599)
        fail(`${path}.status`, 'must be an HTTP status from 400 to 599')
      if (v['message'] !== undefined && typeof v['message'] !== 'string') fail(`${path}.message`, 'must be a string')
      break
    }
    case 'rate-limit':
      nonNegative(v['retryAfterSeconds'], `${path}.retryAfterSeconds`, true)
      break
    case 'drop':
      if (v['phase'] !== undefined && v['phase'] !== 'before' && v['phase'] !== 'after')
        fail(`${path}.phase`, 'must be before or after')
      break
    case 'malformed':
      if (typeof v['body'] !== 'string' || !(MALFORMED as readonly string[]).includes(v['body'])) {
        fail(`${path}.body`, `must be one of ${MALFORMED.join(', ')}`)
      }
      break
    default:
      fail(`${path}.kind`, 'must be one of latency, error, rate-limit, drop, malformed')
  }
  return v as unknown as Fault
}

function matches(fault: Fault, route: string): boolean {
  return fault.route === undefined || fault.route === '*' || fault.route === route
}

export interface FaultSet {
  list(): Fault[]
  add(fault: Fault): Fault
  replace(faults: readonly Fault[]): void
  remove(id: string): boolean
  clear(): void
  /** Decides what happens to one request on `route`, consuming `times` of rules that fire. */
  plan(route: string): FaultPlan
}

export function createFaultSet(initial: readonly Fault[], random: () => number = Math.random): FaultSet {
  let faults: Fault[] = []
  let counter = 0
  const remaining = new Map<Fault, number>()

  function add(fault: Fault): Fault {
    counter += 1
    const stored = { ...fault, id: fault.id ?? `fault-${counter}` } as Fault
    faults.push(stored)
    if (stored.times !== undefined) remaining.set(stored, stored.times)
    return stored
  }

  function fires(fault: Fault): boolean {
    const rate = fault.rate ?? 1
    if (rate < 1 && random() >= rate) return false
    const left = remaining.get(fault)
    if (left !== undefined) {
      if (left <= 1) {
        remaining.delete(fault)
        faults = faults.filter((f) => f !== fault)
      } else remaining.set(fault, left - 1)
    }
    return true
  }

  for (const f of initial) add(f)

  return {
    list: () => faults.map((f) => ({ ...f, ...(remaining.has(f) ? { times: remaining.get(f) } : {}) })),
    add,
    replace(next) {
      faults = []
      remaining.clear()
      for (const f of next) add(f)
    },
    remove(id) {
      const before = faults.length
      faults = faults.filter((f) => f.id !== id)
      return faults.length !== before
    },
    clear() {
      faults = []
      remaining.clear()
    },
    plan(route) {
      let latencyMs = 0
      let action: FaultAction | undefined
      for (const fault of [...faults]) {
        if (!matches(fault, route)) continue
        if (fault.kind === 'latency') {
          if (!fires(fault)) continue
          const min = fault.minMs ?? fault.ms ?? 0
          const max = fault.maxMs ?? fault.ms ?? min
          latencyMs += min + Math.floor(random() * Math.max(0, max - min))
          continue
        }
        // Only the first terminal rule that fires acts; later ones keep their `times` budget.
        if (action !== undefined || !fires(fault)) continue
        switch (fault.kind) {
          case 'error':
            action = {
              kind: 'error',
              status: fault.status,
              message: fault.message ?? `injected fault: HTTP ${fault.status}`,
            }
            break
          case 'rate-limit':
            action = { kind: 'rate-limit', retryAfterSeconds: fault.retryAfterSeconds }
            break
          case 'drop':
            action = { kind: 'drop', phase: fault.phase ?? 'before' }
            break
          case 'malformed':
            action = { kind: 'malformed', body: fault.body }
            break
        }
      }
      return { latencyMs, action }
    },
  }
}
