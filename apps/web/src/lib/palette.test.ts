import { PALETTE } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { shadesOf, swatchOf } from './palette.ts';

describe('the palette', () => {
  it('has a base for each of the 22 colours', () => {
    expect(PALETTE).toHaveLength(22);
    for (const color of PALETTE) expect(swatchOf(color)).toMatch(/^#[0-9a-f]{6}$/);
  });
  it('derives ten shades from light to dark', () => {
    const shades = shadesOf('indigo');
    expect(shades).toHaveLength(10);
    const lightness = shades.map(
      (hex) => Number.parseInt(hex.slice(1, 3), 16) + Number.parseInt(hex.slice(3, 5), 16) + Number.parseInt(hex.slice(5, 7), 16),
    );
    expect([...lightness].sort((a, b) => b - a)).toEqual(lightness);
  });
});
