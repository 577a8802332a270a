// References by name (a rule's sources and channels, the people of a channel or an escalation
// step): each must name something declared, and a near miss gets a did-you-mean.
import type { CheckContext } from '../load/check-context'
import { suggestion } from '../shape/did-you-mean'
import { ConfigErrorCodes } from '../errors'
import { listItems, type Located } from '../shape/written-list'
import type { Segment } from '../load/yaml-source'

/** Names a refusal lists at most: a config with hundreds of sources gets the first ones and a count. */
const MAX_LISTED = 10

/** A near miss's ` (did you mean "x"?)`; else the names that are declared, so the reader need not look them up. */
function hint(name: string, declared: readonly string[]): string {
  const near = suggestion(name, declared)
  if (near !== '') return near
  if (declared.length === 0) return ' (none is declared)'
  const more = declared.length > MAX_LISTED ? `, ... (${declared.length} in all)` : ''
  return ` (known: ${declared.slice(0, MAX_LISTED).join(', ')}${more})`
}

/**
 * The names in `value` (one or a list) with their paths. The ones not in `declared` are reported
 * (undefined: any name goes).
 */
export function resolveLocated(
  value: string | string[] | undefined,
  path: readonly Segment[],
  kind: string,
  declared: readonly string[] | undefined,
  ctx: CheckContext,
): Located<string>[] {
  const names: Located<string>[] = []
  for (const item of listItems(value, path)) {
    if (declared === undefined || declared.includes(item.value)) names.push(item)
    else
      ctx.report(
        ConfigErrorCodes.UNKNOWN_REFERENCE,
        item.path,
        `unknown ${kind} "${item.value}"${hint(item.value, declared)}`,
      )
  }
  return names
}

/** The names in `value` (one or a list), reporting the ones not in `declared` (undefined: any name goes). */
export function resolveNames(
  value: string | string[] | undefined,
  path: readonly Segment[],
  kind: string,
  declared: readonly string[] | undefined,
  ctx: CheckContext,
): string[] {
  return resolveLocated(value, path, kind, declared, ctx).map(({ value: name }) => name)
}
