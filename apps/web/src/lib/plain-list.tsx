// A list that reads as one (assistive technology announces it and counts its items), drawn without bullets
// or indent: alert entries, contacts, cards. Its items are `li` elements of the caller's own.
import { Stack, type StackProps } from '@mantine/core';
import type { ReactNode } from 'react';

export function PlainList({
  children,
  ...props
}: Omit<StackProps, 'style'> & { children: ReactNode; 'aria-label'?: string }) {
  return (
    <Stack component="ul" p={0} m={0} style={{ listStyle: 'none' }} {...props}>
      {children}
    </Stack>
  );
}
