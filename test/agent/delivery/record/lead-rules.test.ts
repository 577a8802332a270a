// Which lead an incident event is recorded on (agent/delivery/record/lead-rules.ts), one test per rule.
import { describe, expect, it } from 'vitest'
import type { IncidentEvent } from '../../../../agent/delivery/record/incident-event'
import { activityKey, creationKey, crmIdentity, knownLead, newLead } from '../../../../agent/delivery/record/lead-rules'

const crm = { leadWebhook: 'http://crm/lead', activityWebhook: 'http://crm/act', activityToken: 't' }

function event(over: Partial<IncidentEvent> = {}): IncidentEvent {
  return {
    key: 'errors:abc',
    kind: 'firing',
    rule: 'errors',
    title: 'db down',
    firstSeen: Date.UTC(2024, 4, 1, 10),
    count: 3,
    at: Date.UTC(2024, 4, 1, 10, 1),
    activity: { title: 'paged', type: 'MESSAGE', notes: undefined },
    ...over,
  } as IncidentEvent
}

describe('lead rules', () => {
  it('1. one recorder per CRM: same webhooks and state directory, whatever the token', () => {
    expect(crmIdentity({ ...crm, activityToken: 'other' })).toBe(crmIdentity(crm))
    expect(crmIdentity({ ...crm, stateDir: '/a' })).not.toBe(crmIdentity(crm))
    expect(crmIdentity({ ...crm, activityWebhook: 'http://crm/x' })).not.toBe(crmIdentity(crm))
  })

  it('2. a new lead is named by its title (200 characters at most) or its rule, with the known fields', () => {
    expect(newLead(event({ service: 'api' }))).toEqual({
      name: 'db down',
      otherFields: {
        rule: 'errors',
        fingerprint: 'errors:abc',
        first_seen: '2024-05-01T10:00:00.000Z',
        count: '3',
        service: 'api',
      },
    })
    expect(newLead(event({ title: '' })).name).toBe('errors')
    expect(newLead(event({ title: 'x'.repeat(300) })).name).toHaveLength(200)
    expect(newLead(event({ host: 'web-1' })).otherFields).toMatchObject({ host: 'web-1' })
  })

  it('3. a known lead takes the event unless only its creation is recorded, or it is resolved and this fires', () => {
    expect(knownLead({ leadId: '7', resolved: false }, 'firing')).toBe('7')
    expect(knownLead({ leadId: '7', resolved: true }, 'resolved')).toBe('7')
    expect(knownLead({ leadId: '7', resolved: true }, 'firing')).toBeUndefined()
    expect(knownLead({ leadId: '', resolved: false, creating: 'k' }, 'repeat')).toBeUndefined()
    expect(knownLead(undefined, 'firing')).toBeUndefined()
  })

  it('4. a creation recorded before a crash keeps its key; otherwise the event names it', () => {
    expect(creationKey({ leadId: '', resolved: false, creating: 'item-1:lead' }, 'item-2')).toBe('item-1:lead')
    expect(creationKey({ leadId: '7', resolved: true, creating: 'item-1:lead' }, 'item-2')).toBe('item-2:lead')
    expect(creationKey(undefined, 'item-2')).toBe('item-2:lead')
  })

  it("5. an activity's key is the event's", () => {
    expect(activityKey('item-2')).toBe('item-2:activity')
  })
})
