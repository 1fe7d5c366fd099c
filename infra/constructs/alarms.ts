// Where alarms go: an existing topic named in the config, or an encrypted topic created here.
// CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key, hence a customer
// key whose policy lets CloudWatch use it.
import type { RemovalPolicy } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import { Construct } from "constructs";

export interface AlarmsProps {
  readonly topicArn?: string;
  readonly removalPolicy: RemovalPolicy;
}

export class Alarms extends Construct {
  readonly topic: sns.ITopic;
  private readonly action: actions.SnsAction;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    if (props.topicArn) {
      this.topic = sns.Topic.fromTopicArn(this, "Topic", props.topicArn);
    } else {
      const key = new kms.Key(this, "TopicKey", {
        description: "Encrypts the ReWOO alarm topic",
        enableKeyRotation: true,
        removalPolicy: props.removalPolicy,
      });
      key.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal("cloudwatch.amazonaws.com")],
          actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
          resources: ["*"],
        }),
      );
      this.topic = new sns.Topic(this, "Topic", { masterKey: key, enforceSSL: true });
    }
    this.action = new actions.SnsAction(this.topic);
  }

  /** Alarm as soon as one datapoint (five minutes, the metrics' default period) reaches the threshold. */
  onAny(id: string, metric: cloudwatch.IMetric, description: string, threshold = 1): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      metric,
      alarmDescription: description,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    return alarm;
  }
}
