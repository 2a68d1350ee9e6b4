import {
  type RaRecord,
  type RedirectionSideEffect,
  useNotify,
  useRedirect,
  useResourceContext,
} from 'react-admin';

/** What the back-office's forms save, and the field that names each one in its notice. */
const NAMED_BY = {
  coupon: 'title',
  product: 'productName',
  category: 'categoryName',
  slot: 'name',
  campaign: 'subject',
  store: 'storeName',
  profile: 'merchantName',
} as const;

export type SavedThing = keyof typeof NAMED_BY;

/**
 * Says what was just saved, by name ('Coupon "Diwali 20% off" saved.'), in the chosen language:
 * each kind has its own text (`offers.saved.*`) so Hindi and Telugu can agree in gender.
 */
export function useSavedNotice() {
  const notify = useNotify();
  return (thing: SavedThing, record?: Record<string, unknown>) =>
    notify(`offers.saved.${thing}`, {
      type: 'success',
      messageArgs: { name: String(record?.[NAMED_BY[thing]] ?? '') },
    });
}

/**
 * `mutationOptions` for a Create or an Edit: the notice naming the record instead of react-admin's
 * generic 'Element created', then the redirect the view would have made (the list by default).
 */
export function useSaveOptions(thing: SavedThing, redirectTo: RedirectionSideEffect = 'list') {
  const savedNotice = useSavedNotice();
  const redirect = useRedirect();
  const resource = useResourceContext();
  return {
    onSuccess: (record: RaRecord, variables: { data?: Partial<RaRecord> } = {}) => {
      // A create answered with only the id still has its name in what was sent.
      savedNotice(thing, { ...variables.data, ...record });
      redirect(redirectTo, resource, record.id, record);
    },
  };
}
