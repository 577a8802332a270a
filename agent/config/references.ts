// References by name (a rule's sources and channels): each must name something declared, and a
// near miss gets a did-you-mean.
import type { CheckContext } from './check-context'
import { suggestion } from './did-you-mean'
import { ConfigErrorCodes } from './errors'
import { listItems } from './written-list'
import type { Segment } from './yaml-source'

/** The names in `value` (one or a list), reporting the ones not in `declared` (undefined: any name goes). */
export function resolveNames(
  value: string | string[] | undefined,
  path: readonly Segment[],
  kind: string,
  declared: readonly string[] | undefined,
  ctx: CheckContext,
): string[] {
  const names: string[] = []
  for (const { value: name, path: at } of listItems(value, path)) {
    if (declared === undefined || declared.includes(name)) names.push(name)
    else ctx.report(ConfigErrorCodes.UNKNOWN_REFERENCE, at, `unknown ${kind} "${name}"${suggestion(name, declared)}`)
  }
  return names
}
