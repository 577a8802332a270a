// One attempt at one mail request; a failure is the client's error, which says whether it is
// recoverable (the outbox retries, nothing below it does).
import type { SendMailInput, MessagingClient } from '../../../messaging'

export async function sendMail(client: MessagingClient, request: unknown, idempotencyKey: string): Promise<void> {
  await client.sendMail(request as SendMailInput, { idempotencyKey })
}
