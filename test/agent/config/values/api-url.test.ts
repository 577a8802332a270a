// messaging.base_url refuses credentials as the Redis URL does: a user, a password or a credential
// query parameter, written or from ${VAR}, is a problem at file:line:col that names api_key and
// never quotes the value; what validate and the banner print of a good URL holds no secret.
import { describe, expect, it } from 'vitest'
import { formatProblem, parseAgentConfig, type ConfigProblem } from '../../../../agent/config'
import { checkApiBaseUrl, showApiUrl } from '../../../../agent/config/values/api-url'
import { createSecret } from '../../../../agent/config/values/secret'

const KEY = 'sk-live-api-url-test-4411'
const PLANTED = 'planted-secret-9c1e'

function configWith(baseUrl: string): string {
  return [
    'messaging:',
    `  base_url: ${baseUrl}`,
    '  api_key: ${KEY}',
    'sources:',
    '  - name: app',
    '    paths: ./logs/*.log',
    'channels:',
    '  sms: { type: sms, numbers: [919800000001] }',
    'rules:',
    '  - name: r',
    '',
  ].join('\n')
}

function problemsOf(baseUrl: string, env: Record<string, string> = {}): string[] {
  const result = parseAgentConfig(configWith(baseUrl), 'agent.yaml', { env: { KEY, ...env }, cwd: '/tmp' })
  return result.ok ? [] : result.problems.map((p: ConfigProblem) => formatProblem(p))
}

describe('checkApiBaseUrl', () => {
  it('takes an http(s) URL without credentials', () => {
    expect(checkApiBaseUrl('https://api.example.com/v1/')).toBeUndefined()
    expect(checkApiBaseUrl('http://127.0.0.1:4010/?apirequest=x')).toBeUndefined()
  })

  it('refuses a URL that is none, or not http(s), without quoting it', () => {
    expect(checkApiBaseUrl(`no url ${PLANTED}`)).toBe('expected an http(s) URL like https://api.example.com/')
    expect(checkApiBaseUrl(`ftp://${PLANTED}@h/`)).toBe('expected an http(s) URL, not ftp://')
  })

  it('refuses a password, a user or a credential parameter, naming api_key', () => {
    for (const [url, what] of [
      [`https://ops:${PLANTED}@h/`, 'a password'],
      [`https://${PLANTED}@h/`, 'a user name'],
      [`https://h/v1/?apirequest=x&Api_Key=${PLANTED}`, 'the credential query parameter "Api_Key"'],
      [`https://h/?sig=${PLANTED}`, 'the credential query parameter "sig"'],
    ] as const) {
      const message = checkApiBaseUrl(url) ?? ''
      expect(message).toContain(`must not hold ${what}`)
      expect(message).toContain('messaging.api_key (or messaging.api_key_file)')
      expect(message).not.toContain(PLANTED)
    }
  })
})

describe('messaging.base_url at config load', () => {
  it('a written URL with credentials: refused at its line and column, the value never echoed', () => {
    const problems = problemsOf(`https://ops:${PLANTED}@api.example.com/?apikey=${PLANTED}`)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^agent\.yaml:2:13 messaging\.base_url: must not hold a password .*api_key_file/)
    expect(problems.join('\n')).not.toContain(PLANTED)
  })

  it('from ${BASE}: refused the same way, neither the value nor the secret in it echoed', () => {
    const problems = problemsOf('${BASE}', { BASE: `https://api.example.com/v1/?token=${PLANTED}` })
    expect(problems).toEqual([
      'agent.yaml:2:13 messaging.base_url: must not hold the credential query parameter "token" (whoever reads the ' +
        "config or the agent's output would have it): the messaging API takes its key from messaging.api_key " +
        '(or messaging.api_key_file), sent in a header',
    ])
  })

  it('a URL without credentials loads', () => {
    expect(problemsOf('https://api.example.com/v1/?apirequest=x')).toEqual([])
  })

  it('the Redis URL refuses a credential parameter too (ioredis reads options from the query)', () => {
    const text = `${configWith('https://api.example.com/')}cluster:\n  redis:\n    url: redis://h:6379/0?password=${PLANTED}\n`
    const result = parseAgentConfig(text, 'agent.yaml', { env: { KEY }, cwd: '/tmp' })
    const problems = result.ok ? [] : result.problems.map(formatProblem)
    expect(problems).toEqual([
      'agent.yaml:13:10 cluster.redis.url: must not hold a password= parameter (whoever reads the config would have ' +
        'it): put the password in a file and name it in cluster.redis.password_file',
    ])
  })
})

describe('showApiUrl', () => {
  it('prints the URL without credentials and with every configured secret masked', () => {
    const secrets = [createSecret(KEY), createSecret('ab')]
    expect(showApiUrl(`https://u:p@api.example.com/${KEY}/?apikey=x&page=ab`, secrets)).toBe(
      'https://api.example.com/[redacted]/?apikey=[redacted]&page=ab',
    )
    expect(showApiUrl(`not a url ${KEY}`, secrets)).toBe('(not a URL)')
  })
})
