// Shared by the config suites: where fixtures are, and a fixed environment so expectations do not
// depend on the machine running them.
import { join } from 'node:path'

export const repoRoot = join(__dirname, '../../..')
export const fixtures = join(repoRoot, 'test/fixtures/config')

/** Values that must never show up in a message. */
export const SECRET_VALUES = [
  'sk-test-123',
  'sk-file-456',
  'inline-key',
  'tok-789',
  'console-tok-321',
  'console-env-654',
]

export const testEnv: Readonly<Record<string, string>> = {
  LOGX_TEST_KEY: 'sk-test-123',
  LOGX_TEST_FORMAT: 'jsonl',
  LOGX_API_KEY: 'sk-test-123',
  LOGX_CONSOLE_TOKEN: 'console-env-654',
  HOME: '/home/ops',
}

/** Stands in for /run/secrets in the examples. */
export function fakeSecretFile(path: string): string {
  if (path.endsWith('logx-activity-token')) return 'tok-789\n'
  if (path.endsWith('logx-api-key')) return 'sk-file-456\n'
  if (path.endsWith('logx-console-token')) return 'console-tok-321\n'
  if (path.endsWith('redis-logx')) return 'redis-pw-987\n'
  if (path.endsWith('logx-intake-token')) return 'intake-tok-246\n'
  throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
}
