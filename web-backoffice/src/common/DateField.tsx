import { type DateFieldProps, DateField as RaDateField } from 'react-admin';
import { useIndianLocale } from './locale';

/** react-admin's DateField in the chosen language as India writes dates (25/11/2026, 3:45:12 pm). */
export const DateField = (props: DateFieldProps) => <RaDateField locales={useIndianLocale()} {...props} />;
