// inhibit: rules by which a firing incident mutes the notices of others (a database down mutes the
// API errors it causes). Matchers are a silence's, compiled the same way; `equal` paths were
// checked by the shape.
import { toFieldMatches } from './field-match'
import type { InhibitRule } from './types'
import { listItems } from './written-list'
import type { InhibitInput } from './written-types'

export function normalizeInhibit(written: InhibitInput[] | undefined): InhibitRule[] {
  return listItems(written, ['inhibit']).map(({ value }) => ({
    source: toFieldMatches(value.source),
    target: toFieldMatches(value.target),
    equal: listItems(value.equal, []).map(({ value: path }) => path),
  }))
}
