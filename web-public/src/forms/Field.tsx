import { type ChangeEvent, type InputHTMLAttributes, useCallback, useMemo, useState } from 'react';
import { useI18n } from '../i18n';
import type { Errors } from './validate';

/**
 * Form state checked as the user types: a field's message shows once it was changed or left,
 * or after a submit attempt. Server messages (400/409) show until the field changes.
 */
export function useForm<F extends string>(
  initial: Record<F, string>,
  validate: (v: Record<F, string>) => Errors<F>,
) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors<F>>({});
  const errors = useMemo(() => validate(values), [validate, values]);
  const valid = Object.keys(errors).length === 0;

  const shownError = (field: F): string | undefined =>
    serverErrors[field] ?? (touched[field] || submitted ? errors[field] : undefined);

  const bind = useCallback(
    (field: F) => ({
      name: field,
      value: values[field],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        const value = event.target.value;
        setValues((current) => ({ ...current, [field]: value }));
        setTouched((current) => ({ ...current, [field]: true }));
        setServerErrors((current) => {
          if (!current[field]) return current;
          const { [field]: _dropped, ...rest } = current;
          return rest as Errors<F>;
        });
      },
      onBlur: () => setTouched((current) => ({ ...current, [field]: true })),
    }),
    [values],
  );

  return {
    values,
    setValues,
    errors,
    valid,
    bind,
    shownError,
    setSubmitted,
    setServerErrors,
    reset: () => {
      setValues(initial);
      setTouched({});
      setSubmitted(false);
    },
  };
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  multiline?: boolean;
};

/** A labelled input whose message is announced and tied to it (aria-describedby). */
export function Field({ id, label, error, hint, multiline, required, ...input }: FieldProps) {
  const { msg } = useI18n();
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': required || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {multiline ? (
        <textarea
          {...common}
          rows={5}
          name={input.name}
          value={input.value}
          onChange={input.onChange as never}
          onBlur={input.onBlur as never}
        />
      ) : (
        <input {...input} {...common} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error" aria-live="polite">
          {msg(error)}
        </p>
      )}
    </div>
  );
}
