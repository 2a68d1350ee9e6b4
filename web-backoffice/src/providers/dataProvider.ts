import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, Identifier } from 'react-admin';
import { httpClient } from './httpClient';
import { hasFile, sendForm, toFormData } from './uploads';

export const API_URL = '/api';

/** Back-office resource names and the API paths behind them. */
export const RESOURCE_PATHS: Record<string, string> = {
  'coupon-reviews': 'admin/coupons',
  'product-reviews': 'admin/products',
  products: 'merchant/products',
  'simple-products': 'merchant/products/simple',
  'merchant-categories': 'merchant/categories',
  slots: 'admin/slots',
  heroes: 'admin/heroes',
  banners: 'admin/banners',
  'seasonal-offers': 'admin/seasonal-offers',
  'flash-texts': 'admin/flash-texts',
  'best-offer-banners': 'admin/best-offer-banners',
  coupons: 'merchant/coupons',
  'merchant-slots': 'merchant/slots',
  categories: 'categories',
  subscribers: 'admin/subscribers',
  campaigns: 'admin/campaigns',
  'contact-messages': 'admin/contact-messages',
  'dev-mailbox': 'admin/dev-mailbox',
  payouts: 'admin/payouts',
  'feed-sources': 'admin/feed-sources',
  'feed-runs': 'admin/feed-runs',
  'feed-advertisers': 'admin/feed-advertisers',
  'feed-categories': 'admin/feed-categories',
  stores: 'admin/stores',
  'cashback-rates': 'admin/cashback-rates',
  'cashback-changes': 'admin/cashback-changes',
  'coupon-cashback-rates': 'admin/coupon-cashback-rates',
  'cashback-proposals': 'admin/cashback-proposals',
  'missing-cashback-claims': 'admin/missing-cashback-claims',
  grievances: 'admin/grievances',
  'data-requests': 'admin/data-requests',
};

const pathOf = (resource: string) => RESOURCE_PATHS[resource] ?? resource;

const rest = simpleRestProvider(API_URL, httpClient);

/** Review actions the REST verbs do not cover. */
export interface OffersDataProvider extends DataProvider {
  approveCoupon(id: Identifier, slotId?: Identifier): Promise<{ data: Record<string, unknown> }>;
  rejectCoupon(id: Identifier, reason: string): Promise<{ data: Record<string, unknown> }>;
  sendCampaign(id: Identifier): Promise<{ data: Record<string, unknown> }>;
  approveProduct(id: Identifier): Promise<{ data: Record<string, unknown> }>;
  rejectProduct(
    id: Identifier,
    reason: string,
    advisedChanges: string,
  ): Promise<{ data: Record<string, unknown> }>;
  processPayout(id: Identifier): Promise<{ data: Record<string, unknown> }>;
  payPayout(id: Identifier, bankReference: string): Promise<{ data: Record<string, unknown> }>;
  failPayout(id: Identifier, reason: string): Promise<{ data: Record<string, unknown> }>;
  /** A payment run's payouts marked paid at once, each with its transfer's reference; all or none. */
  payPayouts(
    payouts: Array<{ id: number; bankReference: string }>,
  ): Promise<{ data: Record<string, unknown> }>;
  /** Runs a feed source now: its address is fetched, or the file given is imported. */
  requestFeedRun(id: Identifier, file?: File): Promise<{ data: Record<string, unknown> }>;
  decideFeedRun(id: Identifier, decision: 'accept' | 'discard'): Promise<{ data: Record<string, unknown> }>;
  /** A new postback secret for a feed source: its network's address changes with it. */
  rotateFeedPostbackSecret(id: Identifier): Promise<{ data: Record<string, unknown> }>;
  /** Creates a store without an account for a network's advertiser and maps the advertiser to it. */
  createAdvertiserStore(
    id: Identifier,
    store: { name: string; siteUrl: string; logo?: File },
  ): Promise<{ data: Record<string, unknown> }>;
  /** A registered merchant takes over a store without an account. */
  claimStore(storeId: Identifier, merchantId: Identifier): Promise<{ data: Record<string, unknown> }>;
  /** Accepts a feed's proposed cashback rate (it becomes the store's base rate) or dismisses it. */
  decideCashbackProposal(
    id: Identifier,
    decision: 'accept' | 'dismiss',
  ): Promise<{ data: Record<string, unknown> }>;
  /** A missing-cashback claim approved (pending cashback) or a held purchase credited. */
  approveClaim(id: Identifier): Promise<{ data: Record<string, unknown> }>;
  /** Rejected with the reason the shopper reads (a held purchase is cancelled). */
  rejectClaim(id: Identifier, reason: string): Promise<{ data: Record<string, unknown> }>;
  /** A grievance answered: the answer is mailed to the person in their language. */
  answerGrievance(id: Identifier, answer: string): Promise<{ data: Record<string, unknown> }>;
}

