// One attempt at one chat request; a failure is the client's error, which says whether it is
// recoverable (the outbox retries, nothing below it does).
import type { SendChatInput, MessagingClient } from '../../../messaging'

export async function sendChat(client: MessagingClient, request: unknown, idempotencyKey: string): Promise<void> {
  await client.sendChat(request as SendChatInput, { idempotencyKey })
}
