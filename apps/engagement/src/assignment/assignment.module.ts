import { Module } from '@nestjs/common';

import { AgentStore } from '../agents/agent.store';
import { AssignmentService } from './assignment.service';
import { ChatOwnerService } from './chat-owner.service';
import { RulesetsController } from './rulesets.controller';
import { RulesetsService } from './rulesets.service';

/** Queues and assignment of chats to agents, the tenant's ruleset, chat owners and statuses. */
@Module({
  controllers: [RulesetsController],
  providers: [AgentStore, AssignmentService, ChatOwnerService, RulesetsService],
  exports: [AssignmentService, ChatOwnerService],
})
export class AssignmentModule {}
