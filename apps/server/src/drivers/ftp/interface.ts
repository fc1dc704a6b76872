/** A virtual FTP user as an FTP backend (Pure-FTPd in production) is told. */
export interface FtpAccount {
  login: string;
  password: string;
  /** Absolute home directory, already resolved inside the service's web root. */
  home: string;
}

export interface FtpDriver {
  /** Creates or updates the user (idempotent). */
  ensureUser(account: FtpAccount): Promise<void>;
  removeUser(login: string): Promise<void>;
}
