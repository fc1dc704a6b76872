import type { ActivityChange } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { agentFamily } from '../modules/activity/agent.ts';
import type { ActivityEntry } from '../modules/activity/record.ts';
import { diff } from '../modules/activity/redact.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the call was authorised by an API token instead of a session cookie. */
    apiToken?: { id: number; name: string };
    /** What the call works on and changes, gathered while it runs; route() records it on success. */
    activity?: ActivityNote;
  }
}

export interface ActivityNote {
  item?: { id: number; reference: string };
  area?: string;
  changes: ActivityChange[];
}

const noteOf = (request: FastifyRequest): ActivityNote => {
  request.activity ??= { changes: [] };
  return request.activity;
};

/** The opener's part: the item and permission area the call was authorised on. */
export function noteItem(request: FastifyRequest, item: { id: number; reference: string }, area: string) {
  const note = noteOf(request);
  note.item = item;
  note.area = area;
}

/**
 * A handler's part: the thing as it was and as it is now (plain field → value views; null for a
 * thing created or deleted). Only the fields that differ are kept, and those `keep` names (what
 * says which thing it is); secrets redacted.
 */
export function noteChanges(
  request: FastifyRequest,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  keep: readonly string[] = [],
) {
  noteOf(request).changes.push(...diff(before, after, keep));
}

/** Who made the call and from where, as the activity log records it. */
export function actorOf(request: FastifyRequest): Pick<ActivityEntry, 'realmId' | 'userId' | 'actor' | 'token' | 'ip' | 'agent'> {
  return {
    realmId: request.user?.realmId ?? null,
    userId: request.user?.id ?? null,
    actor: request.operator ? 'operator' : request.apiToken ? 'token' : 'user',
    token: request.operator ? { id: request.operator.id, name: request.operator.name } : (request.apiToken ?? null),
    ip: request.ip,
    agent: agentFamily(request.headers['user-agent']),
  };
}
