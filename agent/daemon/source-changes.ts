// What a reload does to the running sources (pure): which readers stop, which start, and what a
// start falls back to. The readers apply it (source-readers.ts).
//
// Rules:
// 1. A running source whose config is the same as in the previous config keeps reading.
// 2. Every other running source stops: it was removed, changed, or not in the previous config.
// 3. The stops come before the starts: a changed source's new reader resumes from the checkpoint
//    the old one wrote when it stopped.
// 4. Every source of the new config that is not kept starts, in the new config's order.
// 5. A start carries the source's previous config, if it had one: when the new one cannot start,
//    the old one is started again as it was. A source that is new has nothing to fall back to.
// 6. A network source whose token or TLS key changed is changed too (a config's JSON hides secrets).
import type { SourceConfig } from '../config/types'

export interface SourceStart {
  source: SourceConfig
  /** What ran before under this name, started again if `source` cannot start. */
  previous: SourceConfig | undefined
}

export interface SourceChanges {
  /** Running sources that stop, by name; `removed` when the new config has no source of that name. */
  stop: { name: string; removed: boolean }[]
  start: SourceStart[]
}

const secretsOf = (source: SourceConfig | undefined): string =>
  JSON.stringify([source?.intake?.token?.reveal(), source?.intake?.tls?.key.reveal()])

const same = (a: SourceConfig | undefined, b: SourceConfig | undefined): boolean =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b) && secretsOf(a) === secretsOf(b)

export function planSourceChanges(
  running: readonly string[],
  previous: readonly SourceConfig[],
  next: readonly SourceConfig[],
): SourceChanges {
  const before = new Map(previous.map((source) => [source.name, source]))
  const wanted = new Map(next.map((source) => [source.name, source]))
  const kept = new Set(running.filter((name) => same(wanted.get(name), before.get(name))))
  return {
    stop: running.filter((name) => !kept.has(name)).map((name) => ({ name, removed: !wanted.has(name) })),
    start: next
      .filter((source) => !kept.has(source.name))
      .map((source) => ({ source, previous: before.get(source.name) })),
  }
}
