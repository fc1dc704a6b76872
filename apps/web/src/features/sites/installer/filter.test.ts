import type { HostingApplication } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { filterApps, languageOption, sizeInMb } from './filter.ts';

const app = (id: number, fullName: string, category: HostingApplication['category'], description: string) =>
  ({ id, fullName, softName: fullName.split(' ')[0], category, description }) as HostingApplication;
const apps = [
  app(1, 'Galería Clara 2.7', 'galleries', 'Fotos'),
  app(2, 'Pluma 6.8', 'blogs', 'Publicación de artículos'),
  app(3, 'Tiendita', 'ecommerce', 'Tienda'),
];
const label = (c: string) => ({ galleries: 'Galerías de imágenes', blogs: 'Blogs', ecommerce: 'Comercio electrónico' })[c] ?? c;

describe('the application filter', () => {
  it('ignores accents and case in names, descriptions and categories', () => {
    expect(filterApps(apps, 'galeria', label).map((a) => a.id)).toEqual([1]);
    expect(filterApps(apps, 'PUBLICACION', label).map((a) => a.id)).toEqual([2]);
    expect(filterApps(apps, 'electronico', label).map((a) => a.id)).toEqual([3]);
    expect(filterApps(apps, 'ecommerce', label).map((a) => a.id)).toEqual([3]);
    expect(filterApps(apps, '  ', label)).toHaveLength(3);
  });
  it('picks the Spanish or English option for the app language', () => {
    const options = [{ value: 'es_ES' }, { value: 'en_US' }];
    expect(languageOption(options, 'en')).toBe('en_US');
    expect(languageOption(options, 'ca')).toBe('es_ES');
    expect(languageOption(options, 'es')).toBe('es_ES');
  });
  it('shows sizes in MB with two decimals', () => {
    expect(sizeInMb(25794969)).toBe('24.60');
  });
});
