// One test per rule of agent/cli/init/detect-machine.ts, on facts written by hand.
import { describe, expect, it } from 'vitest'
import { compileGlob } from '../../../../agent/tail/glob'
import {
  candidatePlaces,
  detectSources,
  MAX_PM2_APPS,
  pm2LogDir,
  type MachineFacts,
  type MachineRoots,
} from '../../../../agent/cli/init/detect-machine'

const roots: MachineRoots = {
  home: '/home/asha',
  cwd: '/srv/app',
  dockerContainers: '/var/lib/docker/containers',
  kubeContainers: '/var/log/containers',
  kubePods: '/var/log/pods',
}

function facts(listings: Record<string, string[]>, hasJournalctl = false): MachineFacts {
  return { listings: new Map(Object.entries(listings)), hasJournalctl }
}

const names = (found: { name: string }[]) => found.map((s) => s.name)

describe('detectSources', () => {
  it('rule 1: pm2 logs are under $PM2_HOME when set, else ~/.pm2; the probe lists that one', () => {
    expect(pm2LogDir({}, roots)).toBe('/home/asha/.pm2/logs')
    expect(pm2LogDir({ PM2_HOME: '/opt/pm2' }, roots)).toBe('/opt/pm2/logs')
    expect(pm2LogDir({ PM2_HOME: '' }, roots)).toBe('/home/asha/.pm2/logs')
    expect(candidatePlaces({ PM2_HOME: '/opt/pm2' }, roots)).toContain('/opt/pm2/logs')
  })

  it("rule 2: one source per pm2 app, over its out and error files and its instances', and no other app's", () => {
    const entries = ['api-out.log', 'api-error.log', 'api-out-1.log', 'api-out__2026-01-01_00-00-00.log']
    entries.push('api-v2-out.log', 'worker-error.log', 'pm2.log')
    const found = detectSources({}, roots, facts({ '/home/asha/.pm2/logs': entries }))
    expect(names(found)).toEqual(['pm2-api', 'pm2-api-v2', 'pm2-worker'])
    const api = found[0]!
    expect(api.kind).toBe('pm2')
    const globs = api.paths.map((p) => compileGlob(p))
    const reads = (file: string) => globs.some((g) => g.matches(`/home/asha/.pm2/logs/${file}`))
    expect(['api-out.log', 'api-error.log', 'api-out-1.log', 'api-error-12.log'].every(reads)).toBe(true)
    expect(['api-v2-out.log', 'api-out__2026-01-01_00-00-00.log', 'api-outbound-out.log'].some(reads)).toBe(false)
  })

  it('rule 2: past MAX_PM2_APPS apps, or an app name that is no config name, one source over the directory', () => {
    const many = Array.from({ length: MAX_PM2_APPS + 1 }, (_, i) => `app${i}-out.log`)
    expect(names(detectSources({}, roots, facts({ '/home/asha/.pm2/logs': many })))).toEqual(['pm2'])
    const odd = detectSources({}, roots, facts({ '/home/asha/.pm2/logs': ['my app-out.log'] }))
    expect(odd.map((s) => [s.name, s.paths])).toEqual([['pm2', ['/home/asha/.pm2/logs/*.log']]])
  })

  it("rule 3: pm2's directory without app logs is one pm2 source, pm2-logrotate's copies excluded", () => {
    const [pm2] = detectSources({}, roots, facts({ '/home/asha/.pm2/logs': [] }))
    expect(pm2).toMatchObject({ name: 'pm2', paths: ['/home/asha/.pm2/logs/*.log'], exclude: ['*__*'] })
  })

  it('rule 4: ./logs in the working directory is the app source', () => {
    const found = detectSources({}, roots, facts({ '/srv/app/logs': ['app.log'] }))
    expect(found).toEqual([expect.objectContaining({ name: 'app', kind: 'logs', paths: ['./logs/*.log'] })])
    expect(found[0]!.reason).not.toMatch(/nothing else/)
  })

  it("rule 5: Docker's containers directory is a docker source over the json-file logs", () => {
    const [docker] = detectSources({}, roots, facts({ '/var/lib/docker/containers': ['abc'] }))
    expect(docker).toMatchObject({
      name: 'docker',
      format: 'docker',
      paths: ['/var/lib/docker/containers/*/*-json.log'],
    })
  })

  it('rule 6: /var/log/containers wins over /var/log/pods (its files link there); pods alone are read there', () => {
    const both = detectSources({}, roots, facts({ '/var/log/containers': [], '/var/log/pods': [] }))
    expect(both).toEqual([expect.objectContaining({ name: 'kubernetes', paths: ['/var/log/containers/*.log'] })])
    expect(both[0]!.format).toBe('cri')
    const pods = detectSources({}, roots, facts({ '/var/log/pods': [] }))
    expect(pods[0]).toMatchObject({ paths: ['/var/log/pods/*/*/*.log*'], exclude: ['*.gz'], format: 'cri' })
  })

  it('rule 7: journalctl on the PATH adds a journald source', () => {
    const found = detectSources({}, roots, facts({ '/srv/app/logs': [] }, true))
    expect(found.map((s) => [s.name, s.kind])).toEqual([
      ['app', 'logs'],
      ['journal', 'journald'],
    ])
  })

  it('rule 8: with no file source found, ./logs anyway, said to be a guess', () => {
    const found = detectSources({}, roots, facts({}, true))
    expect(names(found)).toEqual(['app', 'journal'])
    expect(found[0]!.reason).toMatch(/nothing else found/)
  })
})
