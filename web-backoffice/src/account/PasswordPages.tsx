import { Alert, Box, Button, Card, CardContent, Link, TextField, Typography } from '@mui/material';
import { PASSWORD_RESET, PASSWORD_RULES } from '@offers/api/rules';
import { type FormEvent, type ReactNode, useState } from 'react';
import { HttpError, LocalesMenuButton, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { RememberLocale } from '../layout/Layout';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first password rule the new password breaks (the API checks the same rules). */
export function newPasswordProblem(password: string): string | undefined {
  return PASSWORD_RULES.find((rule) => !rule.test.test(password))?.message;
}

/** What a refused request says: the API's message, or react-admin's generic one. */
const reasonOf = (error: unknown) =>
  error instanceof HttpError && error.message ? error.message : undefined;

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}
    >
      <RememberLocale />
      <Card sx={{ width: '100%', maxWidth: 480 }}>
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography component="h1" variant="h5">
              {translate(title)}
            </Typography>
            <LocalesMenuButton />
          </Box>
          {children}
          <Typography sx={{ mt: 2 }}>
            <Link component={RouterLink} to="/login">
              {translate('offers.password.backToSignIn')}
            </Link>
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}

/** A merchant asks for a reset link (`/#/forgot-password`); the answer never says whether the account exists. */
export const ForgotPasswordPage = () => {
  const translate = useTranslate();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<string>();
  const problem = !email.trim()
    ? PASSWORD_RESET.email.required
    : EMAIL.test(email.trim())
      ? undefined
      : PASSWORD_RESET.email.invalid;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setState('sending');
    setFailure(undefined);
    try {
      await httpClient(`${API_URL}/auth/password/forgot`, {
        method: 'POST',
        body: JSON.stringify({ email: email.trim(), role: 'merchant' }),
      });
      setState('sent');
    } catch (error) {
      setState('idle');
      setFailure(reasonOf(error) ?? translate('ra.notification.http_error'));
    }
  };

  return (
    <Frame title="offers.password.forgotTitle">
      {state === 'sent' ? (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {translate('offers.password.accepted')}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label={translate('offers.password.forgotTitle')}>
          <Typography sx={{ my: 1 }}>{translate('offers.password.forgotIntro')}</Typography>
          <TextField
            id="forgot-email"
            type="email"
            autoComplete="email"
            label={translate('offers.password.email')}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && Boolean(problem)}
            helperText={touched && problem ? problem : ' '}
            fullWidth
            margin="dense"
          />
          {failure && (
            <Typography role="alert" color="error" sx={{ my: 1 }}>
              {failure}
            </Typography>
          )}
          <Button type="submit" variant="contained" fullWidth disabled={state === 'sending'}>
            {translate('offers.password.send')}
          </Button>
        </form>
      )}
    </Frame>
  );
};

/** The page a merchant's reset mail links to (`/#/reset-password?token=...`). */
export const ResetPasswordPage = () => {
  const translate = useTranslate();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [state, setState] = useState<'idle' | 'saving' | 'done'>('idle');
  const [failure, setFailure] = useState<string>();
  const problem = password ? newPasswordProblem(password) : PASSWORD_RESET.password.required;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setState('saving');
    setFailure(undefined);
    try {
      await httpClient(`${API_URL}/auth/password/reset`, {
        method: 'POST',
        body: JSON.stringify({ token, password }),
      });
      setState('done');
    } catch (error) {
      setState('idle');
      setFailure(reasonOf(error) ?? translate('ra.notification.http_error'));
    }
  };

  if (!token) {
    return (
      <Frame title="offers.password.resetTitle">
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {translate('offers.password.invalid')}
        </Alert>
      </Frame>
    );
  }
  return (
    <Frame title="offers.password.resetTitle">
      {state === 'done' ? (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {translate('offers.password.done')}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label={translate('offers.password.resetTitle')}>
          <TextField
            id="reset-password"
            type="password"
            autoComplete="new-password"
            label={translate('offers.password.newPassword')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && Boolean(problem)}
            helperText={touched && problem ? problem : translate('offers.password.rules')}
            fullWidth
            margin="dense"
          />
          {failure && (
            <Typography role="alert" color="error" sx={{ my: 1 }}>
              {failure}
            </Typography>
          )}
          <Button type="submit" variant="contained" fullWidth disabled={state === 'saving'}>
            {translate('offers.password.reset')}
          </Button>
        </form>
      )}
    </Frame>
  );
};
