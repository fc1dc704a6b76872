import type { HostingApplication } from '@atalaya/contract';
import { languageOption } from './filter.ts';

export type Step = 0 | 1 | 2 | 3;

export interface WizardState {
  step: Step;
  siteId: number | null;
  app: HostingApplication | null;
  subpath: string;
  /** Replace what the folder holds (the server refuses a folder with files otherwise). */
  overwrite: boolean;
  /** 'new': create one first; a number: an existing database of the service. */
  database: 'new' | number | null;
  values: Record<string, string>;
  checked: Record<string, boolean>;
}

/** Launched from a site, step 0 (choose the site) is skipped. */
export const initialState = (siteId: number | null): WizardState => ({
  step: siteId === null ? 0 : 1,
  siteId,
  app: null,
  subpath: '',
  overwrite: false,
  database: null,
  values: {},
  checked: {},
});

/** The config inputs' starting values: the catalogue's, and the language matching the app's. */
export function defaultsFor(app: HostingApplication, language: string) {
  const values: Record<string, string> = {};
  const checked: Record<string, boolean> = {};
  for (const input of app.installConfig.flatMap((g) => g.inputs)) {
    values[input.name] =
      input.type === 'select' && input.name === 'language' ? (languageOption(input.options, language) ?? input.value) : input.value;
    checked[input.name] = input.checked;
  }
  return { values, checked };
}

/** The prefixed config fields to send: checkboxes only when checked (docs/behaviour/service-area-dns.md#validation). */
export function configFields(state: WizardState): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const input of state.app?.installConfig.flatMap((g) => g.inputs) ?? []) {
    if (input.type === 'checkbox') {
      if (state.checked[input.name]) fields[`config_${input.name}`] = '1';
    } else fields[`config_${input.name}`] = state.values[input.name] ?? '';
  }
  return fields;
}

/** Required inputs left empty (or unticked): the wizard refuses before calling the server too. */
export function missingInputs(state: WizardState): string[] {
  return (state.app?.installConfig.flatMap((g) => g.inputs) ?? [])
    .filter(
      (i) => i.isRequired && i.type !== 'hidden' && (i.type === 'checkbox' ? !state.checked[i.name] : !(state.values[i.name] ?? '').trim()),
    )
    .map((i) => `config_${i.name}`);
}
