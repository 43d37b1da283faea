// A form built from field descriptions and the contract's zod schemas: on create it sends the whole body, on
// edit only the changed, non-null fields (spec §5, editFormChanges). The schema's issues and the server's
// 400 issues show on the fields they name; the first field in error takes the focus.
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBlocker } from 'react-router';
import type { ZodType } from 'zod';
import { editFormChanges } from '@careplane/shared/common/edit-form';
import type { ErrorBody } from '@careplane/shared/common/http';
import { localizeIssue } from '@careplane/shared/i18n/validation-texts';
import { currentLanguage } from '@/lib/i18n/language.ts';
import { ApiError, NetworkError } from '@/lib/api-client.ts';
import { FormFields } from './form-fields.tsx';
import {
  fieldsFor,
  formPayload,
  formValues,
  ownLabel,
  placeIssues,
  withClearedText,
  type FieldSpec,
  type FormValues,
} from './form-model.ts';
import { notify } from '@/lib/notify.ts';

export interface ResourceFormProps {
  fields: readonly FieldSpec[];
  /** The record being edited; none creates one. */
  record?: Record<string, unknown>;
  /** Values a new record starts with (a device chosen before the form opened). */
  start?: Record<string, unknown>;
  createSchema?: ZodType;
  updateSchema?: ZodType;
  /** Sends the checked body; throws an ApiError when the server refuses it. */
  onSubmit: (body: Record<string, unknown>, mode: 'create' | 'edit') => Promise<void>;
  submitLabel?: string;
  /** Where Cancel leads, or what it does (in a dialog). */
  cancelTo?: string;
  onCancel?: () => void;
}

const issuesOf = (error: unknown) =>
  error instanceof ApiError ? ((error.body as Partial<ErrorBody> | undefined)?.issues ?? []) : [];

export function ResourceForm({
  fields: allFields,
  record,
  start,
  createSchema,
  updateSchema,
  onSubmit,
  submitLabel,
  cancelTo,
  onCancel,
}: ResourceFormProps) {
  const { t } = useTranslation('kit');
  const mode = record ? 'edit' : 'create';
  const fields = useMemo(() => fieldsFor(allFields, mode), [allFields, mode]);
  const initial = useMemo(() => formValues(fields, record ?? start), [fields, record, start]);
  const form = useForm<FormValues>({ mode: 'controlled', initialValues: initial });
  const [formError, setFormError] = useState<{ message: string; details: string[] } | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Leaving the form (a link, Back, Cancel) with changes not saved asks first; a save that succeeded leaves
  // freely, wherever it leads.
  const saved = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !saved.current && form.isDirty() && currentLocation.pathname !== nextLocation.pathname,
  );

  const showErrors = (fieldErrors: Record<string, string>, message: string | null, details: string[]) => {
    form.setErrors(fieldErrors);
    setFormError(message || details.length ? { message: message ?? t('form.checkForm'), details } : null);
    // After React has drawn the errors, the first field in error takes the focus; with none, the form's own
    // message does (on a phone the button pressed is far below it, and nothing there changed).
    requestAnimationFrame(() => {
      const target =
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        formRef.current?.querySelector<HTMLElement>('[data-form-error]');
      target?.focus();
      target?.scrollIntoView?.({ block: 'center' });
    });
  };

  /** Why the save failed; offline, as a save that did not happen (no answer's own words are of loading again). */
  const failureMessage = (error: unknown) => {
    if (error instanceof NetworkError && navigator.onLine === false) return t('form.notSavedOffline');
    return error instanceof Error ? error.message : String(error);
  };

  const submit = async (values: FormValues) => {
    setFormError(null);
    const current = formPayload(fields, values);
    // A field that cannot even be read (JSON that does not parse, a typed text that is no date) is shown together
    // with every other field's problem, so the form is put right in one pass, not one kind of error at a time.
    const unreadable = current.errors;
    const readable = Object.keys(unreadable).length === 0;
    let body: Record<string, unknown> = current.payload;
    if (record) {
      const before = formPayload(fields, initial).payload;
      const { changes, changed } = editFormChanges(before, withClearedText(fields, before, current.payload));
      if (!changed && readable) {
        notify({ message: t('form.nothingChanged') });
        return;
      }
      body = changes;
    }
    const schema = record ? updateSchema : createSchema;
    const checked = schema?.safeParse(body);
    if (checked?.success === false || !readable) {
      // The schema speaks English; the reader reads the sentence the server would send them, naming a field by
      // the label it has here ("Patient is required.", where the contract's field is the recipient).
      const language = currentLanguage();
      const issues = (checked?.error?.issues ?? [])
        .filter((issue) => !(issue.path.map(String).join('.') in unreadable))
        .map((issue) => ({
          path: issue.path,
          message: localizeIssue(issue, language, ownLabel(fields, issue.path)),
        }));
      const placed = placeIssues(issues, fields);
      return showErrors({ ...placed.fieldErrors, ...unreadable }, null, placed.other);
    }
    if (checked) body = checked.data as Record<string, unknown>;
    setSending(true);
    saved.current = true;
    try {
      await onSubmit(body, mode);
      // Still here (a dialog, or a form that stays): what was saved is what the form now starts from.
      form.resetDirty();
      saved.current = false;
    } catch (error) {
      saved.current = false;
      const placed = placeIssues(issuesOf(error), fields);
      showErrors(placed.fieldErrors, failureMessage(error), placed.other);
    } finally {
      setSending(false);
    }
  };

  return (
    <form ref={formRef} onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Stack gap="lg">
        {formError ? (
          <Alert color="red" title={formError.message} role="alert" tabIndex={-1} data-form-error>
            {formError.details.length ? (
              <List size="sm">
                {formError.details.map((detail) => (
                  <List.Item key={detail}>{detail}</List.Item>
                ))}
              </List>
            ) : null}
          </Alert>
        ) : null}
        <FormFields fields={fields} form={form} />
        <Group justify="flex-end" gap="sm">
          {cancelTo ? (
            <Button variant="default" component={Link} to={cancelTo}>
              {t('cancel')}
            </Button>
          ) : (
            <Button variant="default" onClick={onCancel}>
              {t('cancel')}
            </Button>
          )}
          <Button type="submit" loading={sending}>
            {submitLabel ?? (record ? t('form.saveChanges') : t('form.create'))}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={t('form.unsavedTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('form.unsavedText')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              {t('form.unsavedStay')}
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              {t('form.unsavedLeave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
