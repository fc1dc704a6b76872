import type { AppCategory, AppType, InstallInputType, RedirectType } from './codes.ts';

/** What the panel read from an uploaded certificate; shown as text, never as HTML. */
export interface CertificateInfo {
  subject: string;
  issuer: string;
  names: string[];
  validFrom: number;
  validTo: number;
  fingerprint: string;
}

export interface Subdomain {
  id: number;
  /** The name under the service's reference, e.g. `blog`. */
  subdominio: string;
  referencePunycode: string;
  directorio: string;
  eliminable: boolean;
  /** The private key is never sent back: `key` is always '' and `hasKey` tells whether one is stored. */
  ssl: { enabled: boolean; cert: { cert: string; key: string; ca: string }; hasKey: boolean; info: CertificateInfo | null };
  redirections: number;
}

export interface Redirection {
  id: number;
  /** Host and path shown as the origin, e.g. `blog.example.com/old`. */
  origin: string;
  recurso: string;
  url: string;
  redirType: RedirectType;
  iframeTitle: string;
  iframeDescription: string;
  iframeKeywords: string;
  /** The site's name, or '' for the service's bare domain. */
  subdominio: string;
  eliminable: boolean;
}

export interface InstallInputOption {
  value: string;
  label: string;
}

export interface InstallInput {
  name: string;
  type: InstallInputType;
  /** A secret typed by the user (shown as a password field). */
  password: boolean;
  label: string;
  value: string;
  checked: boolean;
  options: InstallInputOption[];
  isRequired: boolean;
}

export interface InstallGroup {
  title: string;
  inputs: InstallInput[];
}

export interface HostingApplication {
  id: number;
  fullName: string;
  softName: string;
  version: string;
  category: AppCategory;
  type: AppType;
  description: string;
  size: number;
  featured: boolean;
  isBBDDApplication: boolean;
  installConfig: InstallGroup[];
}

export type InstallStatus = 'pending' | 'running' | 'done' | 'failed';

export interface Installation {
  id: number;
  applicationID: number;
  fullName: string;
  subdomainID: number;
  url: string;
  status: InstallStatus;
  progress: number;
  /** The installer's message when it failed. */
  error: string | null;
}
