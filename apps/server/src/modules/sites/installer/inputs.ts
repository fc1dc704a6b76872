import { CONTROL_CHARACTERS, hasLineControl, hasTextControl, INSTALL_INPUT_PREFIX, SITES_LIMITS } from '@atalaya/contract';
import { type FieldError, FieldErrors } from '../../../http/errors.ts';
import type { CatalogueEntry } from '../catalogue.ts';

const CHECKED = new Set(['1', 'on', 'true']);

/**
 * The config inputs of an install request, checked against the catalogue: required ones filled,
 * selects among their options, hidden ones fixed by the provider (never taken from the user),
 * checkboxes on only when sent (the SPA sends only checked ones). All errors at once.
 */
export function readConfigInputs(app: CatalogueEntry, body: Record<string, unknown>) {
  const values: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const input of app.installConfig.flatMap((group) => group.inputs)) {
    const field = `${INSTALL_INPUT_PREFIX}${input.name}`;
    const raw = body[field];
    if (raw !== undefined && typeof raw !== 'string') {
      errors.push({ input: field, key: 'validation.invalid' });
      continue;
    }
    const typed = input.type === 'textarea' || input.password ? (raw ?? '') : (raw ?? '').trim();
    let value: string;
    if (input.type === 'hidden') value = input.value;
    else if (input.type === 'checkbox') value = CHECKED.has(typed) ? '1' : '0';
    else value = typed;
    if (input.isRequired && (value === '' || (input.type === 'checkbox' && value === '0'))) {
      errors.push({ input: field, key: 'validation.required' });
    } else if (value.length > SITES_LIMITS.installInputMax) {
      errors.push({ input: field, key: 'validation.too_long', params: { max: SITES_LIMITS.installInputMax } });
    } else if (input.type === 'select' && value !== '' && !input.options.some((o) => o.value === value)) {
      errors.push({ input: field, key: 'sites.option_invalid' });
    } else if (!input.password && (input.type === 'textarea' ? hasTextControl(value) : hasLineControl(value))) {
      errors.push({ input: field, key: CONTROL_CHARACTERS });
    } else if (input.pattern && value !== '' && !new RegExp(input.pattern).test(value)) {
      // The application's own rule (a table prefix, an e-mail address), told in the catalogue's words.
      errors.push({ input: field, key: input.patternMessage });
    }
    values[input.name] = value;
  }
  if (errors.length > 0) throw new FieldErrors(errors);
  return { values };
}
