import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DeliveryErrorCodes } from '../../../agent/delivery/errors'
import { IncidentErrorCodes, IncidentStateError } from '../../../agent/incidents/errors'

const root = join(__dirname, '..', '..', '..')

describe('incident state errors', () => {
  it('each code is documented in the README', () => {
    const readme = readFileSync(join(root, 'agent/incidents/README.md'), 'utf8')
    for (const code of Object.values(IncidentErrorCodes)) expect(readme).toContain(`\`${code}\``)
  })

  it('keep the code users saw when the state was the delivery path’s', () => {
    expect(IncidentErrorCodes.STATE).toBe(DeliveryErrorCodes.STATE)
    const err = new IncidentStateError(IncidentErrorCodes.STATE, 'cannot read x')
    expect(err.code).toBe('LOGX_DELIVERY_ERR_STATE')
    expect(err.name).toBe('IncidentStateError')
  })
})
