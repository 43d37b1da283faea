// The content of a prescription as a form field (its items: name, strength, form, quantity, unit, dosage, notes):
// the admin's prescription form and the doctor's own form ask for them alike.
import i18next from 'i18next';
import type { FieldSpec } from '@/lib/resource-kit/form/form-model.ts';

export const prescriptionContentField: FieldSpec = {
  kind: 'list',
  name: 'content',
  label: () => i18next.t('prescriptions:admin.fields.content'),
  itemLabel: () => i18next.t('prescriptions:admin.fields.item'),
  required: true,
  fields: [
    {
      kind: 'text',
      name: 'name',
      label: () => i18next.t('prescriptions:admin.fields.name'),
      required: true,
    },
    { kind: 'text', name: 'strength', label: () => i18next.t('prescriptions:admin.fields.strength') },
    { kind: 'text', name: 'form', label: () => i18next.t('prescriptions:admin.fields.form') },
    {
      kind: 'number',
      name: 'quantity',
      label: () => i18next.t('prescriptions:admin.fields.quantity'),
      required: true,
      min: 0,
    },
    { kind: 'text', name: 'unit', label: () => i18next.t('prescriptions:admin.fields.unit') },
    { kind: 'textarea', name: 'dosage', label: () => i18next.t('prescriptions:admin.fields.dosage') },
    { kind: 'textarea', name: 'notes', label: () => i18next.t('prescriptions:admin.fields.notes') },
  ],
};
