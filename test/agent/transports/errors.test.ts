import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OutboxErrorCodes } from '../../../agent/outbox'
import { TransportError, TransportErrorCodes } from '../../../agent/transports/shared/errors'

const root = join(__dirname, '..', '..', '..')

describe('error codes are documented', () => {
  it.each([
    ['agent/transports/README.md', Object.values(TransportErrorCodes)],
    ['agent/outbox/README.md', Object.values(OutboxErrorCodes)],
  ])('%s', (file, codes) => {
    const readme = readFileSync(join(root, file), 'utf8')
    for (const code of codes) expect(readme).toContain(`\`${code}\``)
  })

  it('transport errors name the target and the option', () => {
    const err = new TransportError(
      TransportErrorCodes.INVALID_OPTION,
      'logx-sms-alert',
      'options.numbers: is required',
      { option: 'numbers' },
    )
    expect(err.message).toBe('logx-sms-alert: options.numbers: is required')
    expect(err.option).toBe('numbers')
  })
})
