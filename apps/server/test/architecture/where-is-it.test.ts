import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Endpoint, endpoints } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const DOC = 'docs/architecture.md';
const SECTION = '## Where is it';
const COLUMNS = [
  'Area',
  'Screen',
  'Page component',
  'Web call',
  'Contract schema',
  'Endpoint path',
  'Route file',
  'Permission',
  'Driver',
] as const;

interface Row {
  line: number;
  cells: string[];
}

/** The table of docs/architecture.md#where-is-it: its header's cells and its rows, with their line numbers. */
function whereIsIt(text: string) {
  const lines = text.split('\n');
  const start = lines.indexOf(SECTION);
  const first = lines.findIndex((line, i) => i > start && line.startsWith('|'));
  const cellsOf = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
  const rows: Row[] = [];
  for (let i = first + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push({ line: i + 1, cells: cellsOf(lines[i]) });
  return { start, header: first < 0 ? [] : cellsOf(lines[first]), rows };
}

const table = whereIsIt(readFileSync(path.join(ROOT, DOC), 'utf8'));
const column = (name: (typeof COLUMNS)[number]) => table.header.findIndex((cell) => cell.startsWith(name));
/** The keys a row's "Web call" cell names: `group.key` in backticks. */
const keysOf = (row: Row) => [...(row.cells[column('Web call')] ?? '').matchAll(/`([a-z]+\.[A-Za-z]+)`/g)].map((m) => m[1]);

const CONTRACT_KEYS = Object.entries(endpoints).flatMap(([group, calls]) =>
  Object.entries(calls as Record<string, Endpoint>).map(([key, entry]) => ({ key: `${group}.${key}`, entry })),
);

/** Every name packages/contract/src declares (a schema, a helper that makes one). */
function contractNames(dir = path.join(ROOT, 'packages/contract/src')): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/\b(?:const|function)\s+(\w+)/g)) names.add(m[1]);
  }
  return names;
}

const permissionText = (entry: Endpoint) => JSON.stringify(entry.permission);

describe('the map that finds every call (docs/architecture.md#where-is-it)', () => {
  it('reads a table with the nine columns under the section', () => {
    expect(table.start, `${DOC} has no "${SECTION}" section`).toBeGreaterThan(0);
    expect(COLUMNS.map((name) => column(name) >= 0)).toEqual(COLUMNS.map(() => true));
    expect(table.rows.length).toBeGreaterThan(40);
  });

  it('gives each row a cell for every column', () => {
    const short = table.rows.filter((row) => row.cells.length !== COLUMNS.length);
    expect(short.map((row) => `${DOC}:${row.line} (${row.cells[0]}) has ${row.cells.length} cells, not ${COLUMNS.length}`)).toEqual([]);
  });

  it('names every endpoint key of the contract in the "Web call" column of a row', () => {
    const named = new Set(table.rows.flatMap(keysOf));
    const missing = CONTRACT_KEYS.filter(({ key }) => !named.has(key)).map(
      ({ key, entry }) =>
        `\`${key}\` (${entry.method} ${entry.path}, permission ${permissionText(entry)}) is in no row: add it to the "Web call" ` +
        `column of its screen's row in ${DOC}#where-is-it (under "${SECTION}", line ${table.start + 1}), or add a row ` +
        `with its ${COLUMNS.join(', ')}`,
    );
    expect(missing).toEqual([]);
  });

  it('names no key the contract does not have', () => {
    const known = new Set(CONTRACT_KEYS.map(({ key }) => key));
    const stale = table.rows.flatMap((row) =>
      keysOf(row)
        .filter((key) => !known.has(key))
        .map((key) => `${DOC}:${row.line} (${row.cells[0]}) names \`${key}\`, which packages/contract/src/endpoints/ no longer declares`),
    );
    expect(stale).toEqual([]);
  });

  it('names in the "Contract schema" column only what packages/contract declares', () => {
    const declared = contractNames();
    const unknown = table.rows.flatMap((row) =>
      [...(row.cells[column('Contract schema')] ?? '').matchAll(/`(\w+)(?:\(…\))?`/g)]
        .filter((m) => !declared.has(m[1]))
        .map((m) => `${DOC}:${row.line} (${row.cells[0]}) names the schema \`${m[1]}\`, which packages/contract/src does not declare`),
    );
    expect(unknown).toEqual([]);
  });

  it('has rows for the parts no endpoint reaches: the hosting nodes, the agent and the test registry', () => {
    const route = column('Route file');
    for (const place of ['`nodes/`', '`agent/`', '`apps/registry/src/`']) {
      expect(
        table.rows.some((row) => row.cells[route]?.includes(place)),
        `no row of ${DOC}#where-is-it names ${place} in its route file`,
      ).toBe(true);
    }
  });
});
