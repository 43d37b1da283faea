// The route's `:id` when it names a record: anything but a uuid names no page, and is not asked for.
import { useParams } from 'react-router';
import { isRecordId } from '@careplane/shared/common/primitives';

/** `id` is the route's id when it can name a record; `known` is false when one was given that cannot. */
export function useRecordIdParam(): { id: string | undefined; known: boolean } {
  const { id } = useParams();
  const known = id === undefined || isRecordId(id);
  return { id: known ? id : undefined, known };
}
