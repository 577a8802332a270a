// Silences (maintenance windows): matchers on the incident (`rule`, `fingerprint`, `title`) or on
// the line's fields by dot path, active from `startsAt` until `endsAt`. `SilenceConfig` is the
// normalized form agent/config makes and checks; one that ended already is valid and never applies.
// Expired silences are dropped on the next pass. An `acknowledged` notice is never muted (it pages
// nobody; it is the CRM trail of who has the incident).
import { compileFieldMatch, matchField, type FieldMatch, type FieldMatcher } from './matcher'
import { incidentLabels } from './labels'
import type { Stage } from './stage'

export interface SilenceConfig {
  /** Default: `silence-<n>` in the order added. */
  id?: string | undefined
  matchers: FieldMatch[]
  /** Epoch ms; undefined: from when it is added. */
  startsAt: number | undefined
  endsAt: number
  comment: string | undefined
}

export interface Silence {
  id: string
  matchers: readonly FieldMatcher[]
  startsAt: number
  endsAt: number
  comment: string | undefined
}

export interface SilenceSet {
  add(config: SilenceConfig, now: number): Silence
  remove(id: string): boolean
  active(now: number): Silence[]
  /** Notices dropped by a silence so far. */
  muted(): number
  stage: Stage
}

export function compileSilence(config: SilenceConfig, now: number, id: string): Silence {
  return {
    id: config.id ?? id,
    matchers: config.matchers.map(compileFieldMatch),
    startsAt: config.startsAt ?? now,
    endsAt: config.endsAt,
    comment: config.comment,
  }
}

export function createSilenceSet(initial: readonly SilenceConfig[] = [], now = 0): SilenceSet {
  const silences = new Map<string, Silence>()
  let next = 1
  let muted = 0

  function add(config: SilenceConfig, at: number): Silence {
    const silence = compileSilence(config, at, `silence-${next++}`)
    silences.set(silence.id, silence)
    return silence
  }
  initial.forEach((config) => add(config, now))

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
      // Who acknowledged what is the incident's trail, not a page: a silence never hides it.
      if (notice.kind === 'acknowledged') return true
      const record = incidentLabels(notice.incident)
      const silenced = live.some((s) => s.matchers.every((m) => matchField(m, record)))
      if (silenced) muted++
      return !silenced
    })
  }

  return {
    add: (config, at) => add(config, at),
    remove: (id) => silences.delete(id),
    active,
    muted: () => muted,
    stage,
  }
}
