// Every theme colour, filled or light, puts its text at 4.5:1 or better (WCAG AA for small text): the warning
// orange of 'Confirm promotion' among them.
import {
  Badge,
  Modal,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  MantineProvider,
  mergeMantineTheme,
} from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, theme } from './theme.ts';

afterEach(cleanup);

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const colorNames = Object.keys(resolved.colors).filter((name) => name !== 'dark');

/** The colour a `var(--mantine-color-…)` of the light scheme stands for. */
function valueOf(css: string): string {
  const name = /^var\(--mantine-color-([a-z]+)(?:-(\w+))?\)$/.exec(css);
  if (!name) return css;
  const [, color = '', part] = name;
  if (color === 'white') return resolved.white;
  if (color === 'black') return resolved.black;
  const shades = resolved.colors[color]!;
  if (part === 'filled') return shades[9];
  if (part !== undefined && /^\d$/.test(part)) return shades[Number(part)]!;
  throw new Error(`unknown colour ${css}`);
}

describe('the theme', () => {
  it.each(colorNames)('puts readable text on filled %s', (color) => {
    for (const shade of [undefined, 6, 7, 8, 9]) {
      const { background, color: text } = defaultVariantColorsResolver({
        color: shade === undefined ? color : `${color}.${shade}`,
        theme: resolved,
        variant: 'filled',
      });
      expect(contrastRatio(valueOf(text), valueOf(background)), `${color}.${shade}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
  });

  it.each(colorNames)('keeps the text of filled %s readable under the pointer', (color) => {
    const { color: text } = defaultVariantColorsResolver({ color, theme: resolved, variant: 'filled' });
    const hover = cssVariablesResolver(resolved).light[`--mantine-color-${color}-filled-hover`]!;
    expect(contrastRatio(valueOf(text), hover)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(colorNames)('puts readable text on light %s', (color) => {
    const light = cssVariablesResolver(resolved).light;
    const background = light[`--mantine-color-${color}-light`]!;
    const text = light[`--mantine-color-${color}-light-color`]!;
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives the warning orange of a promotion black text, as white reads at 4.3:1 on it', () => {
    const orange = defaultVariantColorsResolver({ color: 'orange', theme: resolved, variant: 'filled' });
    expect(orange.color).toBe('var(--mantine-color-black)');
    expect(contrastRatio(resolved.white, resolved.colors.orange[9])).toBeLessThan(4.5);
    // White stays wherever it reads: the primary cyan, the red of a deletion.
    for (const color of ['cyan', 'red.8']) {
      expect(defaultVariantColorsResolver({ color, theme: resolved, variant: 'filled' }).color).toBe(
        'var(--mantine-color-white)',
      );
    }
  });

  it('lets a badge grow with its text and wrap, never cut with an ellipsis', () => {
    render(
      <MantineProvider theme={theme}>
        <div style={{ width: 60 }}>
          <Badge>waiting for the pharmacy</Badge>
        </div>
      </MantineProvider>,
    );
    const label = screen.getByText('waiting for the pharmacy');
    const root = label.closest('.mantine-Badge-root') as HTMLElement;
    expect(getComputedStyle(label).whiteSpace).toBe('normal');
    expect(getComputedStyle(label).textOverflow).not.toBe('ellipsis');
    expect(root.style.overflow).toBe('visible');
    expect(root.style.height).toBe('auto');
  });

  it("keeps a dialog's header from being a second banner", () => {
    render(
      <MantineProvider theme={theme} env="test">
        <Modal opened onClose={() => undefined} title="Promote this user?">
          Text
        </Modal>
      </MantineProvider>,
    );
    expect(screen.getByRole('dialog').querySelector('header')?.getAttribute('role')).toBe('presentation');
    expect(screen.queryByRole('banner')).toBeNull();
  });
});
