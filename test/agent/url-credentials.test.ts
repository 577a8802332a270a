// A credential written into a URL is found by each rule of agent/url-credentials.ts, and a URL is
// shown without any: the user, the password and a credential parameter's value never print.
import { describe, expect, it } from 'vitest'
import {
  CREDENTIAL_PARAMS,
  displayUrl,
  displayUrlText,
  isCredentialParam,
  urlCredential,
  urlSecretValues,
} from '../../agent/url-credentials'

const found = (text: string): ReturnType<typeof urlCredential> => urlCredential(new URL(text))

describe('urlCredential', () => {
  it('rule 1: a password is a credential', () => {
    expect(found('https://ops:hunter2@api.example.com/')).toEqual({ kind: 'password' })
    expect(found('https://:hunter2@api.example.com/')).toEqual({ kind: 'password' })
  })

  it('rule 2: a user name alone is one too', () => {
    expect(found('https://tok-123@api.example.com/')).toEqual({ kind: 'username' })
  })

  it('rule 3: a query parameter named like a credential, in any case, - as _', () => {
    for (const name of CREDENTIAL_PARAMS) {
      expect(found(`https://api.example.com/v1/?a=1&${name}=v`)).toEqual({ kind: 'query', name })
      expect(found(`https://api.example.com/v1/?${name.toUpperCase()}=v`)).toEqual({
        kind: 'query',
        name: name.toUpperCase(),
      })
    }
    expect(isCredentialParam('Api-Key')).toBe(true)
    expect(isCredentialParam('apiKey')).toBe(true)
    expect(isCredentialParam('access-token')).toBe(true)
    // Names that only contain a credential word are not one.
    for (const name of ['apirequest', 'keyword', 'monkey', 'tokens_left', 'page'])
      expect(isCredentialParam(name), name).toBe(false)
    expect(found('https://api.example.com/v1/?apirequest=send_sms&keyword=x')).toBeUndefined()
    expect(found('https://api.example.com/')).toBeUndefined()
  })

  it('rule 4: the password first, then the user, then the query', () => {
    expect(found('https://u:p@h/?token=t')).toEqual({ kind: 'password' })
    expect(found('https://u@h/?token=t')).toEqual({ kind: 'username' })
    expect(found('https://h/?sig=a&token=t')).toEqual({ kind: 'query', name: 'sig' })
  })
})

describe('displayUrl (rule 5)', () => {
  it('drops the user and the password and masks credential values, keeping the rest', () => {
    const url = new URL('https://ops:hunter2@api.example.com:8443/v1/?apirequest=x&apikey=sk-123&Token=t%2F9#frag')
    const shown = displayUrl(url)
    expect(shown).toBe('https://api.example.com:8443/v1/?apirequest=x&apikey=[redacted]&Token=[redacted]#frag')
    for (const secret of ['ops', 'hunter2', 'sk-123', 't%2F9', 't/9']) expect(shown).not.toContain(secret)
    // The URL itself is not changed.
    expect(url.password).toBe('hunter2')
  })

  it('leaves a URL without credentials as it is', () => {
    expect(displayUrl(new URL('https://api.example.com/v1/?apirequest=send_sms'))).toBe(
      'https://api.example.com/v1/?apirequest=send_sms',
    )
  })

  it('shows a text that is no URL as nothing but that', () => {
    expect(displayUrlText('sk-live-pasted-key')).toBe('(not a URL)')
    expect(displayUrlText('http://u:p@h/')).toBe('http://h/')
  })
})

describe('urlSecretValues', () => {
  it('lists the user, the password and credential values, decoded and as written', () => {
    const values = urlSecretValues(new URL('https://ops:p%40ss@h/?apikey=k%2F1&page=2'))
    expect(values.sort()).toEqual(['k%2F1', 'k/1', 'ops', 'p%40ss', 'p@ss'].sort())
    expect(urlSecretValues(new URL('https://h/?page=2'))).toEqual([])
  })
})
