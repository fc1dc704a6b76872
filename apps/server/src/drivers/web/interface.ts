/** What a web backend (nginx + PHP-FPM in production) is told about one hosting service. */
export interface WebSite {
  reference: string;
  kind: 'normal' | 'parking';
  phpVersion: string;
  parkingActive: boolean;
  /** Suspended by the operator (the item or its realm): every host answers the suspension page. */
  suspended?: boolean;
  /** Absolute path of the service's web root. */
  webRoot: string;
}

export interface ErrorLogEntry {
  /** Unix seconds. */
  ts: number;
  level: string;
  message: string;
}

export interface WebDriver {
  /** Brings the backend in line with the service (idempotent: a retry applies the same state). */
  applyService(site: WebSite): Promise<void>;
  /** The service's most recent error-log entries, at most `limit`, in any order. */
  errorLog(reference: string, limit: number): Promise<ErrorLogEntry[]>;
  /**
   * Termination: removes what the backend keeps of the service, its web root with its files
   * included (its hosts went before, each with its own removal). Removing one that is gone is not an error.
   */
  removeService(site: { reference: string; webRoot: string }): Promise<void>;
  /** Bytes the service's web root takes on disk now (`webRoot`: the panel's path for it). */
  spaceUsed(site: { reference: string; webRoot: string }): Promise<number>;
}
