// The current user's avatar (spec §2), at an optional width and height; initials while none is available.
import { Avatar } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { accountQueries } from '../api/account.queries.ts';

export interface UserAvatarProps {
  name: string;
  width?: number;
  height?: number;
}

export function UserAvatar({ name, width, height }: UserAvatarProps) {
  const avatar = useQuery(accountQueries.avatar({ width, height }));
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!avatar.data || !avatar.data.type.startsWith('image/')) return setUrl(null);
    const objectUrl = URL.createObjectURL(avatar.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [avatar.data]);
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
  return (
    <Avatar
      src={url}
      alt={name}
      radius="xl"
      color="cyan"
      style={{ width: width ?? 72, height: height ?? width ?? 72, minWidth: width ?? 72 }}
    >
      {initials}
    </Avatar>
  );
}
