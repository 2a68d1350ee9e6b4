import {
  Box,
  Button,
  Card,
  CardContent,
  ListItem,
  ListItemText,
  List as SessionList,
  TextField,
  Typography,
} from '@mui/material';
import type { SessionSummary } from '@offers/api/contracts';
import { PASSWORD_CHANGE } from '@offers/api/rules';
import { type FormEvent, useEffect, useState } from 'react';
import { HttpError, Loading, Title, useLogout, useNotify, useTranslate } from 'react-admin';
import { useIndianLocale } from '../common/locale';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import { newPasswordProblem } from './PasswordPages';

/** The merchant's password and sessions: change the password, see where it is signed in, sign out everywhere. */
export const SecurityPage = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="offers.password.securityTitle" />
      <Typography component="h1" variant="h5" gutterBottom>
        {translate('offers.password.securityTitle')}
      </Typography>
      <ChangePassword />
      <Sessions />
    </Box>
  );
};

function ChangePassword() {
  const translate = useTranslate();
  const notify = useNotify();
  const [values, setValues] = useState({ currentPassword: '', newPassword: '' });
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const problems: Record<string, string | undefined> = {
    currentPassword: values.currentPassword ? undefined : PASSWORD_CHANGE.currentPassword.required,
    newPassword: values.newPassword
      ? newPasswordProblem(values.newPassword)
      : PASSWORD_CHANGE.newPassword.required,
  };
  const shown = (name: 'currentPassword' | 'newPassword') =>
    serverErrors[name] ?? (touched ? problems[name] : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problems.currentPassword || problems.newPassword) return;
    setSaving(true);
    try {
      await httpClient(`${API_URL}/merchant/password`, { method: 'PUT', body: JSON.stringify(values) });
      setValues({ currentPassword: '', newPassword: '' });
      setTouched(false);
      notify('offers.password.changed', { type: 'success' });
    } catch (error) {
      const errors =
        error instanceof HttpError ? (error.body as { errors?: Record<string, string> })?.errors : undefined;
      setServerErrors(errors ?? {});
      notify(error instanceof HttpError ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const field = (name: 'currentPassword' | 'newPassword', autoComplete: string) => ({
    id: `security-${name}`,
    type: 'password',
    autoComplete,
    label: translate(`offers.password.${name}`),
    value: values[name],
    onChange: (event: { target: { value: string } }) => {
      setValues({ ...values, [name]: event.target.value });
      setServerErrors({ ...serverErrors, [name]: undefined as unknown as string });
    },
    error: Boolean(shown(name)),
    helperText: shown(name) ?? (name === 'newPassword' ? translate('offers.password.rules') : ' '),
    fullWidth: true,
    margin: 'dense' as const,
  });

  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Typography component="h2" variant="h6">
          {translate('offers.password.change')}
        </Typography>
        <form onSubmit={submit} noValidate aria-label={translate('offers.password.change')}>
          <TextField {...field('currentPassword', 'current-password')} />
          <TextField {...field('newPassword', 'new-password')} />
          <Button type="submit" variant="contained" disabled={saving}>
            {translate('offers.password.change')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function Sessions() {
  const translate = useTranslate();
  const logout = useLogout();
  const locale = useIndianLocale();
  const [sessions, setSessions] = useState<SessionSummary[]>();

  useEffect(() => {
    httpClient(`${API_URL}/merchant/sessions`).then(({ json }) => setSessions(json));
  }, []);

  const signOutEverywhere = async () => {
    await httpClient(`${API_URL}/merchant/sessions`, { method: 'DELETE' }).catch(() => undefined);
    await logout();
  };

  if (!sessions) return <Loading />;
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card>
      <CardContent>
        <Typography component="h2" variant="h6">
          {translate('offers.password.sessions')}
        </Typography>
        <SessionList dense>
          {sessions.map((session) => (
            <ListItem key={session.id}>
              <ListItemText
                primary={`${
                  session.apiClient
                    ? translate('offers.password.apiClient')
                    : (session.userAgent ?? translate('offers.password.unknownBrowser'))
                }${session.current ? ` (${translate('offers.password.thisDevice')})` : ''}`}
                secondary={translate('offers.password.lastUsed', {
                  date: when.format(new Date(session.lastUsedAt)),
                })}
              />
            </ListItem>
          ))}
        </SessionList>
        <Button variant="outlined" color="error" onClick={signOutEverywhere}>
          {translate('offers.password.signOutEverywhere')}
        </Button>
      </CardContent>
    </Card>
  );
}
