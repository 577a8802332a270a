// The console's test-page routes (agent/daemon/console/paths.ts entries, test-page-routes.ts): which
// path is which route, the body's checks naming the field, the answers of a backend with and without
// test pages.
import { describe, expect, it } from 'vitest'
import { matchRoute } from '../../../../agent/daemon/console/paths'
import {
  checkTestPageBody,
  DEFAULT_TEST_TIMEOUT_MS,
  startTestPageReply,
  testPageReply,
} from '../../../../agent/daemon/console/test-page-routes'
import type { TestPageBackend, TestPageView } from '../../../../agent/daemon/console/test-page-types'

describe('test-page routes', () => {
  it('POST /api/test-pages starts one; GET /api/test-pages/:id reads its progress', () => {
    expect(matchRoute('/api/test-pages')).toMatchObject({ ok: true, route: { kind: 'test-pages' }, methods: ['POST'] })
    expect(matchRoute('/api/test-pages/a1b2')).toMatchObject({
      ok: true,
      route: { kind: 'test-page', id: 'a1b2' },
      methods: ['GET', 'HEAD'],
    })
    expect(matchRoute('/api/test-pages/a1b2/ack')).toMatchObject({ ok: false, status: 404 })
  })

  it('the body names its field when it is wrong; the timeout defaults to 5 minutes', () => {
    expect(checkTestPageBody({ target: 'asha' })).toEqual({
      ok: true,
      target: 'asha',
      timeoutMs: DEFAULT_TEST_TIMEOUT_MS,
    })
    expect(checkTestPageBody({ target: 'asha', timeout: '30s' })).toEqual({
      ok: true,
      target: 'asha',
      timeoutMs: 30_000,
    })
    expect(checkTestPageBody({ target: 'asha', timeout: 45_000 })).toMatchObject({ timeoutMs: 45_000 })
    expect(checkTestPageBody([])).toMatchObject({ ok: false, error: expect.stringMatching(/^body:/) })
    expect(checkTestPageBody({})).toMatchObject({ ok: false, error: expect.stringMatching(/^target: required/) })
    expect(checkTestPageBody({ target: 'a\nb' })).toMatchObject({ ok: false, error: expect.stringMatching(/^target:/) })
    expect(checkTestPageBody({ target: 'asha', timeout: '2d' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^timeout:/),
    })
    expect(checkTestPageBody({ target: 'asha', to: 'x' })).toMatchObject({
      ok: false,
      error: 'to: unknown field (allowed: target, timeout)',
    })
  })

  it('answers 202 with the page, the backend refusal with its status, and 404 without test pages', () => {
    const view = { id: 'a1b2', test: true } as TestPageView
    const backend: TestPageBackend = {
      start: ({ target }) =>
        target === 'asha' ? { ok: true, page: view } : { ok: false, status: 404, error: `${target}: no such person` },
      get: (id) => (id === 'a1b2' ? view : undefined),
    }
    expect(startTestPageReply(backend, { target: 'asha' })).toMatchObject({ status: 202, json: { testPage: view } })
    expect(startTestPageReply(backend, { target: 'zed' })).toMatchObject({ status: 404 })
    expect(startTestPageReply(backend, { target: 7 })).toMatchObject({ status: 400 })
    expect(testPageReply(backend, 'a1b2')).toMatchObject({ status: 200, json: { testPage: view } })
    expect(testPageReply(backend, 'ffff')).toMatchObject({ status: 404 })
    expect(startTestPageReply(undefined, { target: 'asha' })).toMatchObject({ status: 404 })
  })
})
