// Command centers: what the API accepts and answers.
import { z } from 'zod';
import {
  commandCenterAddressSchema,
  embedded,
  embeddedList,
  idList,
  recordSchema,
  requiredText,
} from '../common/primitives.ts';

export const commandCenterCreateSchema = z.strictObject({
  title: requiredText(),
  address: commandCenterAddressSchema,
  /** User ids; replaces the whole list. */
  assignedUsers: idList.optional(),
});
export type CommandCenterCreate = z.infer<typeof commandCenterCreateSchema>;

export const commandCenterUpdateSchema = z.strictObject({
  title: requiredText().optional(),
  address: commandCenterAddressSchema.optional(),
  assignedUsers: idList.optional(),
});
export type CommandCenterUpdate = z.infer<typeof commandCenterUpdateSchema>;

export const commandCenterSchema = z.object({
  ...recordSchema,
  title: z.string(),
  address: z.looseObject({}),
  createdByUserId: z.string().nullable(),
  assignedUsers: embeddedList.optional(),
  devices: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
});
export type CommandCenter = z.infer<typeof commandCenterSchema>;
