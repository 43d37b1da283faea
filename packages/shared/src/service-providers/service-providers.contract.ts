// Service providers (pharmacies, couriers, nursing services): what the API accepts and answers.
import { z } from 'zod';
import {
  addressSearchPaths,
  defineListSpec,
  filterKinds as k,
  resourceEndpoints,
} from '../common/list-spec.ts';
import { serviceProviderTypes } from '../common/enums.ts';
import {
  embedded,
  embeddedList,
  idList,
  recordSchema,
  requiredText,
  streetAddressSchema,
} from '../common/primitives.ts';

/** Where couriers go to a pharmacy (spec §5: required): at least a street, a city or a map position. */
export const serviceProviderAddressSchema = streetAddressSchema.refine(
  (address) => Boolean(address.street?.trim() || address.city?.trim() || address.geo),
  { message: 'Needs a street, a city or a map position' },
);

export const serviceProviderCreateSchema = z.strictObject({
  title: requiredText(),
  type: z.enum(serviceProviderTypes),
  address: serviceProviderAddressSchema,
  /** Defaults to true. */
  isEnabled: z.boolean().optional(),
  /** User ids; replaces the whole list. */
  employees: idList.optional(),
});
export type ServiceProviderCreate = z.infer<typeof serviceProviderCreateSchema>;

export const serviceProviderUpdateSchema = z.strictObject({
  title: requiredText().optional(),
  type: z.enum(serviceProviderTypes).optional(),
  address: serviceProviderAddressSchema.optional(),
  isEnabled: z.boolean().optional(),
  employees: idList.optional(),
});
export type ServiceProviderUpdate = z.infer<typeof serviceProviderUpdateSchema>;

export const serviceProviderSchema = z.object({
  ...recordSchema,
  title: z.string(),
  type: z.enum(serviceProviderTypes),
  address: z.looseObject({}),
  isEnabled: z.boolean(),
  createdByUserId: z.string().nullable(),
  employees: embeddedList.optional(),
  createdByUser: embedded.nullable().optional(),
});
export type ServiceProvider = z.infer<typeof serviceProviderSchema>;

export const serviceProviderListSpec = defineListSpec({
  resource: 'service-providers',
  filters: {
    id: k.uuid,
    type: k.enum(serviceProviderTypes),
    isEnabled: k.boolean,
    'employees.id': k.ref('users'),
    'createdByUser.id': k.ref('users'),
  },
  search: ['id', 'title', ...addressSearchPaths],
  sort: ['createdAt', 'updatedAt', 'title', 'type', 'isEnabled'],
  relations: ['employees', 'createdByUser'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});

export const serviceProviderEndpoints = resourceEndpoints('/api/service-providers');
