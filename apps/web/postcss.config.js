// Mantine's PostCSS preset: rem(), light-dark() and breakpoint mixins in the console's CSS modules.
export default {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
