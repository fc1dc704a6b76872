import type { PaletteColor } from '@atalaya/contract';
import type { MantineColorsTuple } from '@mantine/core';

/** The mid tone of each of the 22 named palette colours; the ten shades are derived from it. */
const BASE: Record<PaletteColor, string> = {
  emerald: '#10b981',
  green: '#22c55e',
  lime: '#84cc16',
  red: '#ef4444',
  orange: '#f97316',
  amber: '#f59e0b',
  yellow: '#eab308',
  teal: '#14b8a6',
  cyan: '#06b6d4',
  sky: '#0ea5e9',
  blue: '#3b82f6',
  indigo: '#6366f1',
  violet: '#8b5cf6',
  purple: '#a855f7',
  fuchsia: '#d946ef',
  pink: '#ec4899',
  rose: '#f43f5e',
  slate: '#64748b',
  gray: '#6b7280',
  zinc: '#71717a',
  neutral: '#737373',
  stone: '#78716c',
};

const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
const mix = (hex: string, target: number, amount: number) => toHex(channels(hex).map((c) => c + (target - c) * amount));

// Light shades towards white, dark ones towards black: shade 6 (filled buttons) keeps white text readable.
const TOWARDS_WHITE = [0.9, 0.78, 0.6, 0.42, 0.24, 0.08];
const TOWARDS_BLACK = [0.2, 0.32, 0.45, 0.58];

export function shadesOf(color: PaletteColor): MantineColorsTuple {
  const base = BASE[color];
  return [...TOWARDS_WHITE.map((a) => mix(base, 255, a)), ...TOWARDS_BLACK.map((a) => mix(base, 0, a))] as unknown as MantineColorsTuple;
}

export const swatchOf = (color: PaletteColor) => BASE[color];
