// The starter config's text: valid YAML the loader reads as meant, comments kept, no secret in it.
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { renderConfig, type InitAnswers } from '../../../../agent/cli/init/render-config'

const answers: InitAnswers = {
  sources: [
    {
      name: 'pm2-api',
      kind: 'pm2',
      paths: ['/h/.pm2/logs/api-{out,error}.log', '*/odd.log'],
      exclude: ['*__*'],
      format: 'auto',
      reason: 'pm2 app api',
    },
    { name: 'journal', kind: 'journald', paths: [], exclude: [], format: undefined, reason: 'journald' },
  ],
  person: 'asha',
  phone: '+919800000001',
  email: undefined,
  mailFrom: 'logx-agent@example.com',
  api: { kind: 'sandbox' },
}

describe('renderConfig', () => {
  it('writes globs, a + number and a journald source as the values they are', () => {
    const config = parse(renderConfig(answers)) as Record<string, unknown>
    expect(config.sources).toEqual([
      {
        name: 'pm2-api',
        paths: ['/h/.pm2/logs/api-{out,error}.log', '*/odd.log'],
        exclude: ['*__*'],
        format: 'auto',
      },
      { name: 'journal', type: 'journald', priority: 'err' },
    ])
    expect(config.people).toEqual({ asha: { phone: '+919800000001' } })
    expect(config.rules).toEqual([expect.objectContaining({ notify: ['oncall-sms'], incident: true })])
  })

  it('a real API names where its key is, never a key, and leaves the CRM lead commented out', () => {
    const real: InitAnswers = {
      ...answers,
      api: {
        kind: 'real',
        baseUrl: 'https://api.example.com',
        key: { kind: 'file', path: '/run/k' },
        missedCallNumber: '918000000000',
      },
    }
    const text = renderConfig(real)
    const config = parse(text) as { messaging: unknown; acknowledge: unknown; rules: Record<string, unknown>[] }
    expect(config.messaging).toEqual({ base_url: 'https://api.example.com', api_key_file: '/run/k' })
    expect(config.acknowledge).toEqual({ missed_call_number: '918000000000', poll_interval: '15s' })
    expect(config.rules[0]).not.toHaveProperty('incident')
    expect(text).toContain('# incident: true records each incident as a lead')
  })

  it('without a phone in the sandbox, a placeholder number marked as one', () => {
    const text = renderConfig({ ...answers, phone: undefined })
    expect(text).toContain('phone: "919800000001"  # a placeholder')
  })
})
