import { Readable } from 'node:stream';
import type { Store } from '../../store/db.ts';
import { localState } from '../local-state.ts';
import type { DatabaseDriver } from './interface.ts';

interface LocalDatabase {
  user: string;
  host: string;
  createdAt: string;
}

/** Databases kept in the store; the dump is a small but valid SQL script. */
export function localDatabaseDriver(store: Store, options: Record<string, unknown> = {}): DatabaseDriver {
  const state = localState<LocalDatabase>(store, 'databases');
  return {
    prefix: typeof options.prefix === 'string' ? options.prefix : '',
    async ensure({ name, user, externalAccess }) {
      const previous = await state.get(name);
      await state.put(name, { user, host: externalAccess ? '%' : 'localhost', createdAt: previous?.createdAt ?? new Date().toISOString() });
    },
    remove: ({ name }) => state.remove(name),
    // The local driver keeps no tables, so its databases take nothing.
    async sizes(names) {
      const out: Record<string, number> = {};
      for (const name of names) if (await state.get(name)) out[name] = 0;
      return out;
    },
    async dump(name) {
      const db = await state.get(name);
      if (!db) throw new Error(`unknown database ${name}`);
      const sql = [
        `-- Atalaya local dump of ${name}, ${new Date().toISOString()}`,
        `CREATE DATABASE IF NOT EXISTS \`${name}\`;`,
        `USE \`${name}\`;`,
        '',
      ].join('\n');
      return Readable.from([sql]);
    },
    // No tables to load: the database itself is what `ensure` keeps.
    async restore(name, sql) {
      if (!(await state.get(name))) throw new Error(`unknown database ${name}`);
      for await (const _chunk of sql);
    },
  };
}
