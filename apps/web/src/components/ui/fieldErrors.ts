import { ApiFailure } from '../../lib/api.ts';

/**
 * The server's message for one form field (paired system.inputs / system.errors, docs/design.md#api), for a
 * Mantine input's `error` prop: `error={fieldError(mutation.error, 'password')}`.
 */
export function fieldError(error: unknown, input: string): string | undefined {
  return error instanceof ApiFailure ? error.fieldError(input) : undefined;
}

/** True when the failure named at least one of the form's fields (the form shows it; no toast needed). */
export function hasFieldErrors(error: unknown, inputs: readonly string[]): boolean {
  return error instanceof ApiFailure && inputs.some((input) => error.inputs.includes(input));
}

/** The keys of a form object whose values are text. */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;

/**
 * The props that bind a text field to one value of a form object: its name, value, change handler
 * and the server's error under it (`<TextInput label={…} {...text('folder')} />`).
 */
export function bindText<F>(form: F, set: (key: TextKey<F>, value: string) => void, error: unknown) {
  return (key: TextKey<F>) => ({
    name: key,
    value: form[key] as string,
    onChange: (event: { currentTarget: { value: string } }) => set(key, event.currentTarget.value),
    error: fieldError(error, key),
  });
}
