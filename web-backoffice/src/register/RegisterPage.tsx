import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  FormHelperText,
  Link,
  TextField,
  Typography,
} from '@mui/material';
import {
  MERCHANT_REGISTRATION as M,
  MERCHANT_NOTICE_FIELDS,
  MINIMUM_AGE,
  MOBILE_NUMBER,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RULES,
  PRIVACY_NOTICE_VERSION,
  TEXT_LIMITS,
} from '@offers/api/rules';
import { type FormEvent, useState } from 'react';
import { HttpError, LocalesMenuButton, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { PUBLIC_SITE } from '../common/publicSite';
import { offersEnglish } from '../i18n/en';
import { RememberLocale } from '../layout/Layout';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

const FIELDS = [
  'merchantName',
  'brandName',
  'industry',
  'category',
  'address',
  'email',
  'mobile',
  'merchantUrl',
  'userName',
  'password',
  'referredByCode',
] as const;
type Field = (typeof FIELDS)[number];
export type Registration = Record<Field, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PASSWORD_KEYS = [
  'passwordShort',
  'passwordCapital',
  'passwordLower',
  'passwordDigit',
  'passwordSpecial',
];
const MAX_LENGTH: Partial<Record<Field, number>> = {
  merchantName: TEXT_LIMITS.name,
  brandName: TEXT_LIMITS.name,
  industry: TEXT_LIMITS.shortText,
  category: TEXT_LIMITS.shortText,
  address: TEXT_LIMITS.address,
  email: TEXT_LIMITS.email,
  merchantUrl: TEXT_LIMITS.url,
  userName: TEXT_LIMITS.name,
  password: PASSWORD_MAX_LENGTH,
  referredByCode: TEXT_LIMITS.shortText,
};

/** A website the API accepts: http or https with a host that has a top-level domain. */
function isWebsite(value: string): boolean {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && /\.[a-z]{2,}$/i.test(url.hostname);
  } catch {
    return false;
  }
}

const key = (name: string) => `offers.register.${name}`;

/** The first broken rule of each field, as a translation key (spec §5 "Merchant registration"). */
export function registrationErrors(values: Registration): Partial<Registration> {
  const errors: Partial<Registration> = {};
  const text = (field: Field) => values[field].trim();
  const minimum = (field: 'merchantName' | 'brandName' | 'userName') => {
    if (!text(field)) errors[field] = key(`${field}Required`);
    else if (text(field).length < M[field].minLength) errors[field] = key(`${field}Short`);
  };
  minimum('merchantName');
  minimum('brandName');
  if (!text('industry')) errors.industry = key('industryRequired');
  if (!text('category')) errors.category = key('categoryRequired');
  if (!text('address')) errors.address = key('addressRequired');
  if (!text('email')) errors.email = key('emailRequired');
  else if (!EMAIL.test(text('email'))) errors.email = key('emailInvalid');
  if (!text('mobile')) errors.mobile = key('mobileRequired');
  else if (!MOBILE_NUMBER.test(text('mobile'))) errors.mobile = key('mobileInvalid');
  if (!text('merchantUrl')) errors.merchantUrl = key('merchantUrlRequired');
  else if (!isWebsite(text('merchantUrl'))) errors.merchantUrl = key('merchantUrlInvalid');
  minimum('userName');
  if (!values.password) errors.password = key('passwordRequired');
  else {
    // The API insists on a strong password, so the form says which rule is missing before sending.
    const broken = PASSWORD_RULES.findIndex((rule) => !rule.test.test(values.password));
    if (broken >= 0) errors.password = key(PASSWORD_KEYS[broken]);
  }
  for (const field of FIELDS) {
    const limit = MAX_LENGTH[field];
    if (!errors[field] && limit && values[field].length > limit) errors[field] = key('tooLong');
  }
  return errors;
}

