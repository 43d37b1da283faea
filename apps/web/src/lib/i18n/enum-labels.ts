// Enumeration values as people read them, in the language shown: one mapping for every screen that shows them
// (the raw value stays in URLs, filters and exports). Call from a component that uses useTranslation, so it
// re-renders when the language changes.
import i18next from 'i18next';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';

export const prescriptionStatusLabel = (status: PrescriptionStatus): string =>
  i18next.t(`common:enums.prescriptionStatus.${status}`);
