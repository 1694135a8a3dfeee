// The reference bundle of `npm run bench:lambda`: a bare Apollo server behind
// @as-integrations/aws-lambda with a DynamoDB document client, nothing of ours. The API bundle is
// measured as a ratio to this one (size and module init), built by the same esbuild options.
import { ApolloServer } from '@apollo/server';
import { handlers, startServerAndCreateLambdaHandler } from '@as-integrations/aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// Exported so that the bundle keeps the document client (commands are sent from functions/store
// only, test/architecture: this bundle sends none).
export const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const server = new ApolloServer({
  typeDefs: 'type Query { hello: String }',
  resolvers: { Query: { hello: () => 'hello' } },
});

export const handler = startServerAndCreateLambdaHandler(server, handlers.createAPIGatewayProxyEventV2RequestHandler());