/** The API's English messages back to their keys, so they show in the chosen language. */
const KEY_OF_MESSAGE = new Map(
  Object.entries(offersEnglish.offers.register).flatMap(([name, text]) =>
    typeof text === 'string' ? [[text, key(name)] as const] : [],
  ),
);

/** The address parameter that carries a referral code to this page. */
const REFERRAL_PARAMETER = 'ref';

function referralFromAddress(search: URLSearchParams): string {
  return (
    search.get(REFERRAL_PARAMETER) ??
    new URLSearchParams(window.location.search).get(REFERRAL_PARAMETER) ??
    ''
  );
}

/** This back-office's registration page with the referral code filled in, for a merchant to share. */
export function merchantRegistrationLink(code: string): string {
  const { origin, pathname } = window.location;
  return `${origin}${pathname}#/register?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}`;
}

/** Merchant registration (spec §3, §5, §8); on success the merchant signs in. */
export const RegisterPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const [locale] = useLocaleState();
  const [search] = useSearchParams();
  const [values, setValues] = useState<Registration>(() => ({
    ...(Object.fromEntries(FIELDS.map((field) => [field, ''])) as Registration),
    referredByCode: referralFromAddress(search),
  }));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Registration>>({});
  const [failure, setFailure] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  // "I am 18 or older": required, unticked until the merchant ticks it; the API refuses without it.
  const [adult, setAdult] = useState(false);
  const [adultTouched, setAdultTouched] = useState(false);
  const errors = registrationErrors(values);
  const invalid = Object.keys(errors).length > 0 || !adult;
  const shown = (message: string) => translate(KEY_OF_MESSAGE.get(message) ?? message, { _: message });

  const field = (name: Field) => {
    const error = serverErrors[name] ?? (touched[name] ? errors[name] : undefined);
    return {
      id: `register-${name}`,
      name,
      label: translate(key(name)),
      value: values[name],
      onChange: (event: { target: { value: string } }) => {
        setValues({ ...values, [name]: event.target.value });
        setServerErrors({ ...serverErrors, [name]: undefined });
      },
      onBlur: () => setTouched({ ...touched, [name]: true }),
      error: Boolean(error),
      helperText: error ? shown(error) : ' ',
      fullWidth: true,
      margin: 'dense' as const,
    };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    const body = Object.fromEntries(
      FIELDS.map((name) => [name, name === 'password' ? values[name] : values[name].trim()]),
    );
    if (!body.referredByCode) delete body.referredByCode;
    try {
      await httpClient(`${API_URL}/auth/merchants/register`, {
        method: 'POST',
        body: JSON.stringify({ ...body, language: locale, ageConfirmed: adult }),
      });
      notify('offers.register.succeeded', { type: 'success' });
      navigate('/login');
    } catch (error) {
      const answer = error instanceof HttpError ? error : undefined;
      const fieldErrors = (answer?.body as { errors?: Record<string, string> } | undefined)?.errors ?? {};
      if (fieldErrors.ageConfirmed) setAdultTouched(true);
      setServerErrors(
        Object.fromEntries(
          Object.entries(fieldErrors).map(([name, message]) => [
            name === 'merchatURL' ? 'merchantUrl' : name,
            message,
          ]),
        ),
      );
      const reason = answer?.message || translate('ra.notification.http_error');
      setFailure(reason);
      notify(shown(reason), { type: 'error' });
      setSubmitting(false);
    }
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}
    >
      <RememberLocale />
      <Card sx={{ width: '100%', maxWidth: 560 }}>
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography component="h1" variant="h5">
              {translate('offers.register.title')}
            </Typography>
            <LocalesMenuButton />
          </Box>
          <PrivacyNotice />
          <form onSubmit={submit} noValidate aria-label={translate('offers.register.title')}>
            <TextField autoComplete="organization" {...field('merchantName')} />
            <TextField {...field('brandName')} />
            <TextField {...field('industry')} />
            <TextField {...field('category')} />
            <TextField autoComplete="street-address" multiline minRows={2} {...field('address')} />
            <TextField type="email" autoComplete="email" {...field('email')} />
            <TextField
              type="tel"
              autoComplete="tel"
              slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 16 } }}
              {...field('mobile')}
            />
            <TextField type="url" autoComplete="url" placeholder="https://" {...field('merchantUrl')} />
            <TextField autoComplete="username" {...field('userName')} />
            <TextField type="password" autoComplete="new-password" {...field('password')} />
            <TextField {...field('referredByCode')} />
            <FormControlLabel
              sx={{ mt: 1, alignItems: 'flex-start' }}
              control={
                <Checkbox
                  id="register-adult"
                  checked={adult}
                  onChange={(event) => {
                    setAdult(event.target.checked);
                    setAdultTouched(true);
                  }}
                  slotProps={{
                    input: {
                      'aria-required': true,
                      'aria-invalid': adultTouched && !adult ? true : undefined,
                      'aria-describedby': adultTouched && !adult ? 'register-adult-error' : undefined,
                    } as object,
                  }}
                  sx={{ pt: 0.5 }}
                />
              }
              label={`${translate('offers.register.adult', { age: MINIMUM_AGE })} *`}
            />
            {adultTouched && !adult && (
              <FormHelperText id="register-adult-error" error>
                {translate('offers.register.ageRequired')}
              </FormHelperText>
            )}
            {failure && (
              <Alert severity="error" role="alert" sx={{ my: 1 }}>
                <strong>{translate('offers.register.failed')}</strong> {shown(failure)}
              </Alert>
            )}
            <Button
              type="submit"
              variant="contained"
              fullWidth
              disabled={invalid || submitting}
              sx={{ mt: 1 }}
            >
              {translate(submitting ? 'offers.register.submitting' : 'offers.register.submit')}
            </Button>
          </form>
          <Typography sx={{ mt: 2 }}>
            {translate('offers.register.haveAccount')}{' '}
            <Link component={RouterLink} to="/login">
              {translate('offers.register.signIn')}
            </Link>
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
};

