// What a path names now, against the files the tailer follows. Pure: the tailer stats the path
// (on an event, and for every followed path at each tick), this decides. In order:
// 1. nothing is there (the file was deleted, or renamed away): the file followed under this path
//    is detached: read to its end through its open handle, then released;
// 2. something that is not a regular file: ignored;
// 3. the file followed under this path: the same file (it may have grown);
// 4. a file followed under another name: it was renamed within the patterns and carries on under
//    this one;
// 5. a file not followed: a new file, adopted (read from 0 once probation says it is no copy).
// In 3 to 5, another file followed under this path is detached first: that is rename-and-create
// (logrotate's default), and the detached file's rest is read before the new file's lines.

/** What stat() found at the path; `followed` is the generation with that `dev:ino`, if any. */
export type PathContent<F> =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'not-a-file' }
  | { readonly kind: 'file'; readonly followed: F | undefined }

export type PathChange<F> =
  | { readonly kind: 'gone'; readonly detach: F | undefined }
  | { readonly kind: 'ignored' }
  | { readonly kind: 'same'; readonly file: F; readonly detach: F | undefined }
  | { readonly kind: 'moved'; readonly file: F; readonly detach: F | undefined }
  | { readonly kind: 'new'; readonly detach: F | undefined }

/** `atPath`: the generation followed under `path` until now. */
export function decidePathChange<F extends { readonly path: string | undefined }>(
  path: string,
  atPath: F | undefined,
  content: PathContent<F>,
): PathChange<F> {
  if (content.kind === 'nothing') return { kind: 'gone', detach: atPath }
  if (content.kind === 'not-a-file') return { kind: 'ignored' }
  const { followed } = content
  const detach = atPath !== undefined && atPath !== followed ? atPath : undefined
  if (followed === undefined) return { kind: 'new', detach }
  return followed.path === path ? { kind: 'same', file: followed, detach } : { kind: 'moved', file: followed, detach }
}
