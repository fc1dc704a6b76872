import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_CATEGORIES, APP_TYPES, type HostingApplication, INSTALL_INPUT_TYPES, type Language, SITES_LIMITS } from '@atalaya/contract';
import { z } from 'zod';
import type { Config } from '../../config/config.ts';

/** A text of the catalogue: one string for every language, or one per language (es is the fallback). */
const text = z.union([
  z.string().max(2000),
  z.object({ es: z.string().max(2000), en: z.string().max(2000).optional(), ca: z.string().max(2000).optional() }),
]);
type Text = z.infer<typeof text>;

const input = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,40}$/),
  type: z.enum(INSTALL_INPUT_TYPES),
  password: z.boolean().default(false),
  label: text,
  value: z.string().max(SITES_LIMITS.installInputMax).default(''),
  checked: z.boolean().default(false),
  options: z
    .array(z.object({ value: z.string().max(200), label: text }))
    .max(300)
    .default([]),
  isRequired: z.boolean().default(false),
  /** A rule of the application for the value (a regular expression), and the message key shown when it is broken. */
  pattern: z.string().max(500).optional(),
  patternMessage: z.string().max(100).default('validation.invalid'),
});

const application = z.object({
  id: z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  /** The application's name in the operator's `drivers.installer.packages`. */
  key: z.string().regex(/^[a-z0-9-]{1,40}$/),
  fullName: z.string().min(1).max(200),
  softName: z.string().min(1).max(100),
  version: z.string().min(1).max(50),
  category: z.enum(APP_CATEGORIES),
  type: z.enum(APP_TYPES),
  /** The licence it is distributed under, as an SPDX expression. */
  licence: z.string().min(1).max(100),
  /** How it is installed once unpacked (decision 026). */
  recipe: z.enum(['wordpress', 'web-installer', 'static']),
  /** The package's top folder (`wordpress` in wordpress-6.1.9.tar.gz), '' when its files sit at the top. */
  archiveRoot: z.string().regex(/^([\w.-]{1,100})?$/),
  description: text,
  size: z.number().int().min(0),
  featured: z.boolean().default(false),
  isBBDDApplication: z.boolean().default(false),
  /** A PNG or SVG file next to the catalogue file. */
  logo: z.string().regex(/^[\w.-]+\.(svg|png)$/),
  installConfig: z.array(z.object({ title: text, inputs: z.array(input).max(100) })).max(20),
});

const catalogueSchema = z.object({ applications: z.array(application).max(2000) });
export type CatalogueEntry = z.infer<typeof application>;

export interface Catalogue {
  dir: string;
  applications: CatalogueEntry[];
  byId: Map<number, CatalogueEntry>;
}

const DEFAULT_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'catalogue', 'catalogue.json');
const loaded = new Map<string, Catalogue>();

/**
 * The provider's catalogue: the JSON file named by `drivers.installer.catalogue`, else the one
 * shipped with the panel. Read once per process; a bad file stops with the key and the problem.
 */
export function loadCatalogue(config: Config): Catalogue {
  const configured = config.drivers.installer?.catalogue;
  const file = path.resolve(typeof configured === 'string' ? configured : DEFAULT_FILE);
  const cached = loaded.get(file);
  if (cached) return cached;
  const parsed = catalogueSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Application catalogue ${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  const catalogue = {
    dir: path.dirname(file),
    applications: parsed.data.applications,
    byId: new Map(parsed.data.applications.map((a) => [a.id, a])),
  };
  loaded.set(file, catalogue);
  return catalogue;
}

const say = (value: Text, language: Language) => (typeof value === 'string' ? value : (value[language] ?? value.es));

/** An application as the wizard sees it, in the user's language. */
export function presentApplication(app: CatalogueEntry, language: Language, available: boolean): HostingApplication {
  return {
    available,
    licence: app.licence,
    id: app.id,
    fullName: app.fullName,
    softName: app.softName,
    version: app.version,
    category: app.category,
    type: app.type,
    description: say(app.description, language),
    size: app.size,
    featured: app.featured,
    isBBDDApplication: app.isBBDDApplication,
    installConfig: app.installConfig.map((group) => ({
      title: say(group.title, language),
      inputs: group.inputs.map((i) => ({
        name: i.name,
        type: i.type,
        password: i.password,
        label: say(i.label, language),
        value: i.password ? '' : i.value,
        checked: i.checked,
        options: i.options.map((o) => ({ value: o.value, label: say(o.label, language) })),
        isRequired: i.isRequired,
      })),
    })),
  };
}
