import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'cyan',
  // Shade 9 keeps white text on buttons and links on white at 4.5:1 or better (WCAG AA).
  primaryShade: { light: 9, dark: 6 },
  defaultRadius: 'md',
  // Sarabun (app/thai-font.css, Thai letters only) where the device has no Thai font of its own.
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Thai", Sarabun, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Close buttons show only an ×: they are named for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close the dialog' } } },
  },
});

/** Secondary ("dimmed") text reads at 4.5:1 or better on white, as WCAG AA asks of small text. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    // Light badges and buttons: the palest shade behind the darkest one (near-black where even that is
    // too pale), so their small text reads at 4.5:1.
    ...Object.fromEntries(
      Object.entries(resolved.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light`, shades[0]],
        [
          `--mantine-color-${name}-light-color`,
          paleColors.includes(name) ? resolved.colors.dark[7] : shades[9],
        ],
      ]),
    ),
  },
  dark: {},
});

const paleColors = ['yellow', 'orange', 'lime'];
