// Which requests the sandbox answers at all (agent/sandbox/request-guard.ts): one test per rule.
import type { IncomingHttpHeaders } from 'node:http'
import { describe, expect, it } from 'vitest'
import { guardRequest } from '../../../agent/sandbox/request-guard'

const PORT = 4010
const CAP = 1000
const own = { host: `127.0.0.1:${PORT}` }
const verdict = (headers: IncomingHttpHeaders, loopback = true) => guardRequest({ headers, port: PORT }, loopback, CAP)
const jsonBody = { 'content-type': 'application/json', 'content-length': '10' }

describe('the sandbox request guard', () => {
  it('1: on loopback, only a loopback Host with the port it came in on', () => {
    expect(verdict(own)).toEqual({ ok: true })
    expect(verdict({ host: `localhost:${PORT}` })).toEqual({ ok: true })
    for (const host of [`evil.example:${PORT}`, '127.0.0.1:80', undefined, `127.0.0.1.nip.io:${PORT}`]) {
      expect(verdict({ host }), String(host)).toMatchObject({ ok: false, status: 403, field: 'host' })
    }
    // Off loopback (allowed by allowRemote) any name reaches it: the machine's names are not known here.
    expect(verdict({ host: `sandbox.lan:${PORT}` }, false)).toEqual({ ok: true })
  })

  it("2: an Origin header must be the sandbox's own, whatever the method", () => {
    expect(verdict({ ...own, origin: `http://127.0.0.1:${PORT}` })).toEqual({ ok: true })
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
      expect(verdict({ ...own, origin }), origin).toMatchObject({ ok: false, status: 403, field: 'origin' })
    }
    expect(verdict({ host: 'sandbox.lan:4010', origin: 'http://sandbox.lan:4010' }, false)).toEqual({ ok: true })
  })

  it('3: a body must be labelled application/json; no body needs no label', () => {
    expect(verdict({ ...own, ...jsonBody })).toEqual({ ok: true })
    expect(verdict({ ...own, ...jsonBody, 'content-type': 'Application/JSON; charset=utf-8' })).toEqual({ ok: true })
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; b=x', undefined]) {
      const headers = { ...own, 'content-length': '10', 'content-type': type }
      expect(verdict(headers), String(type)).toMatchObject({ ok: false, status: 415, field: 'content-type' })
    }
    const chunked = { ...own, 'transfer-encoding': 'chunked', 'content-type': 'text/plain' }
    expect(verdict(chunked)).toMatchObject({ status: 415 })
    expect(verdict({ ...own, 'content-type': 'text/plain' })).toEqual({ ok: true })
    expect(verdict({ ...own, 'content-type': 'text/plain', 'content-length': '0' })).toEqual({ ok: true })
    expect(verdict({ ...own, 'content-type': 'application/jsonp', 'content-length': '3' })).toMatchObject({
      status: 415,
    })
  })

  it('4: a declared length over the cap is refused unread', () => {
    expect(verdict({ ...own, ...jsonBody, 'content-length': String(CAP) })).toEqual({ ok: true })
    expect(verdict({ ...own, ...jsonBody, 'content-length': String(CAP + 1) })).toMatchObject({
      ok: false,
      status: 413,
      field: '(body)',
    })
  })
})
