import {
  Badge,
  createTheme,
  darken,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

/** WCAG's contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const theme = createTheme({
  primaryColor: 'cyan',
  // Shade 9 keeps white text on buttons and links on white at 4.5:1 or better (WCAG AA).
  primaryShade: { light: 9, dark: 6 },
  // Text on a filled colour (buttons, badges, icons) is white while white reads on it at 4.5:1 (a luminance up
  // to 1.05 / 4.5 - 0.05), black past that, where black reads at 4.67:1 or more. So the orange, yellow, lime
  // and green fills, on which white falls under 4.5:1, get black text; red.8 and cyan.9 keep white.
  autoContrast: true,
  luminanceThreshold: 1.05 / 4.5 - 0.05,
  defaultRadius: 'md',
  // Sarabun (app/thai-font.css, Thai letters only) where the device has no Thai font of its own.
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Thai", Sarabun, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Close buttons show only an ×: they are named for screen readers. A dialog's <header> is only its title
    // row, not a second banner landmark of the page.
    Modal: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close the dialog' },
        attributes: { header: { role: 'presentation' } },
      },
    },
    // A table wider than the screen shows its scrollbar while there is more to see: by default it appeared
    // only under a pointer, and a phone has none, so the dosage or a device's CPU seemed not to exist.
    TableScrollContainer: { defaultProps: { scrollAreaProps: { type: 'auto' } } },
    // A badge is never cut with an ellipsis: it is as wide as its text, and in a narrow cell (a phone's
    // table) it wraps onto a second line rather than hide the end of a status.
    Badge: Badge.extend({
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', overflow: 'visible' },
        label: {
          whiteSpace: 'normal',
          overflow: 'visible',
          textOverflow: 'clip',
          overflowWrap: 'break-word',
        },
      },
    }),
  },
});

/**
 * The text of a light badge or button on its palest shade: the darkest shade when it reads at 4.5:1 there,
 * else near-black.
 */
export function lightTextColor(shades: MantineColorsTuple, fallback: string) {
  return contrastRatio(shades[9], shades[0]) >= 4.5 ? shades[9] : fallback;
}

/**
 * The background of a filled button under the pointer. Mantine lightens shade 9 to shade 8 there, on which
 * white falls under 4.5:1 (cyan.8: 4.3:1); a fill that keeps white text darkens instead. Fills with black text
 * keep shade 8, lighter still, where black reads better.
 */
export function filledHover(shades: MantineColorsTuple, white: string) {
  return contrastRatio(white, shades[9]) >= 4.5 ? darken(shades[9], 0.15) : shades[8];
}

/** Secondary ("dimmed") text reads at 4.5:1 or better on white, as WCAG AA asks of small text. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    // Light badges and buttons: the palest shade behind a text colour that reads on it at 4.5:1.
    ...Object.fromEntries(
      Object.entries(resolved.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light`, shades[0]],
        [`--mantine-color-${name}-light-color`, lightTextColor(shades, resolved.colors.dark[7])],
        [`--mantine-color-${name}-filled-hover`, filledHover(shades, resolved.white)],
      ]),
    ),
  },
  dark: {},
});
