// fingerprint -> lead, so one incident stays one lead across restarts. Kept in memory and, with a
// state directory, in `incident-leads.json`, rewritten through a temp file and rename on every
// change. A resolved incident keeps its entry, marked, because other targets may still record its
// resolve; only the next *firing* of that fingerprint opens a new lead. Bounded: past `max`
// entries the least recently used is forgotten.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { replaceFile } from '../../storage/replace-file'
import { readStateFile } from '../../storage/state-file'
import type { LeadEntry, LeadMap } from './types'

export type { LeadEntry, LeadMap, SharedLeadAnswer, SharedLeads } from './types'

interface LeadFile {
  version: 2
  leads: Record<string, LeadEntry>
}

function isEntry(value: unknown): value is LeadEntry {
  const e = value as Partial<LeadEntry> | null
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.leadId === 'string' &&
    typeof e.resolved === 'boolean' &&
    (e.creating === undefined || typeof e.creating === 'string')
  )
}

export function createLeadMap(stateDir: string | undefined, max = 10_000): LeadMap {
  const leads = new Map<string, LeadEntry>()
  const file = stateDir === undefined ? undefined : join(stateDir, 'incident-leads.json')
  if (stateDir !== undefined && file !== undefined) {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 })
    // A damaged map is kept aside and said (storage's state-file.ts); the entries that were whole are
    // kept. One lost costs at most a second lead for an open incident, not an alert.
    const loaded = readStateFile(file, {
      name: 'lead-map',
      accept: (value) => {
        const parsed = value as Partial<LeadFile> | null
        if (parsed?.version !== 2 || typeof parsed.leads !== 'object' || parsed.leads === null) return undefined
        return Object.entries(parsed.leads).filter((entry): entry is [string, LeadEntry] => isEntry(entry[1]))
      },
      count: (entries) => entries.length,
      format: (entries) => JSON.stringify({ version: 2, leads: Object.fromEntries(entries) } satisfies LeadFile),
    })
    for (const [key, entry] of loaded ?? []) leads.set(key, entry)
  }

  function save(): void {
    if (file === undefined) return
    const body: LeadFile = { version: 2, leads: Object.fromEntries(leads) }
    replaceFile(file, JSON.stringify(body))
  }

  return {
    get: (key) => leads.get(key),
    creating(key, idempotencyKey) {
      leads.delete(key)
      leads.set(key, { leadId: '', resolved: false, creating: idempotencyKey })
      while (leads.size > max) leads.delete(leads.keys().next().value as string)
      save()
    },
    set(key, leadId) {
      leads.delete(key)
      leads.set(key, { leadId, resolved: false })
      while (leads.size > max) leads.delete(leads.keys().next().value as string)
      save()
    },
    markResolved(key) {
      const entry = leads.get(key)
      if (entry === undefined || entry.resolved) return
      entry.resolved = true
      save()
    },
    get size() {
      return leads.size
    },
  }
}
