// logx-voice-alert options: written (what users pass) -> normalized.
import type { ChannelInput } from '../../../alerts'
import { rejectUnknown } from '../shared/check'
import {
  COMMON_KEYS, normalizeApi, normalizeCommon, optionalCrm,
  type ApiOptions, type CommonOptions, type CommonOptionsInput, type CrmOptions,
} from '../shared/common-options'
import { optionError } from '../shared/errors'

export const TARGET = 'logx-voice-alert'

export interface VoiceAudioInput {
  firing?: string[]
  resolved?: string[]
  digest?: string[]
}

export interface VoiceOptionsInput extends CommonOptionsInput {
  /** Who is called (required): label and phone number pairs. */
  receivers: { label: string; number: string }[]
  /** Audio file names played (required): one list, or one per kind (`firing` required). */
  audio: string[] | VoiceAudioInput
}

export interface VoiceOptions {
  common: CommonOptions
  api: ApiOptions
  crm: CrmOptions | undefined
  channel: ChannelInput
}

const KEYS = new Set([...COMMON_KEYS, 'receivers', 'audio'])

function receivers(value: unknown): { label: string; number: string }[] {
  if (value === undefined) throw optionError(TARGET, 'receivers', 'is required (a list of { label, number })')
  if (!Array.isArray(value) || value.length === 0) throw optionError(TARGET, 'receivers', 'expected a non-empty list of { label, number }')
  return value.map((r: unknown, i: number) => {
    const { label, number } = (typeof r === 'object' && r !== null ? r : {}) as { label?: unknown; number?: unknown }
    if (typeof label !== 'string' || label === '') throw optionError(TARGET, `receivers[${i}].label`, 'expected a non-empty string')
    if (typeof number !== 'string' || !/^\+?[\d\s\-().]{5,}$/.test(number)) {
      throw optionError(TARGET, `receivers[${i}].number`, `expected a phone number, got ${JSON.stringify(number)}`)
    }
    return { label, number }
  })
}

function fileList(value: unknown, option: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((f) => typeof f === 'string' && f !== '')) {
    throw optionError(TARGET, option, 'expected a non-empty list of audio file names')
  }
  return value as string[]
}

function audio(value: unknown): string[] | VoiceAudioInput {
  if (value === undefined) throw optionError(TARGET, 'audio', 'is required (audio file names)')
  if (Array.isArray(value)) return fileList(value, 'audio')
  if (typeof value !== 'object' || value === null) throw optionError(TARGET, 'audio', 'expected a list or { firing, resolved, digest }')
  const byKind = value as Record<string, unknown>
  for (const key of Object.keys(byKind)) if (!['firing', 'resolved', 'digest'].includes(key)) throw optionError(TARGET, `audio.${key}`, 'unknown key')
  const out: VoiceAudioInput = { firing: fileList(byKind.firing, 'audio.firing') }
  if (byKind.resolved !== undefined) out.resolved = fileList(byKind.resolved, 'audio.resolved')
  if (byKind.digest !== undefined) out.digest = fileList(byKind.digest, 'audio.digest')
  return out
}

export function normalizeVoiceOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): VoiceOptions {
  const { written, common } = normalizeCommon(TARGET, raw)
  rejectUnknown(TARGET, written, KEYS)
  return {
    common,
    channel: {
      type: 'voice',
      name: 'voice',
      receivers: receivers(written.receivers),
      audio: audio(written.audio),
      ...(common.maxPerHour !== undefined ? { max_per_hour: common.maxPerHour } : {}),
    },
    api: normalizeApi(TARGET, written, env),
    crm: optionalCrm(TARGET, written, env),
  }
}
