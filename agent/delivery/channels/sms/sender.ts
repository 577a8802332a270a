// One attempt at one sms request; a failure is the client's error, which says whether it is
// recoverable (the outbox retries, nothing below it does).
import type { SendSmsInput, MessagingClient } from '../../../messaging'

export async function sendSms(client: MessagingClient, request: unknown, idempotencyKey: string): Promise<void> {
  await client.sendSms(request as SendSmsInput, { idempotencyKey })
}
