// The console's one phone breakpoint, Mantine's `sm` (48em): below it the screen is a phone's. Every place that
// lays out or behaves differently on a phone asks these queries rather than writing the width again.

/** Matches a screen narrower than Mantine's `sm` breakpoint. */
export const PHONE_SCREEN = '(max-width: 47.99em)';
/** Matches a screen at or above Mantine's `sm` breakpoint. */
export const WIDER_THAN_PHONE = '(min-width: 48em)';
