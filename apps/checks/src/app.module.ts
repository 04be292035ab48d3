import { PlatformModule, ServiceDefinition, ServiceOptions } from '@kyc/platform';
import { DynamicModule, Module } from '@nestjs/common';

import { BatchesModule } from './batches/batches.module';
import { ChecksModule } from './checks/checks.module';
import { ChecksRuleCheckCreator } from './checks/checks-rule-check-creator';
import { ChecksConfig, loadChecksConfig } from './config/checks.config';
import { ContinuousChecksModule } from './continuous-checks/continuous-checks.module';
import { CredentialsModule } from './credentials/credentials.module';
import { CustomTypesModule } from './custom-types/custom-types.module';
import { checksEntities, checksMigrations } from './database/checks.datasource';
import { DatabaseHealthModule } from './health/health.module';
import { PdfModule } from './pdf/pdf.module';
import { RuleRequestsModule } from './rule-requests/rule-requests.module';
import { SettingsModule } from './settings/settings.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static register(config: ChecksConfig, options: ServiceOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          config,
          entities: checksEntities,
          migrations: checksMigrations,
          clock: options.clock,
        }),
        ChecksModule,
        CustomTypesModule,
        SettingsModule,
        CredentialsModule,
        DatabaseHealthModule,
        WebhooksModule,
        BatchesModule,
        ContinuousChecksModule,
        PdfModule,
        // create_check actions of the rules engine (account.check.requested).
        RuleRequestsModule.register({ imports: [ChecksModule], creator: ChecksRuleCheckCreator }),
      ],
    };
  }
}

export function checksService(env: NodeJS.ProcessEnv = process.env, options: ServiceOptions = {}): ServiceDefinition {
  const config = loadChecksConfig(env);
  return {
    config,
    module: AppModule.register(config, options),
    entities: checksEntities,
    migrations: checksMigrations,
    consumesEvents: true,
    title: 'Checks API',
    description: 'Background checks on people, vehicles and companies',
  };
}
