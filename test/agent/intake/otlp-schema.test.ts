// The OTLP schema the agent decodes with (agent/intake/otlp/otlp-schema.json) is the published .proto
// files of agent/intake/otlp/proto/ as protobufjs reads them, plus google.rpc.Status (the body of a
// refusal). Committed as JSON so the agent (and its one-file bundle) loads no .proto at run time;
// this test fails when the two drift. `LOGX_WRITE_OTLP_SCHEMA=1` writes it anew after the .proto
// files are updated.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as protobuf from 'protobufjs'
import { describe, expect, it } from 'vitest'

const otlpDir = join(__dirname, '..', '..', '..', 'agent', 'intake', 'otlp')
const protoDir = join(otlpDir, 'proto')
const schemaFile = join(otlpDir, 'otlp-schema.json')

// google.rpc.Status (googleapis, google/rpc/status.proto) without its `details` (the agent sends none).
const STATUS_PROTO = 'syntax = "proto3"; package google.rpc; message Status { int32 code = 1; string message = 2; }'

function schemaFromProtos(): protobuf.INamespace {
  const root = new protobuf.Root()
  root.resolvePath = (_origin, target) => join(protoDir, target)
  root.loadSync('opentelemetry/proto/collector/logs/v1/logs_service.proto', { keepCase: false })
  protobuf.parse(STATUS_PROTO, root, { keepCase: false })
  root.resolveAll()
  return JSON.parse(JSON.stringify(root.toJSON())) as protobuf.INamespace
}

describe('the OTLP schema', () => {
  it('is the .proto files of agent/intake/otlp/proto as protobufjs reads them', () => {
    const fresh = schemaFromProtos()
    if (process.env.LOGX_WRITE_OTLP_SCHEMA === '1') writeFileSync(schemaFile, `${JSON.stringify(fresh, null, 2)}\n`)
    expect(JSON.parse(readFileSync(schemaFile, 'utf8'))).toEqual(fresh)
  })
})
