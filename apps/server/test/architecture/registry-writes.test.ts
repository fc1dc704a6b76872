import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(SERVER, 'src');
const INTERFACE = path.join(SRC, 'drivers/registry/interface.ts');

/** The one place a registry write may be made: the actions the outbox's `registry.change` job runs (decision 052). */
const ACTIONS = 'modules/domain/actions.ts';

/** The driver's reads and its own housekeeping: anything else it offers changes something at the registry. */
const NOT_WRITES = new Set([
  'policy',
  'info',
  'listHosts',
  'listSecDns',
  'authInfo',
  'checkAuthInfo',
  'transferQuery',
  'pollMessage',
  // Takes a read message off the poll queue: the queue's bookkeeping, not a change of a domain (modules/domain/poll.ts).
  'ackMessage',
  'close',
]);

/**
 * The demo realm's starting state, written at the registry before the panel first serves (a seed,
 * not a change anyone asked for). Its calls are listed here one by one so a new one is seen.
 */
const DEMO_SEED = [
  'modules/domain/demo.ts: addSecDns',
  'modules/domain/demo.ts: create',
  'modules/domain/demo.ts: createHost',
  'modules/domain/demo.ts: setNameServers',
  'modules/domain/demo.ts: setPrivacy',
  'modules/domain/demo.ts: updateStatus',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The members RegistryDriver declares, read from its interface. */
function driverMembers(): string[] {
  const text = readFileSync(INTERFACE, 'utf8');
  const body = /export interface RegistryDriver \{([\s\S]*?)\n\}/.exec(text)![1];
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1]);
}

/** Comments out: a method named in a comment is no call. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/**
 * Every use of a driver member in the server's source outside the registry drivers themselves (which
 * implement them), as "file: member". The project names the driver `registry` wherever it is held
 * (`drivers.registry`, a `registry` parameter or binding); the next test keeps it so, which is what
 * lets a scan of the text find every call.
 */
function registryCalls(members: string[]) {
  const calls: string[] = [];
  const misnamed: string[] = [];
  const member = new RegExp(`\\bregistry\\??\\.(${members.join('|')})\\b`, 'g');
  for (const file of sourceFiles(SRC)) {
    const where = path.relative(SRC, file);
    if (where.startsWith('drivers/registry/')) continue;
    const text = code(readFileSync(file, 'utf8'));
    for (const m of text.matchAll(member)) calls.push(`${where}: ${m[1]}`);
    // registry[answer](…): a member chosen at run time.
    for (const m of text.matchAll(/\bregistry\s*\[\s*(\w+)/g)) calls.push(`${where}: [${m[1]}]`);
    // The driver held under another name would hide its calls from the scan above.
    for (const m of text.matchAll(/\b(\w+)\??\s*:\s*(?:Readonly<)?RegistryDriver\b/g))
      if (m[1] !== 'registry') misnamed.push(`${where}: ${m[1]}`);
    for (const m of text.matchAll(/\b(?:const|let|var)\s+(\w+)\s*=\s*[\w.]*\bdrivers\.registry\b(?![.?])/g))
      if (m[1] !== 'registry') misnamed.push(`${where}: ${m[1]}`);
    // A binding renamed in a destructuring (`{ registry: r }`); a capital is a type (`registry: RegistryDriver`).
    for (const m of text.matchAll(/\{[^}]*\bregistry\s*:\s*([a-z]\w*)\s*[,}]/g))
      if (m[1] !== 'registry') misnamed.push(`${where}: { registry: ${m[1]} }`);
  }
  return { calls, misnamed };
}

describe('one registry write path (docs/architecture.md#registry-changes, decision 052)', () => {
  const declared = new Set(driverMembers());
  const { calls, misnamed } = registryCalls([...declared]);

  it('holds the registry driver under the name `registry` everywhere, so that every call of it is found', () => {
    expect(misnamed).toEqual([]);
  });

  it("knows each of the registry driver's methods as a read or a write", () => {
    expect([...declared].filter((m) => !NOT_WRITES.has(m)).sort()).toEqual([
      'addSecDns',
      'create',
      'createAuthInfo',
      'createHost',
      'deleteHost',
      'regenerateAuthInfo',
      'removeSecDns',
      'renew',
      'restore',
      'setNameServers',
      'setPrivacy',
      'transferApprove',
      'transferCancel',
      'transferReject',
      'transferRequest',
      'updateContacts',
      'updateHost',
      'updateStatus',
    ]);
  });

  it('makes every registry write in the REGISTRY_ACTIONS table, which only the outbox job runs', () => {
    // The transfer answers' `registry[answer](…)` is the table's too: a member picked at run time counts as a write.
    const writes = calls.filter((c) => !NOT_WRITES.has(c.slice(c.indexOf(': ') + 2)));
    const outside = [...new Set(writes.filter((c) => !c.startsWith(`${ACTIONS}: `)))].sort();
    expect(outside).toEqual([...DEMO_SEED].sort());
    // The table itself makes them: a test that found none would prove nothing.
    expect(writes.filter((c) => c.startsWith(`${ACTIONS}: `)).length).toBeGreaterThan(15);
  });
});
