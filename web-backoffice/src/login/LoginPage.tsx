import { Box, Button, Card, CardContent, Link, Tab, Tabs, TextField, Typography } from '@mui/material';
import { MERCHANT_SIGN_IN } from '@offers/api/rules';
import { type FormEvent, useState } from 'react';
import { LocalesMenuButton, useLogin, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { RememberLocale } from '../layout/Layout';
import type { SignIn } from '../providers/authProvider';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Mode = 'admin' | 'merchant';
type Values = { username: string; email: string; password: string };

/** The first broken rule of each field, as a translation key (spec §5 "Merchant sign-in", "Admin login"). */
export function signInErrors(mode: Mode, { username, email, password }: Values): Partial<Values> {
  const errors: Partial<Values> = {};
  if (mode === 'admin') {
    if (!username.trim()) errors.username = 'offers.signIn.adminUsernameRequired';
    if (email.trim() && !EMAIL.test(email.trim())) errors.email = 'offers.signIn.adminEmailInvalid';
    if (!password) errors.password = 'offers.signIn.adminPasswordRequired';
  } else {
    if (!username.trim()) errors.username = 'offers.signIn.merchantUserNameRequired';
    else if (username.trim().length < MERCHANT_SIGN_IN.userName.minLength)
      errors.username = 'offers.signIn.merchantUserNameShort';
    if (!password) errors.password = 'offers.signIn.merchantPasswordRequired';
    else if (password.length < MERCHANT_SIGN_IN.password.minLength)
      errors.password = 'offers.signIn.merchantPasswordShort';
  }
  return errors;
}

export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [mode, setMode] = useState<Mode>('merchant');
  const [values, setValues] = useState<Values>({ username: '', email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [failure, setFailure] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const errors = signInErrors(mode, values);
  const invalid = Object.keys(errors).length > 0;

  const field = (name: keyof Values) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
    onBlur: () => setTouched({ ...touched, [name]: true }),
    error: Boolean(touched[name] && errors[name]),
    helperText: touched[name] && errors[name] ? translate(errors[name] as string) : ' ',
    fullWidth: true,
    margin: 'dense' as const,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(undefined);
    const params: SignIn =
      mode === 'admin'
        ? { mode, username: values.username.trim(), email: values.email.trim(), password: values.password }
        : { mode, userName: values.username.trim(), password: values.password };
    try {
      await login(params);
      if (mode === 'merchant') notify('offers.signIn.merchantSucceeded', { type: 'success' });
    } catch (error) {
      // A translation key for a refused sign-in; the API's own words when it throttles.
      setFailure((error as Error).message);
      if (mode === 'merchant') notify('offers.signIn.merchantFailedAlert', { type: 'error' });
      setSubmitting(false);
    }
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}
    >
      <RememberLocale />
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography component="h1" variant="h5">
              {translate('offers.signIn.title')}
            </Typography>
            <LocalesMenuButton />
          </Box>
          <Tabs
            value={mode}
            onChange={(_, next: Mode) => {
              setMode(next);
              setTouched({});
              setFailure(undefined);
            }}
            aria-label={translate('offers.signIn.title')}
            sx={{ mb: 1 }}
          >
            <Tab value="merchant" label={translate('offers.signIn.merchant')} />
            <Tab value="admin" label={translate('offers.signIn.admin')} />
          </Tabs>
          <form onSubmit={submit} noValidate>
            <TextField
              // Merchants may give their email or mobile number instead of the username.
              label={translate(
                mode === 'merchant' ? 'offers.signIn.merchantLogin' : 'offers.signIn.username',
              )}
              autoComplete="username"
              {...field('username')}
            />
            {mode === 'admin' && (
              <TextField
                label={translate('offers.signIn.email')}
                type="email"
                autoComplete="email"
                {...field('email')}
              />
            )}
            <TextField
              label={translate('offers.signIn.password')}
              type="password"
              autoComplete="current-password"
              {...field('password')}
            />
            {failure && (
              <Typography role="alert" color="error" sx={{ my: 1 }}>
                {translate(failure, { _: failure })}
              </Typography>
            )}
            <Button
              type="submit"
              variant="contained"
              fullWidth
              disabled={invalid || submitting}
              sx={{ mt: 1 }}
            >
              {translate('offers.signIn.submit')}
            </Button>
          </form>
          {mode === 'merchant' && (
            <>
              <Typography sx={{ mt: 2 }}>
                <Link component={RouterLink} to="/forgot-password">
                  {translate('offers.password.forgotLink')}
                </Link>
              </Typography>
              <Typography sx={{ mt: 1 }}>
                <Link component={RouterLink} to="/register">
                  {translate('offers.signIn.register')}
                </Link>
              </Typography>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
