#!/usr/bin/env node
'use strict'
// Rules and silences hold regular expressions that run on log lines anyone may write: one that
// backtracks exponentially (`^(a+)+$`) would stop the agent on a single line. With this flag V8 runs
// a match that backtracks too much again on its linear-time engine. It applies to patterns compiled
// after it is set, so it comes first; checks at load refuse the worst patterns with a clear message
// (agent/config/values/user-pattern.ts), and this bounds what they miss.
require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks')
require('../dist/agent/cli/code-cache.js').main(process.argv.slice(2))
