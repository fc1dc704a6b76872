/** The account area's additions to the store's Database type (migration 0002_account). */
export type AccountTables = {
  /** Columns added to the core user table: the sign-in before the current one. */
  user: { prev_login_at: number | null; prev_ip: string | null };
};
