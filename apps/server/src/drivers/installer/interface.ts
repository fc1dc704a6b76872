import { PermanentJobError } from '../../outbox/permanent.ts';

/**
 * The application installer (decision 026): unpacks an application's package, checked against its
 * SHA-256, into a service's folder, writes its configuration from the wizard's answers and runs its
 * own installer where it has one. What it wrote is removed again when a step fails.
 */

/** Where the operator keeps an application's package: a URL on the provider's mirror or a local file. */
export interface PackageSource {
  /** An http(s) URL or an absolute path. */
  location: string;
  /** Lowercase hex SHA-256 of the archive; checked before a single entry is unpacked. */
  sha256: string;
}

/** How an application is installed once its files are in place (the catalogue's `recipe`). */
export type Recipe = 'wordpress' | 'web-installer' | 'static';

/** What an application installation needs from the panel; the installer never sees the store. */
export interface InstallRequest {
  installationId: number;
  reference: string;
  /** Target relative to the service's web root: the site's folder plus the sub-path, resolved inside it. */
  directory: string;
  /** The public URL of the installation, e.g. `https://blog.example.com/wp/`. */
  url: string;
  application: { key: string; softName: string; version: string; recipe: Recipe; archiveRoot: string };
  package: PackageSource;
  /** The config inputs the user filled in, by input name (passwords included, never logged). */
  inputs: Record<string, string>;
  /** Replace what the target folder holds; without it a folder with files is refused. */
  overwrite: boolean;
  database: { name: string; user: string; password: string; host: string } | null;
}

export interface ApplicationInstaller {
  readonly name: string;
  /**
   * Installs into `directory`; reports progress 0–100 as the steps pass; leaves nothing behind when
   * it throws. `signal` stops the download, the unpacking and the application's own installer.
   */
  install(request: InstallRequest, progress: (percent: number) => Promise<void>, signal?: AbortSignal): Promise<void>;
}

/**
 * A refusal that retrying cannot fix (the target holds files, the package's checksum differs, the
 * archive is unsafe…): `key` is a message key of the contract shown to the user; no retry.
 */
export class InstallRefused extends PermanentJobError {
  readonly key: string;
  constructor(key: string, detail?: string) {
    super(detail ? `${key}: ${detail}` : key);
    this.key = key;
  }
}
