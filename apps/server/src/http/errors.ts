import type { z } from 'zod';

export interface FieldError {
  input: string;
  /** A message key of the contract's catalogue, translated when the answer is sent. */
  key: string;
  params?: Record<string, string | number>;
}

/** A refusal the user can fix: answered 400 with the paired inputs/errors of the envelope. */
export class FieldErrors extends Error {
  readonly fields: FieldError[];
  constructor(fields: FieldError[]) {
    super('field errors');
    this.fields = fields;
  }
  static one(input: string, key: string, params?: Record<string, string | number>) {
    return new FieldErrors([{ input, key, params }]);
  }
}

/** A refusal with a status and a translated message: 403 no permission, 404 not found, 409 conflict… */
export class ApiError extends Error {
  readonly status: number;
  readonly key: string;
  readonly params: Record<string, string | number>;
  constructor(status: number, key: string, params: Record<string, string | number> = {}) {
    super(key);
    this.status = status;
    this.key = key;
    this.params = params;
  }
}

export const notFound = () => new ApiError(404, 'main.not_found');
export const noPermission = () => new ApiError(403, 'main.no_permission');

/** Maps zod issues to message keys; a schema may name its own key as the issue message. */
export function fromZod(error: z.ZodError): FieldErrors {
  return new FieldErrors(
    error.issues.map((issue): FieldError => {
      const input = issue.path.map(String).join('.') || 'form';
      if (issue.message.includes('.') && !issue.message.includes(' ')) return { input, key: issue.message };
      switch (issue.code) {
        case 'invalid_type':
          return { input, key: issue.input === undefined ? 'validation.required' : 'validation.invalid' };
        case 'too_small':
          if (issue.origin === 'string')
            return Number(issue.minimum) <= 1
              ? { input, key: 'validation.required' }
              : { input, key: 'validation.too_short', params: { min: Number(issue.minimum) } };
          if (issue.origin === 'array' && Number(issue.minimum) <= 1) return { input, key: 'validation.required' };
          return { input, key: 'validation.too_small', params: { min: Number(issue.minimum) } };
        case 'too_big':
          return issue.origin === 'string'
            ? { input, key: 'validation.too_long', params: { max: Number(issue.maximum) } }
            : { input, key: 'validation.too_big', params: { max: Number(issue.maximum) } };
        case 'invalid_value':
          return { input, key: 'validation.invalid_option' };
        case 'invalid_format':
          return { input, key: issue.format === 'email' ? 'validation.email' : 'validation.invalid' };
        case 'unrecognized_keys':
          return { input: issue.keys[0] ?? input, key: 'validation.unknown_field' };
        default:
          return { input, key: 'validation.invalid' };
      }
    }),
  );
}
