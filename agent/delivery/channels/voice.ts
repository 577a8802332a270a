// Voice broadcasts: the receivers and audio files come rendered from the alert engine.
import type { VoiceBroadcastInput } from '../../messaging'
import type { ChannelKind, ChannelOf } from './channel-kind'

export const voiceChannel: ChannelKind<ChannelOf<'voice'>> = {
  type: 'voice',
  build(_channel, delivery) {
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
  },
  async send(client, request, idempotencyKey) {
    await client.voiceBroadcast(request as VoiceBroadcastInput, { idempotencyKey })
  },
}
