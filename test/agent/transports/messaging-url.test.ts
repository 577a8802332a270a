// A transport target's messagingUrl refuses credentials as the config's messaging.base_url does,
// pointing to the apiKey option, and never quotes the value.
import { describe, expect, it } from 'vitest'
import { normalizeApi } from '../../../agent/transports/shared/common-options'

const PLANTED = 'target-url-secret-61f'

function refusal(messagingUrl: string): string {
  try {
    normalizeApi('logx-sms-alert', { messagingUrl, apiKey: 'sk-target-1' }, {})
  } catch (err) {
    return (err as Error).message
  }
  throw new Error('the options were taken')
}

describe('messagingUrl', () => {
  it('refuses a user, a password or a credential parameter, naming the apiKey option', () => {
    for (const url of [
      `https://ops:${PLANTED}@api.example.com/`,
      `https://${PLANTED}@api.example.com/`,
      `https://api.example.com/v1/?access_token=${PLANTED}`,
    ]) {
      const message = refusal(url)
      expect(message).toMatch(/options\.messagingUrl: must not hold .*the apiKey option \(or LOGX_API_KEY\)/)
      expect(message).not.toContain(PLANTED)
    }
  })

  it('takes a URL without credentials', () => {
    expect(normalizeApi('logx-sms-alert', { messagingUrl: 'https://api.example.com/v1/', apiKey: 'k' }, {})).toEqual({
      messagingUrl: 'https://api.example.com/v1/',
      apiKey: 'k',
    })
  })
})
