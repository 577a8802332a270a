// I/O: places built voice broadcasts through the messaging client.
import type { VoiceBroadcastInput } from '../../messaging'
import { createApiClient } from '../shared/api-sender'
import type { VoiceOptions } from './options'

export function createVoiceSender(options: VoiceOptions): { send(kind: string, request: unknown): Promise<void>; close(): Promise<void> } {
  const client = createApiClient(options.api, options.common)
  return {
    async send(_kind, request) {
      await client.voiceBroadcast(request as VoiceBroadcastInput)
    },
    close: () => client.close(),
  }
}
