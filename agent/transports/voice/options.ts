// logx-voice-alert options: written (what users pass) -> normalized. The channel keys are the YAML
// voice channel's (agent/config), spelt as options.
import { normalizeChannelTarget, type ChannelTargetOptions, type CommonOptionsInput } from '../shared/common-options'

export const TARGET = 'logx-voice-alert'

export interface VoiceAudioInput {
  firing: string[]
  resolved?: string[]
  digest?: string[]
}

export interface VoiceOptionsInput extends CommonOptionsInput {
  /** Who is called (required): label and phone number pairs. */
  receivers: { label: string; number: string }[]
  /** Audio file names played (required): one list, or one per kind (`firing` required). */
  audio: string[] | VoiceAudioInput
}

export type VoiceOptions = ChannelTargetOptions<'voice'>

export function normalizeVoiceOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): VoiceOptions {
  return normalizeChannelTarget(TARGET, 'voice', raw, env)
}
