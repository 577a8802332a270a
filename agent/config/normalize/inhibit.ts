// inhibit: rules by which a firing incident mutes the notices of others (a database down mutes the
// API errors it causes). Matchers are a silence's, compiled the same way; `equal` paths were
// checked by the shape.
import { toFieldMatches } from '../values/field-match'
import type { InhibitRule } from '../types'
import { listItems } from '../shape/written-list'
import type { InhibitInput } from '../shape/written-types'

export function normalizeInhibit(written: InhibitInput[] | undefined): InhibitRule[] {
  return listItems(written, ['inhibit']).map(({ value }) => ({
    source: toFieldMatches(value.source),
    target: toFieldMatches(value.target),
    equal: listItems(value.equal, []).map(({ value: path }) => path),
  }))
}
