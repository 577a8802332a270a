// Silences (maintenance windows): matchers on the incident (`rule`, `fingerprint`, `title`) or on
// the line's fields by dot path, active from `starts_at` until `ends_at`. Expired silences are
// dropped on the next pass.
import { AlertsError, AlertsErrorCodes } from './errors'
import { compileFieldMatchers, matchField, type FieldMatcher, type FieldMatcherInput } from './matcher'
import type { Notice } from './notice'
import type { Stage } from './stage'

export interface SilenceInput {
  id?: string
  matchers: Record<string, FieldMatcherInput>
  /** Epoch ms or an ISO date; default: now. */
  starts_at?: number | string
  /** Epoch ms or an ISO date. Required: a silence without an end is a forgotten silence. */
  ends_at: number | string
  comment?: string
}

export interface Silence {
  id: string
  matchers: readonly FieldMatcher[]
  startsAt: number
  endsAt: number
  comment: string | undefined
}

export interface SilenceSet {
  add(input: SilenceInput, now: number): Silence
  remove(id: string): boolean
  active(now: number): Silence[]
  /** Notices dropped by a silence so far. */
  muted(): number
  stage: Stage
}

function time(value: unknown, path: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string') {
    const at = Date.parse(value)
    if (!Number.isNaN(at)) return at
  }
  throw new AlertsError(AlertsErrorCodes.INVALID_SILENCE, path, `expected epoch milliseconds or an ISO date, got ${JSON.stringify(value)}`)
}

export function normalizeSilence(input: unknown, now: number, id: string, path = 'silence'): Silence {
  if (typeof input !== 'object' || input === null) throw new AlertsError(AlertsErrorCodes.INVALID_SILENCE, path, 'expected an object')
  const s = input as Partial<SilenceInput>
  if (typeof s.matchers !== 'object' || s.matchers === null || Object.keys(s.matchers).length === 0) {
    throw new AlertsError(AlertsErrorCodes.INVALID_SILENCE, `${path}.matchers`, 'at least one matcher is required')
  }
  const startsAt = s.starts_at === undefined ? now : time(s.starts_at, `${path}.starts_at`)
  const endsAt = time(s.ends_at, `${path}.ends_at`)
  if (endsAt <= startsAt) throw new AlertsError(AlertsErrorCodes.INVALID_SILENCE, `${path}.ends_at`, 'must be after starts_at')
  return {
    id: s.id ?? id,
    matchers: compileFieldMatchers(s.matchers, `${path}.matchers`),
    startsAt,
    endsAt,
    comment: s.comment,
  }
}

function labels(notice: Notice): Record<string, unknown> {
  const { incident } = notice
  return { ...incident.lastLine.record, rule: incident.rule, fingerprint: incident.key, title: incident.title }
}

export function createSilenceSet(initial: readonly unknown[] = [], now = 0): SilenceSet {
  const silences = new Map<string, Silence>()
  let next = 1
  let muted = 0

  function add(input: unknown, at: number): Silence {
    const silence = normalizeSilence(input, at, `silence-${next++}`, `silences[${silences.size}]`)
    silences.set(silence.id, silence)
    return silence
  }
  initial.forEach((input) => add(input, now))

  function active(at: number): Silence[] {
    const out: Silence[] = []
    for (const [id, s] of silences) {
      if (s.endsAt <= at) silences.delete(id)
      else if (s.startsAt <= at) out.push(s)
    }
    return out
  }

  const stage: Stage = (ctx, notices) => {
    const live = active(ctx.now)
    if (live.length === 0) return notices
    return notices.filter((notice) => {
      const record = labels(notice)
      const silenced = live.some((s) => s.matchers.every((m) => matchField(m, record)))
      if (silenced) muted++
      return !silenced
    })
  }

  return {
    add: (input, at) => add(input, at),
    remove: (id) => silences.delete(id),
    active,
    muted: () => muted,
    stage,
  }
}
