import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { detectOutcome } from '../../../agent/messaging/outcome'
import { clipBody, createRedactor, describeUrl, MAX_RAW_BODY } from '../../../agent/messaging/redact'

describe('redaction', () => {
  it('leaves no occurrence of any key-like secret, whatever surrounds it', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{4,40}$/)
    fc.assert(
      fc.property(secret, secret, fc.array(fc.string()), (a, b, parts) => {
        const out = createRedactor([a, b])(`${parts.join(a)}${b}${parts.join(b)}${a}`)
        // Key-like secrets cannot straddle the [redacted] mask's brackets; a secret spelled inside
        // the mask word itself ("dact") is the one way to "find" it again.
        for (const s of [a, b]) if (!'[redacted]'.includes(s)) expect(out).not.toContain(s)
      }),
    )
  })

  it('masks a secret URL down to its origin', () => {
    expect(describeUrl(new URL('https://crm.example/hooks/acct-123?k=v'), true)).toBe('https://crm.example/[redacted]')
    expect(describeUrl(new URL('https://api.example/api/v1/?apirequest=send_sms'), false)).toBe(
      'https://api.example/api/v1/?apirequest=send_sms',
    )
  })

  it('clips raw bodies', () => {
    expect(clipBody('x'.repeat(MAX_RAW_BODY + 10))).toMatch(/\.\.\.\[10 more chars\]$/)
  })
})

describe('detectOutcome on arbitrary input', () => {
  it('never throws and only calls a response a success on 2xx', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.string(),
        fc.option(fc.constantFrom('application/json', 'text/plain', 'text/html')),
        (status, text, type) => {
          const outcome = detectOutcome(status, text, type ?? undefined)
          if (outcome.ok) expect(status >= 200 && status < 300).toBe(true)
        },
      ),
    )
  })
})
