import PaidIcon from '@mui/icons-material/Paid';
import PlayIcon from '@mui/icons-material/PlayCircleOutline';
import { Button as MuiButton, Stack, Typography } from '@mui/material';
import { PAYOUT_RULES } from '@offers/api/rules';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import { ReasonDialog, type ReasonTexts } from '../common/ReasonDialog';
import type { OffersDataProvider } from '../providers/dataProvider';
import { BankReferenceDialog } from './PayoutDialogs';
import { payoutSummary } from './payoutText';

type Dialog = 'process' | 'pay' | 'fail';

/** Why a payout failed: required, as the shopper reads it, and no longer than the server takes. */
const FAILURE_TEXTS: ReasonTexts = {
  label: 'offers.payouts.reason',
  help: 'offers.payouts.reasonHelp',
  required: 'offers.payouts.reasonRequired',
  confirm: 'offers.payouts.markFailed',
};
const FAILURE_LIMIT = { maxLength: PAYOUT_RULES.reasonMaxLength, message: 'offers.payouts.reasonTooLong' };

/**
 * One of a payout's next steps; its accessible name names the payout, so a screen reader's list
 * of buttons tells the rows apart. While a step runs every button reads 'Working…'.
 */
function StepButton({
  text,
  summary,
  working,
  danger = false,
  onClick,
}: {
  /** The step's translation key. */
  text: string;
  summary: string;
  working: boolean;
  danger?: boolean;
  onClick: () => void;
}) {
  const translate = useTranslate();
  return (
    <MuiButton
      size="small"
      variant={danger ? 'outlined' : 'contained'}
      color={danger ? 'error' : 'primary'}
      disabled={working}
      onClick={onClick}
      aria-label={`${translate(text)} ${summary}`}
    >
      {translate(working ? 'offers.payouts.working' : text)}
    </MuiButton>
  );
}

/**
 * One payout's next steps: start processing (requested), mark paid (processing, with the bank
 * reference), mark failed (either, with a reason). A paid or failed payout shows its outcome.
 */
export const PayoutActions = (_props: { label?: string }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const [dialog, setDialog] = useState<Dialog>();
  const [processing, setProcessing] = useState(false);
  if (!record) return null;
  if (record.state === 'paid')
    return (
      <Typography variant="body2">
        {translate('offers.payouts.reference', { reference: record.bankReference })}
      </Typography>
    );
  if (record.state === 'failed') return <Typography variant="body2">{record.failureReason}</Typography>;

  const summary = payoutSummary(record, translate);
  const run = async (action: () => Promise<unknown>, done: string) => {
    setDialog(undefined);
    setProcessing(true);
    try {
      await action();
      notify(done, { type: 'success' });
      refresh();
    } catch (error) {
      notify(`${translate('offers.payouts.actionFailed')}${(error as Error)?.message ?? ''}`, {
        type: 'error',
      });
    } finally {
      setProcessing(false);
    }
  };

  return (
    // A click on a button is not a click on its row.
    <Stack spacing={1} onClick={(event) => event.stopPropagation()}>
      {record.state === 'requested' ? (
        <StepButton
          text="offers.payouts.process"
          summary={summary}
          working={processing}
          onClick={() => setDialog('process')}
        />
      ) : (
        <StepButton
          text="offers.payouts.markPaid"
          summary={summary}
          working={processing}
          onClick={() => setDialog('pay')}
        />
      )}
      <StepButton
        text="offers.payouts.markFailed"
        summary={summary}
        working={processing}
        danger
        onClick={() => setDialog('fail')}
      />
      <Confirm
        isOpen={dialog === 'process'}
        title={translate('offers.payouts.processTitle', { id: record.id })}
        content={translate('offers.payouts.processConfirm', {
          payout: payoutSummary(record, translate, { full: true }),
        })}
        confirm="offers.payouts.process"
        onConfirm={() => run(() => dataProvider.processPayout(record.id), 'offers.payouts.processed')}
        onClose={() => setDialog(undefined)}
      />
      <BankReferenceDialog
        open={dialog === 'pay'}
        title={translate('offers.payouts.payTitle', { id: record.id })}
        payouts={[record]}
        onCancel={() => setDialog(undefined)}
        onConfirm={([paid]) =>
          run(() => dataProvider.payPayout(record.id, paid!.bankReference), 'offers.payouts.paid')
        }
      />
      <ReasonDialog
        open={dialog === 'fail'}
        title={translate('offers.payouts.failTitle', { id: record.id })}
        texts={FAILURE_TEXTS}
        tooLong={FAILURE_LIMIT}
        onCancel={() => setDialog(undefined)}
        onConfirm={({ reason }) =>
          run(() => dataProvider.failPayout(record.id, reason), 'offers.payouts.failed')
        }
      />
    </Stack>
  );
};

