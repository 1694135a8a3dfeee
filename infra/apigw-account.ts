// API Gateway writes the access logs of REST and WebSocket stages with the account's (per region)
// CloudWatch role; a stage with access logging is refused ("CloudWatch Logs role ARN must be set
// in account settings") until that role is set. A fresh account or region has none, so the stack
// sets it itself (AWS::ApiGateway::Account) and every access-logged stage waits for it.
import { RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { NagSuppressions } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';

export class ApiGatewayAccountRole extends Construct {
  readonly role: iam.Role;
  readonly account: apigateway.CfnAccount;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway: writes access logs to CloudWatch Logs (the account setting of this region)',
      managedPolicies: [
        iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs'),
      ],
    });
    // The setting is the account's, not the stack's: another stack (a dev stack, another app)
    // may rely on it, and deleting an AWS::ApiGateway::Account resource leaves the setting in
    // place, so the role it names stays too.
    this.role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.account = new apigateway.CfnAccount(this, 'Account', { cloudWatchRoleArn: this.role.roleArn });
    NagSuppressions.addResourceSuppressions(this.role, [
      {
        id: 'AwsSolutions-IAM4',
        reason:
          'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for the account-wide API Gateway logging role; ' +
          'API Gateway creates the access log streams of any stage in the region with it, so no narrower resource exists.',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'],
      },
    ]);
  }

  /** Makes `stage` (a stage with access logs) wait until the account's role is set. */
  before(stage: IConstruct): void {
    const cfn = (stage.node.defaultChild ?? stage) as IConstruct;
    cfn.node.addDependency(this.account);
  }
}
