#!/usr/bin/env node
// The agent's command line as one file (dist/agent/logx-agent.bundle.js), which bin/logx-agent.js
// loads through a V8 code cache (agent/cli/code-cache.ts). Node spends most of a cold start finding,
// reading and compiling a few hundred modules; one file compiled from a cache starts in a fraction of
// that. Run after tsc (`npm run build`): it bundles the JavaScript tsc wrote.
'use strict'
const { buildSync } = require('esbuild')
const { rmSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')
const outfile = join(root, 'dist', 'agent', 'logx-agent.bundle.js')

buildSync({
  entryPoints: [join(root, 'dist', 'agent', 'cli', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Error classes are named in logs and in `err.type`: bundling must not rename them.
  keepNames: true,
  // OpenTelemetry is an optional peer the app provides: resolved from node_modules at run time. The
  // bundle runs as a vm.Script, where Node 20 loses the dynamic import() callback once a code cache
  // is used, so import() becomes require() (the commands' lazy modules are inside the bundle).
  external: ['@opentelemetry/api', '@redis/client', 'protobufjs'],
  supported: { 'dynamic-import': false },
  logLevel: 'error',
  legalComments: 'none',
  // A third less to read, hash and keep as the Script's source (about 1 MB of the agent's heap less);
  // names stay (keepNames, no identifier minifying). The map beside it serves --enable-source-maps.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  // The file is the function Node's loader would wrap it in, so the loader (agent/cli/code-cache.ts)
  // compiles its text as read: wrapping it there made a second 1 MB string, garbage that stayed in
  // the large-object space (and the agent's peak RSS) until a full collection. The map counts these.
  banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
  footer: { js: '})' },
})
// Caches made for an earlier bundle would be rejected by V8 anyway; they go with it.
rmSync(join(root, 'dist', 'agent', 'code-cache'), { recursive: true, force: true })
