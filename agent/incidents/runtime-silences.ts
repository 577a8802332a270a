// Silences made while the agent runs (`logx-agent silence`, the console), apart from the config's:
// they live in `<state_dir>/silences.json`, outlive restarts and reloads (every new engine gets them),
// and expire by themselves. Matchers are written as in the YAML (dot path -> value, a "/pattern/flags"
// value is a regular expression) and checked by the config's own checks.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { replaceFile } from '../storage/replace-file'
import { readStateFile } from '../storage/state-file'
import type { SilenceConfig } from '../../alerts'
import { toFieldMatches } from '../config/values/field-match'
import { checkDotPath } from '../config/values/value-checks'
import { checkSilenceMatchValue, controlCharacterProblem } from '../config/values/silence-matcher'
import { IncidentErrorCodes, IncidentStateError } from './errors'

export interface RuntimeSilence {
  id: string
  matchers: Record<string, string>
  startsAt: number
  endsAt: number
  comment: string | undefined
  createdBy: string | undefined
}

export interface SilenceRequest {
  matchers: Record<string, string>
  endsAt: number
  comment: string | undefined
  by: string | undefined
}

export interface RuntimeSilences {
  /** The silences not yet expired (expired ones are dropped). */
  list(now: number): RuntimeSilence[]
  /** Checks and keeps a new silence (saved now); a problem is said as `matchers.<path>: message`. */
  add(request: SilenceRequest, now: number): { ok: true; silence: RuntimeSilence } | { ok: false; error: string }
  remove(id: string): RuntimeSilence | undefined
  /** Keeps a silence made elsewhere (another agent of a fleet) as it was made, its id included. */
  put(silence: RuntimeSilence): void
  /** As the engine takes them. */
  configs(now: number): SilenceConfig[]
}

/** Why a request cannot be a silence, or undefined. */
export function silenceProblem(request: SilenceRequest, now: number): string | undefined {
  const entries = Object.entries(request.matchers)
  if (entries.length === 0) return 'matchers: at least one matcher is needed (rule=NAME, or a field of the line)'
  for (const [path, value] of entries) {
    const problem =
      checkDotPath(path) ?? (typeof value === 'string' ? checkSilenceMatchValue(value) : 'expected a string')
    if (problem !== undefined) return `matchers.${path}: ${problem}`
  }
  if (!Number.isFinite(request.endsAt) || request.endsAt <= now) return 'endsAt: must be in the future'
  return undefined
}

// A hand-edited entry without matchers would mute every page, and one whose matcher holds a control
// character would print it to a terminal: only well-formed ones count, as the API would have taken them.
const wellFormed = (s: Partial<RuntimeSilence>): s is RuntimeSilence =>
  typeof s === 'object' &&
  s !== null &&
  typeof s.id === 'string' &&
  typeof s.endsAt === 'number' &&
  typeof s.startsAt === 'number' &&
  typeof s.matchers === 'object' &&
  s.matchers !== null &&
  Object.keys(s.matchers).length > 0 &&
  Object.values(s.matchers).every((value) => typeof value === 'string' && controlCharacterProblem(value) === undefined)

/** A damaged file is kept aside and said by storage (state-file.ts); the silences that were whole are kept. */
function load(file: string): RuntimeSilence[] {
  try {
    const loaded = readStateFile(file, {
      name: 'silences',
      accept: (value) => {
        const listed = (value as { silences?: unknown } | null)?.silences
        return Array.isArray(listed) ? (listed as Partial<RuntimeSilence>[]).filter(wellFormed) : undefined
      },
      count: (silences) => silences.length,
      format: (silences) => JSON.stringify({ silences }),
    })
    return loaded ?? []
  } catch (err) {
    throw new IncidentStateError(IncidentErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    })
  }
}

/** `file`: `<state_dir>/silences.json`; undefined: memory only. */
export function createRuntimeSilences(file: string | undefined): RuntimeSilences {
  if (file !== undefined) mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const silences = new Map((file === undefined ? [] : load(file)).map((s) => [s.id, s]))

  function save(): void {
    if (file === undefined) return
    try {
      replaceFile(file, JSON.stringify({ silences: [...silences.values()] }))
    } catch (err) {
      throw new IncidentStateError(IncidentErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, {
        cause: err,
      })
    }
  }

  function list(now: number): RuntimeSilence[] {
    let expired = false
    for (const [id, s] of silences) {
      if (s.endsAt > now) continue
      silences.delete(id)
      expired = true
    }
    if (expired) save()
    return [...silences.values()]
  }

  return {
    list,
    add(request, now) {
      const problem = silenceProblem(request, now)
      if (problem !== undefined) return { ok: false, error: problem }
      const silence: RuntimeSilence = {
        id: `rt-${randomBytes(4).toString('hex')}`,
        matchers: { ...request.matchers },
        startsAt: now,
        endsAt: request.endsAt,
        comment: request.comment,
        createdBy: request.by,
      }
      silences.set(silence.id, silence)
      save()
      return { ok: true, silence }
    },
    put(silence) {
      silences.set(silence.id, { ...silence, matchers: { ...silence.matchers } })
      save()
    },
    remove(id) {
      const silence = silences.get(id)
      if (silence === undefined) return undefined
      silences.delete(id)
      save()
      return silence
    },
    configs: (now) =>
      list(now).map((s) => ({
        id: s.id,
        matchers: toFieldMatches(s.matchers),
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        comment: s.comment,
      })),
  }
}
