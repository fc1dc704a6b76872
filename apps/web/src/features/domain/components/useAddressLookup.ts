import { LIMITS } from '@atalaya/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lookupAddress } from '../api/domain.ts';

/**
 * The address lookup of the contact form: countries in the user's language, the states of the
 * country and the cities of the state, asked again 200 ms after the country, state or city
 * stops changing (docs/behaviour/shell-session-domains.md#states).
 */
export function useAddressLookup(enabled: boolean, country: string, state: string, city: string, postalCode: string) {
  const [key] = useDebouncedValue({ country, state, city, postal_code: postalCode }, LIMITS.addressDebounceMs);
  return useQuery({
    queryKey: ['tools', 'country', key],
    queryFn: () => lookupAddress(key),
    enabled,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}
