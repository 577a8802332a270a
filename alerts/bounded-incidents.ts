// The incident table's memory: incidents by key in recency order, bounded. Insertion order doubles
// as recency order (a seen incident moves to the end); past `max` the least recently seen is
// dropped, and counted.
import type { IncidentState } from './incident-record'
import type { IncidentStatus } from './notice'

export interface IncidentStats {
  open: number
  /** Firing or acknowledged: notified and not resolved. */
  firing: number
  acknowledged: number
  evicted: number
}

export class BoundedIncidents {
  private readonly byKey = new Map<string, IncidentState>()
  private evicted = 0

  constructor(private readonly max: number) {}

  get size(): number {
    return this.byKey.size
  }

  get(key: string): IncidentState | undefined {
    return this.byKey.get(key)
  }

  has(key: string): boolean {
    return this.byKey.has(key)
  }

  /** Puts `s` last (the most recently seen), then keeps the bound. */
  touch(s: IncidentState): void {
    this.byKey.delete(s.key)
    this.byKey.set(s.key, s)
    this.bound()
  }

  delete(key: string): void {
    this.byKey.delete(key)
  }

  values(): IterableIterator<IncidentState> {
    return this.byKey.values()
  }

  /** The most recently seen first: at most `limit`, of `status` when given. Only those are looked at. */
  newest(limit = Infinity, status?: IncidentStatus): IncidentState[] {
    const states = [...this.byKey.values()]
    const out: IncidentState[] = []
    for (let i = states.length - 1; i >= 0 && out.length < limit; i--) {
      const s = states[i] as IncidentState
      if (status === undefined || s.status === status) out.push(s)
    }
    return out
  }

  count(status?: IncidentStatus): number {
    if (status === undefined) return this.byKey.size
    let n = 0
    for (const s of this.byKey.values()) if (s.status === status) n++
    return n
  }

  stats(): IncidentStats {
    let firing = 0
    let acknowledged = 0
    for (const s of this.byKey.values()) {
      if (s.status !== 'pending') firing++
      if (s.status === 'acknowledged') acknowledged++
    }
    return { open: this.byKey.size, firing, acknowledged, evicted: this.evicted }
  }

  private bound(): void {
    while (this.byKey.size > this.max) {
      this.byKey.delete(this.byKey.keys().next().value as string)
      this.evicted++
    }
  }
}
