import {
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AdminAnalytics, CouponFigures, MerchantAnalytics, ReviewQueueAge } from '@offers/api/rules';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { downloadCSV, useTranslate } from 'react-admin';
import { toCsv } from '../common/csv';
import { useIndianLocale } from '../common/locale';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';

/**
 * The dashboards' charts. Loaded on its own (React.lazy) once a signed-in dashboard shows: the
 * chart library weighs more than the rest of the sign-in page.
 */

const PERIODS = [7, 30, 90] as const;
const CHART_HEIGHT = 300;

/** Dates and rupees as the chosen language writes them, in India. */
function useFormats() {
  const tag = useIndianLocale();
  const day = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const longDay = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' });
  const rupees = new Intl.NumberFormat(tag, { style: 'currency', currency: 'INR' });
  const wholeRupees = new Intl.NumberFormat(tag, {
    style: 'currency',
    currency: 'INR',
    maximumFractionDigits: 0,
  });
  const number = new Intl.NumberFormat(tag);
  return {
    /** `YYYY-MM-DD` (India's day) as "12 Nov". */
    day: (value: string) => day.format(new Date(`${value}T00:00:00Z`)),
    longDay: (value: string) => longDay.format(new Date(`${value}T00:00:00Z`)),
    rupees: (value: string | number) => rupees.format(Number(value)),
    /** An axis's ticks: no paise. */
    wholeRupees: (value: number) => wholeRupees.format(value),
    number: (value: number) => number.format(value),
  };
}

type Counted = 'reveals' | 'clickOuts' | 'purchases' | 'signUps' | 'couponsApproved';

/** A summary's count in words, in the form its number takes: "1 reveal", "1,204 reveals". */
function useCounts() {
  const translate = useTranslate();
  const formats = useFormats();
  return (what: Counted, value: number) =>
    translate(`offers.analytics.counts.${what}`, { smart_count: value, count: formats.number(value) });
}

