/** The mail consumer, senders, templates, campaign batches and store alerts. */
export { CampaignFanOut } from '../mail/campaign-batches.js';
export { EarningUpdates, EarningUpdatesConsumer } from '../mail/earning-updates.js';
export { MailConsumer } from '../mail/mail-consumer.js';
export { STORE_ALERT_BATCH, StoreAlerts, StoreAlertsConsumer } from '../mail/store-alerts.js';
export { renderMail } from '../mail/templates.js';
