// The reference bundle of `npm run bench:lambda`: a bare Apollo server behind
// @as-integrations/aws-lambda with a DynamoDB document client, nothing of ours. The API bundle is
// measured as a ratio to this one (size and module init), built by the same esbuild options.
import { ApolloServer } from '@apollo/server';
import { handlers, startServerAndCreateLambdaHandler } from '@as-integrations/aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const server = new ApolloServer({
  typeDefs: 'type Query { hello(id: ID!): String }',
  resolvers: { Query: { hello: async (_: unknown, { id }: { id: string }) => (await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { id } }))).Item?.hello as string } },
});

export const handler = startServerAndCreateLambdaHandler(server, handlers.createAPIGatewayProxyEventV2RequestHandler());
