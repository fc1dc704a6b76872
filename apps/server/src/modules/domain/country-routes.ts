import { type CountryLookup, endpoints, hasPostalFormat, isPostalCode } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../../http/language.ts';
import { route } from '../../http/route.ts';
import { countryNames, isCountry } from './countries.ts';
import { citiesOf, resolveCity, resolveState, statesOf } from './places.ts';

/**
 * POST /tools/country/: the address lookup of the contact form. Countries in the user's
 * language; the states of the chosen country and the cities of the chosen state; the selection
 * echoed back with its keys resolved, and whether the postal code sent follows the country's own
 * format (known for most countries; elsewhere any short code of letters and digits).
 */
export default async function countryRoutes(app: FastifyInstance) {
  route(app, endpoints.domain.country, async (request) => {
    const country = request.body.country.toUpperCase();
    const known = isCountry(country) ? country : '';
    const state = known ? resolveState(known, request.body.state) : { key: '', name: request.body.state };
    const city = known ? resolveCity(known, state.key, request.body.city) : { key: '', name: request.body.city };
    const data: CountryLookup = {
      selected: { country: known, state: state.key || state.name, city: city.key || city.name, postalCode: request.body.postal_code },
      names: { state: state.name, city: city.name },
      country: countryNames(requestLanguage(request)),
      states: known ? statesOf(known) : [],
      cities: state.key ? citiesOf(known, state.key).map((name) => ({ key: name, name })) : [],
      postalCodes: [],
      postalCode: {
        known: known !== '' && hasPostalFormat(known),
        valid: known && request.body.postal_code ? isPostalCode(request.body.postal_code, known) : null,
      },
    };
    return { data };
  });
}
