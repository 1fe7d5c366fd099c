// API Gateway writes execution logs (REST and WebSocket) only once the account, per region, names
// a CloudWatch role. That setting is account-wide, so it is retained when the stack goes away:
// another API in the account may rely on it.
import { RemovalPolicy, Validations } from "aws-cdk-lib";
import * as apigateway from "aws-cdk-lib/aws-apigateway";
import * as iam from "aws-cdk-lib/aws-iam";
import { Construct } from "constructs";

export class ApiGatewayAccountLogging extends Construct {
  readonly account: apigateway.CfnAccount;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const role = new iam.Role(this, "Role", {
      assumedBy: new iam.ServicePrincipal("apigateway.amazonaws.com"),
      managedPolicies: [
        iam.ManagedPolicy.fromAwsManagedPolicyName("service-role/AmazonAPIGatewayPushToCloudWatchLogs"),
      ],
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
      reason:
        "The AWS-maintained policy for API Gateway's account-level logging role; API Gateway names its " +
        "log groups itself (API-Gateway-Execution-Logs_<api-id>/<stage>), so no narrower resource exists.",
    });
    this.account = new apigateway.CfnAccount(this, "Account", { cloudWatchRoleArn: role.roleArn });
    this.account.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }
}
