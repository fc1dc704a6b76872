/** Where a driver logs what it does: the server's logger, or nothing (the CLI, the tests). */
export interface DriverLog {
  debug(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export const SILENT: DriverLog = { debug() {}, warn() {} };
