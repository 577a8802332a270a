import { describe, expect, it } from 'vitest'
import { digestOf, type DigestIncidentInput } from '../../../alerts/kinds/digest'
import { digestSubject, localTime } from '../../../alerts/kinds/digest-format'
import { DIGEST_HTML_MAX_BYTES, digestHtml, digestHtmlWithin, hourlyBar } from '../../../alerts/kinds/digest-html'
import { digestShort, digestText } from '../../../alerts/kinds/digest-text'
import type { KindEntry } from '../../../alerts/kinds/types'
import { DIGEST_DAY, HOUR_MS as H, kindEntry } from '../../helpers/digest-fixtures'

const { from: FROM, to: TO, view } = DIGEST_DAY

const kind = (id: string, template: string, extra: Partial<KindEntry> = {}): KindEntry =>
  kindEntry(id, template, { count: 12, hourly: [[Math.floor(FROM / H) * H + 2 * H, 12]], ...extra })

const hostile = kind('x', `<script>alert("x")</script> & <img src=http://evil.example/a.png> 'q'`)
const incident: DigestIncidentInput = {
  key: 'k1',
  rule: 'errors',
  title: 'db <down> & out',
  status: 'acknowledged',
  firstSeen: FROM + H,
  lastSeen: FROM + 3 * H,
  count: 40,
  ack: { by: 'asha <ops>', at: FROM + 2 * H },
}
const digest = digestOf(
  [hostile, kind('y', 'Connection refused to <*>:<*>', { firstSeen: FROM - 48 * H })],
  [incident],
  { from: FROM, to: TO },
)

describe('digest renderings', () => {
  it('HTML escapes every text from the logs: no script, image or markup of theirs survives', () => {
    const html = digestHtml(digest, view)
    expect(html).not.toMatch(/<(script|img|style|link|iframe)\b/i)
    // No tag of the mail has a class (it would need a <style>), a source or a link to fetch.
    expect(html).not.toMatch(/<[^>]*\s(class|src|href)=/i)
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;img')
    expect(html).toContain('Connection refused to &#60;*&#62;:&#60;*&#62;')
    expect(html).toContain('db &#60;down&#62; &#38; out')
    expect(html).toContain('asha &#60;ops&#62; at 2026-12-01 11:00')
  })

  it('HTML has the sections as tables, styles inline only', () => {
    const html = digestHtml(digest, view)
    for (const section of ['summary', 'new', 'top', 'incidents']) expect(html).toContain(`data-section="${section}"`)
    // An empty section says so instead of an empty table.
    expect(html).not.toContain('data-section="regressed"')
    expect(html).toContain('No kind came back after its incident was resolved.')
    expect(html).toContain('2026-12-01 09:00 to 2026-12-02 09:00 (Asia/Kolkata)')
  })

  it('an hourly bar is a cell per bucket, as tall as its share of the busiest', () => {
    const bar = hourlyBar([0, 3, 6], H, FROM, view)
    expect(bar.match(/<td /g)).toHaveLength(3)
    expect([...bar.matchAll(/height:(\d+)px;background/g)].map((m) => Number(m[1]))).toEqual([1, 12, 24])
    expect(bar).toContain('title="3 at 09:30"')
  })

  it('HTML too big for a mail is cut shorter, list by list, and says how many it left out', () => {
    const long = '<&>'.repeat(100)
    const kinds = Array.from({ length: 60 }, (_, i) =>
      kind(`k${i}`, `${long} ${i}`, { hourly: [[Math.floor(FROM / H) * H + (i % 24) * H, i + 1]] }),
    )
    const incidents = Array.from({ length: 40 }, (_, i) => ({ ...incident, key: `i${i}`, title: `${long} ${i}` }))
    const big = digestOf(kinds, incidents, { from: FROM, to: TO })
    expect(new TextEncoder().encode(digestHtml(big, view)).length).toBeGreaterThan(DIGEST_HTML_MAX_BYTES)
    const html = digestHtmlWithin(big, view)
    expect(new TextEncoder().encode(html).length).toBeLessThanOrEqual(DIGEST_HTML_MAX_BYTES)
    expect(html).toMatch(/and \d+ new kinds more/)
    expect(html).toContain('data-section="top"')
    // A digest that fits is left whole.
    expect(digestHtmlWithin(digest, view)).toBe(digestHtml(digest, view))
  })

  it('text: the whole digest, acknowledgements said', () => {
    const text = digestText(digest, view)
    expect(text).toContain('New kinds (1):')
    expect(text).toContain('Top kinds:\n  12x  error  <script>')
    expect(text).toContain('acknowledged by asha <ops> at 2026-12-01 11:00')
  })

  it('short: the counts, then new kinds within the length', () => {
    const short = digestShort(digest, view, 160)
    expect(short.length).toBeLessThanOrEqual(160)
    expect(short).toMatch(/^logx digest to 2026-12-02 09:00: 24 events, 1 new kind, 0 regressed, 1 incident\. New: /)
    expect(digestShort(digest, view, 40)).toHaveLength(40)
  })

  it('subject names what is new first, in the digest zone', () => {
    expect(digestSubject(digest, view)).toBe(
      'logx digest on web-1: 1 new kind, 0 regressed, 24 events, 1 incident (to 2026-12-02 09:00)',
    )
    expect(localTime(Date.UTC(2026, 2, 8, 7, 30), 'America/New_York')).toBe('2026-03-08 03:30')
  })
})
