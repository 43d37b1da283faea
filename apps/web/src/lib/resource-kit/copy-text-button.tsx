// A button that copies a text shown beside it (a device token, an enrollment code or link). It says "Copied" when
// the copy was made, and says so when the browser refused it (no permission, or a page not served over HTTPS),
// rather than doing nothing: the text is shown once, and someone must know to copy it by hand.
import { Button, Stack, Text, type ButtonProps } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';

interface Props extends Pick<ButtonProps, 'size' | 'variant'> {
  value: string;
  label: string;
  copiedLabel: string;
  /** What to do when the browser refused the copy (its feature's words: the kit's catalog loads on every page). */
  failedLabel: string;
}

export function CopyTextButton({ value, label, copiedLabel, failedLabel, size, variant }: Props) {
  const clipboard = useClipboard();
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size={size}
        variant={variant}
        color={clipboard.copied ? 'teal' : undefined}
        onClick={() => clipboard.copy(value)}
      >
        {clipboard.copied ? copiedLabel : label}
      </Button>
      {clipboard.error ? (
        <Text size="xs" c="red.8" role="alert">
          {failedLabel}
        </Text>
      ) : null}
    </Stack>
  );
}
