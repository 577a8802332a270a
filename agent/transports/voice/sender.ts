// I/O: places built voice broadcasts through the messaging client.
import type { VoiceBroadcastInput } from '../../messaging'
import { createApiClient, type ChannelSender } from '../shared/api-sender'
import type { VoiceOptions } from './options'

export function createVoiceSender(options: VoiceOptions): ChannelSender {
  const client = createApiClient(options.api, options.common)
  return {
    async send(request, idempotencyKey) {
      await client.voiceBroadcast(request as VoiceBroadcastInput, { idempotencyKey })
    },
    close: () => client.close(),
  }
}
