/** The warnings mailed before something expires (0011_acme); part of the store's Database type. */
export interface ExpiryWarningTable {
  kind: string;
  subject_id: number;
  expires_at: number;
  /** The offset, in days before expiry, that this warning was for. */
  days: number;
  sent_at: number;
}

export type ExpiryTables = { expiry_warning: ExpiryWarningTable };
