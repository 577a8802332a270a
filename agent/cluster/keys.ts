// Key names under the prefix, and what a notice's claim is made of (pure). The claim's full key needs
// the incident's generation, which only Redis knows, so the claim script joins the parts given here:
//   non-repeat: <P>n:<incident>:<gen>:<kind>:<step>:<channel>:<part>
//   repeat:     <P>n:<incident>:repeat:<channel>:<part>   (no gen, no step: one repeat per interval)
// A notice with `windowMs` (any kind that comes back while the incident is open) is keyed as a repeat.
import { createHash } from 'node:crypto'
import { DEFAULT_REPEAT_INTERVAL_MS } from '../../alerts'
import type { FleetNotice } from './types'

/** How long a sent mark of a non-repeat notice is kept at least (a week of re-reads and replays). */
export const SENT_RETENTION_MS = 7 * 24 * 3_600_000
/** The incident hashes live this long after their last flush or action. */
export const INCIDENT_RETENTION_MS = 7 * 24 * 3_600_000
/** Entries kept in the incident listing and in the action stream (approximately, for the stream). */
export const MAX_LISTED_INCIDENTS = 10_000
export const MAX_ACTIONS = 10_000

export interface Keys {
  readonly prefix: string
  incident(key: string): string
  hits(key: string): string
  readonly incidents: string
  readonly actions: string
  readonly silences: string
  readonly peers: string
  peer(agentId: string): string
  /** The pub/sub channel announcing sent marks (not a key). */
  readonly sent: string
}

export function createKeys(prefix: string): Keys {
  return {
    prefix,
    incident: (key) => `${prefix}inc:${key}`,
    hits: (key) => `${prefix}hits:${key}`,
    incidents: `${prefix}incidents`,
    actions: `${prefix}actions`,
    silences: `${prefix}silences`,
    peers: `${prefix}peers`,
    peer: (agentId) => `${prefix}peer:${agentId}`,
    sent: `${prefix}sent`,
  }
}

/** Claimed once per interval rather than once per generation. */
export const isRepeat = (n: FleetNotice): boolean => n.kind === 'repeat' || n.windowMs !== undefined

/** The claim key before and after the generation (the script puts `<gen>:` between them, except for repeats). */
export function claimKeyParts(keys: Keys, n: FleetNotice): { head: string; tail: string } {
  const head = `${keys.prefix}n:${n.incident}:`
  const tail = isRepeat(n) ? `${n.kind}:${n.channel}:${n.part}` : `${n.kind}:${n.step}:${n.channel}:${n.part}`
  return { head, tail }
}

/** The full claim key for a known generation (tests, and reading what the script wrote). */
export function claimKey(keys: Keys, n: FleetNotice, gen: string): string {
  const { head, tail } = claimKeyParts(keys, n)
  return isRepeat(n) ? head + tail : `${head}${gen}:${tail}`
}

const intervalOf = (n: FleetNotice): number => n.windowMs ?? DEFAULT_REPEAT_INTERVAL_MS

/** How long a sent mark stays: a repeat's interval for repeats, at least a week for the rest. */
export function sentRetentionMs(n: FleetNotice): number {
  return isRepeat(n) ? intervalOf(n) : SENT_RETENTION_MS
}

/**
 * `lx-` + the first 32 hex digits of sha256(`<incident>|<kind>|<step>|<channel>|<part>|<seed>`). The
 * seed is the generation (a repeat's: the server time of its first claim; degraded: the local
 * firedAt), so every agent sending one notice sends one key. A repeat's step is left out (empty), as
 * in its claim key: two agents may count their repeats differently.
 */
export function idempotencyKey(n: FleetNotice, seed: string): string {
  const step = isRepeat(n) ? '' : n.step
  const text = `${n.incident}|${n.kind}|${step}|${n.channel}|${n.part}|${seed}`
  return 'lx-' + createHash('sha256').update(text).digest('hex').slice(0, 32)
}
