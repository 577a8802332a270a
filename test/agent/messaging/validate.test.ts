import { describe, expect, it } from 'vitest'
import {
  buildActivities,
  buildChatSend,
  buildLead,
  buildMailSend,
  buildSmsSend,
  buildVoiceBroadcast,
} from '../../../agent/messaging/request-builders'
import {
  validateActivities,
  validateChatSend,
  validateLead,
  validateMailSend,
  validatePagingQuery,
  validateSmsSend,
  validateVoiceBroadcast,
} from '../../../agent/messaging/validate'

const fields = (p: { field: string }[]) => p.map((x) => x.field)

describe('validation names the field', () => {
  it('SMS: non-empty numbers of integers and a text', () => {
    expect(fields(validateSmsSend(buildSmsSend({ numbers: [], text: 'x' })))).toEqual(['numbers'])
    expect(fields(validateSmsSend(buildSmsSend({ numbers: ['12ab'], text: '' })))).toEqual(['numbers[0]', 'sms'])
    expect(validateSmsSend(buildSmsSend({ numbers: ['+1 555 0100'], text: 'ok' }))).toEqual([])
  })

  it('e-mail: addresses, subject, message', () => {
    expect(
      fields(validateMailSend(buildMailSend({ from: 'ops', to: ['a@b.c', 'nope'], subject: '', message: 'm' }))),
    ).toEqual(['from', 'to[1]', 'subject'])
  })

  it('chat: integer template and a prefixed number', () => {
    expect(fields(validateChatSend(buildChatSend({ templateId: 1.5, number: 'abc' })))).toEqual([
      'template_id',
      'number',
    ])
  })

  it('voice: receiver and audio required', () => {
    expect(fields(validateVoiceBroadcast(buildVoiceBroadcast({ receivers: [], audioFiles: [] })))).toEqual([
      'receiver',
      'attachment',
    ])
  })

  it('lead: name required', () => {
    expect(fields(validateLead(buildLead({ name: ' ' })))).toEqual(['name'])
    expect(fields(validateLead({ name: 'x', other_fields: { a: 1 } }))).toEqual(['other_fields.a'])
  })

  it('activities: lead id, integer date, known type', () => {
    const body = buildActivities({
      leadId: 'abc',
      activities: [{ title: 'Paged', date: 1.5, type: 'EMAIL' as never }],
    })
    expect(fields(validateActivities(body))).toEqual([
      'lead_id',
      'activities[0].activity_date',
      'activities[0].activity_type',
    ])
    expect(fields(validateActivities({ lead_id: 1, activities: [] }))).toEqual(['activities'])
  })

  it('paging: positive integers, per_page capped', () => {
    expect(fields(validatePagingQuery({ per_page: '0', limit: 'x', page: '2' }))).toEqual(['per_page', 'limit'])
    expect(fields(validatePagingQuery({ per_page: '101' }))).toEqual(['per_page'])
  })
})

describe('request builders put the spec names on the wire', () => {
  it('maps readable SMS names, including senderi_d', () => {
    expect(
      buildSmsSend({
        numbers: [15550100],
        text: 'disk full',
        senderId: 'LOGX',
        route: 'T',
        templateId: 't1',
        scheduleTime: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      }),
    ).toEqual({
      route: 'T',
      senderi_d: 'LOGX',
      message_format: 'groups',
      message_type: 'Text',
      numbers: [15550100],
      sms: 'disk full',
      template_id: 't1',
      smstype: 'flash',
      schedule_time: '2026-01-02 03:04:05',
    })
  })

  it('encodes voice receivers as JSON pairs and activity dates as Unix seconds', () => {
    expect(buildVoiceBroadcast({ receivers: [{ label: 'ops', number: '+15550100' }], audioFiles: ['a.mp3'] })).toEqual({
      receiver: '[["ops","+15550100"]]',
      attachment: '["a.mp3"]',
      schedule_time: '',
    })
    expect(
      buildActivities({ leadId: '1001', activities: [{ title: 't', date: new Date(5000), type: 'NOTE' }] }),
    ).toEqual({
      lead_id: 1001,
      activities: [{ title: 't', activity_date: 5, activity_type: 'NOTE' }],
    })
  })
})
