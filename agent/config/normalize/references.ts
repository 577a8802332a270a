// References by name (a rule's sources and channels, the people of a channel or an escalation
// step): each must name something declared, and a near miss gets a did-you-mean.
import type { CheckContext } from '../load/check-context'
import { suggestion } from '../shape/did-you-mean'
import { ConfigErrorCodes } from '../errors'
import { listItems, type Located } from '../shape/written-list'
import type { Segment } from '../load/yaml-source'

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
        `unknown ${kind} "${item.value}"${suggestion(item.value, declared)}`,
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
