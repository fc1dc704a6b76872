import type { OperatorScope, PermissionMap } from '@atalaya/contract';

// Who calls: the types every area's permission checks read, kept under the areas that produce them
// (session/ signs users in, token/ and operator/ authenticate tokens) so that none imports another for them.

/** What a token may do, as the permission checks read it: its scope, and the items it is limited to. */
export interface TokenGrant {
  id: number;
  name: string;
  scope: PermissionMap;
  /** The items it is limited to; null: every item its user may see. */
  items: number[] | null;
}

/** Who asks: the user, and the token's grant when the call came with one. */
export interface Caller {
  id: number;
  token?: TokenGrant;
}

/** The signed-in user as every handler sees it. */
export interface SessionUser {
  id: number;
  realmId: number;
  realmName: string;
  username: string;
  language: string;
  theme: string;
  color: string;
  sessionId: string;
  /** Set when the call came with an API token instead of a session: what the token may do. */
  token?: TokenGrant;
  /** The realm requires a second factor and the user has none yet: only enrolment calls answer. */
  mustEnrol: boolean;
}

/** The operator a call was authenticated as: the billing system's token. */
export interface Operator {
  id: number;
  name: string;
  scopes: OperatorScope[];
}
