import { DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';

import { RuleCheckCreator } from './rule-check-creator';
import { RuleCheckRequestedConsumer } from './rule-check-requested.consumer';

export interface RuleRequestsOptions {
  /** Modules the creator needs (e.g. the checks module that exports its creation service). */
  imports?: ModuleMetadata['imports'];
  /** The RuleCheckCreator implementation. */
  creator: Type<RuleCheckCreator>;
}

/**
 * Consumes `account.check.requested` (create_check actions of the rules engine). Wire it in the
 * checks AppModule with the creator implementation, and set `consumesEvents: true` in
 * checksService() so the app connects its Kafka consumer:
 *
 *   RuleRequestsModule.register({ imports: [ChecksModule], creator: ChecksRuleCheckCreator })
 */
@Module({})
export class RuleRequestsModule {
  static register(options: RuleRequestsOptions): DynamicModule {
    return {
      module: RuleRequestsModule,
      imports: options.imports ?? [],
      controllers: [RuleCheckRequestedConsumer],
      providers: [{ provide: RuleCheckCreator, useClass: options.creator }],
    };
  }
}
