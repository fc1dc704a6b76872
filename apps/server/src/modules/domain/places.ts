import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Option } from '@atalaya/contract';

/**
 * States and cities from the country-state-city package's data. Its City API keeps the whole
 * table (with coordinates) in memory, many times an idle server's heap; this index keeps only the names,
 * built on first use, so an idle server stays small and a lookup is a map read.
 */
interface CountryPlaces {
  states: Option[];
  cities: Map<string, string[]>;
}

const require = createRequire(import.meta.url);
let index: Map<string, CountryPlaces> | null = null;

function build(): Map<string, CountryPlaces> {
  const read = (file: string) => JSON.parse(readFileSync(require.resolve(`country-state-city/lib/assets/${file}`), 'utf8'));
  const places = new Map<string, CountryPlaces>();
  const of = (country: string) => {
    let entry = places.get(country);
    if (!entry) {
      entry = { states: [], cities: new Map() };
      places.set(country, entry);
    }
    return entry;
  };
  for (const state of read('state.json') as { name: string; isoCode: string; countryCode: string }[]) {
    of(state.countryCode).states.push({ key: state.isoCode, name: state.name });
  }
  for (const [name, country, state] of read('city.json') as [string, string, string][]) {
    const cities = of(country).cities;
    const list = cities.get(state);
    if (list) list.push(name);
    else cities.set(state, [name]);
  }
  for (const entry of places.values()) {
    entry.states.sort((a, b) => a.name.localeCompare(b.name));
    for (const list of entry.cities.values()) list.sort((a, b) => a.localeCompare(b));
  }
  return places;
}

function placesOf(country: string) {
  index ??= build();
  return index.get(country);
}

export const statesOf = (country: string): Option[] => placesOf(country)?.states ?? [];
export const citiesOf = (country: string, stateKey: string): string[] => placesOf(country)?.cities.get(stateKey) ?? [];

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/** A state given by its key or its name, resolved against the list; free text otherwise. */
export function resolveState(country: string, text: string): { key: string; name: string } {
  const found = statesOf(country).find((s) => s.key === text || same(s.name, text));
  return found ? { key: found.key, name: found.name } : { key: '', name: text };
}

/** A city of the state by name; free text otherwise (the key of a listed city is its name). */
export function resolveCity(country: string, stateKey: string, text: string): { key: string; name: string } {
  const found = stateKey ? citiesOf(country, stateKey).find((c) => same(c, text)) : undefined;
  return found ? { key: found, name: found } : { key: '', name: text };
}
