// Pure: a rendered voice delivery -> VoiceBroadcastInput.
import type { Delivery } from '../../../alerts'
import type { VoiceBroadcastInput } from '../../messaging'
import type { OutgoingRequest } from '../shared/alert-target'

export function buildVoiceRequests(delivery: Delivery): OutgoingRequest[] {
  if (delivery.message.type !== 'voice') return []
  const { receivers, audioFiles } = delivery.message
  const request: VoiceBroadcastInput = { receivers, audioFiles }
  return [{ kind: 'voice', request, summary: `called ${receivers.map((r) => r.label).join(', ')}; played ${audioFiles.join(', ')}` }]
}
