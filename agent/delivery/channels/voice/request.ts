// Voice broadcasts: the receivers and audio files come rendered from the alert engine.
// Pure: the rendered delivery (alerts/) -> the messaging client's input; the client maps it to the
// wire body (agent/messaging/request-builders.ts, which the client itself needs).
import type { Delivery } from '../../../../alerts'
import type { VoiceBroadcastInput } from '../../../messaging'
import type { ChannelOf, OutgoingRequest } from '../types'

export function buildVoiceRequests(_channel: ChannelOf<'voice'>, delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'voice') return []
  const { receivers, audioFiles } = delivery.message
  const request: VoiceBroadcastInput = { receivers, audioFiles }
  return [
    {
      kind: 'voice',
      request,
      summary: `called ${receivers.map((r) => r.label).join(', ')}; played ${audioFiles.join(', ')}`,
    },
  ]
}
