// Whose log file a path is, by the kubelet's and Docker's naming schemes.
import { describe, expect, it } from 'vitest'
import { containerPathFields, parseContainerPath } from '../../../agent/events/kubernetes-path'

const ID = '3c9b7f2e1a0d4c5b6a798877665544332211ffeeddccbbaa0099887766554433'
const UID = '4f1c1a2e-58b6-4c1b-9a57-0f8d6f0e3c11'

describe('/var/log/containers/<pod>_<namespace>_<container>-<id>.log', () => {
  it('gives namespace, pod, container and container id', () => {
    expect(parseContainerPath(`/var/log/containers/api-7d9f8b6c5d-x2x9k_payments_api-${ID}.log`)).toEqual({
      kind: 'kubernetes',
      kubernetes: { namespace: 'payments', pod: 'api-7d9f8b6c5d-x2x9k', container: 'api', container_id: ID },
    })
  })

  it("keeps '.' and '-' in pod names, and '-' in container names", () => {
    expect(parseContainerPath(`/var/log/containers/web.v2-0_shop-eu_nginx-exporter-${ID}.log`)).toEqual({
      kind: 'kubernetes',
      kubernetes: { namespace: 'shop-eu', pod: 'web.v2-0', container: 'nginx-exporter', container_id: ID },
    })
  })

  it('is recognised under another root (a node mounted at /host)', () => {
    expect(containerPathFields(`/host/var/log/containers/db-0_data_postgres-${ID}.log`)).toEqual({
      kubernetes: { namespace: 'data', pod: 'db-0', container: 'postgres', container_id: ID },
    })
  })

  it('needs a 64-hex id and exactly three parts', () => {
    expect(parseContainerPath('/var/log/containers/api_payments_api-abc123.log')).toBeUndefined()
    expect(parseContainerPath(`/var/log/containers/api_payments_api-${ID.toUpperCase()}.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/containers/api_payments-${ID}.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/containers/a_b_c_d-${ID}.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/containers/sub/api_payments_api-${ID}.log`)).toBeUndefined()
  })
})

describe('/var/log/pods/<namespace>_<pod>_<uid>/<container>/<n>.log', () => {
  it('gives namespace, pod, pod uid and container', () => {
    expect(parseContainerPath(`/var/log/pods/payments_api-7d9f8b6c5d-x2x9k_${UID}/api/0.log`)).toEqual({
      kind: 'kubernetes',
      kubernetes: { namespace: 'payments', pod: 'api-7d9f8b6c5d-x2x9k', pod_uid: UID, container: 'api' },
    })
  })

  it('reads restarts and the rotated names the kubelet leaves', () => {
    for (const name of ['3.log', '0.log.20240501-100000', '0.log.20240501-100000.gz']) {
      expect(
        parseContainerPath(`/var/log/pods/kube-system_coredns-5d78c9869d-abcde_${UID}/coredns/${name}`),
      ).toMatchObject({
        kubernetes: { namespace: 'kube-system', pod: 'coredns-5d78c9869d-abcde', container: 'coredns' },
      })
    }
  })

  it("takes a static pod's hash for a uid and dotted pod names", () => {
    expect(
      parseContainerPath(
        '/var/log/pods/kube-system_etcd-node-1.example.com_0123456789abcdef0123456789abcdef/etcd/0.log',
      ),
    ).toMatchObject({
      kubernetes: {
        namespace: 'kube-system',
        pod: 'etcd-node-1.example.com',
        pod_uid: '0123456789abcdef0123456789abcdef',
        container: 'etcd',
      },
    })
  })

  it('is recognised under a temporary root', () => {
    expect(containerPathFields(`/tmp/logx-x1/var/log/pods/ns_pod-0_${UID}/app/0.log`)).toEqual({
      kubernetes: { namespace: 'ns', pod: 'pod-0', pod_uid: UID, container: 'app' },
    })
  })

  it('needs the whole layout', () => {
    expect(parseContainerPath(`/var/log/pods/payments_api_${UID}/0.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/pods/payments_api/api/0.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/pods/payments_api_${UID}/api/app.log`)).toBeUndefined()
    expect(parseContainerPath(`/var/log/pods/payments_api_${UID}/api/sub/0.log`)).toBeUndefined()
  })
})

describe('/var/lib/docker/containers/<id>/<id>-json.log', () => {
  it('gives the container id, rotated files too', () => {
    expect(parseContainerPath(`/var/lib/docker/containers/${ID}/${ID}-json.log`)).toEqual({
      kind: 'docker',
      container_id: ID,
    })
    expect(containerPathFields(`/var/lib/docker/containers/${ID}/${ID}-json.log.2`)).toEqual({ container_id: ID })
  })

  it('needs the same id in the directory and the name', () => {
    const other = ID.replace(/^3/, '4')
    expect(parseContainerPath(`/var/lib/docker/containers/${ID}/${other}-json.log`)).toBeUndefined()
  })
})

describe('any other path', () => {
  it('gives no fields', () => {
    for (const path of ['/var/log/app/api.log', '/var/log/containers', 'relative/0.log', ''])
      expect(containerPathFields(path)).toEqual({})
    expect(containerPathFields(undefined)).toEqual({})
  })
})
