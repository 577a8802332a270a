// source-changes.ts rule 6: a network source whose token changed is changed (its JSON hides the token).
import { describe, expect, it } from 'vitest'
import type { SourceConfig } from '../../../agent/config/types'
import { createSecret } from '../../../agent/config/values/secret'
import { planSourceChanges } from '../../../agent/daemon/source-changes'

function intake(token: string): SourceConfig {
  return {
    name: 'api',
    type: 'http',
    intake: {
      listen: { host: '127.0.0.1', port: 8080 },
      token: createSecret(token),
      tls: undefined,
      maxBodyBytes: 1024,
      rateLimit: { requests: 10, perMs: 1000 },
      paths: ['/ingest/api'],
    },
    paths: [],
    journald: undefined,
    exclude: [],
    followSymlinks: 'inside',
    format: 'auto',
    multiline: undefined,
    startAt: 'end',
    maxLineBytes: 1024,
    syncReads: true,
  }
}

describe('reload of a network source', () => {
  it('rule 6: a changed token restarts the source; the same token keeps it', () => {
    expect(planSourceChanges(['api'], [intake('old-token')], [intake('old-token')]).stop).toEqual([])
    const changed = planSourceChanges(['api'], [intake('old-token')], [intake('new-token')])
    expect(changed.stop).toEqual([{ name: 'api', removed: false }])
    expect(changed.start.map((s) => s.source.intake?.token?.reveal())).toEqual(['new-token'])
  })
})
