import { Module } from '@nestjs/common';

import { AssignmentService } from './assignment.service';
import { ChatOwnerService } from './chat-owner.service';
import { RulesetsController } from './rulesets.controller';
import { RulesetsService } from './rulesets.service';

/** Queues and assignment of chats to agents, the tenant's ruleset, chat owners and statuses. */
@Module({
  controllers: [RulesetsController],
  providers: [AssignmentService, ChatOwnerService, RulesetsService],
  exports: [AssignmentService, ChatOwnerService],
})
export class AssignmentModule {}
