// Subscriptions are a WebSocket feature: an HTTP request carrying one is answered with a typed
// error that says where they are served, before anything runs (it used to fail inside execution
// as INTERNAL_SERVER_ERROR "Cannot return null for non-nullable field").
import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { ApiError } from '../errors.js';

export const SUBSCRIPTIONS_WHERE =
  'subscriptions are served over WebSocket (graphql-ws protocol) on the same /graphql path of the local server (npm start); ' +
  'the AWS deployment has no WebSocket: poll events(after) or register a webhook';

export const subscriptionsOverHttp: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation !== 'subscription') return;
        const e = new ApiError('SUBSCRIPTION_OVER_HTTP', SUBSCRIPTIONS_WHERE);
        e.extensions.http = { status: 400, headers: new HeaderMap() };
        throw e;
      },
    };
  },
};
