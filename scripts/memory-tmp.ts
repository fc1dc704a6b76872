import { existsSync } from 'node:fs';

/**
 * The temporary folder of every process a test run starts, in memory (decision 056): the test
 * stores' SQLite files, the daemons' configurations and spools, the servers' data dirs are all
 * made under `os.tmpdir()`, and on the CI machine's disk each SQLite commit waits some 4 ms for its
 * fsync (on tmpfs 0.04 ms). Nothing a test checks depends on the disk under it: a commit is as
 * atomic and as visible on tmpfs; only a power cut could lose it, which no test makes. Set in the
 * environment, so children inherit it; left alone where there is no /dev/shm or TMPDIR is set.
 */
export function useMemoryTmp() {
  if (!process.env.TMPDIR && existsSync('/dev/shm')) process.env.TMPDIR = '/dev/shm';
}
