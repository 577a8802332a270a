// The recorders of one worker, shared by CRM (lead-rules.ts rule 1): the targets that point at the
// same CRM write to one lead map through one client, so an SMS target and an incident target make
// one lead per incident. The last user to release a CRM's recorder closes its client.
import { createLeadWebhookClient, type LeadWebhookClient } from '../../messaging'
import { createLeadMap } from './lead-map'
import { crmIdentity } from './lead-rules'
import type { CrmTarget, LeadMap, RecorderConnection } from './types'

export interface SharedCrm {
  client: LeadWebhookClient
  leads: LeadMap
  /** One lead creation at a time per incident: two events of a new incident must not make two leads. */
  locks: Map<string, Promise<unknown>>
  users: number
}

const shared = new Map<string, SharedCrm>()

/** This CRM's shared parts, one more user counted; give it back with `releaseCrm`. */
export function acquireCrm(crm: CrmTarget, connection: RecorderConnection): { id: string; crm: SharedCrm } {
  const id = crmIdentity(crm)
  let entry = shared.get(id)
  if (entry === undefined) {
    entry = {
      client: createLeadWebhookClient({
        leadWebhookUrl: crm.leadWebhook,
        activityWebhookUrl: crm.activityWebhook,
        activityToken: crm.activityToken,
        ...(connection.timeoutMs !== undefined ? { timeoutMs: connection.timeoutMs } : {}),
      }),
      leads: createLeadMap(crm.stateDir),
      locks: new Map(),
      users: 0,
    }
    shared.set(id, entry)
  }
  entry.users++
  return { id, crm: entry }
}

export async function releaseCrm(id: string, entry: SharedCrm): Promise<void> {
  entry.users--
  if (entry.users > 0) return
  shared.delete(id)
  await entry.client.close()
}

/** Runs `task` after every earlier task of the same incident, whatever became of them. */
export async function inTurn(entry: SharedCrm, incident: string, task: () => Promise<void>): Promise<void> {
  const previous = entry.locks.get(incident) ?? Promise.resolve()
  const run = previous.catch(() => {}).then(task)
  entry.locks.set(incident, run)
  try {
    await run
  } finally {
    if (entry.locks.get(incident) === run) entry.locks.delete(incident)
  }
}
