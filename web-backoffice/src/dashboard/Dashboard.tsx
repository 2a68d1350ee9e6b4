import { Box, Card, CardActions, CardContent, Link as MuiLink, Typography } from '@mui/material';
import { lazy, Suspense } from 'react';
import { Title, useGetIdentity, useGetList, usePermissions, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/** The charts and their library arrive only with a signed-in dashboard, never on the sign-in page. */
const Analytics = lazy(() => import('./Analytics'));

const Charts = ({ audience }: { audience: 'merchant' | 'admin' }) => {
  const translate = useTranslate();
  return (
    <Suspense fallback={<Typography sx={{ mt: 3 }}>{translate('offers.analytics.loading')}</Typography>}>
      <Analytics audience={audience} />
    </Suspense>
  );
};

/** A count read from a list endpoint's Content-Range total (one row fetched). */
const CountCard = ({
  label,
  resource,
  filter,
  to,
}: {
  label: string;
  resource: string;
  filter?: Record<string, unknown>;
  to: string;
}) => {
  const translate = useTranslate();
  const { total, isPending, error } = useGetList(resource, {
    pagination: { page: 1, perPage: 1 },
    filter,
  });
  return (
    <Card sx={{ minWidth: 220, flex: '1 1 220px' }}>
      <CardContent>
        <Typography component="h2" variant="subtitle1">
          {translate(label)}
        </Typography>
        <Typography variant="h4" component="p" aria-live="polite">
          {error ? translate('offers.dashboard.notAvailable') : isPending ? '…' : total}
        </Typography>
      </CardContent>
      <CardActions>
        <MuiLink component={Link} to={to}>
          {translate('offers.dashboard.open')}: {translate(label)}
        </MuiLink>
      </CardActions>
    </Card>
  );
};

const AdminDashboard = () => {
  const translate = useTranslate();
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <CountCard
          label="offers.dashboard.pendingCoupons"
          resource="coupon-reviews"
          filter={{ status: 'pending' }}
          to="/coupon-reviews"
        />
        <CountCard
          label="offers.dashboard.liveCoupons"
          resource="coupon-reviews"
          filter={{ status: 'live' }}
          to={`/coupon-reviews?filter=${encodeURIComponent(JSON.stringify({ status: 'live' }))}`}
        />
        <CountCard
          label="offers.dashboard.pendingProducts"
          resource="product-reviews"
          filter={{ status: 'pending' }}
          to="/product-reviews"
        />
        <CountCard
          label="offers.dashboard.subscribers"
          resource="subscribers"
          filter={{ status: 'confirmed' }}
          to="/subscribers"
        />
        <CountCard
          label="offers.dashboard.messages"
          resource="contact-messages"
          filter={{ handled: false }}
          to="/contact-messages"
        />
      </Box>
      <Typography sx={{ mt: 3 }}>
        <MuiLink href="/api/admin/queues" target="_blank" rel="noopener">
          {translate('offers.dashboard.queues')}
        </MuiLink>
      </Typography>
    </>
  );
};

const MerchantDashboard = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      <CountCard label="offers.dashboard.myCoupons" resource="coupons" to="/coupons" />
      <CountCard
        label="offers.status.pending"
        resource="coupons"
        filter={{ status: 'pending' }}
        to={`/coupons?filter=${encodeURIComponent(JSON.stringify({ status: 'pending' }))}`}
      />
      <Card sx={{ minWidth: 220, flex: '1 1 220px' }}>
        <CardContent>
          <MuiLink component={Link} to="/coupons/create">
            {translate('offers.dashboard.newCoupon')}
          </MuiLink>
        </CardContent>
      </Card>
    </Box>
  );
};

export const Dashboard = () => {
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  return (
    <Box component="section" sx={{ p: 2 }}>
      <Title title="offers.menu.dashboard" />
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {translate('offers.dashboard.welcome', { name: identity?.fullName ?? '' })}
      </Typography>
      {permissions === 'admin' && (
        <>
          <AdminDashboard />
          <Charts audience="admin" />
        </>
      )}
      {permissions === 'merchant' && (
        <>
          <MerchantDashboard />
          <Charts audience="merchant" />
        </>
      )}
    </Box>
  );
};
