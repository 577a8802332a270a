import { describe, expect, it } from 'vitest'
import { AlertsError } from '../../alerts/errors'
import { compileTemplate } from '../../alerts/template'

describe('templates', () => {
  it('fills placeholders from vars, then the record by dot path', () => {
    const t = compileTemplate('{{status}}: {{ msg }} [{{err.type}}] x{{count}}', 't')
    expect(
      t.render({ vars: { status: 'FIRING', count: 3 }, record: { msg: 'db down', err: { type: 'DbError' } } }),
    ).toBe('FIRING: db down [DbError] x3')
  })

  it('renders missing values as empty and objects as JSON', () => {
    const t = compileTemplate('[{{nope}}] {{req}}', 't')
    expect(t.render({ vars: {}, record: { req: { url: '/a' } } })).toBe('[] {"url":"/a"}')
  })

  it('never re-expands inserted values and never evaluates', () => {
    const t = compileTemplate('{{msg}}', 't')
    expect(t.render({ vars: { secret: 'S3CRET' }, record: { msg: '{{secret}} ${process.exit()}' } })).toBe(
      '{{secret}} ${process.exit()}',
    )
  })

  it('does not reach prototype properties', () => {
    const t = compileTemplate('{{constructor}}{{msg.length}}', 't')
    expect(t.render({ vars: {}, record: { msg: 'abc' } })).toBe('')
  })

  it.each(['{{msg', '{{}}', '{{ a b }}', '{{a()}}', '{{a[0]}}'])('rejects %s with the path', (source) => {
    expect(() => compileTemplate(source, 'channels[0].template')).toThrow(AlertsError)
    expect(() => compileTemplate(source, 'channels[0].template')).toThrow(/^channels\[0\]\.template: /)
  })
})
