import { RegistryError } from '../../drivers/registry/interface.ts';
import { ApiError, FieldErrors, notFound } from '../../http/errors.ts';

/** A refusal as the panel words it: the message key and the registry's own words. */
export function refusalMessage(error: RegistryError): { key: string; params: Record<string, string> } {
  const reason = { reason: error.reason };
  switch (error.code) {
    case 'blocked':
      return error.reason ? { key: 'domain.registry_prohibited', params: reason } : { key: 'domain.blocked', params: {} };
    case 'policy':
      return { key: 'domain.registry_policy', params: reason };
    case 'authorization':
      return { key: 'domain.registry_authorization', params: reason };
    case 'exists':
      return { key: 'validation.duplicate', params: {} };
    case 'in_use':
      return { key: 'domain.glue_in_use', params: {} };
    case 'needs_glue':
      return { key: 'domain.ns_needs_glue', params: {} };
    default:
      return { key: 'main.not_found', params: {} };
  }
}

/**
 * Runs a registry call and turns its refusals into the panel's: a blocked domain is a conflict
 * (409), a duplicate a field error on `field`, an unknown child id 404. A remote registry's own
 * words go with its refusals: under the field for a value it refuses, in the toast otherwise.
 */
export async function viaRegistry<T>(run: () => Promise<T>, field: string | ((subject: string) => string) = 'form'): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    const input = typeof field === 'string' ? field : field(error.subject);
    const { key, params } = refusalMessage(error);
    switch (error.code) {
      case 'policy':
      case 'exists':
      case 'needs_glue':
        throw FieldErrors.one(input, key, params);
      case 'blocked':
      case 'authorization':
      case 'in_use':
        throw new ApiError(409, key, params);
      default:
        throw notFound();
    }
  }
}
