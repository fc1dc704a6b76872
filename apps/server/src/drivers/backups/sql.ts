import { Readable } from 'node:stream';

/**
 * A dump of `from` as `mariadb-dump --databases` writes it (a `CREATE DATABASE` and `USE` naming
 * it) made to load into `to` instead: a copy must never write into the live database. Only whole
 * lines of those statements change: the dump writes each row's data on its own lines with newlines
 * escaped, so no data line starts with them.
 */
export function retargetDump(sql: Readable, from: string, to: string): Readable {
  const quoted = `\`${from}\``;
  const rewrite = (line: string) => {
    if (line.startsWith('CREATE DATABASE ') && line.includes(quoted)) return `CREATE DATABASE IF NOT EXISTS \`${to}\`;`;
    if (line === `USE ${quoted};`) return `USE \`${to}\`;`;
    if (line.startsWith(`ALTER DATABASE ${quoted}`)) return `ALTER DATABASE \`${to}\`${line.slice(`ALTER DATABASE ${quoted}`.length)}`;
    return line;
  };
  return Readable.from(
    (async function* () {
      let pending = '';
      for await (const chunk of sql) {
        // latin1 maps each byte to one character and back: a blob's bytes that are not UTF-8 pass unchanged.
        pending += Buffer.from(chunk).toString('latin1');
        const cut = pending.lastIndexOf('\n');
        if (cut < 0) continue;
        yield Buffer.from(`${pending.slice(0, cut).split('\n').map(rewrite).join('\n')}\n`, 'latin1');
        pending = pending.slice(cut + 1);
      }
      if (pending) yield Buffer.from(rewrite(pending), 'latin1');
    })(),
  );
}

/** A dump loaded in place: the database dropped first, so tables made since the backup go too (the dump creates it again; grants outlive a DROP DATABASE). */
export function replacingDump(sql: Readable, name: string): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(`DROP DATABASE IF EXISTS \`${name}\`;\n`);
      yield* sql;
    })(),
  );
}
