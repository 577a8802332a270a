// Where a container log file lives says whose it is. The kubelet and Docker name their files by a
// fixed scheme, so the pod, namespace and container come from the path alone, with no API call:
//   /var/log/containers/<pod>_<namespace>_<container>-<container id>.log   (symlinks the kubelet keeps)
//   /var/log/pods/<namespace>_<pod>_<pod uid>/<container>/<restart>.log    (and .log.<time> once rotated)
//   /var/lib/docker/containers/<id>/<id>-json.log                          (and .log.<n> once rotated)
// Only the tail of the path is read, so the same trees under another root (a node's filesystem
// mounted at /host in a DaemonSet, a test's temporary directory) are recognised too.
//
// Kubernetes names cannot hold '_' (pods are DNS subdomains, namespaces and containers DNS
// labels), which is what makes '_' a safe separator; pod names may hold '.' and '-'.

export interface KubernetesFields {
  namespace: string
  pod: string
  /** Under /var/log/pods/ only. */
  pod_uid?: string
  container: string
  /** Under /var/log/containers/ only. */
  container_id?: string
}

export type ContainerPath =
  { kind: 'kubernetes'; kubernetes: KubernetesFields } | { kind: 'docker'; container_id: string }

const CONTAINERS_FILE = /\/var\/log\/containers\/([^/_]+)_([^/_]+)_([^/_]+)-([0-9a-f]{64})\.log$/
const PODS_FILE = /\/var\/log\/pods\/([^/_]+)_([^/_]+)_([^/_]+)\/([^/_]+)\/\d+\.log(?:\.[^/]+)?$/
const DOCKER_FILE = /\/var\/lib\/docker\/containers\/([0-9a-f]{64})\/([0-9a-f]{64})-json\.log(?:\.\d+)?$/

/** Whose file `path` is, by the kubelet's or Docker's naming; undefined for any other path. */
export function parseContainerPath(path: string): ContainerPath | undefined {
  let m = PODS_FILE.exec(path)
  if (m !== null) {
    const [, namespace, pod, uid, container] = m as unknown as [string, string, string, string, string]
    return { kind: 'kubernetes', kubernetes: { namespace, pod, pod_uid: uid, container } }
  }
  m = CONTAINERS_FILE.exec(path)
  if (m !== null) {
    const [, pod, namespace, container, id] = m as unknown as [string, string, string, string, string]
    return { kind: 'kubernetes', kubernetes: { namespace, pod, container, container_id: id } }
  }
  m = DOCKER_FILE.exec(path)
  // The directory and the file name carry the same id; a mismatch is some other file.
  if (m !== null && m[1] === m[2]) return { kind: 'docker', container_id: m[1] as string }
  return undefined
}

/** The record fields a file's path gives its lines: `{ kubernetes }`, `{ container_id }` or none. */
export function containerPathFields(path: string | undefined): Record<string, unknown> {
  const parsed = path === undefined ? undefined : parseContainerPath(path)
  if (parsed === undefined) return {}
  return parsed.kind === 'kubernetes' ? { kubernetes: parsed.kubernetes } : { container_id: parsed.container_id }
}
