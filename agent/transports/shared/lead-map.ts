// fingerprint -> lead_id, so one incident stays one lead across restarts. Kept in memory and, with a
// state directory, in `incident-leads.json`, rewritten through a temp file and rename on every
// change. Bounded: past `max` entries the oldest is forgotten.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface LeadMap {
  get(key: string): string | undefined
  set(key: string, leadId: string): void
  delete(key: string): void
  readonly size: number
}

interface LeadFile {
  version: 1
  leads: Record<string, string>
}

export function createLeadMap(stateDir: string | undefined, max = 10_000): LeadMap {
  const leads = new Map<string, string>()
  const file = stateDir === undefined ? undefined : join(stateDir, 'incident-leads.json')
  if (stateDir !== undefined && file !== undefined) {
    mkdirSync(stateDir, { recursive: true })
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LeadFile>
      if (parsed.version === 1 && typeof parsed.leads === 'object' && parsed.leads !== null) {
        for (const [key, id] of Object.entries(parsed.leads)) if (typeof id === 'string') leads.set(key, id)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err
    }
  }

  function save(): void {
    if (file === undefined) return
    const body: LeadFile = { version: 1, leads: Object.fromEntries(leads) }
    const tmp = `${file}.tmp`
    writeFileSync(tmp, JSON.stringify(body))
    renameSync(tmp, file)
  }

  return {
    get: (key) => leads.get(key),
    set(key, leadId) {
      leads.delete(key)
      leads.set(key, leadId)
      while (leads.size > max) leads.delete(leads.keys().next().value as string)
      save()
    },
    delete(key) {
      if (leads.delete(key)) save()
    },
    get size() {
      return leads.size
    },
  }
}
