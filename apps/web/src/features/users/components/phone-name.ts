// A phone's name, as the Phones section and the enrollment notice show it.
import i18next from 'i18next';
import type { Phone } from '@careplane/shared/users/account.contract';

/** What the phone called itself, else "Phone" and the start of its key's thumbprint. */
export function phoneName(phone: Pick<Phone, 'id' | 'label'>) {
  return phone.label?.trim() || i18next.t('users:phones.unnamed', { id: phone.id.slice(0, 8) });
}
