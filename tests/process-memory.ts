import fs from 'node:fs';

/** The process listening on a TCP port of this machine, found through /proc (no ss or lsof needed). */
export function pidListeningOn(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Column 1 is local address:port, column 3 the state (0A = LISTEN), column 9 the socket inode.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(link)?.[1] ?? '')) return Number(pid);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  throw new Error(`no process listens on port ${port}`);
}

/** Resident memory of a process in MB, from /proc/<pid>/status. */
export function residentMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
