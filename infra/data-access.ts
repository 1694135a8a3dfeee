import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as iam from 'aws-cdk-lib/aws-iam';

/**
 * Exactly the DynamoDB actions the code calls (all from `functions/store/`): the
 * document client's Get/Put/Update/Delete/Query/BatchGet commands. No Scan, no BatchWriteItem,
 * no transactions, no streams. `test/infra/stack.test.ts` checks this list against the commands
 * the source sends.
 */
export const TABLE_ACTIONS = [
  'dynamodb:BatchGetItem',
  'dynamodb:DeleteItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
] as const;

/** On the indexes, only queries (they are keys-only projections read back with BatchGetItem). */
export const INDEX_ACTIONS = ['dynamodb:Query'] as const;

/**
 * Grants `grantee` the table actions on the table and Query on each named index (no
 * `index/*` wildcard: the names come from the store's own table definition).
 */
export function grantTableAccess(grantee: iam.IGrantable, table: dynamodb.ITable, indexNames: readonly string[]): void {
  const indexArns = indexNames.map((n) => `${table.tableArn}/index/${n}`);
  iam.Grant.addToPrincipal({ grantee, actions: [...TABLE_ACTIONS], resourceArns: [table.tableArn] });
  if (indexArns.length > 0) iam.Grant.addToPrincipal({ grantee, actions: [...INDEX_ACTIONS], resourceArns: indexArns });
}

/**
 * Only what `functions/handlers/secrets.ts` sends: GetSecretValue on this one secret (the
 * construct's grantRead adds DescribeSecret, which no code calls).
 */
export function grantSecretValue(grantee: iam.IGrantable, secret: secretsmanager.ISecret): void {
  iam.Grant.addToPrincipal({ grantee, actions: ['secretsmanager:GetSecretValue'], resourceArns: [secret.secretArn] });
}

/**
 * Only what `functions/handlers/queue.ts` sends: SendMessageBatch, whose IAM action is
 * sqs:SendMessage (grantSendMessages adds GetQueueAttributes and GetQueueUrl, which no code calls).
 */
export function grantQueueSend(grantee: iam.IGrantable, queue: sqs.IQueue): void {
  iam.Grant.addToPrincipal({ grantee, actions: ['sqs:SendMessage'], resourceArns: [queue.queueArn] });
}
