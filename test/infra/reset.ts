// Forgets every per-container cache of the Lambda handlers (app, clients, secrets, gateway,
// queue), for tests that change the environment between invocations.
import { resetForTests as resetConfig } from '../../functions/handlers/config.js';
import { resetPushGatewayForTests } from '../../functions/handlers/push-gateway.js';
import { resetQueueForTests } from '../../functions/handlers/queue.js';
import { resetSecretsForTests } from '../../functions/handlers/secrets.js';

export function resetForTests(): void {
  resetConfig();
  resetSecretsForTests();
  resetPushGatewayForTests();
  resetQueueForTests();
}
