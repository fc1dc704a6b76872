import type { Generated, Selectable } from 'kysely';

/** A hosting server the panel drives through its agent (decision 040). */
export interface NodeTable {
  id: Generated<number>;
  name: string;
  /** The host name customers use for its services (FTP, databases); the name unless given. */
  host: string;
  /** Its public IPv4 address: the `{webIp}` and `{mailIp}` of its services' zones; null: the provider's defaults. */
  address: string | null;
  /** Comma-separated roles: web, mail, ftp, db. */
  roles: string;
  /** `enrolling` until its agent exchanged the token, then `active`; `draining` takes no new services; `removed` is refused. */
  state: 'enrolling' | 'active' | 'draining' | 'removed';
  /** SHA-256 of the one-time enrolment token while it is unused. */
  token_hash: string | null;
  token_expires_at: number | null;
  /** The serial of the one client certificate the node's agent may present. */
  cert_serial: string | null;
  version: string | null;
  last_contact_at: number | null;
  created_at: number;
}

/** The panel's certificate authority: one row, its key sealed with the panel's secrets. */
export interface NodeCaTable {
  id: number;
  cert_pem: string;
  key_sealed: string;
  created_at: number;
}

export interface NodeTables {
  node: NodeTable;
  node_ca: NodeCaTable;
}
export type NodeRow = Selectable<NodeTable>;
