import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './app.tsx';

afterEach(cleanup);

describe('the console placeholder', () => {
  it('names the product and says the console is coming', () => {
    render(<App />);
    expect(screen.getByRole('heading', { level: 1, name: 'Careplane' })).toBeDefined();
    expect(screen.getByText(/console .* is coming soon/i)).toBeDefined();
  });

  it('shows the name and version in the footer', () => {
    render(<App />);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('Careplane 0.3.0')).toBeDefined();
  });
});
