import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { FinishedChecksModule } from '../finished-checks/finished-checks.module';
import { ActionsController } from './actions/actions.controller';
import { ActionsService } from './actions/actions.service';
import { DryRunController } from './dry-run/dry-run.controller';
import { DryRunRuleUseCase } from './dry-run/dry-run-rule.use-case';
import { RuleCacheService } from './engine/rule-cache.service';
import { RuleSetStore } from './engine/rule-set.store';
import { RulesEngineService } from './engine/rules-engine.service';
import { EnvsController } from './envs/envs.controller';
import { EnvsService } from './envs/envs.service';
import { ExecutionStore } from './executions/execution.store';
import { ExecutionsController } from './executions/executions.controller';
import { ExecutionsService } from './executions/executions.service';
import { RulesController } from './rules.controller';
import { rulesEntities } from './rules.entities';
import { RulesService } from './rules.service';
import { ActionRunContext } from './runners/action-context';
import { ActionRunnersService } from './runners/action-runners.service';
import { CreateCheckRunner } from './runners/create-check.runner';
import { EmailRunner } from './runners/email.runner';
import { HttpRequestRunner } from './runners/http-request.runner';
import { MailerProvider } from './runners/mailer';
import { SecretBoxProvider } from './secrets/secret-box.provider';
import { SigningSecretsController } from './signing/signing-secrets.controller';
import { SigningSecretsService } from './signing/signing-secrets.service';
import { VariablesController } from './variables.controller';

/**
 * The business-rules engine (spec 1, Rules engine): rules, actions, env vars, executions, the
 * webhook signing secret, and the engine that runs actions when checks finish.
 */
@Module({
  imports: [TypeOrmModule.forFeature(rulesEntities), FinishedChecksModule],
  controllers: [
    RulesController,
    ActionsController,
    EnvsController,
    ExecutionsController,
    SigningSecretsController,
    VariablesController,
    DryRunController,
  ],
  providers: [
    RulesService,
    ActionsService,
    EnvsService,
    ExecutionsService,
    ExecutionStore,
    SigningSecretsService,
    RuleCacheService,
    RuleSetStore,
    RulesEngineService,
    ActionRunContext,
    HttpRequestRunner,
    EmailRunner,
    CreateCheckRunner,
    ActionRunnersService,
    SecretBoxProvider,
    MailerProvider,
    DryRunRuleUseCase,
  ],
  exports: [RulesEngineService, ExecutionsService],
})
export class RulesModule {}
