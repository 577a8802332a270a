// Shared by the messaging client suites.
import { MessagingApiError } from '../../../agent/messaging'

/** The MessagingApiError a call rejects with; fails the test if it resolves or throws something else. */
export async function caught(p: Promise<unknown>): Promise<MessagingApiError> {
  try {
    await p
  } catch (err) {
    if (err instanceof MessagingApiError) return err
    throw err
  }
  throw new Error('expected a MessagingApiError')
}
