/**
 * Dovecot's passwd-file: `user:password:uid:gid:gecos:home:shell:extra fields`, one user a line.
 * Lines the panel does not manage (comments, blank lines) are kept as they are.
 */
export interface PasswdEntry {
  user: string;
  password: string;
  uid: number;
  gid: number;
  home: string;
  /** Space-separated `key=value` extra fields, e.g. `userdb_quota_rule=*:storage=1048576B`. */
  extra: string[];
}

export type PasswdLine = { entry: PasswdEntry } | { raw: string };

export function parsePasswd(text: string): PasswdLine[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => {
    const f = line.split(':');
    if (line.startsWith('#') || f.length < 6) return { raw: line };
    const entry: PasswdEntry = {
      user: f[0]!,
      password: f[1]!,
      uid: Number(f[2]),
      gid: Number(f[3]),
      home: f[5]!,
      extra: (f.slice(7).join(':') || '').split(' ').filter(Boolean),
    };
    return { entry };
  });
}

export function formatPasswd(lines: PasswdLine[]): string {
  const out = lines.map((l) => {
    if ('raw' in l) return l.raw;
    const e = l.entry;
    // A colon or a line break inside a field would forge another field or another user; the
    // extra fields are the last field, so colons are fine there, but not blanks.
    const bad = [e.user, e.password, e.home].some((v) => /[:\s\0]/.test(v)) || e.extra.some((v) => /[\s\0]/.test(v));
    if (bad) throw new Error('passwd-file field contains a separator');
    return [e.user, e.password, e.uid, e.gid, '', e.home, '', e.extra.join(' ')].join(':');
  });
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The quota extra field for a limit in bytes; none (unlimited) for 0. */
export const quotaField = (bytes: number) => (bytes > 0 ? [`userdb_quota_rule=*:storage=${Math.floor(bytes)}B`] : []);

/** The quota in bytes an entry carries (0 when unlimited). */
export function quotaOf(entry: PasswdEntry): number {
  for (const field of entry.extra) {
    const m = /^userdb_quota_rule=\*:storage=(\d+)B?$/.exec(field);
    if (m) return Number(m[1]);
  }
  return 0;
}