/** The chosen payouts, the list's selection as records. */
function useChosen() {
  const { selectedIds, data = [], resource } = useListContext();
  return { chosen: data.filter((record) => selectedIds.includes(record.id)), resource };
}

/** The outcome of a bulk action: how many succeeded and the first failure; the list refreshes. */
function useBulkOutcome(resource: string) {
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const translate = useTranslate();
  return (succeeded: number, done: string, failure?: string) => {
    if (succeeded) notify(done, { type: 'success', messageArgs: { smart_count: succeeded } });
    if (failure) notify(`${translate('offers.payouts.actionFailed')}${failure}`, { type: 'error' });
    unselectAll();
    refresh();
  };
}

/** Takes the chosen requested payouts into the payment run, one by one. */
export const BulkProcessButton = () => {
  const { chosen, resource } = useChosen();
  const translate = useTranslate();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const outcome = useBulkOutcome(resource);
  const [open, setOpen] = useState(false);
  const [working, setWorking] = useState(false);
  const requested = chosen.filter((record) => record.state === 'requested');
  const start = async () => {
    setOpen(false);
    setWorking(true);
    let succeeded = 0;
    let failure: string | undefined;
    for (const record of requested) {
      try {
        await dataProvider.processPayout(record.id);
        succeeded += 1;
      } catch (error) {
        failure ??= (error as Error).message;
      }
    }
    setWorking(false);
    outcome(succeeded, 'offers.payouts.bulkProcessed', failure);
  };
  return (
    <>
      <Button
        label={working ? 'offers.payouts.working' : 'offers.payouts.process'}
        disabled={working || requested.length === 0}
        onClick={() => setOpen(true)}
      >
        <PlayIcon />
      </Button>
      <Confirm
        isOpen={open}
        title={translate('offers.payouts.process')}
        content={translate('offers.payouts.bulkProcessConfirm', { smart_count: requested.length })}
        confirm="offers.payouts.process"
        onConfirm={start}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

/** Marks the chosen payouts in processing paid at once, each with its transfer's reference. */
export const BulkMarkPaidButton = () => {
  const { chosen, resource } = useChosen();
  const translate = useTranslate();
  const dataProvider = useDataProvider<OffersDataProvider>();
  const outcome = useBulkOutcome(resource);
  const [open, setOpen] = useState(false);
  const [working, setWorking] = useState(false);
  const payable = chosen.filter((record) => record.state === 'processing');
  const pay = async (references: Array<{ id: number; bankReference: string }>) => {
    setOpen(false);
    setWorking(true);
    try {
      await dataProvider.payPayouts(references);
      outcome(references.length, 'offers.payouts.bulkPaid');
    } catch (error) {
      outcome(0, 'offers.payouts.bulkPaid', (error as Error).message);
    } finally {
      setWorking(false);
    }
  };
  return (
    <>
      <Button
        label={working ? 'offers.payouts.working' : 'offers.payouts.markPaid'}
        disabled={working || payable.length === 0}
        onClick={() => setOpen(true)}
      >
        <PaidIcon />
      </Button>
      <BankReferenceDialog
        open={open}
        title={translate('offers.payouts.bulkPayTitle', { smart_count: payable.length })}
        payouts={payable}
        skipped={chosen.length - payable.length}
        onCancel={() => setOpen(false)}
        onConfirm={pay}
      />
    </>
  );
};