/** Reads an analytics endpoint again whenever its query changes. */
function useFigures<T>(path: string): { figures?: T; failed: boolean } {
  const [state, setState] = useState<{ path?: string; figures?: T; failed: boolean }>({ failed: false });
  useEffect(() => {
    let current = true;
    httpClient(`${API_URL}/${path}`).then(
      ({ json }) => current && setState({ path, figures: json as T, failed: false }),
      () => current && setState({ path, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [path]);
  return { figures: state.figures, failed: state.failed };
}

const PeriodPicker = ({ days, onChange }: { days: number; onChange: (days: number) => void }) => {
  const translate = useTranslate();
  const id = useId();
  return (
    <FormControl size="small" sx={{ minWidth: 160 }}>
      <InputLabel id={id}>{translate('offers.analytics.period')}</InputLabel>
      <Select
        labelId={id}
        label={translate('offers.analytics.period')}
        value={days}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {PERIODS.map((period) => (
          <MenuItem key={period} value={period}>
            {translate('offers.analytics.lastDays', { smart_count: period })}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
};

/**
 * A chart in a figure whose caption names it and says its totals in words, so a screen reader gets
 * the chart's gist without its drawing (the chart's own title and desc props would put a name on a
 * plain div, which ARIA does not allow).
 */
const ChartCard = ({ title, summary, children }: { title: string; summary: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card component="figure" sx={{ m: 0, flex: '1 1 420px', minWidth: 0 }}>
      <CardContent>
        <Typography component="figcaption" variant="subtitle1">
          <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
            {title}
          </Box>
          <Box component="span" sx={{ display: 'block', color: 'text.secondary', typography: 'body2' }}>
            {summary} {translate('offers.analytics.chartDescription')}
          </Box>
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

const csvName = (audience: string, from: string, to: string) => `analytics-${audience}-${from}-${to}`;

const Toolbar = ({ children }: { children: ReactNode }) => (
  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', my: 2 }}>{children}</Box>
);

type TopFigure = keyof MerchantAnalytics['topCoupons'];

const TopCoupons = ({ top }: { top: MerchantAnalytics['topCoupons'] }) => {
  const translate = useTranslate();
  const formats = useFormats();
  const [by, setBy] = useState<TopFigure>('reveals');
  const rows: CouponFigures[] = top[by];
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {translate('offers.analytics.topCoupons')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={by}
          onChange={(_event, value: TopFigure | null) => value && setBy(value)}
          aria-label={translate('offers.analytics.topBy')}
          sx={{ my: 1 }}
        >
          {(['reveals', 'clickOuts', 'purchases'] as const).map((figure) => (
            <ToggleButton key={figure} value={figure}>
              {translate(`offers.analytics.${figure}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {rows.length === 0 ? (
          <Typography color="text.secondary">{translate('offers.analytics.noFigures')}</Typography>
        ) : (
          <Table size="small" aria-label={translate('offers.analytics.topCoupons')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('offers.analytics.coupon')}</TableCell>
                <TableCell align="right">{translate('offers.analytics.reveals')}</TableCell>
                <TableCell align="right">{translate('offers.analytics.clickOuts')}</TableCell>
                <TableCell align="right">{translate('offers.analytics.purchases')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((coupon) => (
                <TableRow key={coupon.couponId}>
                  <TableCell>{coupon.title}</TableCell>
                  <TableCell align="right">{formats.number(coupon.reveals)}</TableCell>
                  <TableCell align="right">{formats.number(coupon.clickOuts)}</TableCell>
                  <TableCell align="right">{formats.number(coupon.purchases)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};

const Unavailable = () => {
  const translate = useTranslate();
  return <Typography color="text.secondary">{translate('offers.dashboard.notAvailable')}</Typography>;
};

/** The signed-in merchant's reveals, click-outs and purchases per day, of all or one coupon. */
export const MerchantAnalyticsPanel = () => {
  const translate = useTranslate();
  const formats = useFormats();
  const counts = useCounts();
  const pickerId = useId();
  const [days, setDays] = useState(30);
  const [couponId, setCouponId] = useState<number | ''>('');
  const { figures, failed } = useFigures<MerchantAnalytics>(
    `merchant/analytics?days=${days}${couponId === '' ? '' : `&couponId=${couponId}`}`,
  );
  if (failed) return <Unavailable />;
  if (!figures) return <Typography aria-live="polite">{translate('offers.analytics.loading')}</Typography>;
  const { series, totals } = figures;
  const coupon = figures.coupons.find((c) => c.id === couponId);
  const download = () =>
    downloadCSV(
      toCsv(
        series.map(({ day, reveals, clickOuts, purchases, sales }) => ({
          day,
          reveals,
          clickOuts,
          purchases,
          sales,
        })),
      ),
      csvName(couponId === '' ? 'merchant' : `coupon-${couponId}`, figures.from, figures.to),
    );
  return (
    <Box component="section" aria-labelledby={`${pickerId}-heading`} sx={{ mt: 3 }}>
      <Typography id={`${pickerId}-heading`} component="h2" variant="h6">
        {translate('offers.analytics.merchantTitle')}
      </Typography>
      <Toolbar>
        <PeriodPicker days={days} onChange={setDays} />
        <FormControl size="small" sx={{ minWidth: 240 }}>
          <InputLabel id={pickerId}>{translate('offers.analytics.coupon')}</InputLabel>
          <Select
            labelId={pickerId}
            label={translate('offers.analytics.coupon')}
            value={String(couponId)}
            onChange={(event) => setCouponId(event.target.value === '' ? '' : Number(event.target.value))}
          >
            <MenuItem value="">{translate('offers.analytics.allCoupons')}</MenuItem>
            {figures.coupons.map((option) => (
              <MenuItem key={option.id} value={String(option.id)}>
                {option.title}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Button variant="outlined" onClick={download}>
          {translate('offers.analytics.downloadCsv')}
        </Button>
      </Toolbar>
      <ChartCard
        title={translate('offers.analytics.merchantChart', {
          coupon: coupon?.title ?? translate('offers.analytics.allCoupons'),
        })}
        summary={translate('offers.analytics.merchantSummary', {
          from: formats.longDay(figures.from),
          to: formats.longDay(figures.to),
          reveals: counts('reveals', totals.reveals),
          clickOuts: counts('clickOuts', totals.clickOuts),
          purchases: counts('purchases', totals.purchases),
          sales: formats.rupees(totals.sales),
        })}
      >
        <LineChart
          height={CHART_HEIGHT}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: series.map((row) => row.day), valueFormatter: formats.day }]}
          yAxis={[{ min: 0, valueFormatter: (value: number) => formats.number(value) }]}
          series={[
            {
              id: 'reveals',
              label: translate('offers.analytics.reveals'),
              data: series.map((row) => row.reveals),
            },
            {
              id: 'clickOuts',
              label: translate('offers.analytics.clickOuts'),
              data: series.map((row) => row.clickOuts),
            },
            {
              id: 'purchases',
              label: translate('offers.analytics.purchases'),
              data: series.map((row) => row.purchases),
            },
          ]}
        />
      </ChartCard>
      <TopCoupons top={figures.topCoupons} />
    </Box>
  );
};

const QueueAges = ({ queues }: { queues: ReviewQueueAge[] }) => {
  const translate = useTranslate();
  const formats = useFormats();
  const waitedDays = (since: string) => Math.floor((Date.now() - Date.parse(since)) / 86_400_000);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 2 }}>
      {queues.map(({ queue, waiting, oldestSince }) => (
        <Card key={queue} sx={{ minWidth: 220, flex: '1 1 220px' }}>
          <CardContent>
            <Typography component="h3" variant="subtitle1">
              {translate(`offers.analytics.queues.${queue}`)}
            </Typography>
            <Typography variant="h5" component="p">
              {oldestSince === null
                ? translate('offers.analytics.queueEmpty')
                : waitedDays(oldestSince) === 0
                  ? translate('offers.analytics.oldestToday')
                  : translate('offers.analytics.oldestWaits', { smart_count: waitedDays(oldestSince) })}
            </Typography>
            <Typography color="text.secondary">
              {translate('offers.analytics.waiting', {
                smart_count: waiting,
                count: formats.number(waiting),
              })}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
};

/** The marketplace's sign-ups, approvals, reveals and cashback per day, and the review queues' age. */
export const AdminAnalyticsPanel = () => {
  const translate = useTranslate();
  const formats = useFormats();
  const counts = useCounts();
  const headingId = useId();
  const [days, setDays] = useState(30);
  const { figures, failed } = useFigures<AdminAnalytics>(`admin/analytics?days=${days}`);
  if (failed) return <Unavailable />;
  if (!figures) return <Typography aria-live="polite">{translate('offers.analytics.loading')}</Typography>;
  const { series, totals } = figures;
  const xAxis = [
    { scaleType: 'band' as const, data: series.map((row) => row.day), valueFormatter: formats.day },
  ];
  const download = () =>
    downloadCSV(
      toCsv(
        series.map(({ day, signUps, couponsApproved, reveals, cashbackConfirmed, cashbackPaid }) => ({
          day,
          signUps,
          couponsApproved,
          reveals,
          cashbackConfirmed,
          cashbackPaid,
        })),
      ),
      csvName('marketplace', figures.from, figures.to),
    );
  const period = { from: formats.longDay(figures.from), to: formats.longDay(figures.to) };
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} component="h2" variant="h6">
        {translate('offers.analytics.adminTitle')}
      </Typography>
      <QueueAges queues={figures.queues} />
      <Toolbar>
        <PeriodPicker days={days} onChange={setDays} />
        <Button variant="outlined" onClick={download}>
          {translate('offers.analytics.downloadCsv')}
        </Button>
      </Toolbar>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <ChartCard
          title={translate('offers.analytics.activityChart')}
          summary={translate('offers.analytics.activitySummary', {
            ...period,
            signUps: counts('signUps', totals.signUps),
            couponsApproved: counts('couponsApproved', totals.couponsApproved),
            reveals: counts('reveals', totals.reveals),
          })}
        >
          <LineChart
            height={CHART_HEIGHT}
            skipAnimation
            xAxis={[{ ...xAxis[0], scaleType: 'point' }]}
            yAxis={[{ min: 0, valueFormatter: (value: number) => formats.number(value) }]}
            series={[
              {
                id: 'signUps',
                label: translate('offers.analytics.signUps'),
                data: series.map((row) => row.signUps),
              },
              {
                id: 'couponsApproved',
                label: translate('offers.analytics.couponsApproved'),
                data: series.map((row) => row.couponsApproved),
              },
              {
                id: 'reveals',
                label: translate('offers.analytics.reveals'),
                data: series.map((row) => row.reveals),
              },
            ]}
          />
        </ChartCard>
        <ChartCard
          title={translate('offers.analytics.cashbackChart')}
          summary={translate('offers.analytics.cashbackSummary', {
            ...period,
            confirmed: formats.rupees(totals.cashbackConfirmed),
            paid: formats.rupees(totals.cashbackPaid),
          })}
        >
          <BarChart
            height={CHART_HEIGHT}
            skipAnimation
            xAxis={xAxis}
            yAxis={[{ min: 0, width: 72, valueFormatter: (value: number) => formats.wholeRupees(value) }]}
            series={[
              {
                id: 'cashbackConfirmed',
                label: translate('offers.analytics.cashbackConfirmed'),
                data: series.map((row) => Number(row.cashbackConfirmed)),
                valueFormatter: (value: number | null) => formats.rupees(value ?? 0),
              },
              {
                id: 'cashbackPaid',
                label: translate('offers.analytics.cashbackPaid'),
                data: series.map((row) => Number(row.cashbackPaid)),
                valueFormatter: (value: number | null) => formats.rupees(value ?? 0),
              },
            ]}
          />
        </ChartCard>
      </Box>
    </Box>
  );
};

/** One default export for React.lazy: the panel of the signed-in role. */
const Analytics = ({ audience }: { audience: 'merchant' | 'admin' }) =>
  audience === 'admin' ? <AdminAnalyticsPanel /> : <MerchantAnalyticsPanel />;

export default Analytics;
