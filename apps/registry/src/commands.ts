import { contactCheck, contactCreate, contactDelete, contactInfo, contactTransfer, contactUpdate } from './contacts.ts';
import type { Command, Ctx, Reply } from './context.ts';
import { domainCheck, domainCreate, domainDelete, domainInfo, domainRenew, domainTransfer, domainUpdate } from './domains.ts';
import { hostCheck, hostCreate, hostDelete, hostInfo, hostUpdate } from './hosts.ts';
import { advanceLifecycle } from './lifecycle.ts';
import { EppError, fail } from './results.ts';
import { RegistryState } from './state.ts';
import { type Element, NS, nameOf, x } from './xml.ts';

/** The handler of each object command, by `object:verb` (the key faults name commands by, too). */
const HANDLERS: Record<string, (ctx: Ctx) => Reply> = {
  'domain:check': domainCheck,
  'domain:info': domainInfo,
  'domain:create': domainCreate,
  'domain:update': domainUpdate,
  'domain:delete': domainDelete,
  'domain:renew': domainRenew,
  'domain:transfer': domainTransfer,
  'host:check': hostCheck,
  'host:info': hostInfo,
  'host:create': hostCreate,
  'host:update': hostUpdate,
  'host:delete': hostDelete,
  'contact:check': contactCheck,
  'contact:info': contactInfo,
  'contact:create': contactCreate,
  'contact:update': contactUpdate,
  'contact:delete': contactDelete,
  'contact:transfer': contactTransfer,
};

/** Which command each extension element belongs to (RFC 5910 and 3915 define no others). */
const EXTENSION_OWNERS: Record<string, string> = {
  [`${NS.secDNS} create`]: 'domain:create',
  [`${NS.secDNS} update`]: 'domain:update',
  [`${NS.rgp} update`]: 'domain:update',
};

const OBJECTS: Record<string, Command['object']> = { [NS.domain]: 'domain', [NS.host]: 'host', [NS.contact]: 'contact' };

/** The command key of a `<command>` element: `login`, `poll`, `domain:update`… (no grammar check yet). */
export function commandKey(command: Element | undefined): string {
  const verb = command?.children[0];
  if (!verb) return 'unknown';
  const object = verb.children[0] ? OBJECTS[verb.children[0].ns] : undefined;
  return object ? `${object}:${verb.local}` : verb.local;
}

/** The object command of a grammatically valid `<command>`, with extensions checked against the command and the login. */
export function readCommand(command: Element, extURIs: string[], objURIs: string[]): Command {
  const verbEl = command.children[0];
  const body = verbEl.children[0];
  const object = OBJECTS[body.ns];
  const key = `${object}:${verbEl.local}`;
  if (!HANDLERS[key]) fail(2101, `${verbEl.local} is not implemented for ${object} objects`);
  if (!objURIs.includes(body.ns)) fail(2307, `the ${object} service was not selected at login`, body.ns);
  const extensions = command.children.find((c) => c.ns === NS.epp && c.local === 'extension')?.children ?? [];
  for (const e of extensions) {
    if (!extURIs.includes(e.ns)) fail(2103, `the extension ${e.ns} was not selected at login`, e.ns);
    const owner = EXTENSION_OWNERS[`${e.ns} ${e.local}`];
    if (owner !== key) fail(2001, `<${nameOf(e)}> does not belong to a ${key} command`);
  }
  const clTRID = command.children.find((c) => c.ns === NS.epp && c.local === 'clTRID')?.text;
  return { verb: verbEl.local, object, body, op: verbEl.attrs.op, extensions, clTRID };
}

export function runCommand(ctx: Ctx): Reply {
  advanceLifecycle(ctx);
  return HANDLERS[`${ctx.cmd.object}:${ctx.cmd.verb}`](ctx);
}

/** A command answered 1001 by a fault, waiting to be approved or refused (then a poll message says which). */
export interface PendingAction {
  id: number;
  key: string;
  clID: string;
  cmd: Command;
  svTRID: string;
}

/** The name an object command is about (`<domain:name>`, `<host:name>` or `<contact:id>`). */
export const objectName = (cmd: Command) => cmd.body.children.find((c) => c.local === 'name' || c.local === 'id')?.text ?? '';

/**
 * Answers a command with 1001 instead of applying it: the command is tried on a copy of the state
 * first, so a command that would fail still fails now; the object shows a `pending<Verb>` status
 * until the action is completed. A create is applied at once (the name is taken, as registries
 * do) with `pendingCreate`, and removed again if the action is refused.
 */
export function deferCommand(ctx: Ctx): Reply {
  let reply: Reply;
  if (ctx.cmd.verb === 'create') {
    reply = runCommand(ctx);
  } else {
    const trial = new RegistryState();
    const data = ctx.state.data;
    trial.data = { ...structuredClone(data), domains: clone(data.domains), hosts: clone(data.hosts), contacts: clone(data.contacts) };
    reply = runCommand({ ...ctx, state: trial });
  }
  const object = lookup(ctx, ctx.cmd.object, objectName(ctx.cmd));
  if (object) object.statuses.push({ s: pendingStatus(ctx.cmd.verb) });
  return { ...reply, code: 1001 };
}

const clone = <T>(entries: Record<string, T>): Record<string, T> => Object.assign(Object.create(null), structuredClone({ ...entries }));

function remove(ctx: Omit<Ctx, 'cmd'>, object: Command['object'], name: string): void {
  if (object === 'domain') delete ctx.state.data.domains[name.toLowerCase()];
  else if (object === 'host') delete ctx.state.data.hosts[name.toLowerCase()];
  else delete ctx.state.data.contacts[name];
}

const pendingStatus = (verb: string) => `pending${verb[0].toUpperCase()}${verb.slice(1)}`;

function lookup(ctx: Ctx, object: Command['object'], name: string) {
  const key = name.toLowerCase();
  if (object === 'domain') return ctx.state.data.domains[key];
  if (object === 'host') return ctx.state.data.hosts[key];
  return ctx.state.data.contacts[name];
}

/** Applies (or refuses) a pending action and queues the poll message that tells its client. */
export function completePending(ctx: Omit<Ctx, 'cmd'>, pending: PendingAction, approve: boolean): boolean {
  const cmd = pending.cmd;
  const name = objectName(cmd);
  const object = lookup({ ...ctx, cmd }, cmd.object, name);
  if (object) object.statuses = object.statuses.filter((s) => s.s !== pendingStatus(cmd.verb));
  let applied = false;
  let reason = approve ? 'Pending action completed successfully.' : 'Pending action rejected by the registry.';
  if (cmd.verb === 'create') {
    applied = approve;
    if (!approve) remove(ctx, cmd.object, name);
  } else if (approve) {
    try {
      runCommand({ ...ctx, clID: pending.clID, cmd });
      applied = true;
    } catch (error) {
      if (!(error instanceof EppError)) throw error;
      reason = `Pending action failed: ${error.message}`;
    }
  }
  const prefix = cmd.object;
  const ns = NS[prefix];
  const panData =
    prefix === 'host'
      ? undefined
      : x(`${prefix}:panData`, { [`xmlns:${prefix}`]: ns }, [
          x(`${prefix}:${prefix === 'contact' ? 'id' : 'name'}`, { paResult: applied ? '1' : '0' }, name),
          x(`${prefix}:paTRID`, {}, [cmd.clTRID !== undefined && x('clTRID', {}, cmd.clTRID), x('svTRID', {}, pending.svTRID)]),
          x(`${prefix}:paDate`, {}, ctx.now.toISOString()),
        ]);
  ctx.state.queue(pending.clID, reason, panData, ctx.now);
  return applied;
}
