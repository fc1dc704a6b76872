import type { Generated } from 'kysely';

/** The operator area's tables (migration 0033_operator). */
export type OperatorTables = {
  operator_token: {
    id: Generated<number>;
    name: string;
    /** SHA-256 of the whole token, base64url, as for API tokens: the secret itself is never stored. */
    secret_hash: string;
    /** JSON array of operator scopes (`provision`, `domains`, `webhooks`). */
    scopes: string;
    /** JSON array of address ranges; empty: any address. */
    cidrs: Generated<string>;
    expires_at: number | null;
    created_at: number;
    last_used_at: number | null;
    last_ip: string | null;
  };
  idempotency_key: {
    operator_id: number;
    key: string;
    /** SHA-256 of the method, path and body the key was first sent with. */
    request_hash: string;
    /** Null while the first request is still being answered. */
    status: number | null;
    /** The first answer, JSON, replayed to a retry. */
    answer: string | null;
    created_at: number;
  };
  webhook_endpoint: {
    id: Generated<number>;
    url: string;
    /** JSON array of event names. */
    events: string;
    /** The signing secret, sealed with the runtime's secret key. */
    secret: string;
    created_at: number;
  };
  webhook_delivery: {
    id: Generated<number>;
    endpoint_id: number;
    event: string;
    /** The exact JSON body that is signed and sent. */
    body: string;
    status: Generated<'pending' | 'delivered' | 'failed'>;
    created_at: number;
  };
  webhook_attempt: {
    id: Generated<number>;
    delivery_id: number;
    at: number;
    /** The receiver's HTTP status; null when it could not be reached. */
    http_status: number | null;
    /** The start of the receiver's answer, or the network error. */
    answer: Generated<string>;
  };
};
