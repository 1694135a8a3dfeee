// @libertalia/client: the typed TypeScript SDK of the Libertalia Online API.
export * from './client.js';
export * from './generated.js';
export * from './auth.js';
export * from './watch.js';
export { verifyWebhook, WebhookVerificationError, type WebhookDelivery } from './webhooks.js';