/** The notice's fields, those that share a purpose together (the business's four names say it once). */
const NOTICE_GROUPS = MERCHANT_NOTICE_FIELDS.reduce<Array<{ fields: string[]; purpose: string }>>(
  (groups, { field, purpose }) => {
    const group = groups.find((existing) => existing.purpose === purpose);
    if (group) group.fields.push(field);
    else groups.push({ fields: [field], purpose });
    return groups;
  },
  [],
);

/**
 * The notice before the form: each field it asks and what it is for, and the notice's version,
 * from the one list the API keeps (api/src/rules/privacy.ts).
 */
function PrivacyNotice() {
  const translate = useTranslate();
  return (
    <Box
      component="section"
      aria-labelledby="privacy-notice-title"
      sx={{ bgcolor: 'grey.50', border: 1, borderColor: 'grey.300', borderRadius: 1, p: 1.5, my: 1.5 }}
    >
      <Typography id="privacy-notice-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {translate('offers.register.notice.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('offers.register.notice.intro')}
      </Typography>
      <Box component="dl" sx={{ m: 0, '& dt': { fontWeight: 600 }, '& dd': { m: 0, mb: 0.75 } }}>
        {NOTICE_GROUPS.map(({ fields, purpose }) => (
          <div key={purpose}>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              {fields.map((field) => translate(key(field))).join(', ')}
            </Typography>
            <Typography component="dd" variant="body2">
              {translate(`offers.register.notice.purposes.${purpose}`)}
            </Typography>
          </div>
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary">
        {translate('offers.register.notice.more')}{' '}
        <Link href={`${PUBLIC_SITE}/privacy`}>{translate('offers.register.notice.privacyLink')}</Link>.{' '}
        {translate('offers.register.notice.version', { version: PRIVACY_NOTICE_VERSION })}
      </Typography>
    </Box>
  );
}
