// Names that must be unique (sources, rules): the second use is the problem, and it says where the
// first one is.
import type { CheckContext } from '../load/check-context'
import { formatPath } from '../shape/config-path'
import { ConfigErrorCodes } from '../errors'
import type { Segment } from '../load/yaml-source'

export function createNameRegistry(kind: string, ctx: CheckContext): (name: string, path: readonly Segment[]) => void {
  const first = new Map<string, readonly Segment[]>()
  return (name, path) => {
    const earlier = first.get(name)
    if (earlier === undefined) first.set(name, path)
    else
      ctx.report(
        ConfigErrorCodes.DUPLICATE,
        path,
        `duplicate ${kind} name "${name}" (first used at ${formatPath(earlier)})`,
      )
  }
}
