import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';

/** Longest postal code any country uses, its spaces and hyphens included (Brazil's 00000-000, Iran's 10 digits…). */
export const POSTAL_CODE_MAX = 12;

/** True when the country's own postal-code format is known (the `postcode-validator` data set). */
export const hasPostalFormat = (country: string) => postcodeValidatorExistsForCountry(country.toUpperCase());

/**
 * A postal code as the country writes it: a UK `SW1A 1AA`, a Dutch `1012 AB`, a Spanish five
 * digits. Where the format is unknown, 1 to 12 letters, digits, spaces or hyphens.
 */
export function isPostalCode(code: string, country: string): boolean {
  const value = code.trim();
  if (value === '' || value.length > POSTAL_CODE_MAX) return false;
  const key = country.toUpperCase();
  return hasPostalFormat(key) ? postcodeValidator(value, key) : /^[A-Za-z0-9][A-Za-z0-9 -]*$/.test(value);
}
