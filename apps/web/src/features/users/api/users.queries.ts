// Users and patient profiles: the query-options factories, the care actions on a user (an alert, a reboot of
// the user's devices), which create device jobs, and the user's phones (revoking one, enrolling another).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  commandCenterEndpoints,
  type DeviceRebootRequested,
  type UserAlert,
  type UserAlertCreated,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { Enrollment, Phone, PhoneList } from '@careplane/shared/users/account.contract';
import {
  patientProfileEndpoints,
  userEndpoints,
  type PatientProfile,
  type User,
} from '@careplane/shared/users/users.contract';
import { api } from '@/lib/api-client.ts';
import { ADMIN_QUERY_ROOT, createResourceQueries, invalidateResource } from '@/lib/resource-kit/queries.ts';

export const userQueries = createResourceQueries<User>('users', userEndpoints);
export const patientProfileQueries = createResourceQueries<PatientProfile>(
  'patient-profiles',
  patientProfileEndpoints,
);

/** After an action that made jobs (and perhaps an alert): the job and alert lists refresh. */
function useInvalidateJobs() {
  const client = useQueryClient();
  return () => Promise.all([invalidateResource(client, 'device-jobs'), invalidateResource(client, 'alerts')]);
}

export function useSendAlert() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: ({ userId, message }: { userId: string; message: string }) =>
      api.post<UserAlertCreated>(commandCenterEndpoints.alertUser(userId), { message } satisfies UserAlert),
    onSuccess: invalidate,
  });
}

export function useRebootDevices() {
  const invalidate = useInvalidateJobs();
  return useMutation({
    mutationFn: (userId: string) =>
      api.post<DeviceRebootRequested>(commandCenterEndpoints.rebootUserDevices(userId)),
    onSuccess: invalidate,
  });
}

/** Promotion: the user's local roles become one role. */
export function usePromoteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) =>
      api.patch<User>(userEndpoints.item(id), { localRoles: [role] }),
    onSuccess: () => invalidateResource(client, 'users'),
  });
}

/** Creates a patient profile and links it to the user, or changes the linked one. */
export function useSavePatientProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      user,
      profileId,
      body,
    }: {
      user: User;
      profileId: string | null;
      body: Record<string, unknown>;
    }) => {
      if (profileId) return api.patch<PatientProfile>(patientProfileEndpoints.item(profileId), body);
      const created = await api.post<PatientProfile>(patientProfileEndpoints.list, body);
      await api.patch<User>(userEndpoints.item(user.id), { patientProfile: created.id });
      return created;
    },
    onSuccess: () =>
      Promise.all([invalidateResource(client, 'patient-profiles'), invalidateResource(client, 'users')]),
  });
}

/**
 * The phones enrolled for a user's sign-in, revoked ones included (under the users' key: they go with it), and
 * the signed-in person's own.
 */
export const phoneQueries = {
  forUser: (userId: string) =>
    queryOptions({
      queryKey: [...ADMIN_QUERY_ROOT, 'users', userId, 'phones'],
      queryFn: ({ signal }) => api.get<PhoneList>(userEndpoints.phones(userId), { signal }),
    }),
  mine: () =>
    queryOptions({
      queryKey: ['account', 'phones'],
      queryFn: ({ signal }) => api.get<PhoneList>(userEndpoints.myPhones, { signal }),
    }),
};

/** Revokes a lost phone, a user's (an admin) or one's own: it signs in and signs nothing more, and the sign-ins end. */
export function useRevokePhone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, phoneId, own }: { userId: string; phoneId: string; own: boolean }) =>
      api.post<Phone>(
        own ? userEndpoints.revokeMyPhone(phoneId) : userEndpoints.revokePhone(userId, phoneId),
      ),
    onSuccess: (_phone, { userId, own }) =>
      client.invalidateQueries({
        queryKey: (own ? phoneQueries.mine() : phoneQueries.forUser(userId)).queryKey,
      }),
  });
}

/** A fresh one-time code that enrolls another phone for the user. */
export function useIssueEnrollment() {
  return useMutation({
    mutationFn: (userId: string) => api.post<Enrollment>(userEndpoints.enrollment(userId)),
  });
}
