// A shared action as the fields of one `P actions` stream entry, and back (pure):
//   { id, agent, type, key?, actor?, silence?, silenceId?, notify?, endedAt?, at }   (actor, silence as JSON)
// An entry that is not a well-formed action (another version, a hand-made XADD) reads as undefined.
import type { ReceivedAction, SharedAction } from './types'
import type { RuntimeSilence } from '../incidents/runtime-silences'
import type { Actor } from '../../alerts'

export function encodeAction(action: SharedAction, id: string, agent: string): string[] {
  const fields = ['id', id, 'agent', agent, 'type', action.type]
  switch (action.type) {
    case 'ack':
    case 'unack':
    case 'resolve':
      fields.push('key', action.key, 'actor', JSON.stringify(action.actor))
      break
    case 'silence':
      fields.push('silence', JSON.stringify(action.silence))
      break
    case 'expire-silence':
      fields.push('silenceId', action.silenceId)
      break
    case 'source-resolve':
      fields.push('key', action.key, 'notify', action.notify ? '1' : '0', 'endedAt', String(action.endedAt))
      break
  }
  fields.push('at', String(action.at))
  return fields
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function actorOf(value: unknown): Actor | undefined {
  if (!isObject(value) || typeof value.by !== 'string' || typeof value.via !== 'string') return undefined
  const actor: Actor = { by: value.by, via: value.via as Actor['via'] }
  if (typeof value.detail === 'string') actor.detail = value.detail
  return actor
}

function silenceOf(value: unknown): RuntimeSilence | undefined {
  if (
    !isObject(value) ||
    typeof value.id !== 'string' ||
    typeof value.endsAt !== 'number' ||
    typeof value.startsAt !== 'number'
  )
    return undefined
  if (!isObject(value.matchers) || Object.keys(value.matchers).length === 0) return undefined
  return value as unknown as RuntimeSilence
}

function sourceResolveOf(f: Map<string, string>, at: number, id: string, agent: string): ReceivedAction | undefined {
  const key = f.get('key')
  const notify = f.get('notify')
  const endedAt = Number(f.get('endedAt'))
  if (key === undefined || (notify !== '1' && notify !== '0') || !Number.isFinite(endedAt)) return undefined
  return { type: 'source-resolve', key, notify: notify === '1', endedAt, at, id, agent }
}

/** The stream entry's flat field list as an action, or undefined. */
export function decodeAction(flat: readonly string[]): ReceivedAction | undefined {
  const f = new Map<string, string>()
  for (let i = 0; i + 1 < flat.length; i += 2) f.set(flat[i] as string, flat[i + 1] as string)
  const id = f.get('id')
  const agent = f.get('agent')
  const at = Number(f.get('at'))
  if (id === undefined || agent === undefined || !Number.isFinite(at)) return undefined
  const type = f.get('type')
  switch (type) {
    case 'ack':
    case 'unack':
    case 'resolve': {
      const key = f.get('key')
      const actor = actorOf(parseJson(f.get('actor')))
      return key === undefined || actor === undefined ? undefined : { type, key, actor, at, id, agent }
    }
    case 'silence': {
      const silence = silenceOf(parseJson(f.get('silence')))
      return silence === undefined ? undefined : { type, silence, at, id, agent }
    }
    case 'expire-silence': {
      const silenceId = f.get('silenceId')
      return silenceId === undefined ? undefined : { type, silenceId, at, id, agent }
    }
    case 'source-resolve':
      return sourceResolveOf(f, at, id, agent)
    default:
      return undefined
  }
}
