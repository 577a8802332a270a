// One attempt at one voice request; a failure is the client's error, which says whether it is
// recoverable (the outbox retries, nothing below it does).
import type { VoiceBroadcastInput, MessagingClient } from '../../../messaging'

export async function sendVoice(client: MessagingClient, request: unknown, idempotencyKey: string): Promise<void> {
  await client.voiceBroadcast(request as VoiceBroadcastInput, { idempotencyKey })
}
