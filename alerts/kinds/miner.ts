// The template miner (placeholder until the grouping lands in the next commit): one kind per
// distinct message, so the contract compiles for the other parts.
import type { KindMiner, KindMinerOptions, KindRef } from './types'
import type { AlertLine } from '../line'

export function createKindMiner(options: KindMinerOptions): KindMiner {
  const known = new Map<string, string>()
  let mined = 0
  return {
    mine(line: AlertLine): KindRef {
      mined++
      const template = line.msg
      const id = known.get(template)
      if (id !== undefined) return { id, template, created: false }
      const fresh = known.size.toString(16).padStart(16, '0')
      if (known.size < options.max) known.set(template, fresh)
      return { id: fresh, template, created: true }
    },
    seed() {},
    resolve: () => undefined,
    stats: () => ({ kinds: known.size, evicted: 0, mined }),
  }
}