async function post(path: string, body: unknown) {
  const { json } = await httpClient(`${API_URL}/${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { data: json };
}

export const dataProvider: OffersDataProvider = {
  getList: (resource, params) => rest.getList(pathOf(resource), params),
  getOne: (resource, params) => rest.getOne(pathOf(resource), params),
  getMany: (resource, params) => rest.getMany(pathOf(resource), params),
  getManyReference: (resource, params) => rest.getManyReference(pathOf(resource), params),
  updateMany: (resource, params) => rest.updateMany(pathOf(resource), params),
  delete: (resource, params) => rest.delete(pathOf(resource), params),
  deleteMany: (resource, params) => rest.deleteMany(pathOf(resource), params),
  async create(resource, params) {
    if (!hasFile(params.data)) return rest.create(pathOf(resource), params);
    const { json } = await sendForm('POST', `${API_URL}/${pathOf(resource)}`, toFormData(params.data));
    return { data: json } as never;
  },
  async update(resource, params) {
    if (!hasFile(params.data)) return rest.update(pathOf(resource), params);
    const url = `${API_URL}/${pathOf(resource)}/${encodeURIComponent(String(params.id))}`;
    const { json } = await sendForm('PUT', url, toFormData(params.data));
    return { data: json } as never;
  },
  approveCoupon: (id, slotId) =>
    post(`admin/coupons/${id}/approve`, slotId === undefined ? {} : { slotId: Number(slotId) }),
  rejectCoupon: (id, reason) => post(`admin/coupons/${id}/reject`, { reason }),
  sendCampaign: (id) => post(`admin/campaigns/${id}/send`, {}),
  approveProduct: (id) => post(`admin/products/${id}/approve`, {}),
  rejectProduct: (id, reason, advisedChanges) =>
    post(`admin/products/${id}/reject`, { reason, advisedChanges }),
  processPayout: (id) => post(`admin/payouts/${id}/process`, {}),
  payPayout: (id, bankReference) => post(`admin/payouts/${id}/pay`, { bankReference }),
  failPayout: (id, reason) => post(`admin/payouts/${id}/fail`, { reason }),
  payPayouts: (payouts) => post('admin/payouts/pay', { payouts }),
  async requestFeedRun(id, file) {
    const path = `admin/feed-sources/${encodeURIComponent(String(id))}/runs`;
    if (!file) return post(path, {});
    const form = new FormData();
    form.append('file', file, file.name);
    const { json } = await sendForm('POST', `${API_URL}/${path}`, form);
    return { data: json as Record<string, unknown> };
  },
  approveClaim: (id) => post(`admin/missing-cashback-claims/${encodeURIComponent(String(id))}/approve`, {}),
  rejectClaim: (id, reason) =>
    post(`admin/missing-cashback-claims/${encodeURIComponent(String(id))}/reject`, { reason }),
  decideCashbackProposal: (id, decision) =>
    post(`admin/cashback-proposals/${encodeURIComponent(String(id))}/${decision}`, {}),
  decideFeedRun: (id, decision) => post(`admin/feed-runs/${encodeURIComponent(String(id))}/${decision}`, {}),
  rotateFeedPostbackSecret: (id) =>
    post(`admin/feed-sources/${encodeURIComponent(String(id))}/postback-secret/rotate`, {}),
  async createAdvertiserStore(id, { name, siteUrl, logo }) {
    const form = new FormData();
    form.append('name', name);
    form.append('siteUrl', siteUrl);
    if (logo) form.append('logo', logo, logo.name);
    const path = `admin/feed-advertisers/${encodeURIComponent(String(id))}/store`;
    const { json } = await sendForm('POST', `${API_URL}/${path}`, form);
    return { data: json as Record<string, unknown> };
  },
  answerGrievance: (id, answer) =>
    post(`admin/grievances/${encodeURIComponent(String(id))}/answer`, { answer }),
  claimStore: (storeId, merchantId) =>
    post(`admin/stores/${encodeURIComponent(String(storeId))}/claim`, { merchantId: Number(merchantId) }),
};
